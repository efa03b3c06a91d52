"""Choosing a faithfulness judge by the rules the course teaches, on a public benchmark's constructed labels.

The data: the shipped HaluEval QA rows (:mod:`ragmetrics_edu.data.halueval`), each a *pair*
(a right and a hallucinated answer to one question over one passage), split once by row number
into **dev** (choose here) and **test** (score once, after the choice is frozen).

The measure: **pairwise accuracy**, the share of pairs whose right answer scores above the
hallucinated one (a tie counts half; 0.5 is chance). Every interval resamples pairs, and every
"A beats B" is a paired difference on the same pairs with its interval and a sign test.

The designs (:data:`DESIGNS`) are the configurations tried on dev; the choice log
(``data/halueval_choice_log.json``) records each one's dev figure, the one chosen and why, and
then the single test figure. Recordings of the real model live in ``data/recordings/halueval/``;
:func:`ragmetrics_edu.course.halueval.record.record` makes them against a running ``make judge-server``
(cached, resumable).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from ... import designs, stats
from ...baselines import answer_overlap
from ...data import halueval, path
from ...designs.faithfulness_checked import faithfulness_checked
from ...designs.faithfulness_reanswer import reanswer_reply
from ...errors import InputError
from ...judges.batch import run_tasks
from ...judges.errors import JudgeError
from ...judges.replay import ReplayJudge
from ...metrics.correctness import f1_from
from ...metrics.reanswer import score_reanswer
from ...plots import new_figure
from ...validate import number, plain, records, text, text_list
from ...validate import path as checked_path

__all__ = ["Design", "DESIGNS", "recording_name", "pair_scores", "pairwise", "choice_log", "design_calls",
           "compare", "design_table", "detection", "best_threshold", "RULE", "choose", "freeze_choice", "score_test",
           "rescore_comparator", "LOG", "design_of", "checked_split", "checked_threshold", "scored_pairs"]

#: The study's baseline design (counting words, no model): every other design is compared with it.
BASELINE = "word_overlap"

#: the choice log, shipped with the package
LOG = "halueval_choice_log.json"

#: how the choice is made, written into the choice log before the test part is scored
RULE = ("Highest pairwise accuracy on the whole dev part (160 pairs); a tie goes to fewer calls per answer, "
        "then to the design listed first. Designs tried on a dev sample only (the claim pipelines, 2-3 calls "
        "an answer) are eligible only if they beat word overlap on that sample's same pairs.")


@dataclass(frozen=True)
class Design:
    """One configuration tried on dev: which pipeline, with which options, recorded as which pass."""

    name: str
    what: str
    pipeline: str            # "word_overlap", "reanswer", "library", "checked"
    options: tuple[tuple[str, Any], ...] = ()
    recording: str | None = None   # the recorded pass it replays (several designs share one)
    dev_limit: int | None = None   # expensive designs are tried on the first n dev pairs only
    test_limit: int | None = None  # ... and shown on the first n test pairs only


#: every configuration tried on dev, in the order they were tried
DESIGNS: dict[str, Design] = {d.name: d for d in (
    Design("word_overlap", "share of the answer's content words found in the passage (no model)", "word_overlap"),
    Design("library", "designs.faithfulness: claims from the answer, then yes/no/idk per claim (2 calls)",
           "library", (), "library", 20, 40),
    Design("checked_defaults", "designs.faithfulness_checked with its defaults: claims from question and answer, "
           "quoted verdicts, contradiction asked apart (2-3 calls)", "checked", (), "checked", 6),
    *(Design(f"reanswer_{compare}_w{int(100 * weight)}",
             f"the judge answers from the passage; {compare} of the answer's words against its answer, "
             f"weighted {1 - weight:g} with word overlap weighted {weight:g}",
             "reanswer", (("compare", compare), ("grounding_weight", weight)), "reanswer")
      for compare in ("recall", "precision", "f1") for weight in (0.0, 0.5, 0.75, 0.9)),
)}


def recording_name(pass_name: str, split: str) -> str:
    """The shipped recording of one pass on one part, e.g. ``halueval/reanswer_dev``."""
    return f"halueval/{pass_name}_{split}"


def design_of(name: Any) -> Design:
    if not isinstance(name, str) or name not in DESIGNS:
        raise InputError("design", "one of " + ", ".join(DESIGNS), name)
    return DESIGNS[name]


def score_answer(design: Design, judge: Any, pair: halueval.HaluPair, answer: str) -> float:
    """The design's score of one answer of ``pair``, asking ``judge`` (a live one when recording)."""
    context = [pair.knowledge]
    if design.pipeline == BASELINE:
        return answer_overlap(answer, context)
    options = dict(design.options)
    if design.pipeline == "reanswer":
        return designs.faithfulness_reanswer(judge, answer, context, question=pair.question, **options).score
    if design.pipeline == "library":
        return designs.faithfulness(judge, answer, context, question=pair.question, variant="ragas").score

    return faithfulness_checked(judge, answer, context, question=pair.question, variant="ragas").score


def _replayed(design: Design, judge: Any, split: str, pair: halueval.HaluPair, answer: str) -> float:
    """The design's score of one answer from its recording (a task of the one runner); a re-answer design
    scores the recorded judge's own answer for the pair (NaN when there is none), the others ask ``judge``."""
    if design.pipeline == "reanswer" and design.recording is not None:
        reply = _judge_answer(design.recording, split, pair)
        if reply is None:
            return math.nan
        return score_reanswer(answer, reply, [pair.knowledge], **dict(design.options)).score
    return score_answer(design, judge, pair, answer)


def pairs_for(design: Design, split: str) -> list[halueval.HaluPair]:
    """The pairs of ``split`` the design is scored on (an expensive design: the first few only)."""
    limit = design.dev_limit if split == "dev" else design.test_limit
    return halueval.pairs(split, limit=limit)


def pair_scores(design: str, split: str) -> list[dict[str, Any]]:
    """One row per pair: the design's score of the right and of the hallucinated answer, from the recording.

    A NaN score (e.g. no claims under Ragas' rule) is kept as NaN; :func:`pairwise` counts such a pair as a tie.
    The shipped recordings do not change while the course runs, so each design and split is scored once per
    process (:func:`forget_scores` forgets them, as the recorder does after writing one); the rows are copies."""
    return [dict(row) for row in _scored(design_of(design).name, checked_split(split))]


@lru_cache(maxsize=None)
def _scored(design: str, split: str) -> tuple[dict[str, Any], ...]:
    """Every answer of the design's pairs, right then hallucinated, pair by pair, one task each through the
    one case runner (:func:`~ragmetrics_edu.judges.batch.run_tasks`), one at a time in that order; an answer
    the recorded judge gave no usable reply for (a kept :class:`JudgeError`) scores NaN."""
    chosen = design_of(design)
    judge = None if chosen.recording is None else _replay_judge(chosen.recording, split)
    pairs = pairs_for(chosen, split)
    tasks = [partial(_replayed, chosen, judge, split, pair, answer)
             for pair in pairs for answer in (pair.right_answer, pair.hallucinated_answer)]
    run = run_tasks(tasks, judge, max_concurrency=1, keep=(JudgeError,), desc=chosen.name, unit="answer")
    scores = [outcome.result if outcome.ok else math.nan for outcome in run]
    return tuple({"pair": pair.id, "right": right, "hallucinated": wrong, "outcome": _outcome(right, wrong)}
                 for pair, right, wrong in zip(pairs, scores[0::2], scores[1::2], strict=True))


@lru_cache(maxsize=None)
def _replay_judge(recording: str, split: str) -> ReplayJudge:
    return ReplayJudge(path(f"recordings/{recording_name(recording, split)}.json"))


@lru_cache(maxsize=None)
def _judge_answer(recording: str, split: str, pair: halueval.HaluPair) -> str | None:
    """The recorded judge's own answer for ``pair`` (None: no usable reply, the design scores NaN). It depends
    on neither the answer scored nor the design's options, so the re-answer designs replay it once."""
    try:
        return reanswer_reply(_replay_judge(recording, split), [pair.knowledge], question=pair.question)
    except JudgeError:
        return None


def forget_scores() -> None:
    """Forget every score and replay judge: a recording was just written."""
    for cached in (_scored, _replay_judge, _judge_answer):
        cached.cache_clear()


def checked_split(split: Any) -> str:
    if not isinstance(split, str) or split not in halueval.SPLITS:
        raise InputError("split", "'dev' or 'test'", split)
    return split


def _outcome(right: float, wrong: float) -> float:
    """1 when the right answer scores higher, 0 when lower, 0.5 for a tie (or a NaN on either side)."""
    if math.isnan(right) or math.isnan(wrong) or right == wrong:
        return 0.5
    return 1.0 if right > wrong else 0.0


def pairwise(rows: list[dict[str, Any]]) -> float:
    """Pairwise accuracy: the mean outcome over pairs (0.5 is chance)."""
    rows = records("rows", rows, "scored pairs (pair_scores())", keys=("outcome",))
    for i, row in enumerate(rows):
        number(f"rows[{i}].outcome", row["outcome"], "an outcome: 0, 0.5 or 1", low=0.0, high=1.0)
    if not rows:
        raise InputError("rows", "at least one scored pair", rows)
    return sum(r["outcome"] for r in rows) / len(rows)


def design_calls(design: str, split: str) -> dict[str, float]:
    """Calls and tokens the design's recording holds, per answer scored (0 for word overlap)."""
    chosen, split = design_of(design), checked_split(split)
    n_answers = 2 * len(pairs_for(chosen, split))
    if chosen.recording is None:
        return {"calls_per_answer": 0.0, "tokens_per_answer": 0.0, "seconds_per_answer": 0.0}
    data = json.loads(path(f"recordings/{recording_name(chosen.recording, split)}.json").read_text("utf-8"))
    replies = data["replies"]
    tokens = sum((r.get("prompt_tokens") or 0) + (r.get("completion_tokens") or 0) for r in replies)
    seconds = sum(r.get("latency_s") or 0.0 for r in replies)
    return {"calls_per_answer": len(replies) / n_answers, "tokens_per_answer": tokens / n_answers,
            "seconds_per_answer": seconds / n_answers}


def choice_log() -> dict[str, Any]:
    """The written choice log: every design's dev figure, the choice and why, then the one test run."""
    return json.loads(path(LOG).read_text("utf-8"))


def choose(table: list[dict[str, Any]]) -> str:
    """Apply :data:`RULE` to the dev table (rows from :func:`design_table`); returns the chosen design."""
    table = records("table", table, "the dev table (design_table('dev'))",
                    keys=("design", "pairs", "difference", "pairwise", "calls_per_answer"))
    if not table:
        raise InputError("table", "the dev table (design_table('dev')), at least one row", table)
    for i, row in enumerate(table):
        design_of(row["design"])
        for key in ("pairs", "difference", "pairwise", "calls_per_answer"):
            number(f"table[{i}].{key}", row[key], "a number")
    full = max(r["pairs"] for r in table)
    eligible = [r for r in table if r["pairs"] == full or r["difference"] > 0]
    order = {name: i for i, name in enumerate(DESIGNS)}
    best = max(eligible, key=lambda r: (r["pairwise"], -r["calls_per_answer"], -order[r["design"]]))
    return str(best["design"])


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, 6)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def freeze_choice(target: str | Path) -> dict[str, Any]:
    """Write the dev half of the choice log: every design's dev row, the rule, the choice and its threshold.

    Run once, before :func:`score_test`; it refuses to overwrite a log that already holds test figures.
    A threshold that is NaN (no scored dev pair, see :func:`best_threshold`) is written as ``null``."""
    target = checked_path("target", target, exists=False, expected="a path for the choice log (a .json file)")
    if target.exists() and _log(target).get("test"):
        raise InputError("target", "a choice log without test figures (the test part is scored once)", str(target))
    table = design_table("dev")
    chosen = choose(table)
    log = {"data": halueval.SOURCE, "unit": "pair (a right and a hallucinated answer to one question)",
           "measure": "pairwise accuracy: share of pairs whose right answer scores higher (tie = 0.5)",
           "rule": RULE, "dev": [{"what": DESIGNS[r["design"]].what, **r} for r in table],
           "chosen": {"design": chosen, "threshold": best_threshold(chosen),
                      "word_overlap_threshold": best_threshold("word_overlap"),
                      "frozen_at": datetime.now(timezone.utc).isoformat(timespec="seconds")},
           "test": None}
    _write_log(target, log)
    return log


def score_test(target: str | Path, designs: tuple[str, ...] = ("library",)) -> dict[str, Any]:
    """Score the frozen choice once on the test part, with word overlap and ``designs`` beside it, and
    write the test half of the log. Refuses when the log has no choice, or already has test figures.
    A ``null`` threshold in the log is read as NaN: :func:`detection` then flags nothing."""
    target = checked_path("target", target, expected="the frozen choice log (freeze_choice())")
    others = [design_of(d).name for d in text_list("designs", designs)]
    log = _log(target)
    if not log.get("chosen") or log.get("test"):
        raise InputError("target", "a frozen choice log whose test part is still empty", str(target))
    chosen = log["chosen"]["design"]
    names = [chosen, BASELINE, *[d for d in others if d not in (chosen, BASELINE)]]
    table = [{**compare(name, "test"), **design_calls(name, "test")} for name in names]
    found = [detection(chosen, "test", log["chosen"]["threshold"]),
             detection("word_overlap", "test", log["chosen"]["word_overlap_threshold"])]
    log["test"] = {"scored_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "table": table,
                   "detection": found}
    _write_log(target, log)
    return log


def rescore_comparator(target: str | Path, design: str, why: str) -> dict[str, Any]:
    """Recompute the test row of a design shown beside the choice (``library``, say) after its recording
    was extended to more test pairs, and note when and ``why`` in the log.

    Never the chosen design nor word overlap: their test figures are scored once. A comparator chooses
    nothing, so more pairs only narrow its interval."""
    target = checked_path("target", target, expected="the choice log, with its test part scored")
    log = _log(target)
    name = design_of(design).name
    why = text("why", why)
    if not why.strip():
        raise InputError("why", "a sentence saying why the comparator is rescored", why)
    if not log.get("test") or not log.get("chosen"):
        raise InputError("target", "a choice log whose test part is scored", str(target))
    if name in (log["chosen"]["design"], "word_overlap"):
        raise InputError("design", "a comparator, not the chosen design or word overlap (scored once)", name)
    rows = log["test"]["table"]
    at = next((i for i, r in enumerate(rows) if r["design"] == name), None)
    if at is None:
        raise InputError("design", f"a design in the log's test table ({[r['design'] for r in rows]})", name)
    rows[at] = {**compare(name, "test"), **design_calls(name, "test")}
    log["test"].setdefault("rescored", []).append(
        {"design": name, "pairs": rows[at]["pairs"], "why": why,
         "at": datetime.now(timezone.utc).isoformat(timespec="seconds")})
    _write_log(target, log)
    return log


def _write_log(target: Path, log: dict[str, Any]) -> None:
    """Write the choice log as the package ships it (NaN as ``null``, floats to 6 places)."""
    target.write_text(json.dumps(_plain(log), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _log(target: Path) -> dict[str, Any]:
    """A choice log read from ``target`` (a JSON object), else an InputError."""
    try:
        log = json.loads(target.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError("target", "a choice log (a JSON file)", str(target), hint=f"it cannot be read ({exc})") from None
    if not isinstance(log, dict):
        raise InputError("target", "a choice log (a JSON object)", str(target))
    return log


def compare(design: str, split: str, *, baseline: str = "word_overlap", seed: int = 0) -> dict[str, Any]:
    """``design`` against ``baseline`` on the same pairs: paired difference of outcomes with its interval,
    and a sign test on the pairs where they differ (the pair is the unit)."""
    rows = pair_scores(design, split)
    limit = len(rows)
    base = pair_scores(baseline, split)[:limit]
    if [r["pair"] for r in base] != [r["pair"] for r in rows]:
        raise InputError("baseline", f"a design scored on the same {split} pairs as {design}", baseline)
    a, b = [r["outcome"] for r in rows], [r["outcome"] for r in base]
    ids = [r["pair"] for r in rows]
    acc = stats.bootstrap_ci(a, seed=seed, ids=ids)
    if design == baseline:
        return {"design": design, "baseline": baseline, "split": split, "pairs": limit, "pairwise": pairwise(rows),
                "pairwise_ci": acc.ci, "baseline_pairwise": pairwise(base), "difference": 0.0,
                "difference_ci": (0.0, 0.0), "better": 0, "worse": 0, "same": limit, "sign_p": 1.0,
                "tells_apart": False}
    diff = stats.paired_bootstrap(a, b, labels=(design, baseline), ids=ids, seed=seed)
    sign = stats.sign_test(a, b, labels=(design, baseline), ids=ids)
    low, high = diff.ci if diff.ci is not None else (math.nan, math.nan)
    return {"design": design, "baseline": baseline, "split": split, "pairs": limit, "pairwise": pairwise(rows),
            "pairwise_ci": acc.ci, "baseline_pairwise": pairwise(base), "difference": diff.score,
            "difference_ci": diff.ci, "better": sign.values["wins"], "worse": sign.values["losses"],
            "same": limit - sign.values["wins"] - sign.values["losses"], "sign_p": sign.p_value,
            "tells_apart": not (low <= 0 <= high)}


def design_table(split: str, designs: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per design: pairwise accuracy with its interval (pairs resampled), the paired difference
    from word overlap on the same pairs, and the cost per answer."""
    split = checked_split(split)
    names = (text_list("designs", designs) if designs is not None else []) or list(DESIGNS)
    out = []
    for name in names:
        row = compare(name, split)
        cost = design_calls(name, split)
        out.append({**row, **cost})
    return out


def _flags(rows: list[dict[str, Any]], threshold: float) -> tuple[int, int, int, int]:
    """(tp, fp, fn, tn) for "unfaithful" = score below threshold; hallucinated answers are the positives."""
    tp = sum(1 for r in rows if r["hallucinated"] < threshold)
    fn = len(rows) - tp
    fp = sum(1 for r in rows if r["right"] < threshold)
    tn = len(rows) - fp
    return tp, fp, fn, tn


def checked_threshold(value: Any) -> float:
    """A finite threshold, or NaN for "none" (``None`` or a NaN), else an InputError naming ``threshold``."""
    value = plain(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return math.nan
    return number("threshold", value, "a score threshold: a finite number, or None/NaN for none")


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, f1_from(precision, recall)


def scored_pairs(design: str, split: str) -> list[dict[str, Any]]:
    """The design's rows on a part where both answers have a score (a NaN on either side is left out)."""
    return [r for r in pair_scores(design, split) if not (math.isnan(r["right"]) or math.isnan(r["hallucinated"]))]


def best_threshold(design: str) -> float:
    """The threshold chosen on dev: the one (among midpoints of the dev scores) with the best F1 for the
    unfaithful class, an answer being flagged when its score is below it; ties go to the lower threshold.

    NaN when the design has no dev pair with both answers scored: there is nothing to choose from.
    :func:`freeze_choice` writes it as ``null`` and :func:`detection` flags nothing with it."""
    rows = scored_pairs(design, "dev")
    if not rows:
        return math.nan
    scores = sorted({r["right"] for r in rows} | {r["hallucinated"] for r in rows})
    candidates = [(x + y) / 2 for x, y in zip(scores, scores[1:], strict=False)] or scores
    return max(candidates, key=lambda t: (_prf(*_flags(rows, t)[:3])[2], -t))


def detection(design: str, split: str, threshold: float | None) -> dict[str, Any]:
    """Precision, recall and F1 of flagging hallucinated answers (score below ``threshold``) on a part.

    A NaN threshold (from :func:`best_threshold` when dev had no scored pair; ``None``, how the choice
    log writes a NaN, counts as NaN) means no threshold: nothing is flagged, so tp = fp = 0, every
    hallucinated answer is a miss and precision, recall and F1 are 0."""
    threshold = checked_threshold(threshold)
    rows = scored_pairs(design, split)
    tp, fp, fn, tn = _flags(rows, threshold)
    precision, recall, f1 = _prf(tp, fp, fn)
    return {"design": design, "split": split, "threshold": threshold, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": precision, "recall": recall, "f1": f1}


# -- figures ---------------------------------------------------------------------------------------
def plot_distributions(designs: list[str], split: str, thresholds: dict[str, float] | None = None) -> Any:
    """Score distributions of right vs hallucinated answers, one panel per design, with the dev threshold."""
    fig = new_figure((4.6 * len(designs), 3.2))  # no pyplot: an inline backend would also show it raw
    axes = fig.subplots(1, len(designs), squeeze=False)
    bins = [i / 20 for i in range(21)]
    for ax, name in zip(axes[0], designs, strict=True):
        rows = pair_scores(name, split)
        right = [r["right"] for r in rows if not math.isnan(r["right"])]
        wrong = [r["hallucinated"] for r in rows if not math.isnan(r["hallucinated"])]
        ax.hist(right, bins=bins, alpha=0.65, label="right answer", color="#2a7ab0")
        ax.hist(wrong, bins=bins, alpha=0.65, label="hallucinated answer", color="#d9742b")
        if thresholds and name in thresholds:
            ax.axvline(thresholds[name], color="black", linestyle="--", linewidth=1.2,
                       label=f"threshold (dev) {thresholds[name]:.2f}")
        ax.set_title(f"{name} ({split}, {len(rows)} pairs)", fontsize=10)
        ax.set_xlabel("score")
        ax.set_xlim(0, 1)
    axes[0][0].set_ylabel("answers")
    axes[0][-1].legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


# -- reading the log -------------------------------------------------------------------------------
def _interval(pair: Any) -> str:
    return "–" if not pair else f"[{pair[0]:.2f}, {pair[1]:+.2f}]".replace("[+", "[")


def table_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of a dev or test table, shortened for a 100-column printout (no interval under 10 pairs)."""
    out = []
    for r in rows:
        few, base = r["pairs"] < 10, r["design"] == BASELINE
        out.append({"design": r["design"], "pairs": r["pairs"], "acc": f"{r['pairwise']:.3f}",
                    "95% CI": "too few" if few else f"[{r['pairwise_ci'][0]:.3f}, {r['pairwise_ci'][1]:.3f}]",
                    "Δ overlap": "–" if base else f"{r['difference']:+.3f}",
                    "Δ 95% CI": "–" if base else "too few" if few else
                    f"[{r['difference_ci'][0]:+.3f}, {r['difference_ci'][1]:+.3f}]",
                    "+/-": "–" if base else f"+{r['better']}/-{r['worse']}",
                    "calls": f"{r['calls_per_answer']:.3f}"})
    return out


def check_log(log: dict[str, Any] | None = None) -> list[str]:
    """Recompute every figure of the choice log from the recordings; the differences found (none when it holds)."""
    log = choice_log() if log is None else log
    problems = []
    for part, rows in (("dev", log["dev"]), ("test", (log.get("test") or {}).get("table", []))):
        for row in rows:
            fresh = _plain({**compare(row["design"], part), **design_calls(row["design"], part)})
            for key, value in fresh.items():
                if key in row and row[key] != value:
                    problems.append(f"{part} {row['design']} {key}: log {row[key]!r}, recordings {value!r}")
    if choose(log["dev"]) != log["chosen"]["design"]:
        problems.append(f"the rule picks {choose(log['dev'])}, the log says {log['chosen']['design']}")
    return problems
