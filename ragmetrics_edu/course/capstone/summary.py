"""The capstone's take-away and its paired tests, computed once for notebook 16 and deck 16.

Both the notebook and the deck print the take-away from :func:`takeaway` and :func:`takeaway_lines`,
so the two cannot say different things; every number in it is computed from the recorded rows.

* :func:`paired` - one metric, system ``a`` against ``b`` question by question: how many questions
  each wins, the mean difference, exact permutation and sign-test p-values, and an interval that
  resamples the questions (:func:`ragmetrics_edu.stats.grouped_bootstrap_ci`), which is None under
  ten questions: then the verdict is "too few to tell".
* :func:`attribute` / :func:`attribution` - each row's failure blamed on one component: the
  retriever where the answer never reached the generator (no grade-2 passage retrieved for an
  answerable question), whatever else the row carries; the generator only where retrieval
  succeeded; "generator or judge" where the rules' only evidence against the generator is the
  judge's own faithfulness verdict, which no rule checks. Counting tags is not attribution: a
  retrieval miss drags generator tags behind it.
* :func:`retriever_comparison` - BM25 against MiniLM on every answerable question of the lab (a
  rule that does not look at the outcome), judged by the corpus's grades, no judge; its verdict is
  about this corpus. :func:`retriever_by_kind` - the same "answer retrieved" counts per question kind.
* :func:`component_counts` - the failure tags counted by the component they point at.
* :func:`tag_table` - :func:`ragmetrics_edu.course.capstone.diagnosis.count_table` turned on its side: one row
  per tag (then "untagged" and "rows"), one column per system and "all", so it fits 100 columns.
* :func:`takeaway` / :func:`takeaway_lines` - the numbers and the sentences of the take-away. A component is
  called the largest single cause only when it beats every other with the ambiguous rows ("generator or
  judge") counted against it: its fewest rows above each other's most; else the take-away says there is no single
  largest cause and gives each component's range.
* :func:`plot_paired` - each question's two scores joined by a line, one panel per metric.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ... import stats
from ...errors import InputError
from ...plots import new_figure
from ...retrieval import compare_retrievers, evaluate_retriever, load_corpus
from ...validate import as_list, flag, integer, mapping, text
from . import diagnosis as dg
from . import systems as capstone

__all__ = ["MIN_UNITS", "BLAME", "paired", "attribute", "attribution", "reading_rows", "retriever_comparison",
           "retriever_by_kind", "component_counts", "tag_table", "takeaway", "takeaway_lines", "plot_paired"]

#: Under this many independent units (questions) no interval is given: too few to tell.
MIN_UNITS = 10
#: where :func:`attribute` puts a row, in the order its rule tries them
BLAME = ("retriever", "generator", "generator or judge", "judge", "no failure")


def paired(rows: Any, metric: str, a: str = "minilm", b: str = "bm25", seed: int = 0) -> dict[str, Any]:
    """``a`` − ``b`` on ``metric`` over the questions both systems scored, with its verdict."""
    pairs = dg.paired_scores(rows, metric, a, b)
    ids, xs, ys = pairs["ids"], pairs["a"], pairs["b"]
    d = [x - y for x, y in zip(xs, ys, strict=True)]
    n = len(d)
    out: dict[str, Any] = {"metric": metric, "n": n, "a": a, "b": b, "ids": ids, "differences": d,
                           "better": sum(v > 0 for v in d), "worse": sum(v < 0 for v in d),
                           "same": sum(v == 0 for v in d), "dropped": pairs["dropped"]}
    if not n:
        return dict(out, **{f"mean {a}": math.nan, f"mean {b}": math.nan, "difference": math.nan,
                            "interval": None, "p perm": math.nan, "p sign": math.nan, "verdict": "nothing to compare"})
    interval = stats.grouped_bootstrap_ci(d, ids, seed=seed, min_groups=MIN_UNITS).ci
    perm = stats.permutation_test(xs, ys, labels=(a, b), ids=ids, seed=seed)
    sign = stats.sign_test(xs, ys, labels=(a, b), ids=ids)
    return dict(out, **{f"mean {a}": math.fsum(xs) / n, f"mean {b}": math.fsum(ys) / n,
                        "difference": math.fsum(d) / n, "interval": interval, "p perm": perm.p_value,
                        "p sign": sign.p_value, "verdict": _verdict(interval, n, a, b)})


def _verdict(interval: tuple[float, float] | None, n: int, a: str, b: str) -> str:
    """What an interval of the difference a − b over n questions says."""
    if interval is None:
        return f"too few to tell ({n} questions, under {MIN_UNITS})"
    if interval[0] <= 0 <= interval[1]:
        return "the data cannot tell them apart (the interval includes 0)"
    return f"{a if interval[0] > 0 else b} is better"


def attribute(row: Mapping[str, Any]) -> str:
    """The one component a tagged row's failure is blamed on (one of :data:`BLAME`).

    The retriever, when the question is answerable and no grade-2 passage was retrieved: the
    answer never reached the generator, so whatever the generator did next is not its fault. Else
    the generator, when ``incomplete_answer`` fires (a word count against the reference, no judge
    involved), or when ``unsupported_claim`` fires on a row someone read (``row["read"]`` True: the
    annotator's tag is its own judgement, see :func:`reading_rows`). "Generator or judge" when the
    rules' only generator tag is ``unsupported_claim``: it is the judge's faithfulness verdict, and
    no rule checks that verdict (``judge_error`` reads recorded failures, context precision and
    context recall, never faithfulness), so a wrong verdict and a wrong answer look the same. The
    judge, when only its tag fires; "no failure" otherwise (a badly ranked answer passage still
    reached the generator).
    """
    row = mapping("row", row, "a tagged row (diagnosis.tag_rows)", keys=("tags",))
    tags = set(as_list("row['tags']", row["tags"], "a list of tag names"))
    if unknown := tags - set(dg.TAGS):
        raise InputError("row['tags']", f"tag names from {', '.join(dg.TAGS)}", sorted(unknown))
    read = flag("row['read']", row.get("read", False))
    if "retrieval_miss" in tags:
        return "retriever"
    if "incomplete_answer" in tags:
        return "generator"
    if "unsupported_claim" in tags:
        return "generator" if read else "generator or judge"
    return "judge" if "judge_error" in tags else "no failure"


def attribution(tagged: Any, by: str = "system") -> list[dict[str, Any]]:
    """Rows counted by :func:`attribute`: one row per blame, one column per value of ``by``, and "all"."""
    rows = dg.tagged_rows(tagged, keys=(by,))
    values = list(dict.fromkeys(str(r[by]) for r in rows))
    blamed = [(str(r[by]), attribute(r)) for r in rows]
    return [{"blame": blame, **{v: sum(b == blame and g == v for g, b in blamed) for v in values},
             "all": sum(b == blame for _, b in blamed)} for blame in BLAME]


def reading_rows(reading: Mapping[tuple[str, str], Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The annotator's reading (:func:`~ragmetrics_edu.course.capstone.diagnosis.annotator_diagnosis`) as tagged
    rows, so :func:`attribution` applies the same rule to it. Each is marked ``read``: the annotator's
    ``unsupported_claim`` is its own reading of the answer, not the judge's verdict, so it is the generator's."""
    reading = mapping("reading", reading, "diagnosis.annotator_diagnosis()")
    for key in reading:
        if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, str) for k in key)):
            raise InputError("reading", "diagnosis.annotator_diagnosis(): keys (question, system)", key)
    return [{"question": q, "system": s, "read": True,
             "tags": list(mapping(f"reading[{q!r}, {s!r}]", v, keys=("tags",))["tags"])}
            for (q, s), v in reading.items()]


def _blame_counts(table: list[dict[str, Any]]) -> dict[str, int]:
    return {row["blame"]: row["all"] for row in table}


def retriever_comparison(k: int = 3, seed: int = 0) -> list[dict[str, Any]]:
    """MiniLM − BM25 on every answerable lab question (the question set is fixed before any outcome is
    seen), scored by the corpus's grades, no judge: ``answer retrieved`` (a grade-2 passage in the top
    ``k``, 1 or 0) and context precision with the grades as verdicts. Per measure: the counts each way,
    the means, the paired bootstrap interval, the permutation and sign p-values, and the verdict.

    The packaged corpus and recorded embeddings do not change, so the result is computed once per
    ``k`` and ``seed``; each call gets its own copies of the rows."""
    k = integer("k", k, low=1, high=100)
    seed = integer("seed", seed, low=0, high=2**32 - 1)
    return [dict(row) for row in _retriever_comparison(k, seed)]


@lru_cache(maxsize=4)
def _retrieved(k: int) -> tuple[dict[str, str], dict[str, list[dict[str, Any]]]]:
    """Each answerable question's kind, and each retriever's rows on them with ``answer_retrieved`` (1 or 0)."""
    known = dg.answerable()
    questions = [q for q in load_corpus().questions if q.id in known]
    found = {name: evaluate_retriever(r, questions, k=k) for name, r in capstone.retrievers().items()}
    for rows in found.values():
        for row in rows:
            row["answer_retrieved"] = float(dg.RELEVANT in row["grades"])
    return {q.id: q.kind for q in questions}, found


@lru_cache(maxsize=4)
def _retriever_comparison(k: int, seed: int) -> tuple[dict[str, Any], ...]:
    _, found = _retrieved(k)
    out = []
    for measure in ("answer_retrieved", "context_precision"):
        test = compare_retrievers(found["minilm"], found["bm25"], measure, labels=("minilm", "bm25"), seed=seed)
        d = [a[measure] - b[measure] for a, b in zip(found["minilm"], found["bm25"], strict=True)]
        low, high = test["paired_bootstrap"].ci
        verdict = _verdict((low, high), len(d), "minilm", "bm25")
        out.append({"measure": measure.replace("_", " "), "n": len(d), "better": sum(v > 0 for v in d),
                    "worse": sum(v < 0 for v in d), "same": sum(v == 0 for v in d),
                    "mean minilm": test["minilm"].score, "mean bm25": test["bm25"].score,
                    "difference": math.fsum(d) / len(d), "interval": (low, high),
                    "p perm": test["permutation"].p_value, "p sign": test["sign"].p_value,
                    "verdict": verdict + " on this corpus" if verdict.endswith("is better") else verdict})
    return tuple(out)


def retriever_by_kind(k: int = 3) -> list[dict[str, Any]]:
    """"Answer retrieved" (a grade-2 passage in the top ``k``) per question kind of the lab (notebook 09), on every
    answerable question: how many questions of the kind, how many each retriever answers, and how many MiniLM
    gains, loses or leaves as they were against BM25. A description of where the difference sits, no test."""
    k = integer("k", k, low=1, high=100)
    kinds, found = _retrieved(k)
    out = []
    for kind in dict.fromkeys(kinds.values()):
        pairs = [(a["answer_retrieved"], b["answer_retrieved"])
                 for a, b in zip(found["minilm"], found["bm25"], strict=True) if kinds[a["question"]] == kind]
        out.append({"kind": kind, "n": len(pairs), "minilm": int(sum(a for a, _ in pairs)),
                    "bm25": int(sum(b for _, b in pairs)), "better": sum(a > b for a, b in pairs),
                    "worse": sum(a < b for a, b in pairs), "same": sum(a == b for a, b in pairs)})
    return out


def component_counts(tagged: Any) -> dict[str, int]:
    """How many tags (not rows) point at each component: a row with two tags counts twice."""
    out = {component: 0 for component in dict.fromkeys(dg.COMPONENT.values())}
    for row in dg.tagged_rows(tagged):
        for tag in row["tags"]:
            out[dg.COMPONENT[tag]] += 1
    return out


def tag_table(tagged: Any, by: str = "system") -> list[dict[str, Any]]:
    """The tag counts of :func:`~ragmetrics_edu.course.capstone.diagnosis.count_table`, one row per tag."""
    table = dg.count_table(tagged, by)
    return [{"tag": name, **{str(entry[by]): entry[name] for entry in table}}
            for name in (*dg.TAGS, "untagged", "rows")]


def takeaway(rows: Any, reading: Any = None, retrievers: Any = None) -> dict[str, Any]:
    """The take-away's numbers: each row's failure attributed (by the rules and by the annotator's
    reading), the retrievers compared on every answerable question, the metric that never falls, and
    how far the rules agree with the reading."""
    tagged = dg.tag_rows(rows)
    known = dg.answerable()
    reading = dg.annotator_diagnosis() if reading is None else reading
    scored_ar = [r["scores"]["answer_relevancy"] for r in rows if "answer_relevancy" in r["scores"]]
    comparison = dg.rules_vs_annotator(tagged, reading)
    by_rules = attribution(tagged)
    found = retriever_comparison() if retrievers is None else retrievers
    return {"rows": len(tagged), "blame": _blame_counts(by_rules),
            "retriever_bm25": next(r.get("bm25", 0) for r in by_rules if r["blame"] == "retriever"),
            "unanswerable": sum(r["question"] not in known and attribute(r) in ("generator", "generator or judge")
                                for r in tagged),
            "blame_reading": _blame_counts(attribution(reading_rows(reading))),
            "retrievers": {r["measure"]: r for r in found},
            "ar_rows": len(scored_ar), "ar_full": sum(v == 1.0 for v in scored_ar),
            "read": len(comparison), "agree": sum(c["agree"] for c in comparison)}


def _failing(counts: Mapping[str, Any], field: str) -> int:
    counts = mapping(field, counts, "rows counted by blame (attribution)", keys=BLAME)
    if not all(isinstance(counts[b], int) and not isinstance(counts[b], bool) for b in BLAME):
        raise InputError(field, "rows counted by blame (whole numbers)", counts)
    return sum(counts[b] for b in BLAME if b != "no failure")


def _range(counts: Mapping[str, int], component: str) -> tuple[int, int]:
    """The fewest and most failing rows a component can be blamed for: "generator or judge" rows may be either."""
    shared = counts["generator or judge"] if component in ("generator", "judge") else 0
    return counts[component], counts[component] + shared


def _largest(counts: Mapping[str, int]) -> str | None:
    """The component whose fewest rows exceed every other component's most, or None (no single largest)."""
    components = ("retriever", "generator", "judge")
    for component in components:
        fewest = _range(counts, component)[0]
        if fewest > 0 and all(fewest > _range(counts, other)[1] for other in components if other != component):
            return component
    return None


def _ranges(counts: Mapping[str, int]) -> str:
    shown = []
    for component in ("retriever", "generator", "judge"):
        low, high = _range(counts, component)
        shown.append(f"{component} {low}" if low == high else f"{component} {low}–{high}")
    return ", ".join(shown)


def takeaway_lines(summary: Mapping[str, Any]) -> list[str]:
    """The take-away in four sentences, every number from ``summary`` (see :func:`takeaway`). A component is
    named the largest single cause only when, by the rules and by the reading, its fewest rows beat every other
    component's most ("generator or judge" rows counted against it); else the line says there is none."""
    expected = "the take-away's numbers (takeaway(rows))"
    summary = mapping("summary", summary, expected, keys=("rows", "blame", "retriever_bm25", "unanswerable",
                                                          "blame_reading", "retrievers", "ar_rows", "ar_full",
                                                          "read", "agree"))
    blame, reading = summary["blame"], summary["blame_reading"]
    failing, failing_read = _failing(blame, "summary.blame"), _failing(reading, "summary.blame_reading")
    top, top_read = _largest(blame), _largest(reading)
    if top is not None and top == top_read:
        lead = f"The {top} is the largest single cause on these picked rows, by the rules and by the reading"
    elif top is None and top_read is None:
        lead = "No single largest cause on these picked rows"
    else:
        lead = "No component is the largest single cause by both the rules and the reading"
    hit = mapping("summary.retrievers", summary["retrievers"], "retriever_comparison() by measure",
                  keys=("answer retrieved",))["answer retrieved"]
    hit = mapping("summary.retrievers['answer retrieved']", hit, "a row of retriever_comparison()",
                  keys=("n", "better", "worse", "mean minilm", "mean bm25", "interval", "p sign", "verdict"))
    low, high = hit["interval"]
    return [
        f"{lead}: of the {failing} rows that failed, {blame['retriever']} lost the answer at retrieval "
        f"({summary['retriever_bm25']} of them BM25's); where retrieval succeeded, {blame['generator']} were the "
        f"generator's (an incomplete answer, by a word count) and {blame['generator or judge']} the generator's or "
        f"the judge's (only the judge's unchecked faithfulness verdict), {summary['unanswerable']} of those "
        f"{blame['generator'] + blame['generator or judge']} on a question the corpus cannot answer; {blame['judge']} "
        f"were the judge's alone. Counted either way: by the rules {_ranges(blame)}; by the annotator's own reading "
        f"{_ranges(reading)} of its {failing_read} failing rows.",
        f"On all {hit['n']} answerable questions (none chosen by outcome) MiniLM retrieved a passage that answers "
        f"on {hit['mean minilm']:.0%} against BM25's {hit['mean bm25']:.0%} (it gained {hit['better']} questions, "
        f"lost {hit['worse']}; sign test p = {hit['p sign']:.3f}; difference {low:+.2f} to {high:+.2f}): "
        f"{hit['verdict']}.",
        f"Answer relevancy gave {summary['ar_full']} of {summary['ar_rows']} rows a full 1.0, an off-topic "
        "answer included: read a judge's verdicts before trusting its means.",
        f"The rules and the project annotator's reading (a language model's) gave the same tags on "
        f"{summary['agree']} of {summary['read']} rows: use the rules to find rows, read them before acting.",
    ]


def plot_paired(rows: Any, metrics: Sequence[str], a: str = "minilm", b: str = "bm25", title: str = ""):
    """One panel per metric: each question's ``b`` and ``a`` scores as two dots joined by a line
    (green when ``a`` is higher, red when lower, grey when equal)."""
    metrics, title = as_list("metrics", metrics, "a list of metric names"), text("title", title)
    for metric in metrics:
        dg.paired_scores(rows, metric, a, b)  # checks the rows, the metric and the systems before drawing
    fig = new_figure(figsize=(2.2 * max(len(metrics), 1) + 0.6, 3.2))
    axes = fig.subplots(1, max(len(metrics), 1), sharey=True, squeeze=False)[0]
    for ax, metric in zip(axes, metrics, strict=False):
        test = paired(rows, metric, a, b)
        pairs = dg.paired_scores(rows, metric, a, b)
        for x, y in zip(pairs["b"], pairs["a"], strict=True):
            colour = "#2a9d8f" if y > x else "#e76f51" if y < x else "#9e9e9e"
            ax.plot([0, 1], [x, y], color=colour, marker="o", markersize=4, linewidth=1.2, alpha=0.8)
        ax.set_xticks([0, 1])
        ax.set_xticklabels([b, a], fontsize=9)
        ax.set_xlim(-0.3, 1.3)
        ax.set_ylim(-0.05, 1.05)
        ax.set_title(f"{metric.replace('_', ' ')}\nhigher {test['better']} · lower {test['worse']} · "
                     f"same {test['same']}", fontsize=9)
    axes[0].set_ylabel("score per question")
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig
