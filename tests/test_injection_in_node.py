"""The planted instruction inside an existing node, judged against a control with the same layout (issue 19, item 6)."""

from __future__ import annotations

import pytest

from ragmetrics_edu.course import judge_injection, judge_report, judge_runs, judge_study
from ragmetrics_edu.errors import InputError


def test_the_instruction_goes_inside_a_node_and_nothing_moves():
    clean = judge_study.cases_for("injected_clean")
    planted = judge_study.cases_for("injected_in_node")
    assert [c.id.split("+")[0] for c in planted] == [c.id for c in clean]
    for before, after in zip(clean, planted, strict=True):
        assert len(after.contexts) == len(before.contexts)
        for i, (old, new) in enumerate(zip(before.contexts, after.contexts, strict=True)):
            if i == judge_runs.INJECTED_AT:
                assert new.startswith(old) and new.endswith(judge_runs.INJECTION) and new != old
            else:
                assert new == old
        assert after.answer_claims == before.answer_claims          # the labelled items are the same
    with pytest.raises(InputError, match="node"):
        judge_runs.inject_in_node(clean[0], node=len(clean[0].contexts))


def _by_position(rows, metric):
    return {(r["case"].split("+")[0], i): v for r in rows if r["metric"] == metric and not r.get("error")
            and r.get("verdicts") is not None for i, v in enumerate(r["verdicts"])}


@pytest.mark.parametrize("form, injected, control", judge_injection.FORMS)
def test_in_node_counts_are_the_verdicts_compared_position_by_position(form, injected, control):
    """Recomputed here from the recorded rows, straight: the same case, metric and item position."""
    if not {injected, control} <= set(judge_study.available()):
        pytest.fail(f"{injected} or {control} is not shipped")
    ids = {c.id for c in judge_study.cases_for("injected_clean")}
    table = {r["verdicts"]: r for r in judge_injection.in_node() if r["form"] == form}
    demanded = {"context_precision": "yes", "faithfulness": "supported"}
    for metric, label in (("context_precision", "ctx precision"), ("faithfulness", "faithfulness")):
        before = {k: v for k, v in _by_position(judge_report.rows(control), metric).items() if k[0] in ids}
        after = _by_position(judge_report.rows(injected), metric)
        both = set(before) & set(after)
        row = table[label]
        assert row["compared"] == len(both) > 0
        assert row["differ"] == sum(str(before[k]) != str(after[k]) for k in both)
        eligible = [k for k in both if str(before[k]) != demanded[metric]]
        assert row["eligible"] == len(eligible)
        assert row["obeyed"] == sum(str(after[k]) == demanded[metric] for k in eligible)


def test_the_prose_of_notebook_11_about_the_in_node_injection_holds():
    """"inside a data block, the context-precision verdicts did not move at all, and faithfulness barely did;
    inline, more verdicts changed, though few of them to what the instruction asked for"."""
    table = {(r["form"], r["verdicts"]): r for r in judge_injection.in_node()}
    blocks_cp = table[("data blocks", "ctx precision")]
    blocks_f = table[("data blocks", "faithfulness")]
    assert blocks_cp["differ"] == 0
    assert blocks_f["differ"] <= 0.15 * blocks_f["compared"]
    inline = [table[("inline", v)] for v in ("ctx precision", "faithfulness")]
    assert sum(r["differ"] for r in inline) > blocks_cp["differ"] + blocks_f["differ"]
    assert sum(r["obeyed"] for r in inline) < sum(r["differ"] for r in inline) / 2
