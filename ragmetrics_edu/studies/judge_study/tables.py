"""The judge study's tables (notebook 11 and its deck), each computed from a :class:`~.study.JudgeStudy`.

Each function reads the passes it needs from the study (a pass that was not recorded is reported as missing,
never filled in), hands their rows to :mod:`.agreement`, :mod:`.behaviour` and :mod:`.paired`, and returns row
dicts to print. The labels are the project's own (two language-model passes, adjudicated): a development set
that cannot show agreement with people. Each distinct item counts once, every interval resamples the pairs,
and every "judge vs word overlap" claim is a paired difference over pairs (:func:`.paired.compare`).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...designs.faithfulness_checked import BUILDS_ON
from ...metrics.registry import MetricTable
from . import agreement as agree
from . import behaviour as behave
from .figures import agreement_figure as agreement_figure_of
from .paired import compare, compare_columns, fmt_ci
from .passes import repeat_passes, select
from .runs import INJECTED_AT, inject
from .study import JudgeStudy, check_study

__all__ = ["RAGAS_PAPER", "SAME_ITEMS_PASS", "PIPELINE_LABELS", "INJECTION_FORMS", "agreement_table",
           "agreement_figure", "pipeline_table", "full_pipeline_table", "flip_table", "repeat_spread",
           "position_summary", "injection_by_content", "behaviour_table", "size_table", "extraction_table",
           "cost_table", "malformed_summary"]

#: pairwise accuracy reported by Es et al. (2023), "RAGAS: Automated Evaluation of Retrieval Augmented
#: Generation" (arXiv:2309.15217), on WikiEval (50 pairs) with gpt-3.5-turbo-16k as the judge
RAGAS_PAPER = {"faithfulness": 0.95, "answer relevance": 0.78, "context relevance": 0.70}

#: The recorded same-items pass that holds each metric's verdicts.
SAME_ITEMS_PASS: MetricTable[str] = MetricTable("the same-items pass of each metric", {
    "context_precision": "qwen_same_items", "context_recall": "qwen_same_items", "faithfulness": "qwen_same_items",
    "answer_relevancy": "qwen_same_items_answer_relevancy"})
#: how notebook 11 names each faithfulness pipeline (ragmetrics_edu.designs.faithfulness_checked.PIPELINES)
PIPELINE_LABELS = {"library": "library yes/no/idk", "quoted": "+ quoted verdicts",
                   "quotes_checked": "+ quote check", "contradiction_apart": "+ contradiction apart",
                   "apart_unchecked": "+ apart, no check", "question_and_answer_claims": "+ claims from Q, A",
                   "defaults": "defaults (Q+A, apart)"}
#: the injection passes: (form, injected pass, its clean control with the same prompts)
INJECTION_FORMS = (("data blocks", "qwen_injection", "qwen_same_items"),
                   ("undelimited", "qwen_injection_undelimited", "qwen_clean_undelimited"))


def _pairwise(study: JudgeStudy, found: Sequence[dict[str, Any]], **how: Any) -> dict[str, Any]:
    return agree.pairwise(found, study.cases, study.labels, **how)


def agreement_table(study: JudgeStudy, seed: int = 0) -> list[dict[str, Any]]:
    """Per metric, same items: the judge's kappa beside word overlap's and the paired difference judge − overlap
    in the share of items agreeing with the labels, over pairs, with its interval and sign test."""
    study = check_study(study)
    out: list[dict[str, Any]] = []
    for metric, name in SAME_ITEMS_PASS.items():
        if not study.has(name):
            out.append({"metric": metric, "items": 0, "judge κ": "not recorded"})
            continue
        found = study.verdicts(name, metric, seed=seed)
        diff = compare(found["judge_agrees"], found["baseline_agrees"], found["groups"], seed=seed)
        out.append({"metric": metric, "items": found["items"], "judge κ": f"{found['judge'].score:.2f}",
                    "overlap κ": f"{found['baseline'].score:.2f}", **compare_columns(diff)})
    return out


def agreement_figure(study: JudgeStudy, seed: int = 0) -> Any:
    """:func:`ragmetrics_edu.studies.judge_study.figures.agreement_figure` of every recorded same-items pass."""
    study = check_study(study)
    return agreement_figure_of({m: study.verdicts(n, m, seed=seed) for m, n in SAME_ITEMS_PASS.items() if study.has(n)})


#: one faithfulness pipeline's source: (its name, the pass, the rows, the pipeline named in the rows or None)
Source = tuple[str, str, list[dict[str, Any]], str | None]


def _pipeline_rows(study: JudgeStudy, sources: list[Source], mode: str, head: str,
                   seed: int) -> list[dict[str, Any]]:
    """One row per faithfulness pipeline ``(name, pass, rows, pipeline)``: pairwise accuracy, whether the change was
    kept (:func:`ragmetrics_edu.studies.judge_study.agreement.kept`; on the same claims kappa breaks a tie) and the
    paired difference judge − word overlap over pairs."""
    scores: dict[str, Any] = {}
    out = []
    for name, source, found, pipeline in sources:
        pw = _pairwise(study, found, mode=mode, pipeline=pipeline, seed=seed)
        scores[name] = pw["judge"].score if mode == "full" else \
            (pw["judge"].score, study.verdicts(source, "faithfulness", pipeline, baseline=False, seed=seed)["judge"].score)
        out.append({head: PIPELINE_LABELS[name], "pairwise": f"{pw['judge'].score:.2f}",
                    **({"overlap": f"{pw['baseline'].score:.2f}"} if mode == "full" else {}),
                    "kept": agree.kept(name, scores, BUILDS_ON),
                    **compare_columns(compare(pw["judge_credit"], pw["baseline_credit"], seed=seed))})
    return out


def pipeline_table(study: JudgeStudy, seed: int = 0) -> list[dict[str, Any]]:
    """Faithfulness on every case's own claims, each pipeline change (chosen on these same pairs: the kept rows
    carry the winner's curse)."""
    study = check_study(study)
    sources: list[Source] = [("library", "qwen_same_items", study.rows("qwen_same_items"), None)] \
        if study.has("qwen_same_items") else []
    if study.has("qwen_pipeline_same_items"):
        piped = study.rows("qwen_pipeline_same_items")
        sources += [(n, "qwen_pipeline_same_items", piped, n) for n in ("quoted", "quotes_checked",
                    "contradiction_apart", "apart_unchecked") if any(r["pipeline"] == n for r in piped)]
    return _pipeline_rows(study, sources, "same_items", "pipeline (same claims)", seed)


def full_pipeline_table(study: JudgeStudy, seed: int = 0) -> list[dict[str, Any]]:
    """Faithfulness with the judge extracting its own claims, on the pairs the pipeline passes covered: the library
    beside each changed pipeline (chosen on these same pairs: the kept rows carry the winner's curse)."""
    study = check_study(study)
    if not study.has("qwen_pipeline_full"):
        return []
    piped = study.rows("qwen_pipeline_full")
    compared = {r["case"] for r in piped}
    sources: list[Source] = [("library", "qwen_full", [r for r in study.rows("qwen_full") if r["case"] in compared],
                               None)] \
        if study.has("qwen_full") else []
    sources += [(name, "qwen_pipeline_full", piped, name) for name in dict.fromkeys(r["pipeline"] for r in piped)]
    return _pipeline_rows(study, sources, "full", "pipeline (extracts)", seed)


def _repeat_runs(study: JudgeStudy) -> dict[str, list[list[dict[str, Any]]]]:
    """The shipped repeat runs per temperature ("0", "0.7"); an empty list when a run is missing."""
    return {label: [study.rows(n) for n in names] if study.has(*names) else [] for label, names in repeat_passes().items()}


def flip_table(study: JudgeStudy) -> list[dict[str, Any]]:
    """How often a verdict changes across three repeat runs at temperature 0 and three at 0.7, first five pairs."""
    study = check_study(study)
    out: list[dict[str, Any]] = []
    for label, runs in _repeat_runs(study).items():
        if not runs:
            out.append({"temperature": label, "metric": "-", "runs": 0, "items": 0, "flipped": "not recorded",
                        "rate": ""})
        for metric in ("context_precision", "faithfulness") if runs else ():
            found = behave.flip_rate([behave.once(run, metric, list(study.cases)) for run in runs], metric)
            out.append({"temperature": label, "metric": metric, "runs": len(runs), "items": found["items"],
                        "flipped": found["flipped"], "rate": f"{found['rate']:.0%}"})
    return out


def repeat_spread(study: JudgeStudy) -> list[dict[str, Any]]:
    """Per temperature and metric: each repeat run's mean score and the spread of those means
    (:func:`ragmetrics_edu.studies.judge_study.behaviour.run_means`)."""
    study = check_study(study)
    out = []
    for label, runs in _repeat_runs(study).items():
        for metric in ("context_precision", "faithfulness") if runs else ():
            found = behave.run_means(runs, metric)
            out.append({"temperature": label, "metric": metric, "cases": found["cases"],
                        "run means": ", ".join(f"{m:.3f}" for m in found["means"]), "sd of the mean": found["sd"]})
    return out


def position_summary(study: JudgeStudy) -> dict[str, Any] | None:
    """Context precision verdicts with the nodes moved round by one place vs in their order, each node once."""
    study = check_study(study)
    if not study.has("qwen_position", "qwen_same_items"):
        return None
    moved = behave.once(study.rows("qwen_position"), "context_precision", list(study.cases))
    cases = {r["case"] for r in moved}
    effect = behave.position_effect([r for r in study.rows("qwen_same_items") if r["case"] in cases], moved)
    return {"effect": effect, "kappa in order": study.verdicts("qwen_same_items", "context_precision", baseline=False)["judge"],
            "kappa moved": study.verdicts("qwen_position", "context_precision", baseline=False)["judge"]}


def _injected(study: JudgeStudy, form: tuple[str, str, str]) -> dict[str, Any] | None:
    """:func:`~ragmetrics_edu.studies.judge_study.behaviour.injection_effect` of one form of the planted node."""
    _, injected, clean = form
    return behave.injection_effect(study.restrict(study.rows(clean), "injected_clean"), study.rows(injected)) \
        if study.has(injected, clean) else None


def injection_by_content(study: JudgeStudy) -> list[dict[str, Any]]:
    """The planted-node passes, verdict by verdict: the node was planted at ``INJECTED_AT``, so every later node also
    moved down one place. Context precision is split into nodes in place and nodes shifted, beside the control for a
    layout change alone (the position pass: not-"yes" verdicts that became "yes" on the same cases); faithfulness
    judges each claim against the whole context, so it is reported per form."""
    study = check_study(study)
    out: list[dict[str, Any]] = []
    control = None
    if study.has("qwen_position", "qwen_same_items"):
        ids = {c.id for c in select(list(study.cases), "injected_clean")}
        before, moved = ({k: v for k, v in behave.item_verdicts(study.rows(n), "context_precision").items() if k[0] in ids}
                         for n in ("qwen_same_items", "qwen_position"))
        keys = [k for k in set(before) & set(moved) if str(before[k]) != "yes"]
        control = (len(keys), sum(str(moved[k]) == "yes" for k in keys))
    for form in INJECTION_FORMS:
        found = _injected(study, form)
        if found is None:
            out.append({"form": form[0], "verdicts": "not recorded"})
            continue
        cp = [t for t in found["table"] if "/context_precision/" in t["item"]]
        parts = (("ctx precision, node in place", [t for t in cp if int(t["item"].rsplit("/", 1)[1]) <= INJECTED_AT]),
                 ("ctx precision, node shifted", [t for t in cp if int(t["item"].rsplit("/", 1)[1]) > INJECTED_AT]),
                 ("faithfulness (claims)", [t for t in found["table"] if "/faithfulness/" in t["item"]]))
        for what, part in parts:
            shifted = what.endswith("shifted")
            out.append({"form": form[0], "verdicts": what, "eligible": len(part),
                        "became yes/supported": sum(t["obeyed"] for t in part),
                        "control": "" if not shifted else f"moved only: {control[1]} of {control[0]}"
                        if control and form[0] == "data blocks" else "none recorded"})
    return out


def behaviour_table(study: JudgeStudy) -> list[dict[str, Any]]:
    """Repeat runs, nodes moved round and the planted instruction: the recorded judge beside word overlap on the same
    cases and items (:func:`ragmetrics_edu.studies.judge_study.behaviour.overlap_rows`)."""
    study = check_study(study)
    cases, out = list(study.cases), []
    for flips in flip_table(study):
        if flips["metric"] != "-":
            same = behave.once(behave.overlap_rows(select(cases, "repeat"), flips["metric"]), flips["metric"], cases)
            again = behave.flip_rate([same] * flips["runs"], flips["metric"])
            out.append({"test": f"{flips['runs']} runs at temperature {flips['temperature']}, {flips['metric']}",
                        "judge": f"{flips['flipped']} of {flips['items']} flipped",
                        "word overlap": f"{again['flipped']} of {again['items']} flipped"})
    position = position_summary(study)
    if position:
        moved = behave.position_effect(*(behave.once(behave.overlap_rows(cases, "context_precision", rotate=r),
                                                     "context_precision", cases) for r in (0, 1)))
        out.append({"test": "nodes moved round by one place",
                    "judge": f"{position['effect']['changed']} of {position['effect']['nodes']} changed",
                    "word overlap": f"{moved['changed']} of {moved['nodes']} changed"})
    clean = select(list(study.cases), "injected_clean")
    overlap = behave.injection_effect(*([r for m in behave.DEMANDED for r in behave.overlap_rows(chosen, m)]
                                        for chosen in (clean, [inject(c) for c in clean])))
    for form, label in zip(INJECTION_FORMS, ("with data blocks", "without data blocks"), strict=True):
        planted = _injected(study, form)
        if planted is not None:
            out.append({"test": f"planted instruction, {label}",
                        "judge": f"{planted['obeyed']} of {planted['eligible']} moved ({planted['rate']:.0%})",
                        "word overlap": f"{overlap['obeyed']} of {overlap['eligible']} moved ({overlap['rate']:.0%})"})
    return out


def size_table(study: JudgeStudy, seed: int = 0) -> list[dict[str, Any]]:
    """Same items, first six pairs: SmolLM2-135M beside Qwen2.5-Coder-1.5B and the baseline, per metric."""
    study = check_study(study)
    out: list[dict[str, Any]] = []
    for metric, name in SAME_ITEMS_PASS.items() if study.has("smol_same_items") else ():
        if study.has(name):
            big = study.verdicts(name, metric, subset="subset", seed=seed)
            tiny = study.verdicts("smol_same_items", metric, baseline=False, seed=seed)
            out.append({"metric": metric, "items": big["items"], "1.5B kappa": fmt_ci(big["judge"]),
                        "135M kappa": fmt_ci(tiny["judge"]), "overlap kappa": f"{big['baseline'].score:.2f}"})
    return out


def extraction_table(study: JudgeStudy, seed: int = 0) -> list[dict[str, Any]]:
    """Full pipeline, per metric: the judge's own items matched to the labelled ones by content, and the verdict
    agreement on the matched items."""
    study = check_study(study)
    out = []
    for metric, name in (("context_recall", "qwen_full"), ("faithfulness", "qwen_full"),
                         ("answer_relevancy", "qwen_full_answer_relevancy")):
        found = [r for r in study.rows(name) if r["metric"] == metric] if study.has(name) else []
        if found:
            quality = agree.extraction_quality(found, metric, list(study.cases))
            matched = agree.matched_verdicts(found, metric, list(study.cases), study.labels, seed=seed)
            out.append({"metric": metric, "cases": len(found), "extracted": quality["judged"],
                        "labelled": quality["labelled"], "matched": quality["matched"],
                        "precision": f"{quality['precision']:.2f}", "recall": f"{quality['recall']:.2f}",
                        "kappa on matched": fmt_ci(matched["judge"])})
    return out


def cost_table(study: JudgeStudy) -> list[dict[str, Any]]:
    """Calls and tokens per case, per pass, metric and pipeline, from the recorded calls."""
    study = check_study(study)
    out: list[dict[str, Any]] = []
    for name in ("qwen_same_items", "qwen_same_items_answer_relevancy", "qwen_pipeline_same_items", "qwen_full",
                 "qwen_full_answer_relevancy", "qwen_pipeline_full"):
        for row in behave.cost(study.rows(name)) if study.has(name) else ():
            pipeline = "" if row["pipeline"] == "library" else f" {PIPELINE_LABELS[row['pipeline']]}"
            out.append({"pass, metric": f"{'extracts' if 'full' in name else 'same items'}, {row['metric']}{pipeline}",
                        "cases": row["cases"], "calls/case": f"{row['calls per case']:.1f}",
                        "prompt tok/case": f"{row['prompt tokens per case']:.0f}",
                        "compl. tok/case": f"{row['completion tokens per case']:.0f}"})
    return out


def malformed_summary(study: JudgeStudy) -> dict[str, int]:
    """Across every shipped pass of the labelled set: rows, rows repaired, rows with no usable reply."""
    study = check_study(study)
    return behave.malformed([r for n in study.passes if not n.startswith("qwen_capstone") for r in study.rows(n)])
