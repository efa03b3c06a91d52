"""Issue 50 §1, §2, §4: `compare A B --report` and `--labels`. The page's paired differences, p-values, Holm
adjustment and planning count agree with scipy and statsmodels; the labels' pass rates with ppi_py and
statsmodels' Wilson interval; both pages open offline in headless Chromium with every figure drawn, nothing
scrolling sideways at 1280 or 420 px, and every number on them equal to what the Python API returns."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest

from browser_support import artifacts_dir, launch, new_context
from ragmetrics_edu import evaluate, metrics
from ragmetrics_edu.cli import main
from ragmetrics_edu.data import ragtruth
from ragmetrics_edu.evaluation.compare_labels import labelled_rates, read_labels
from ragmetrics_edu.evaluation.compare_numbers import comparison_numbers, holm, planning_count
from ragmetrics_edu.evaluation.comparison import compare_scores, scores_of
from ragmetrics_edu.evaluation.datasets import read_cases
from ragmetrics_edu.evaluation.known_agreement import word_overlap_agreement
from ragmetrics_edu.evaluation.pairing import pair_rows
from ragmetrics_edu.evaluation.summary import summarize
from ragmetrics_edu.results import fmt

PAIRS = 16  # at most 20 non-zero differences: the permutation test is exact, as scipy's with n_resamples=inf


@pytest.fixture
def files(tmp_path):
    """Two versions of 16 questions (RAGTruth dev answers of two models), B's rows in another order, and labels."""
    by_source: dict[int, list] = {}
    for a in ragtruth.answers("dev"):
        by_source.setdefault(a.source_id, []).append(a)
    sources = [v for v in by_source.values() if len(v) >= 4][:PAIRS]
    rows_a = [{"id": f"s{v[0].source_id}", "question": v[0].question, "answer": v[1].answer, "contexts": v[1].context,
               "reference": v[3].answer} for v in sources]
    rows_b = [{"id": f"s{v[0].source_id}", "question": v[0].question, "answer": v[2].answer, "contexts": v[2].context,
               "reference": v[3].answer} for v in sources]
    labels = [{"id": f"s{v[0].source_id}", "version": "A", "pass": not v[1].hallucinated} for v in sources[:12]]
    labels += [{"id": f"s{v[0].source_id}", "version": "B", "pass": not v[2].hallucinated} for v in sources[4:]]
    paths = {}
    for name, rows in (("a", rows_a), ("b", rows_b[::-1]), ("labels", labels)):
        paths[name] = tmp_path / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return paths, rows_a, rows_b


def _api(paths):
    """What the Python API returns for the two files: the comparison's numbers and the labels' rates."""
    data_a, data_b = read_cases(str(paths["a"])), read_cases(str(paths["b"]))
    pairing = pair_rows(data_a, data_b)
    tables = [evaluate(d, progress=False) for d in (data_a, data_b)]
    names = tables[0].attrs["metrics"]
    scores = tuple({m: scores_of(d, m, list(t[m])) for m in names} for d, t in zip((data_a, data_b), tables, strict=True))
    found = compare_scores(pairing, *scores)
    numbers = comparison_numbers(found, pairing, *scores, detect=0.05)
    labels = labelled_rates(read_labels(str(paths["labels"]), data_a, data_b), data_a, data_b,
                            scores[0]["word_overlap"], scores[1]["word_overlap"], "word_overlap")
    return found, numbers, labels


def test_the_numbers_agree_with_scipy_and_statsmodels(files):
    from scipy import stats as scipy_stats
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.power import NormalIndPower

    paths, rows_a, rows_b = files
    found, numbers, _ = _api(paths)
    by_id = {r["id"]: r for r in rows_b}
    for m in numbers:
        if m.metric == "word_overlap":
            a = np.array([metrics.word_overlap(r["answer"], r["contexts"]).score for r in rows_a])
            b = np.array([metrics.word_overlap(by_id[r["id"]]["answer"], by_id[r["id"]]["contexts"]).score
                          for r in rows_a])
        else:
            a = np.array([metrics.semantic_similarity(r["answer"], r["reference"]).score for r in rows_a])
            b = np.array([metrics.semantic_similarity(by_id[r["id"]]["answer"], r["reference"]).score for r in rows_a])
        d = b - a
        assert m.n == PAIRS and m.mean_a == pytest.approx(a.mean()) and m.mean_b == pytest.approx(b.mean())
        assert m.difference == pytest.approx(d.mean()) and m.sd == pytest.approx(d.std(ddof=1))
        exact = scipy_stats.permutation_test((b, a), lambda x, y, axis: np.mean(x - y, axis=axis),
                                             permutation_type="samples", n_resamples=np.inf, alternative="two-sided")
        assert m.permutation_p == pytest.approx(exact.pvalue, abs=1e-9)
        wins, losses = int((d > 0).sum()), int((d < 0).sum())
        assert m.sign_p == pytest.approx(scipy_stats.binomtest(wins, wins + losses, 0.5).pvalue)
        effect = m.detect / m.sd
        planned = NormalIndPower().solve_power(effect_size=effect, alpha=0.05, power=0.8, ratio=0)
        assert m.needed == math.ceil(planned - 1e-9)
    ps = [m.permutation_p for m in numbers]
    assert [m.holm_p for m in numbers] == pytest.approx(list(multipletests(ps, method="holm")[1]))
    assert holm([0.01, 0.04, 0.03]) == pytest.approx(list(multipletests([0.01, 0.04, 0.03], method="holm")[1]))
    # the rule in words: 3× smaller needs 9× the questions
    assert planning_count(0.3, 0.05 / 3) / planning_count(0.3, 0.05) == pytest.approx(9, rel=0.01)


def test_labels_agree_with_ppi_py_and_statsmodels_wilson(files):
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate
    from statsmodels.stats.proportion import proportion_confint

    paths, rows_a, rows_b = files
    _, _, labels = _api(paths)
    for version, rows in (("A", rows_a), ("B", rows_b)):
        every = {r["id"]: metrics.word_overlap(r["answer"], r["contexts"]).score for r in rows}
        marks = [json.loads(x) for x in paths["labels"].read_text().splitlines()]
        mine = [m for m in marks if m["version"] == version]
        y = np.array([float(m["pass"]) for m in mine])
        yhat = np.array([every[m["id"]] for m in mine])
        unlabelled = np.array(list(every.values()))
        found = labels[version]
        assert found.labelled == len(mine) and found.answers == len(rows)
        point = float(np.ravel(ppi_mean_pointestimate(y, yhat, unlabelled))[0])
        assert found.ppi.score == pytest.approx(min(1.0, max(0.0, point)), abs=1e-9)
        low, high = (float(np.ravel(v)[0]) for v in ppi_mean_ci(y, yhat, unlabelled, alpha=0.05))
        assert found.ppi.ci == pytest.approx((max(0.0, low), min(1.0, high)), abs=1e-9)
        k = int(y.sum())
        assert found.labels_alone.score == pytest.approx(k / len(y))
        assert found.labels_alone.ci == pytest.approx(proportion_confint(k, len(y), alpha=0.05, method="wilson"))
        assert found.needed_labels_alone >= 1 and found.needed_ppi >= 1
    diff, _ = labels["difference_ppi"]
    assert diff == pytest.approx(labels["B"].ppi.score - labels["A"].ppi.score)
    from statsmodels.stats.proportion import confint_proportions_2indep

    a, b = labels["A"].labels_alone, labels["B"].labels_alone
    ka, kb = round(a.score * labels["A"].labelled), round(b.score * labels["B"].labelled)
    diff, ci = labels["difference_labels_alone"]
    assert diff == pytest.approx(b.score - a.score)
    assert ci == pytest.approx(confint_proportions_2indep(kb, labels["B"].labelled, ka, labels["A"].labelled,
                                                          method="newcomb", compare="diff"), abs=1e-9)


def test_labels_that_all_agree_give_ppi_no_interval_and_say_why(files, tmp_path):
    from ppi_py import ppi_mean_ci

    paths, rows_a, rows_b = files
    marks = [json.loads(x) for x in paths["labels"].read_text().splitlines()]
    for m in marks:
        if m["version"] == "A":
            m["pass"] = True          # people passed every labelled answer of A
    paths["labels"].write_text("".join(json.dumps(m) + "\n" for m in marks), encoding="utf-8")
    _, _, labels = _api(paths)
    every = np.array([metrics.word_overlap(r["answer"], r["contexts"]).score for r in rows_a])
    by_id = {r["id"]: s for r, s in zip(rows_a, every, strict=True)}
    mine = [m for m in marks if m["version"] == "A"]
    low, high = (float(np.ravel(v)[0]) for v in ppi_mean_ci(np.ones(len(mine)), np.array([by_id[m["id"]] for m in mine]),
                                                             every, alpha=0.05))
    assert high - low < 1e-9                          # why: ppi_py's own interval has width 0 here
    assert labels["A"].ppi.ci is None and "no interval" in labels["A"].ppi.explain()
    assert labels["A"].labels_alone.ci[0] < 0.8       # Wilson's stays honest: 12 of 12 is not certainty
    assert labels["A"].needed_ppi > labels["A"].labelled   # planned for the widest case, not "1 label"
    assert "difference_ppi" not in labels and "difference_labels_alone" in labels
    out = tmp_path / "page.html"
    assert main(["compare", str(paths["a"]), str(paths["b"]), "--labels", str(paths["labels"]),
                 "--report", str(out)]) == 0
    assert "one version's labels all agree" in out.read_text(encoding="utf-8")


FIGURES_JS = """() => Array.from(document.querySelectorAll('svg')).map(e => {
  const box = e.getBoundingClientRect();
  return {width: box.width, height: box.height, inner: e.getBBox().width,
          marks: e.querySelectorAll('rect.bar, circle').length, label: e.getAttribute('aria-label')};
})"""
NUMBERS_JS = "() => Array.from(document.querySelectorAll('[data-k]')).map(e => [e.dataset.k, e.dataset.v, e.textContent])"
WIDE_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def _open(path, shot):
    with launch() as browser:
        context, log = new_context(browser, (1280, 900))
        asked: list[str] = []

        def refuse(route) -> None:
            if route.request.url.startswith("file:"):
                route.continue_()
            else:
                asked.append(route.request.url)
                route.abort()

        context.route("**/*", refuse)
        page = context.new_page()
        page.goto(path.resolve().as_uri(), wait_until="load")
        seen = {"figures": page.evaluate(FIGURES_JS), "numbers": page.evaluate(NUMBERS_JS),
                "wide": page.evaluate(WIDE_JS)}
        page.screenshot(path=str(artifacts_dir("report") / shot), full_page=True)
        page.set_viewport_size({"width": 420, "height": 900})
        seen["wide_phone"] = page.evaluate(WIDE_JS)
        context.close()
    assert asked == [] and log.outside == [] and log.failed == []
    assert seen["figures"], "no figure on the page"
    for figure in seen["figures"]:
        assert figure["width"] > 100 and figure["height"] > 50 and figure["inner"] > 0 and figure["marks"] > 0, figure
    assert seen["wide"] <= 0 and seen["wide_phone"] <= 0
    return seen


def _check_numbers(shown, expected):
    keys = {k for k, _, _ in shown}
    assert set(expected) <= keys, sorted(set(expected) - keys)
    for key, value, text in shown:
        if key in expected:
            assert float(value) == pytest.approx(expected[key], rel=1e-12, abs=1e-12), key
            digits = 6 if key.endswith(".needed") else 4
            assert text == fmt(expected[key], digits), key


def test_both_pages_in_chromium_show_the_apis_numbers(files, tmp_path, capsys):
    paths, _, _ = files
    compare_page, evaluate_page = tmp_path / "compare.html", tmp_path / "report.html"
    assert main(["compare", str(paths["a"]), str(paths["b"]), "--report", str(compare_page), "--labels",
                 str(paths["labels"]), "--labels-metric", "word_overlap"]) == 0
    assert main(["evaluate", str(paths["a"]), "--report", str(evaluate_page)]) == 0
    capsys.readouterr()
    _, numbers, labels = _api(paths)
    expected = {}
    for m in numbers:
        for name in ("mean_a", "mean_b", "difference", "permutation_p", "sign_p", "holm_p", "sd", "needed", "detect"):
            expected[f"{m.metric}.{name}"] = getattr(m, name)
        expected[f"{m.metric}.ci_low"], expected[f"{m.metric}.ci_high"] = m.ci
    for version in ("A", "B"):
        for key, est in (("labels", labels[version].labels_alone), ("ppi", labels[version].ppi)):
            expected[f"labels.{version}.{key}.rate"] = est.score
            expected[f"labels.{version}.{key}.ci_low"], expected[f"labels.{version}.{key}.ci_high"] = est.ci
        expected[f"labels.{version}.labels.needed"] = labels[version].needed_labels_alone
        expected[f"labels.{version}.ppi.needed"] = labels[version].needed_ppi
    seen = _open(compare_page, "compare.png")
    assert len(seen["figures"]) == len(numbers)  # one differences figure per metric
    _check_numbers(seen["numbers"], expected)
    text = compare_page.read_text(encoding="utf-8")
    assert "3× smaller needs about 10× more questions" in text and "Regression gate:" in text
    assert text.count("<b>Reference:</b>") >= len(numbers) and "B's answer (" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)

    summaries = summarize(evaluate(str(paths["a"]), progress=False))
    expected = {}
    for s in summaries:
        expected[f"{s.metric}.mean"] = s.mean
        expected[f"{s.metric}.ci_low"], expected[f"{s.metric}.ci_high"] = s.ci
    known = word_overlap_agreement()
    expected.update({"word_overlap.auc": known.auc, "word_overlap.auc_low": known.ci[0],
                     "word_overlap.auc_high": known.ci[1]})
    seen = _open(evaluate_page, "report-numbers.png")
    assert len(seen["figures"]) == 1 + len(summaries)
    _check_numbers(seen["numbers"], expected)
