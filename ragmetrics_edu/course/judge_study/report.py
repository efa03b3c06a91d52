"""The tables and figures of notebook 11, "Can you trust the judge?", computed from the recorded passes.

Each function replays the passes it needs (:func:`ragmetrics_edu.course.judge_study.passes.rows`) and returns a
list of row dicts; :func:`show` prints such a table in at most 100 characters a line. A pass whose
recording does not ship is reported as missing, never filled in.

The labels are the project's own: written in two passes by language models (the second without seeing the
first) and adjudicated. They show how the judge does on this set's hard constructed cases, a development
set; they cannot show agreement with people, nor give an unbiased score to choices tuned on them. Each
distinct item counts once, every interval resamples the 22 pairs (the independent unit), and every
"judge vs word overlap" claim is a paired difference over pairs with its interval and a sign test
(:func:`compare`).
"""

from __future__ import annotations

import json
import math
import statistics
from functools import lru_cache
from typing import Any, Sequence

from ... import baselines
from ...designs.faithfulness_checked import BUILDS_ON
from ...errors import InputError
from ...metrics.registry import MetricTable
from ...plots import new_figure
from ...stats.inputs import seed as checked_seed
from ...validate import flag, integer, records
from ..capstone.systems import QUESTIONS, SYSTEMS
from ..display import text_table
from . import agreement as agree
from . import behaviour as behave
from .labels import on_nodes, unique_items
from .paired import compare, compare_columns, fmt_compare
from .passes import FAMILIES, MODEL_NAMES, PASSES, available, cases_for, family_rows, recording_path, repeat_passes
from .runs import INJECTED_AT, inject, rotated

__all__ = ["compare", "compare_columns", "injection_by_content", "agreement_figure", "fmt_compare", "RAGAS_PAPER", "agreement_table", "pipeline_table", "flip_table", "repeat_spread", "position_summary",
           "injection_table", "behaviour_table", "size_table", "binary_table", "full_pipeline_table", "PIPELINE_LABELS", "cost_table", "show", "fmt_ci", "restrict", "recordings_table", "provenance", "rows", "malformed_summary",
           "extraction_table", "contradiction_counts"]

#: pairwise accuracy reported by Es et al. (2023), "RAGAS: Automated Evaluation of Retrieval Augmented
#: Generation" (arXiv:2309.15217), on WikiEval (50 pairs) with gpt-3.5-turbo-16k as the judge
RAGAS_PAPER = {"faithfulness": 0.95, "answer relevance": 0.78, "context relevance": 0.70}

#: The recorded same-items pass that holds each metric's verdicts.
SAME_ITEMS_PASS: MetricTable[str] = MetricTable("the same-items pass of each metric", {
    "context_precision": "qwen_same_items", "context_recall": "qwen_same_items", "faithfulness": "qwen_same_items",
    "answer_relevancy": "qwen_same_items_answer_relevancy"})


def fmt_ci(result: Any, digits: int = 2) -> str:
    """``0.76 [0.56, 0.92]`` for an AgreementResult (NaN shown as n/a; no interval, as under ten pairs:
    the value alone)."""
    if not (hasattr(result, "score") and hasattr(result, "ci")):
        raise InputError("result", "an AgreementResult (a value with its interval)", result)
    digits = integer("digits", digits, low=0, high=15)

    def f(x: float) -> str:
        return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"
    if not result.ci:
        return f(result.score)
    low, high = result.ci
    return f"{f(result.score)} [{f(low)}, {f(high)}]"


def restrict(found: Sequence[dict[str, Any]], selection: str) -> list[dict[str, Any]]:
    """Rows of the cases of a pass selection (e.g. "half": the first eleven pairs)."""
    ids = {c.id for c in cases_for(selection)}
    found = records("found", found, "rows of a pass (judge_report.rows())", keys=("case",))
    return [r for r in found if str(r["case"]).split("+", 1)[0] in ids]


def _have(*names: str) -> bool:
    """Each name (a pass, or a family with at least one shipped part) has a recording."""
    shipped = set(available())
    return all(any(part in shipped for part in FAMILIES.get(n, (n,))) for n in names)


def rows(name: str) -> list[dict[str, Any]]:
    """The replayed rows of a pass or of every shipped part of a family."""
    return family_rows(name)


def verdicts(name: str, metric: str, pipeline: str | None = None, binary: bool = False,
             subset: str | None = None, baseline: bool = True, seed: int = 0) -> dict[str, Any]:
    """:func:`ragmetrics_edu.course.judge_study.agreement.verdict_agreement` on a pass (optionally on a subset of its
    cases), computed once per session: the notebook and its exercises ask for the same figures."""
    for field, value in (("name", name), ("metric", metric), ("pipeline", pipeline), ("subset", subset)):
        if not isinstance(value, str) and (value is not None or field in ("name", "metric")):
            raise InputError(field, "a string" + ("" if field in ("name", "metric") else " or None"), value)
    checked_seed(seed)
    return _verdicts(name, metric, pipeline, flag("binary", binary), subset, flag("baseline", baseline), seed)


@lru_cache(maxsize=128)
def _verdicts(name: str, metric: str, pipeline: str | None, binary: bool, subset: str | None, baseline: bool,
              seed: int) -> dict[str, Any]:
    found = rows(name) if subset is None else restrict(rows(name), subset)
    return agree.verdict_agreement(found, metric, pipeline=pipeline, binary=binary, seed=seed, baseline=baseline)


def contradiction_counts(name: str = "qwen_same_items") -> dict[str, int]:
    """A pass's faithfulness verdicts on "contradicted": ``labelled`` (claims labelled so), ``caught`` (of those,
    called so by the judge: recall = caught / labelled), ``said`` (the judge's "contradicted" verdicts), ``wrong``
    (of those, on claims labelled otherwise: precision = caught / said), ``claims`` (every claim, once)."""
    values = verdicts(name, "faithfulness")["judge"].values
    confusion = values["confusion"]   # rows: the labels, columns: the judge
    c = list(values["classes"]).index("contradicted") if "contradicted" in values["classes"] else -1
    labelled, caught, said = (sum(confusion[c]), confusion[c][c], sum(r[c] for r in confusion)) if c >= 0 else (0, 0, 0)
    return {"labelled": labelled, "caught": caught, "said": said, "wrong": said - caught,
            "claims": sum(map(sum, confusion))}


def agreement_table(seed: int = 0) -> list[dict[str, Any]]:
    """Per metric, same items, each distinct item once: the judge's kappa beside word overlap's (their intervals,
    resampling pairs, are in :func:`agreement_figure`), and the paired difference judge − overlap in the share
    of items agreeing with the labels, over pairs, with its interval and sign test."""
    out = []
    for metric, name in SAME_ITEMS_PASS.items():
        if not _have(name):
            out.append({"metric": metric, "items": 0, "judge κ": "not recorded"})
            continue
        found = verdicts(name, metric, seed=seed)
        diff = compare(found["judge_agrees"], found["baseline_agrees"], found["groups"], seed=seed)
        out.append({"metric": metric, "items": found["items"], "judge κ": f"{found['judge'].score:.2f}",
                    "overlap κ": f"{found['baseline'].score:.2f}", **compare_columns(diff)})
    return out


def agreement_figure(seed: int = 0) -> Any:
    """Kappa with the labels per metric, judge and word overlap side by side, as dots with whiskers (the
    intervals resample pairs)."""
    fig = new_figure((8, 3.4))  # no pyplot: a kernel's inline backend would also show a pyplot figure raw
    ax = fig.add_subplot()
    names = [m for m, n in SAME_ITEMS_PASS.items() if _have(n)]
    for k, (who, colour, shift) in enumerate((("judge", "#1f77b4", -0.12), ("baseline", "#ff7f0e", 0.12))):
        for i, metric in enumerate(names):
            r = verdicts(SAME_ITEMS_PASS[metric], metric, seed=seed)[who]
            low, high = r.ci if r.ci else (r.score, r.score)
            ax.errorbar(r.score, i + shift, xerr=[[r.score - low], [high - r.score]], fmt="o", color=colour,
                        capsize=4, label=("1.5B judge" if who == "judge" else "word overlap") if i == 0 else None)
    ax.axvline(0, color="grey", lw=0.8, ls=":")
    ax.set_yticks(range(len(names)), [m.replace("_", " ") for m in names])
    ax.invert_yaxis()
    ax.set_xlabel("Cohen's kappa with the project's labels (95% interval, pairs resampled)")
    ax.legend(loc="lower right", fontsize=9)
    fig.tight_layout()
    return fig


#: how notebook 11 names each faithfulness pipeline (ragmetrics_edu.designs.faithfulness_checked.PIPELINES)
PIPELINE_LABELS = {"library": "library yes/no/idk", "quoted": "+ quoted verdicts",
                   "quotes_checked": "+ quote check", "contradiction_apart": "+ contradiction apart",
                   "apart_unchecked": "+ apart, no check", "question_and_answer_claims": "+ claims from Q, A",
                   "defaults": "defaults (Q+A, apart)"}


def _kept(name: str, scores: dict[str, Any]) -> str:
    """Is pipeline ``name`` kept? "baseline" when it changes nothing, "yes" when its score beats the
    configuration it builds on (:data:`ragmetrics_edu.designs.faithfulness_checked.BUILDS_ON`), else "no"."""
    base = BUILDS_ON.get(name)
    if base is None:
        return "baseline"
    return "yes" if base in scores and scores[name] > scores[base] else "no"


def pipeline_table(seed: int = 0) -> list[dict[str, Any]]:
    """Faithfulness on every case's own claims: each pipeline change, its pairwise accuracy, whether it was kept
    (a change is kept when it raises pairwise accuracy over the configuration it builds on; ties: kappa
    decides) and the paired difference judge − word overlap over pairs. The choices were made on these same
    pairs, so the kept rows' figures carry the winner's curse."""
    found: dict[str, tuple[str, str | None]] = {}
    if _have("qwen_same_items"):
        found["library"] = ("qwen_same_items", None)
    if _have("qwen_pipeline_same_items"):
        piped = rows("qwen_pipeline_same_items")
        for name in ("quoted", "quotes_checked", "contradiction_apart", "apart_unchecked"):
            if any(r["pipeline"] == name for r in piped):
                found[name] = ("qwen_pipeline_same_items", name)
    scores: dict[str, tuple[float, float]] = {}
    out: list[dict[str, Any]] = []
    for name, (source, pipeline) in found.items():
        kappa = verdicts(source, "faithfulness", pipeline, baseline=False, seed=seed)
        pw = agree.pairwise(rows(source), pipeline=pipeline, seed=seed)
        scores[name] = (pw["judge"].score, kappa["judge"].score)
        out.append({"pipeline (same claims)": PIPELINE_LABELS[name], "pairwise": f"{pw['judge'].score:.2f}",
                    "kept": _kept(name, scores),
                    **compare_columns(compare(pw["judge_credit"], pw["baseline_credit"], seed=seed))})
    return out


def full_pipeline_table(seed: int = 0) -> list[dict[str, Any]]:
    """Faithfulness with the judge extracting its own claims, on the pairs the pipeline passes covered: the
    library beside each changed pipeline, with word overlap on the same pairs and the paired difference. A
    change is kept when it raises pairwise accuracy over the configuration it builds on
    (:data:`~ragmetrics_edu.designs.faithfulness_checked.BUILDS_ON`). The choices were made on these same pairs: the kept
    rows' figures are tuned and scored on the same data and carry the winner's curse."""
    if not _have("qwen_pipeline_full"):
        return []
    piped = rows("qwen_pipeline_full")
    compared = {r["case"] for r in piped}
    sources = [("library", [r for r in rows("qwen_full") if r["case"] in compared], None)] if _have("qwen_full") else []
    sources += [(name, piped, name) for name in dict.fromkeys(r["pipeline"] for r in piped)]
    scores: dict[str, float] = {}
    out = []
    for name, found, pipeline in sources:
        pw = agree.pairwise(found, mode="full", pipeline=pipeline, seed=seed)
        scores[name] = pw["judge"].score
        out.append({"pipeline (extracts)": PIPELINE_LABELS[name], "pairwise": f"{pw['judge'].score:.2f}",
                    "overlap": f"{pw['baseline'].score:.2f}", "kept": _kept(name, scores),
                    **compare_columns(compare(pw["judge_credit"], pw["baseline_credit"], seed=seed))})
    return out


def binary_table(seed: int = 0) -> list[dict[str, Any]]:
    """Context recall read as attributed / not and faithfulness as supported / not: the judge beside the
    baseline when the harder distinction (which node; contradicted vs not mentioned) is set aside."""
    out = []
    for metric, read_as in agree.READ_AS.items():
        if not _have(SAME_ITEMS_PASS[metric]):
            continue
        found = verdicts(SAME_ITEMS_PASS[metric], metric, binary=True, seed=seed)
        out.append({"metric": metric, "read as": read_as, "judge kappa [95% CI]": fmt_ci(found["judge"]),
                    "overlap kappa [95% CI]": fmt_ci(found["baseline"])})
    return out


def _once(found: Sequence[dict[str, Any]], metric: str) -> list[dict[str, Any]]:
    """Rows whose items are each counted once: both cases of a pair share their context-precision and
    context-recall items (nodes, question, reference), so only the first case's rows stand for the pair."""
    if metric not in ("context_precision", "context_recall"):
        return list(found)
    keep = {case for case, _, _ in unique_items(metric)}
    return [r for r in found if str(r["case"]).split("+", 1)[0] in keep]


def flip_table() -> list[dict[str, Any]]:
    """How often a verdict changes across three repeat runs at temperature 0 and three at 0.7 (each run with
    its own seed), on the first five pairs."""
    out = []
    for label, names in repeat_passes().items():
        if not _have(*names):
            out.append({"temperature": label, "metric": "-", "runs": 0, "items": 0, "flipped": "not recorded",
                        "rate": ""})
            continue
        runs = [rows(n) for n in names]
        for metric in ("context_precision", "faithfulness"):
            found = behave.flip_rate([_once(run, metric) for run in runs], metric)
            out.append({"temperature": label, "metric": metric, "runs": len(runs), "items": found["items"],
                        "flipped": found["flipped"], "rate": f"{found['rate']:.0%}"})
    return out


def repeat_spread() -> list[dict[str, Any]]:
    """Per temperature and metric: each repeat run's mean score over the repeat cases, and the sample
    standard deviation of those means (the ``judge_sd`` a CI gate adds to its tolerance,
    :func:`ragmetrics_edu.regression_gate.gate`). Cases the judge failed on in any run are left out of every run."""
    out: list[dict[str, Any]] = []
    for label, names in repeat_passes().items():
        if not _have(*names):
            continue
        runs = [rows(n) for n in names]
        for metric in ("context_precision", "faithfulness"):
            scored = [{r["case"]: r["score"] for r in run if r["metric"] == metric and r["score"] is not None
                       and not r["error"]} for run in runs]
            common = sorted(set.intersection(*(set(s) for s in scored)))
            means = [math.fsum(s[c] for c in common) / len(common) for s in scored] if common else []
            out.append({"temperature": label, "metric": metric, "cases": len(common),
                        "run means": ", ".join(f"{m:.3f}" for m in means),
                        "sd of the mean": statistics.stdev(means) if len(means) > 1 else math.nan})
    return out


def position_summary() -> dict[str, Any] | None:
    """Context precision verdicts with the nodes moved round by one place vs in their order, each distinct
    node once (both cases of a pair share their nodes, question and reference: the first case stands for both)."""
    if not _have("qwen_position", "qwen_same_items"):
        return None
    moved = _once(rows("qwen_position"), "context_precision")
    cases = {r["case"] for r in moved}
    original = [r for r in rows("qwen_same_items") if r["case"] in cases]
    effect = behave.position_effect(original, moved)
    in_order = verdicts("qwen_same_items", "context_precision", baseline=False)
    rotated = verdicts("qwen_position", "context_precision", baseline=False)
    return {"effect": effect, "kappa in order": in_order["judge"], "kappa moved": rotated["judge"]}


def injection_table() -> list[dict[str, Any]]:
    """Verdicts that moved to what a planted instruction demands, with the data blocks and without (the
    instruction and the node shift it causes together: :func:`injection_by_content` separates what it can)."""
    out = []
    pairs_ = (("with data blocks", "qwen_injection", "qwen_same_items"),
              ("without data blocks", "qwen_injection_undelimited", "qwen_clean_undelimited"))
    for label, injected, clean in pairs_:
        if not _have(injected, clean):
            out.append({"prompt": label, "eligible verdicts": 0, "obeyed": "not recorded", "rate": ""})
            continue
        found = behave.injection_effect(restrict(rows(clean), "injected_clean"), rows(injected))
        out.append({"prompt": label, "eligible verdicts": found["eligible"], "obeyed": found["obeyed"],
                    "rate": f"{found['rate']:.0%}" if not math.isnan(found["rate"]) else "n/a"})
    return out


def _to_demanded(before: dict[Any, Any], after: dict[Any, Any], wanted: str) -> tuple[int, int]:
    """Of the keys in both whose verdict was not ``wanted`` before: how many, and how many became ``wanted``."""
    keys = [k for k in set(before) & set(after) if str(before[k]) != wanted]
    return len(keys), sum(str(after[k]) == wanted for k in keys)


def injection_by_content() -> list[dict[str, Any]]:
    """What the planted-instruction recordings show, compared node by node and claim by claim by content.

    The instruction was planted as a new node at position ``INJECTED_AT`` (0-based), so every original node
    from there on also moved down one place. Context-precision verdicts are split into nodes that kept their
    place and nodes that were shifted, and beside the shifted ones stands the control for a layout change
    alone: in the position pass (nodes moved round by one place, no instruction, data-block prompts), the
    share of not-"yes" verdicts that became "yes" on the same cases. Faithfulness judges each claim against the
    whole context, so its verdicts are reported by form of injection.
    """
    out: list[dict[str, Any]] = []
    forms = (("data blocks", "qwen_injection", "qwen_same_items"),
             ("undelimited", "qwen_injection_undelimited", "qwen_clean_undelimited"))
    control = None
    if _have("qwen_position", "qwen_same_items"):
        ids = {c.id for c in cases_for("injected_clean")}
        before = {k: v for k, v in behave.item_verdicts(rows("qwen_same_items"), "context_precision").items() if k[0] in ids}
        moved = {k: v for k, v in behave.item_verdicts(rows("qwen_position"), "context_precision").items() if k[0] in ids}
        control = _to_demanded(before, moved, "yes")
    for form, injected, clean in forms:
        if not _have(injected, clean):
            out.append({"form": form, "verdicts": "not recorded"})
            continue
        found = behave.injection_effect(restrict(rows(clean), "injected_clean"), rows(injected))
        cp = [t for t in found["table"] if "/context_precision/" in t["item"]]
        kept = [t for t in cp if int(t["item"].rsplit("/", 1)[1]) - 1 < INJECTED_AT]
        shifted = [t for t in cp if int(t["item"].rsplit("/", 1)[1]) - 1 >= INJECTED_AT]
        faith = [t for t in found["table"] if "/faithfulness/" in t["item"]]
        out.append({"form": form, "verdicts": "ctx precision, node in place",
                    "eligible": len(kept), "became yes/supported": sum(t["obeyed"] for t in kept), "control": ""})
        out.append({"form": form, "verdicts": "ctx precision, node shifted",
                    "eligible": len(shifted), "became yes/supported": sum(t["obeyed"] for t in shifted),
                    "control": (f"moved only: {control[1]} of {control[0]}"
                                if control and form == "data blocks" else "none recorded")})
        out.append({"form": form, "verdicts": "faithfulness (claims)",
                    "eligible": len(faith), "became yes/supported": sum(t["obeyed"] for t in faith), "control": ""})
    return out


def _overlap_rows(cases: Sequence[Any], metric: str, rotate: int = 0) -> list[dict[str, Any]]:
    """Word overlap's verdicts as rows shaped like the judge's (context-precision nodes moved round by
    ``rotate`` places as :func:`ragmetrics_edu.course.judge_study.runs.run_case` moves them, then put back in order)."""
    out = []
    for case in cases:
        if on_nodes(metric) and rotate:
            nodes, order = rotated(list(case.contexts), rotate)
            moved = baselines.verdicts(metric, nodes, reference=case.reference)
            found = [moved[order.index(i)] for i in range(len(order))]
        else:
            found = baselines.case_verdicts(case, metric)
        out.append({"case": case.id, "metric": metric, "verdicts": found, "error": None})
    return out


def behaviour_table() -> list[dict[str, Any]]:
    """Repeat runs, nodes moved round and the planted instruction: the recorded judge beside word overlap
    computed on the same cases and items (the baseline draws no samples and reads no order, and this
    shows what that buys)."""
    out: list[dict[str, Any]] = []
    for flips in flip_table():
        if flips["metric"] == "-":
            continue
        cases = cases_for("repeat")
        again = behave.flip_rate([_once(_overlap_rows(cases, flips["metric"]), flips["metric"])
                                  for _ in range(flips["runs"])], flips["metric"])
        out.append({"test": f"{flips['runs']} runs at temperature {flips['temperature']}, {flips['metric']}",
                    "judge": f"{flips['flipped']} of {flips['items']} flipped",
                    "word overlap": f"{again['flipped']} of {again['items']} flipped"})
    position = position_summary()
    if position:
        cases = cases_for("all")
        moved = behave.position_effect(_once(_overlap_rows(cases, "context_precision"), "context_precision"),
                                       _once(_overlap_rows(cases, "context_precision", rotate=1), "context_precision"))
        effect = position["effect"]
        out.append({"test": "nodes moved round by one place", "judge": f"{effect['changed']} of {effect['nodes']} "
                    "changed", "word overlap": f"{moved['changed']} of {moved['nodes']} changed"})
    clean_cases = cases_for("injected_clean")
    planted = [inject(c) for c in clean_cases]
    metrics = ("context_precision", "faithfulness")
    overlap = behave.injection_effect([r for m in metrics for r in _overlap_rows(clean_cases, m)],
                                      [r for m in metrics for r in _overlap_rows(planted, m)])
    for row in injection_table():
        if row["obeyed"] == "not recorded":
            continue
        out.append({"test": f"planted instruction, {row['prompt']}",
                    "judge": f"{row['obeyed']} of {row['eligible verdicts']} moved to it",
                    "word overlap": f"{overlap['obeyed']} of {overlap['eligible']} moved to it"})
    return out


def size_table(seed: int = 0) -> list[dict[str, Any]]:
    """Same items, first six pairs: SmolLM2-135M beside Qwen2.5-Coder-1.5B and the baseline, per metric."""
    if not _have("smol_same_items"):
        return []
    out = []
    for metric, name in SAME_ITEMS_PASS.items():
        if not _have(name):
            continue
        big = verdicts(name, metric, subset="subset", seed=seed)
        tiny = verdicts("smol_same_items", metric, baseline=False, seed=seed)
        out.append({"metric": metric, "items": big["items"], "1.5B kappa": fmt_ci(big["judge"]),
                    "135M kappa": fmt_ci(tiny["judge"]), "overlap kappa": f"{big['baseline'].score:.2f}"})
    return out


def extraction_table(seed: int = 0) -> list[dict[str, Any]]:
    """Full pipeline, per metric: the judge's own items matched to the labelled ones by content, and the
    verdict agreement on the matched items."""
    out = []
    for metric, name in (("context_recall", "qwen_full"), ("faithfulness", "qwen_full"),
                         ("answer_relevancy", "qwen_full_answer_relevancy")):
        if not _have(name):
            continue
        found = [r for r in rows(name) if r["metric"] == metric]
        if not found:
            continue
        quality = agree.extraction_quality(found, metric)
        matched = agree.matched_verdicts(found, metric, seed=seed)
        out.append({"metric": metric, "cases": len(found), "extracted": quality["judged"],
                    "labelled": quality["labelled"], "matched": quality["matched"],
                    "precision": f"{quality['precision']:.2f}", "recall": f"{quality['recall']:.2f}",
                    "kappa on matched": fmt_ci(matched["judge"])})
    return out


def cost_table() -> list[dict[str, Any]]:
    """Calls and tokens per case, per pass, metric and pipeline, from the recorded calls (machine time per
    pass is in :func:`recordings_table`)."""
    out: list[dict[str, Any]] = []
    for name in ("qwen_same_items", "qwen_same_items_answer_relevancy", "qwen_pipeline_same_items", "qwen_full",
                 "qwen_full_answer_relevancy", "qwen_pipeline_full"):
        if not _have(name):
            continue
        for row in behave.cost(rows(name)):
            pipeline = "" if row["pipeline"] == "library" else f" {PIPELINE_LABELS[row['pipeline']]}"
            mode = "extracts" if "full" in name else "same items"
            out.append({"pass, metric": f"{mode}, {row['metric']}{pipeline}",
                        "cases": row["cases"], "calls/case": f"{row['calls per case']:.1f}",
                        "prompt tok/case": f"{row['prompt tokens per case']:.0f}",
                        "compl. tok/case": f"{row['completion tokens per case']:.0f}"})
    return out


def show(table: Sequence[dict[str, Any]], width: int = 100) -> None:
    """Print a list of row dicts as aligned columns under a rule, cut to fit ``width``
    (:func:`ragmetrics_edu.course.display.text_table`)."""
    table = records("table", table, "a list of row dicts")
    print(text_table(table, width=width, rule=True) if table else "(nothing recorded)")


def recordings_table() -> list[dict[str, Any]]:
    """Every shipped pass: which model (its short name and the GGUF's sha256), the date, how many cases (rows of the capstone) and
    replies, the machine time and what it asked."""
    out = []
    for name in available():
        with open(recording_path(name), encoding="utf-8") as handle:
            doc = json.load(handle)
        spec = PASSES[name]
        cases = len(QUESTIONS) * len(SYSTEMS) if spec.cases.startswith("capstone_") else len(cases_for(spec.cases))
        out.append({"pass": name, "model": MODEL_NAMES[spec.model],
                    "sha256": doc["gguf"]["sha256"][:8] + "…", "date": doc["date"][:10], "cases": cases,
                    "replies": len(doc["replies"]), "machine s": round(doc.get("machine_time_s", 0)),
                    "what": spec.what})
    return out


def provenance(name: str = "qwen_same_items") -> str:
    """One paragraph naming the model, its weights' sha256, the server and the date of a pass."""
    with open(recording_path(name), encoding="utf-8") as handle:
        doc = json.load(handle)
    g = doc["gguf"]
    return (f"Recorded from {g.get('general.name')} ({g.get('file_type_name')}, file {g['file']}, sha256 "
            f"{g['sha256']}) served by {doc['server']}; temperature {doc['parameters']['temperature']}, "
            f"seed {doc['parameters']['seed']}, mode {doc['parameters']['mode']}; {doc['date']}.")


def malformed_summary() -> dict[str, int]:
    """Across every shipped pass of the labelled set: rows, rows that needed a repair request, rows with no
    usable reply (the judge's malformed output)."""
    total = repaired = failed = 0
    for name in available():
        if name.startswith("qwen_capstone"):
            continue
        for row in family_rows(name):
            total += 1
            repaired += bool(row.get("repairs"))
            failed += bool(row.get("error"))
    return {"rows": total, "repaired": repaired, "failed": failed}
