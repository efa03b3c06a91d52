"""Plain-text displays the course notebooks share, so a notebook holds calls and prose.

Each function prints one kind of table the notebooks show again and again: a worked
example's inputs, its checks against the deck, a retriever's hits, one step of an
explorer driven from code, the per-rank view of the ranking measures. Every number is
computed by the library when the function runs; nothing here scores anything itself.

Every stated number is labelled with its source: ``deck X`` when the deck prints it,
``derived`` when the project derives what the deck implies (the catalogue's text for
that number then begins with ``derived by the project``).
"""

from __future__ import annotations

import textwrap
from typing import Any, Iterable, Mapping, Sequence

from ..errors import InputError
from ..examples import Case, Example
from ..retrieval.corpus import Corpus, Question
from ..studies.calibration import pair_cosines
from ..studies.ranking_lists import RANKING_NAMES, per_k_rows, ranking_scores
from ..validate import as_list, flag, instance, integer, mapping, plain, records, text_list
from ..validate import text as checked_text
from .embedding_texts import embedder_source

#: How the catalogue marks a number the project derived rather than read off the deck.
DERIVED_PREFIX = "derived by the project"
WIDTH = 100  #: the widest line a notebook prints (JupyterLab shows it unwrapped at a common width)


def _example(example: Any, case: str | None = None, metric: str = "") -> Case:
    """The chosen case of a worked example (``examples.load(...)``), of ``metric`` when one is named."""
    example = instance("example", example, Example, "a worked example (examples.load(...))")
    chosen = example.case(case)
    if metric and chosen.metric != metric:
        raise InputError("example", f"a {metric} example", f"{example.id} ({chosen.metric})")
    return chosen


def is_derived(text: str) -> bool:
    """Whether a stated number's catalogue text says the project derived it."""
    return checked_text("text", text).strip().lower().startswith(DERIVED_PREFIX)


def source_label(example: Any, text: str) -> str:
    """``deck X`` for a number the deck prints, ``derived`` for one the project derives."""
    example = instance("example", example, Example, "a worked example (examples.load(...))")
    return "derived" if is_derived(text) else f"deck {example.deck}"


def wrap(text: str, indent: str = "    ", width: int = 100) -> str:
    """A long text wrapped to ``width`` columns, every line indented."""
    checked_text("text", text)
    checked_text("indent", indent)
    width = integer("width", width, low=len(indent) + 1, high=10_000, expected="a line width (characters)")
    return textwrap.fill(text, width, initial_indent=indent, subsequent_indent=indent)


def show_text(label: str, text: str | None) -> None:
    """``label: text``, wrapped (for a catalogue note or assumption)."""
    print(textwrap.fill(f"{label}: {text}", WIDTH))


def say(text: Any, indent: str = "    ", width: int = WIDTH) -> None:
    """Print ``str(text)`` within ``width`` columns: each line wrapped on its own, continuations indented."""
    checked_text("indent", indent)
    width = integer("width", width, low=len(indent) + 1, high=10_000, expected="a line width (characters)")
    for line in str(text).split("\n"):
        lead = line[:len(line) - len(line.lstrip(" "))]
        print(textwrap.fill(line, width, subsequent_indent=lead + indent, break_on_hyphens=False) if line else "")


def show_checks(example: Any, *, deck_text: bool = False) -> None:
    """Every number stated for an example beside the computed one, with its source.

    The source is ``deck X`` or ``derived`` (see :func:`source_label`); fractions are
    compared exactly, decimals at the places printed. ``deck_text`` adds the quoted text.
    """
    example = instance("example", example, Example, "a worked example (examples.load(...))")
    deck_text = flag("deck_text", deck_text)
    for c in example.checks():
        status = "match" if c["matches"] else "MISMATCH"
        source = source_label(example, c["deck_text"])
        if c["rule"] == "order":  # a claim that one case scores below another
            print(f"order: {source} says {c['stated']:<22} computed {c['computed']:<17} {status}")
        else:
            exact = f"   exact {c['exact']!r}" if c["exact"] is not None else ""
            line = (f"{c['case']:<10} {c['quantity']:<23} {source:>7} {c['stated']:>7}  computed {c['computed']:>9}  "
                    f"{status}")
            print(line + exact if len(line + exact) <= WIDTH else f"{line}\n    {exact.strip()}")
        if deck_text or is_derived(c["deck_text"]):
            print(wrap(f"({c['deck_text']})"))


def show_ranked_example(example: Any, case: str | None = None) -> None:
    """Citation, question, reference, then every node in rank order with its verdict (context precision)."""
    chosen = _example(example, case, "context_precision")
    kwargs = chosen.kwargs
    print(textwrap.fill(example.citation, WIDTH))
    for key in ("question", "ground_truth", "expected_output"):
        if key in example.inputs:
            print(textwrap.fill(f"{key}: {example.inputs[key]}", WIDTH, subsequent_indent="    "))
    print(f"case {chosen.label!r}, variant {kwargs['variant']!r}")
    nodes = kwargs.get("nodes") or [None] * len(kwargs["verdicts"])
    for k, (node, verdict) in enumerate(zip(nodes, kwargs["verdicts"], strict=True), start=1):
        r = 1 if verdict in (1, True, "yes") else 0
        text = "(the deck gives no text, only the verdict)" if node is None else textwrap.shorten(node, 78)
        print(f"  rank {k}  r_k = {r}  {text}")


def node_texts(example: Any, case: str | None = None) -> list[str]:
    """The retrieved nodes of an example (deck E's contexts are one node each)."""
    key = f"context_{_example(example, case).label}"
    if "nodes" in example.inputs:
        return list(example.inputs["nodes"])
    if key not in example.inputs:
        raise InputError("example", "an example with retrieved nodes", example.id)
    return [example.inputs[key]]


def show_recall_case(example: Any, case: str | None = None) -> Any:
    """Question, reference, nodes, and each reference statement with its verdict and supporting node."""
    _example(example, case, "context_recall")
    result = example.compute(case)
    nodes = node_texts(example, case)
    reference = "expected_output" if "expected_output" in example.inputs else "ground_truth"
    say(f"question: {example.inputs['question']}")
    say(f"{reference.replace('_', ' ')}: {example.inputs[reference]}")
    for k, text in enumerate(nodes, start=1):
        say(f"  node {k}: {text}", indent="        ")
    print("statements:")
    for row in result.rows:
        say(f"  {row['i']}. {row['statement']}", indent="   ")
        if row["node"] is None:
            print(f"       verdict {row['verdict']}: no node supports it")
        else:
            text = nodes[row["node"] - 1]
            quoted = f" ({text})" if len(text) <= 80 else ""
            say(f"       verdict {row['verdict']}: supported by node {row['node']}{quoted}")
    idle = [k for k in range(1, len(nodes) + 1) if k not in {row["node"] for row in result.rows}]
    print("nodes that support no statement:", ", ".join(f"node {k}" for k in idle) or "none")
    return result


def show_relevancy_case(example: Any, case: str | None = None) -> Any:
    """The question, then per node its text and its statements with verdicts (contextual relevancy)."""
    kwargs = _example(example, case, "contextual_relevancy").kwargs
    result = example.compute(case)
    say(f"question: {kwargs['question']}")
    for n, (text, statements) in enumerate(zip(kwargs["nodes"], kwargs["node_statements"], strict=True), start=1):
        rows = [r for r in result.rows if r["node"] == n]
        say(f"node {n}: {text}", indent="        ")
        for r in rows:
            say(f"    {r['verdict']:<3}  {r['statement']}", indent="     ")
        print(f"    -> {sum(r['relevant'] for r in rows)} of {len(rows)} relevant")
    return result


def show_claims_example(example: Any, case: str | None = None) -> None:
    """Citation, question, context nodes, then each claim with its verdict (faithfulness)."""
    kwargs = _example(example, case, "faithfulness").kwargs
    say(example.citation)
    print()
    if "question" in example.inputs:
        say(f"question: {example.inputs['question']}")
    print("context:")
    for k, node in enumerate(kwargs["context"], start=1):
        print(textwrap.fill(f"  node {k}: {node}", WIDTH, subsequent_indent="          "))
    print("claims and verdicts:")
    for i, (claim, verdict) in enumerate(zip(kwargs["claims"], kwargs["verdicts"], strict=True), start=1):
        say(f"  {i}. {verdict:<4} {claim}", indent="        ")


def explorer_step(step: str, explorer: Any, direct: Any, *, digits: int = 4, detail: str = "",
                  show_verdicts: bool = True) -> None:
    """One step of an explorer driven from code: its score beside the library's own.

    ``explorer`` is an explorer or its model (anything with ``result``, and ``verdicts`` if
    it has them); ``direct`` is the :class:`MetricResult` (or score) the metric function gives
    for the same inputs, computed by the caller so the notebook shows which function it is.
    ``detail`` adds what else changed (the order, the attribution...); ``show_verdicts=False``
    leaves out the verdicts (an entity explorer's flags are not verdicts).
    """
    step, detail = checked_text("step", step), checked_text("detail", detail)
    digits, show_verdicts = integer("digits", digits, low=0, high=15), flag("show_verdicts", show_verdicts)
    shown = _score("explorer", getattr(getattr(explorer, "result", None), "score", None),
                   "an explorer or its model (with a result)")
    score = _score("direct", getattr(direct, "score", direct), "a MetricResult or a score")
    verdicts = getattr(explorer, "verdicts", None) if show_verdicts else None
    parts = [f"{step:<36}"]
    if verdicts is not None:
        parts.append(f"verdicts {str(list(verdicts)):<20}")
    if detail:
        parts.append(detail)
    parts.append(f"explorer {shown:.{digits}f}   metrics {score:.{digits}f}   same: {shown == score}")
    line = "  ".join(parts)
    if len(line) > WIDTH:  # the step and what changed, wrapped; the two scores on a line of their own
        line = textwrap.fill("  ".join(parts[:-1]).rstrip(), WIDTH, subsequent_indent=" " * 4) + "\n    " + parts[-1]
    print(line)


def _is_number(value: Any) -> bool:
    value = plain(value)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _score(field: str, value: Any, expected: str) -> float:
    """A score to print: a real number, NaN allowed."""
    if not _is_number(value):
        raise InputError(field, expected, value)
    return plain(value)


def by_node(model: Any) -> tuple[list[list[str]], list[list[Any]]]:
    """A statement explorer's flat statements and verdicts regrouped per node, as
    :func:`ragmetrics_edu.metrics.contextual_relevancy` takes them."""
    expected = "a statement explorer or its model (statements, verdicts and groups)"
    if not all(hasattr(model, name) for name in ("statements", "verdicts", "groups")):
        raise InputError("model", expected, model)
    groups = as_list("model.groups", model.groups, expected)
    flat_statements, flat_verdicts = as_list("model.statements", model.statements), as_list("model.verdicts", model.verdicts)
    nodes = sorted(set(groups))
    statements = [[s for s, g in zip(flat_statements, groups, strict=True) if g == n] for n in nodes]
    verdicts = [[v for v, g in zip(flat_verdicts, groups, strict=True) if g == n] for n in nodes]
    return statements, verdicts


def show_hits(question: Any, hits: Iterable[tuple[str, float]], corpus: Any) -> None:
    """A retriever's ranked hits: passage id, score, graded relevance and the text's start."""
    question = instance("question", question, Question, "a corpus question (corpus.questions[i])")
    corpus = instance("corpus", corpus, Corpus, "the corpus (retrieval.load_corpus())")
    hits = as_list("hits", hits, "a retriever's hits: a list of (passage id, score)", iterators=True)
    for i, hit in enumerate(hits):
        if not (isinstance(hit, (list, tuple)) and len(hit) == 2 and isinstance(hit[0], str)):
            raise InputError(f"hits[{i}]", "a (passage id, score) pair", hit)
        _score(f"hits[{i}]", hit[1], "a (passage id, score) pair")
    for rank, (pid, score) in enumerate(hits, start=1):
        print(f"  {rank}. {pid}  score {score:6.3f}  grade {question.grade(pid)}  {corpus.text(pid)[:64].rstrip()}")


def show_sources(embedders: Mapping[str, Any]) -> None:
    """Each named embedder with where its numbers come from (a recording's model, sha256, date)."""
    for name, embedder in mapping("embedders", embedders, "a dict name -> embedder").items():
        print(f"{name}: {embedder_source(embedder)}")


def show_cosines(pairs: Mapping[str, tuple[str, str]], embedders: Mapping[str, Any], *, digits: int = 4) -> dict:
    """One row per named pair of texts, one cosine column per named embedder; returns the cosines.

    The column heads are the names given; :func:`show_sources` says where each comes from."""
    digits = integer("digits", digits, low=0, high=15)
    cosines = pair_cosines(pairs, embedders)
    width = max([len(n) for n in pairs] + [4])
    print(f"{'pair':<{width}}" + "".join(f"{name:>{max(len(name), digits + 3) + 2}}" for name in embedders))
    for pair, row in cosines.items():
        print(f"{pair:<{width}}" + "".join(f"{row[name]:>{max(len(name), digits + 3) + 2}.{digits}f}"
                                           for name in embedders))
    return cosines


def show_calibration(summaries: Mapping[str, Mapping[str, Mapping[str, float]]]) -> None:
    """Per embedder and calibration label: n, min, median, max (from ``calibration_summary``)."""
    expected = "a dict embedder -> calibration_summary(...)"
    for name, summary in mapping("summaries", summaries, expected).items():
        for label, s in mapping(f"summaries[{name!r}]", summary, expected).items():
            if not isinstance(s, Mapping) or not all(_is_number(s.get(k)) for k in ("n", "min", "median", "max")):
                raise InputError(f"summaries[{name!r}][{label!r}]", "a dict with n, min, median and max", s)
    print(f"{'embedder':<12}{'label':<12}{'n':>4}{'min':>9}{'median':>9}{'max':>9}")
    for name, summary in summaries.items():
        for label, s in summary.items():
            print(f"{name:<12}{label:<12}{s['n']:>4}{s['min']:>9.3f}{s['median']:>9.3f}{s['max']:>9.3f}")


def score_table(lists: Mapping[str, Sequence[int]], **options: Any) -> None:
    """One row per list, one column per ranking measure (:func:`ragmetrics_edu.studies.ranking_lists.ranking_scores`;
    options as for it)."""
    print(f"{'list':<18}" + "".join(f"{n:>8}" for n in RANKING_NAMES))
    for label, flags in mapping("lists", lists, "a dict label -> relevance flags").items():
        row = ranking_scores(flags, **options)
        print(f"{label:<18}" + "".join(f"{row[n]:>8.4f}" for n in RANKING_NAMES))


def per_k_table(flags: Sequence[int], total_relevant: int | None = None) -> dict[str, float]:
    """Print every measure's per-rank value (:func:`ragmetrics_edu.studies.ranking_lists.per_k_rows`); return the
    scores."""
    rows, scores = per_k_rows(flags, total_relevant)
    print(f"{'k':>2} {'r_k':>4} {'P@k':>7} {'R@k':>7} {'CP term':>8} {'DCG@k':>7} {'nDCG@k':>7} {'RR':>6}")
    for row in rows:
        rr = "" if row["rr"] is None else f"{row['rr']:.4f}"
        print(f"{row['k']:>2} {row['r_k']:>4} {row['precision_at_k']:>7.4f} {row['recall_at_k']:>7.4f} "
              f"{row['cp_term']:>8.4f} {row['dcg']:>7.4f} {row['ndcg_at_k']:>7.4f} {rr:>6}")
    return scores


__all__ = ["DERIVED_PREFIX", "by_node", "explorer_step", "is_derived", "node_texts",
           "per_k_table", "score_table", "show_calibration", "show_checks", "show_claims_example",
           "show_cosines", "show_hits", "show_ranked_example", "show_recall_case", "show_relevancy_case",
           "show_sources", "show_text", "source_label", "text_table", "wrap", "say", "WIDTH"]


def show_questions(corpus: Any, width: int = 100) -> None:
    """Each question with its kind, how many passages were judged, and its graded passages (wrapped)."""
    for q in corpus.questions:
        judged = "-" if q.judged is None else len(q.judged)
        print(f"{q.id}  {q.kind:<10} judged {judged!s:>2}  {q.text}")
        graded = ", ".join(f"{pid}:{g}" for pid, g in sorted(q.qrels.items(), key=lambda item: -item[1]))
        print(textwrap.fill(graded or "(no passage answers it)", width, initial_indent=" " * 5,
                            subsequent_indent=" " * 5))


def show_comparison(comparison: Mapping[str, Any], labels: Sequence[str], digits: int = 3) -> None:
    """One measure's means with intervals, the paired difference and the tests (from ``compare_retrievers``)."""
    a, b = labels
    pct = round(100 * comparison[a].level)
    for name in labels:
        low, high = comparison[name].ci
        print(f"{name:<8} mean {comparison[name].score:.{digits}f}   {pct}% interval [{low:.{digits}f}, {high:.{digits}f}]")
    diff = comparison["paired_bootstrap"]
    low, high = diff.ci
    print(f"{a} - {b}: {diff.score:+.{digits}f}   {pct}% paired bootstrap interval [{low:+.{digits}f}, {high:+.{digits}f}]")
    print(f"permutation test p = {comparison['permutation'].p_value:.4f}   ({comparison['permutation'].method})")
    sign = comparison["sign"]
    print(f"sign test p = {sign.p_value:.4f}   (exact binomial on who won each question, ties left out)")


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, float):
        return "nan" if value != value else f"{value:.{digits}f}"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "-"
    return str(value)


def text_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None, width: int = 110,
               digits: int = 3, rule: bool = False) -> str:
    """A plain-text table of ``columns`` (by default the first row's keys) that fits ``width`` characters, the
    notebooks' limit: the widest columns are narrowed (their cells cut) until it fits. Floats show ``digits``
    decimals; ``rule=True`` puts a line of dashes under the header. No rows give "(no rows)"."""
    rule = flag("rule", rule)
    rows = records("rows", rows, "a list of dicts (one per table row)")
    columns = None if columns is None else text_list("columns", columns)
    width, digits = integer("width", width, low=20, high=10_000), integer("digits", digits, low=0, high=15)
    if not rows:
        return "(no rows)"
    names = list(columns) if columns is not None else list(rows[0])
    cells = [[_cell(r.get(c, ""), digits) for c in names] for r in rows]
    sizes = [max(len(c), *(len(line[i]) for line in cells)) for i, c in enumerate(names)]
    while sum(sizes) + 2 * (len(sizes) - 1) > width and max(sizes) > 8:
        sizes[sizes.index(max(sizes))] -= 1

    def line(values: Sequence[str]) -> str:
        return "  ".join(v[:w].ljust(w) for v, w in zip(values, sizes, strict=True)).rstrip()[:width]

    lines = [line(names)] + ([line(["-" * w for w in sizes])] if rule else []) + [line(v) for v in cells]
    return "\n".join(lines)
