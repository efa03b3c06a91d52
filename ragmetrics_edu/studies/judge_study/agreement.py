"""How far a judge's rows (:mod:`ragmetrics_edu.studies.judge_study.runs`) agree with the labelled set, beside a baseline.

Every function takes rows (from a live judge or replayed from a recording), the labelled cases and their
labels (the course loads the adjudicated ones: two language-model passes, the second without seeing the first,
then adjudicated) and compares the rows with the labels, always beside the word-overlap baseline of
:mod:`ragmetrics_edu.baselines` on the same items, so "better than counting words" is visible:

* :func:`verdict_agreement` - kappa between the labels and the judge on the same items (same-items rows);
* :func:`extraction_quality` - the judge's own items matched to the labelled ones by content;
* :func:`matched_verdicts` - verdict agreement on the matched items of full-pipeline rows;
* :func:`pairwise` - the share of (supported, unsupported) answer pairs the judge orders right;
* :func:`label_score` - a metric's score computed from the labels;
* :func:`contradiction_counts` - how the judge's "contradicted" verdicts meet the claims labelled so;
* :func:`kept` - whether a pipeline change is kept: it must beat the configuration it builds on.

Each distinct item counts once (the two cases of a pair share their context-precision and context-recall
items, :func:`ragmetrics_edu.studies.judge_study.cases.unique_items`) and every interval resamples the pairs.

A row with an error (the judge gave no usable reply) is left out and counted in the notes.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping, Sequence

from ... import baselines, metrics
from ...agreement import cohen_kappa, match_items, pairwise_accuracy
from ...errors import InputError
from ...metrics.correctness import f1_from
from ...metrics.registry import MetricTable
from ...validate import flag, instance, mapping, text
from .cases import Case, PassLabels, check_cases, check_metric, content_key, on_nodes, pairs, unit_of
from .runs import INJECTED_AT, inject, run_rows

__all__ = ["label_of", "verdict_agreement", "extraction_quality", "matched_verdicts", "pairwise", "label_score",
           "labels_for", "FAITHFULNESS_CLASSES", "READ_AS", "contradiction_counts", "kept"]

FAITHFULNESS_CLASSES = ("supported", "contradicted", "not_mentioned")


def label_of(value: Any) -> str:
    """A verdict or label as a comparable string (context recall's None becomes "none")."""
    return "none" if value is None else str(value)


def _by_id(cases: Sequence[Case]) -> dict[str, Case]:
    return {c.id: c for c in check_cases(cases)}


def labels_for(case_id: str, metric: str, labels: PassLabels) -> list[Any]:
    """The labels of a case's items; an injected case (``<id>+injected``) gets "no" for its planted node."""
    case_id, metric = text("case_id", case_id), check_metric(metric)
    labels = instance("labels", labels, PassLabels, "a pass's labels (cases.parse_labels())")
    base = case_id.split("+", 1)[0]
    if base not in labels.cases:
        raise InputError("case_id", "a case id of the labelled set", case_id)
    values = [lab.label for lab in getattr(labels.cases[base], metric)]
    if case_id.endswith("+injected") and on_nodes(metric):
        values.insert(INJECTED_AT, "no")  # the planted node: irrelevant by construction
    return values


def _check_rows(rows: Any, metric: str) -> list[dict[str, Any]]:
    metric = check_metric(metric)
    return [r for r in run_rows(rows) if r["metric"] == metric]


#: The labels' two-way reading: faithfulness supported / not (contradicted and not mentioned together),
#: context recall attributed / not (any node counts, not which).
_BINARY: MetricTable[Callable[[str], str]] = MetricTable("the labels' two-way reading", {
    "faithfulness": lambda value: "supported" if value == "supported" else "not_supported",
    "context_recall": lambda value: "none" if value == "none" else "attributed"})
#: What each two-way reading is called in the tables.
READ_AS: MetricTable[str] = MetricTable("the two-way readings' names", {
    "context_recall": "attributed or not", "faithfulness": "supported or not"})


def _collapse(metric: str, value: str, binary: bool) -> str:
    """With ``binary``, the label read two ways (:data:`_BINARY`); otherwise as labelled."""
    return _BINARY[metric](value) if binary and metric in _BINARY else value


def verdict_agreement(rows: Sequence[dict[str, Any]], metric: str, cases: Sequence[Case], labels: PassLabels, *,
                      pipeline: str | None = None, binary: bool = False, seed: int = 0,
                      baseline: bool = True) -> dict[str, Any]:
    """Kappa (with interval) of labels vs judge and labels vs baseline on the same items.

    Each distinct item counts once (first occurrence, by :func:`~ragmetrics_edu.studies.judge_study.cases.content_key`;
    ``duplicates`` says how many repeats were dropped) and the intervals resample pairs (``groups``).
    Returns ``{"judge": AgreementResult, "baseline": AgreementResult, "items": n, "left_out": [...],
    "groups": [pair per item], "labelled" / "judge_verdicts" / "baseline_verdicts": [the three readings, item by
    item, for a lesson to recompute kappa from], "judge_agrees": [0/1 per item], "baseline_agrees": [...]}``
    (``baseline=False`` skips the baseline's kappa: "baseline" is then None).
    ``binary=True`` reads faithfulness as supported / not supported (the baseline cannot tell a
    contradiction from silence, so the binary form is the fair comparison for it) and context recall
    as attributed / not (whichever node).
    """
    binary, baseline = flag("binary", binary), flag("baseline", baseline)
    chosen = [r for r in _check_rows(rows, metric) if r.get("mode") == "same_items" and r.get("pipeline") == pipeline]
    by_id = _by_id(cases)
    labelled, judge, base, left_out, groups, seen = [], [], [], [], [], set()
    duplicates = 0
    for row in chosen:
        if row.get("error"):
            left_out.append(f"{row['case']}: {row['error'][:120]}")
            continue
        truth = labels_for(row["case"], metric, labels)
        if len(truth) != len(row["verdicts"]):
            left_out.append(f"{row['case']}: {len(row['verdicts'])} verdicts for {len(truth)} items")
            continue
        case = by_id[row["case"].split("+", 1)[0]]
        if row["case"].endswith("+injected"):
            case = inject(case)
        overlap = baselines.case_verdicts(case, metric)
        for i, (truth_i, said) in enumerate(zip(truth, row["verdicts"], strict=True)):
            key = (row["case"].endswith("+injected"), content_key(case, metric, i))
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            labelled.append(_collapse(metric, label_of(truth_i), binary))
            judge.append(_collapse(metric, label_of(said), binary))
            base.append(_collapse(metric, label_of(overlap[i]), binary))
            groups.append(unit_of(case))
    if not labelled:
        raise InputError("rows", f"same-items rows for {metric} with usable verdicts", f"{len(chosen)} rows, none usable")
    raters = ("labels", "judge"), ("labels", "word overlap")
    return {"judge": cohen_kappa(labelled, judge, raters=raters[0], seed=seed, groups=groups),
            "baseline": cohen_kappa(labelled, base, raters=raters[1], seed=seed, groups=groups) if baseline else None,
            "items": len(labelled), "duplicates": duplicates, "rows": len(chosen), "left_out": left_out,
            "groups": groups, "labelled": labelled, "judge_verdicts": judge, "baseline_verdicts": base,
            "judge_agrees": [int(h == j) for h, j in zip(labelled, judge, strict=True)],
            "baseline_agrees": [int(h == b) for h, b in zip(labelled, base, strict=True)]}


def extraction_quality(rows: Sequence[dict[str, Any]], metric: str, cases: Sequence[Case], *,
                       pipeline: str | None = None, threshold: float = 0.5) -> dict[str, Any]:
    """The judge's extracted items (full-pipeline rows) matched to the labelled items by content.

    Sums matched, judged and labelled items over the cases: precision = matched / judged,
    recall = matched / labelled. Also lists, per case, the unmatched items on each side.
    """
    by_id = _by_id(cases)
    matched = judged = labelled = 0
    per_case = []
    for row in _check_rows(rows, metric):
        if row.get("mode") != "full" or row.get("pipeline") != pipeline or row.get("error"):
            continue
        reference = list(by_id[row["case"]].items(metric))
        found = list(row["items"] or [])
        result = match_items(reference, found, threshold=threshold) if found else None
        pairs_ = result.values["matched"] if result is not None else 0
        matched, judged, labelled = matched + pairs_, judged + len(found), labelled + len(reference)
        per_case.append({"case": row["case"], "labelled": len(reference), "judged": len(found), "matched": pairs_,
                         "result": result})
    precision = matched / judged if judged else math.nan
    recall = matched / labelled if labelled else math.nan
    f1 = f1_from(precision, recall) if precision + recall > 0 else math.nan   # no match found: undefined here
    return {"precision": precision, "recall": recall, "f1": f1, "matched": matched, "judged": judged,
            "labelled": labelled, "cases": per_case}


def matched_verdicts(rows: Sequence[dict[str, Any]], metric: str, cases: Sequence[Case], labels: PassLabels, *,
                     pipeline: str | None = None, binary: bool = False, seed: int = 0) -> dict[str, Any]:
    """Kappa of labels vs judge on the full-pipeline items that matched a labelled item by content (the interval
    resamples pairs)."""
    labelled, judge, groups, by_id = [], [], [], _by_id(cases)
    for entry in extraction_quality(rows, metric, cases, pipeline=pipeline)["cases"]:
        if entry["result"] is None:
            continue
        row = next(r for r in rows if r["case"] == entry["case"] and r["metric"] == metric
                   and r.get("mode") == "full" and r.get("pipeline") == pipeline)
        truth = labels_for(entry["case"], metric, labels)
        for i, j, _similarity in entry["result"].values["pairs"]:  # 0-based (reference, judged) indices
            labelled.append(_collapse(metric, label_of(truth[i]), binary))
            judge.append(_collapse(metric, label_of(row["verdicts"][j]), binary))
            groups.append(unit_of(by_id[entry["case"].split("+", 1)[0]]))
    if not labelled:
        raise InputError("rows", f"full-pipeline rows for {metric} with matched items", "none")
    return {"judge": cohen_kappa(labelled, judge, raters=("labels", "judge"), seed=seed, groups=groups),
            "items": len(labelled)}


def label_score(case_id: str, metric: str, labels: PassLabels) -> float:
    """The metric's score from the project's labels (faithfulness: supported share, the Ragas rule)."""
    truth = labels_for(case_id, metric, labels)
    return _LABEL_SCORE[metric](truth)


def _share(counts: Callable[[Any], bool]) -> Callable[[list[Any]], float]:
    """The share of labels that ``counts``; NaN with no label."""
    return lambda truth: sum(map(counts, truth)) / len(truth) if truth else math.nan


#: Each labelled metric's score from its labels: context precision by DeepEval's rule, the others a share.
_LABEL_SCORE: MetricTable[Callable[[list[Any]], float]] = MetricTable("the labelled metrics' scores from labels", {
    "context_precision": lambda truth: metrics.context_precision(truth, "deepeval").score,
    "context_recall": _share(lambda v: v is not None),
    "faithfulness": _share(lambda v: v == "supported"),
    "answer_relevancy": _share(lambda v: v == "relevant")})


def pairwise(rows: Sequence[dict[str, Any]], cases: Sequence[Case], labels: PassLabels, *, mode: str = "same_items",
             pipeline: str | None = None, seed: int = 0) -> dict[str, Any]:
    """Faithfulness pairwise accuracy over the labelled pairs: judge vs labels, and word overlap vs labels.

    For each pair (a supported and an unsupported answer to the same question over the same
    context) the labelled order comes from the labels' scores; the judge's from its row scores (a
    pair with a judge error on either side is left out); the baseline's from the share of each
    answer's content words found in the context.
    """
    by_case = {r["case"]: r for r in _check_rows(rows, "faithfulness")
               if r.get("mode") == mode and r.get("pipeline") == pipeline}
    ha, hb, ja, jb, ba, bb, left_out = [], [], [], [], [], [], []
    for sup, uns in pairs(check_cases(cases)):
        if sup.id not in by_case or uns.id not in by_case:
            continue
        a, b = by_case[sup.id], by_case[uns.id]
        if a.get("error") or b.get("error") or a["score"] is None or b["score"] is None:
            left_out.append(sup.pair)
            continue
        ha.append(label_score(sup.id, "faithfulness", labels))
        hb.append(label_score(uns.id, "faithfulness", labels))
        ja.append(float(a["score"]))
        jb.append(float(b["score"]))
        ba.append(baselines.answer_overlap(sup.answer, sup.contexts))
        bb.append(baselines.answer_overlap(uns.answer, uns.contexts))
    if not ha:
        raise InputError("rows", f"faithfulness rows ({mode}) for both cases of at least one pair", "none")
    return {"judge": pairwise_accuracy(ha, hb, ja, jb, seed=seed),
            "baseline": pairwise_accuracy(ha, hb, ba, bb, seed=seed), "pairs": len(ha), "left_out": left_out,
            "judge_credit": [_credit(h1 - h2, j1 - j2) for h1, h2, j1, j2 in zip(ha, hb, ja, jb, strict=True)],
            "baseline_credit": [_credit(h1 - h2, b1 - b2) for h1, h2, b1, b2 in zip(ha, hb, ba, bb, strict=True)]}


def _credit(labelled: float, scored: float) -> float:
    """One pair's credit as :func:`ragmetrics_edu.agreement.pairwise_accuracy` gives it: 1 for the labelled
    order, 0.5 for a tie, 0 for the reverse (a pair the labels tie is not expected here: NaN)."""
    if labelled == 0:
        return math.nan
    if scored == 0:
        return 0.5
    return 1.0 if (labelled > 0) == (scored > 0) else 0.0


def contradiction_counts(found: Mapping[str, Any]) -> dict[str, int]:
    """Faithfulness verdicts on "contradicted", from :func:`verdict_agreement`'s result: ``labelled`` (claims
    labelled so), ``caught`` (of those, called so by the judge: recall = caught / labelled), ``said`` (the judge's
    "contradicted" verdicts), ``wrong`` (of those, on claims labelled otherwise: precision = caught / said),
    ``claims`` (every claim, once)."""
    found = mapping("found", found, "a faithfulness verdict_agreement() result", keys=("judge",))
    values = found["judge"].values
    confusion = values["confusion"]   # rows: the labels, columns: the judge
    c = list(values["classes"]).index("contradicted") if "contradicted" in values["classes"] else -1
    labelled, caught, said = (sum(confusion[c]), confusion[c][c], sum(r[c] for r in confusion)) if c >= 0 else (0, 0, 0)
    return {"labelled": labelled, "caught": caught, "said": said, "wrong": said - caught,
            "claims": sum(map(sum, confusion))}


def kept(name: str, scores: Mapping[str, Any], builds_on: Mapping[str, str | None]) -> str:
    """Is pipeline change ``name`` kept? "baseline" when it builds on nothing, "yes" when its score (``scores``:
    name -> a comparable score, e.g. (pairwise accuracy, kappa)) beats the one it builds on
    (:data:`ragmetrics_edu.designs.faithfulness_checked.BUILDS_ON`), else "no"."""
    name, scores = text("name", name), mapping("scores", scores, "pipeline name -> its score")
    base = mapping("builds_on", builds_on, "pipeline name -> the one it builds on (BUILDS_ON)").get(name)
    if base is None:
        return "baseline"
    return "yes" if base in scores and scores[name] > scores[base] else "no"
