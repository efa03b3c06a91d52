"""Issue 21 §2: the whole public API, walked with bad values.

Nobody lists the callables here: :func:`public_targets` imports every module of
``ragmetrics_edu`` (and of its subpackages) and takes the names each one exports, its
``__all__``, or, for a module without one, every function and class it defines whose name
does not start with ``_``. Each class adds its constructor and its public methods. A new
function, class or module is therefore walked the day it is written.

Each target is called once per (parameter, bad kind): the bad value in that parameter,
valid values everywhere else. The valid values of a registered metric's functions come from the
registry (:func:`registered_kwargs`): its arithmetic is called with its spec's ``example``, the
function that scores one case with the walk's case passed as its ``Ask`` says and the walk's judge,
so a new design brings what the walk needs in its own files. For any other target they come from a
small table by target (:data:`VALID`; keys match the end of a target's dotted name, so a module that
moves keeps its entry), then the signature's defaults, then a table by parameter name
(:data:`BY_NAME`), then the annotation.

Two rules hold every function to its valid call, each absolute, none a share of the calls:
every registered spec's arithmetic and ask function give a result
(:func:`test_every_registered_spec_gives_a_result_with_its_example`), and every other target
gives one too, except those :data:`NO_RESULT` lists with the reason a library error is all the
walk can get from it (:func:`test_valid_arguments_give_a_result`; an entry that gives a result
again must leave the list). A call passes when, within its CPU limit (:data:`HANG_UNITS` runs of a
reference workload timed in the same process, so that load cannot trip it), it

- returns, and a score it returns is in its documented range (or NaN), or
- raises an error the library raises on purpose: :class:`~ragmetrics_edu.errors.RagMetricsError`
  and its subclasses (``InputError``, ``JudgeSetupError``, ``JudgeError``, ...).

Anything else (a raw ``TypeError``, numpy's "truth value of an array is ambiguous", an
``OSError`` from a path, a call still running after the limit) fails the test, which lists
every such call. :data:`SKIPPED` names what is not walked and why (a live server, the
network, a model download); :data:`SKIPPED_PARAMS` the parameters whose bad values are not
errors by design (a callback, a matplotlib axis, a widget).

The full crossing (every target x parameter x kind) is large; by default a deterministic
sample of it runs (every target, every kind and every parameter at least once), and
``API_WALK=full`` runs all of it. Run this file as a script to print the report.
"""

from __future__ import annotations

import argparse
import atexit
import collections
import contextlib
import copy
import enum
import functools
import hashlib
import importlib
import inspect
import io
import math
import os
import pkgutil
import shutil
import signal
import statistics
import sys
import tempfile
import time
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd
import pytest

import ragmetrics_edu
from ragmetrics_edu.errors import RagMetricsError

#: A call hangs when it uses more CPU time than this many runs of a reference workload timed in
#: this process (:func:`reference_seconds`), about 5 CPU seconds on this project's 2-core machine,
#: where the slowest walked call (``against_people.study.build_log``) takes 0.5-0.9. CPU time, not
#: wall time, and in units of the reference: a busy machine (whose neighbours also slow a process's
#: CPU time: shared caches, a hypervisor's stolen time) or a slower laptop slows the reference too,
#: so load cannot make a quick call look hung, while a loop that never ends still trips it. A fixed
#: 2 CPU seconds once failed ``build_log(test=<numpy bool>)`` on a quiet 2-core machine.
HANG_UNITS = float(os.environ.get("API_WALK_HANG_UNITS", "500"))
#: Never less than this many CPU seconds, however fast the reference ran.
MIN_CPU_LIMIT = 2.0
#: :data:`WALL_FACTOR` times the CPU limit (at least 30 s) of wall time catches a call that waits
#: without computing.
WALL_FACTOR = 6.0

PACKAGE = ragmetrics_edu.__name__
REPO = Path(__file__).resolve().parents[2]


# -- the bad value kinds ---------------------------------------------------------------------
class BrokenLen(list):
    """A list whose ``len()`` raises."""

    def __len__(self):
        raise RuntimeError("broken __len__")


class BrokenIter(list):
    """A list whose iteration raises."""

    def __iter__(self):
        raise RuntimeError("broken __iter__")


#: This process's scratch folder, removed when it exits: the calls' working folders, the files the
#: walk writes, and an existing directory given where a file is expected.
_SCRATCH = Path(tempfile.mkdtemp(prefix="api-walk-"))
atexit.register(shutil.rmtree, _SCRATCH, ignore_errors=True)
_DIR = _SCRATCH / "a-directory"
_DIR.mkdir()


def _generator():
    yield "yes"
    yield "no"


#: kind -> a factory of the bad value (a factory: generators and lists must be fresh per call).
KINDS: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "nan": lambda: math.nan,
    "inf": lambda: -math.inf,
    "negative int": lambda: -3,
    "negative float": lambda: -0.5,
    "huge int": lambda: 10**400,
    "huge float": lambda: 1e308,
    "bool for int": lambda: True,
    "int for bool": lambda: 1,
    "float for int": lambda: 2.5,
    "empty string": lambda: "",
    "huge string": lambda: "word " * 20_000,
    "path too long": lambda: "/tmp/" + "d" * 5000 + ".json",
    "directory": lambda: str(_DIR),
    "directory Path": lambda: _DIR,
    "empty list": lambda: [],
    "huge list": lambda: ["yes", "no"] * 1_000,
    "huge int list": lambda: [1, 0] * 1_000,
    "nested list": lambda: [[1, 0], ["a", ["b"]]],
    "dict": lambda: {"a": 1, "b": [1, 0]},
    "bytes": lambda: b"yes",
    "numpy array": lambda: np.array([1, 0, 1]),
    "numpy text array": lambda: np.array(["yes", "no"]),
    "numpy 2-d array": lambda: np.array([[1, 0], [0, 1]]),
    "numpy int": lambda: np.int64(2),
    "numpy float nan": lambda: np.float64("nan"),
    "numpy bool": lambda: np.bool_(True),
    "pandas Series": lambda: pd.Series([1, 0, 1]),
    "pandas text Series": lambda: pd.Series(["a b", "c d"]),
    "pd.NA": lambda: pd.NA,
    "generator": _generator,
    "broken __len__": lambda: BrokenLen([1, 0]),
    "broken __iter__": lambda: BrokenIter([1, 0]),
    "object": lambda: object(),
}


# -- valid values ----------------------------------------------------------------------------
def _judge():
    """A GivenJudge that answers every registered judge step (``judges.STEPS``, read from the registry) with a
    valid made-up reply read from the request's schema (``scripted_server.fake_value``): a new judged design is
    walked with it the day it is registered, with no line here."""
    from ragmetrics_edu.judges import STEPS, GivenJudge
    from scripted_server import fake_value

    return GivenJudge({step: (lambda request: fake_value(request.schema)) for step in STEPS})


@functools.lru_cache(maxsize=None)
def _replay():
    from ragmetrics_edu import data
    from ragmetrics_edu.judges import ReplayJudge

    return ReplayJudge(data.recording("qwen2.5-coder-1.5b_deck-examples"))


@functools.lru_cache(maxsize=None)
def _example():
    from ragmetrics_edu import examples

    return examples.load(examples.ids()[0])


@functools.lru_cache(maxsize=None)
def _result():
    from ragmetrics_edu import metrics

    return metrics.context_precision(["yes", "no", "yes"], nodes=["a", "b", "c"])


def _export(suffix: str) -> Any:
    """The public object whose dotted name ends with ``suffix`` (wherever its module lives now)."""
    return next(t.func for t in public_targets() if _matches(t.name, suffix))


@functools.lru_cache(maxsize=None)
def _deck_run_args() -> dict[str, Any]:
    """A deck case's run as DeckRun.build takes it: the deck's own result, the judge's failed."""
    from ragmetrics_edu import examples
    from ragmetrics_edu.course.deck_cases import DECK_CASES

    case = DECK_CASES[0]
    ex = examples.load(case.example_id)
    return dict(case=case, inputs=case.inputs(ex), given=ex.case(case.case).kwargs, result=None,
                deck=ex.compute(case.case), error="the judge failed")


def _eval_case():
    return _export("judge_study.labels.load_cases")()[0]


@functools.lru_cache(maxsize=None)
def _call_record():
    from ragmetrics_edu.judges import CallRecord

    return CallRecord(step="context_precision", messages=[{"role": "user", "content": "q"}], raw="{}", parsed={},
                      model="m")


@functools.lru_cache(maxsize=None)
def _request():
    from ragmetrics_edu import designs

    captured = []

    class Capture(type(_judge())):
        def ask(self, request):
            captured.append(request)
            raise RagMetricsError("captured")

    with contextlib.suppress(RagMetricsError):
        designs.context_precision(Capture({}), "q", ["a"], "e")
    return captured[0]


@functools.lru_cache(maxsize=None)
def _recording_file():
    path = _SCRATCH / "recording.json"
    if not path.exists():
        from ragmetrics_edu.judges import write_recording

        write_recording(path, {"model": "m", "server": "s"}, [])
    return path


@functools.lru_cache(maxsize=None)
def _against_people_log():
    """Lesson 14's shipped choice log (loaded once, cached by the study)."""
    from ragmetrics_edu.course.against_people import study

    return study.load_log()


def _people_part():
    """Lesson 14's RAGTruth dev sample, scored (a part of the shipped choice log)."""
    return _against_people_log()["parts"]["ragtruth-dev"]


def _people_items():
    """The answers of the first RAGTruth dev source (lesson 14's items)."""
    from ragmetrics_edu.course.against_people.items import items

    return items("ragtruth", "dev", groups=1)


def _pass_rates():
    """Lesson 14's pass-rate table, the input of its reading, display and figure."""
    from ragmetrics_edu.studies.against_people import pass_rate

    return pass_rate.pass_rate_by_model()


@functools.lru_cache(maxsize=None)
def _labelled_set():
    """The shipped labelled cases (the first four) and their adjudicated labels, as the course loads them."""
    return tuple(_export("judge_study.labels.load_cases")()[:4]), _export("judge_study.labels.final_labels")()


def _judge_study():
    """A judge study of the shipped cases with no recorded pass: each table says "not recorded" at once."""
    return _export("judge_study.study.JudgeStudy")(*_labelled_set(), {})


#: scored HaluEval pairs (right above hallucinated), as the HaluEval study's functions take them
_PAIRS = [{"pair": f"p{i}", "right": 0.9, "hallucinated": 0.2, "outcome": 1.0} for i in range(3)]


def _scored_choice_log():
    """A HaluEval choice log whose test part is already scored: ``freeze_choice`` refuses it at once (with a
    fresh path it would replay every design on every dev pair first, minutes over the walk's time limit)."""
    import json

    path = _SCRATCH / "choice-log.json"
    path.write_text(json.dumps({"chosen": {"design": "word_overlap", "threshold": 0.5}, "test": {"table": []}}))
    return path


#: Valid values by parameter name (a factory each), used where the signature has no default.
BY_NAME: dict[str, Callable[[], Any]] = {
    "study": _judge_study,
    "verdicts": lambda: ["yes", "no", "yes"],
    "statements": lambda: ["a statement", "another"],
    "claims": lambda: ["a claim", "another"],
    "nodes": lambda: ["node one", "node two", "node three"],
    "node_statements": lambda: [["a"], ["b", "c"]],
    "node_verdicts": lambda: [["yes"], ["no", "yes"]],
    "relevance": lambda: [1, 0, 1],
    "flags": lambda: [1, 0, 1],
    "queries": lambda: [[1, 0], [0, 1]],
    "question": lambda: "What is AI?",
    "answer": lambda: "AI simulates human intelligence.",
    "ground_truth": lambda: "AI simulates intelligence.",
    "expected_output": lambda: "AI simulates intelligence.",
    "reference": lambda: "AI simulates intelligence.",
    "context": lambda: ["AI simulates human intelligence."],
    "contexts": lambda: ["AI simulates human intelligence."],
    "text": lambda: "some text here",
    "texts": lambda: ["one text", "two texts"],
    "items": lambda: ["an item", "another item"],
    "judge": _judge,
    "example": _example,
    "example_id": lambda: _example().id,
    "example_ids": lambda: [_example().id],
    "result": _result,
    "metric": lambda: "context_precision",
    "field": lambda: "value",
    "value": lambda: ["yes", "no"],
    "name": lambda: "context_precision",
    "k": lambda: 2,
    "n": lambda: 4,
    "i": lambda: 0,
    "j": lambda: 1,
    "index": lambda: 0,
    "a": lambda: [0.2, 0.4, 0.6, 0.9],
    "b": lambda: [0.1, 0.5, 0.5, 0.7],
    "values": lambda: [0.2, 0.4, 0.6, 0.9],
    "scores": lambda: [0.2, 0.4, 0.6, 0.9],
    "labels_a": lambda: ["yes", "no", "yes", "yes"],
    "labels_b": lambda: ["yes", "no", "no", "yes"],
    "tp": lambda: ["a"],
    "fp": lambda: [],
    "fn": lambda: ["b"],
    "u": lambda: [1.0, 0.0],
    "v": lambda: [0.6, 0.8],
    "path": _recording_file,
    "recording": _recording_file,
    "request": _request,
    "record": _call_record,
    "case": _eval_case,
    "embedder": lambda: None,
    "threshold": lambda: 0.5,
    "level": lambda: 0.95,
    "seed": lambda: 0,
    "rows": lambda: [],
    "step": lambda: "context_precision",
    "exercise_id": lambda: "cp-1",
    "notebook_id": lambda: "01",
    "term": lambda: "faithfulness",
    "passage_id": lambda: "p1",
    "query": lambda: "what is ai",
    "order": lambda: [1, 0, 2],
    "callback": lambda: (lambda change: None),
    "width": lambda: 60,
    "height": lambda: 40,
    "x": lambda: [0.2, 0.5],
    "message": lambda: "a message",
    "expected": lambda: "a thing",
    "got": lambda: None,
    "label": lambda: "a label",
    "title": lambda: "a title",
    "data": lambda: [{"question": "q", "answer": "a", "contexts": ["c"], "ground_truth": "g"}],
}

@functools.lru_cache(maxsize=None)
def _stat_result():
    from ragmetrics_edu import stats

    return stats.bootstrap_ci([0.2, 0.4, 0.6, 0.9], n_resamples=200)


@functools.lru_cache(maxsize=None)
def _agreement_result():
    from ragmetrics_edu import agreement

    return agreement.cohen_kappa(["yes", "no", "yes", "yes"], ["yes", "no", "no", "yes"], n_resamples=200)


_LABELLED = str(Path(ragmetrics_edu.__file__).parent / "data" / "labelled_answers_example.jsonl")


@functools.lru_cache(maxsize=None)
def _labelled_items():
    from ragmetrics_edu.studies.alignment.labelled import read_labelled

    return read_labelled(_LABELLED)


def _cost():
    from ragmetrics_edu.course.alignment.recordings import calibration_of
    from ragmetrics_edu.studies.alignment import cost

    return cost.estimate(calibration_of("g_eval"), _labelled_items()[:2])


@functools.lru_cache(maxsize=None)
def _pass_rate_result():
    from ragmetrics_edu import agreement

    return agreement.estimate_pass_rate([True, False, True, True], [True, False, False, True], [True, False, True])


@functools.lru_cache(maxsize=None)
def _g_eval_recording():
    """The shipped G-Eval recording on RAGTruth dev (its JSON) and the answers it holds, for the cost calibration."""
    import json

    from ragmetrics_edu.course.against_people.items import items
    from ragmetrics_edu.course.against_people.study import recording_path

    meta = json.loads(recording_path("g_eval", "ragtruth", "dev").read_text(encoding="utf-8"))
    done = meta["pass"].get("answers_done") or meta["pass"].get("answers")
    return meta, items("ragtruth", "dev", groups=meta["pass"].get("groups"))[:done]


def _recording_dict():
    import json

    return json.loads(Path(_recording_file()).read_text(encoding="utf-8"))


#: people's labels and a design's scores for the validation functions (ranked, with a tie)
def _alignment_log():
    return _export("course.alignment.study.load_log")()


def _people_log():
    """Lesson 14's log, which lesson 15's functions read beside their own."""
    return _export("course.against_people.study.load_log")()


def _alignment_part():
    """A copy of lesson 15's RAGTruth dev part, for the functions that add to a part."""
    return copy.deepcopy(_alignment_log()["parts"]["ragtruth-dev"])


_FAILED = [True, False, True, False, False, True, False, False]
_SCORES = [0.1, 0.8, 0.3, 0.6, 0.9, 0.4, 0.4, 0.7]


@functools.lru_cache(maxsize=None)
def _evaluated_table():
    """A small table from evaluate() (judge-free), for the summary and report functions."""
    rows = [{"id": i, "question": f"q{i}", "answer": f"word {i}", "contexts": ["word one"]} for i in range(3)]
    return ragmetrics_edu.evaluate(rows, metrics=["word_overlap"], progress=False)


@functools.lru_cache(maxsize=None)
def _compared():
    """(pairing, scores of A, scores of B) for the comparison functions: two rows paired by id."""
    from ragmetrics_edu.evaluation import read_cases
    from ragmetrics_edu.evaluation.pairing import pair_rows

    rows = [{"id": i, "question": f"q{i}", "answer": "a"} for i in range(2)]
    return pair_rows(read_cases(rows), read_cases(rows[::-1])), {"word_overlap": [0.5, 1.0]}, {"word_overlap": [0.25, 1.0]}


def _comparisons():
    pairing, a, b = _compared()
    return _export("comparison.compare_scores")(pairing, a, b, n_resamples=200)


#: Valid keyword arguments by target, for what :data:`BY_NAME` cannot guess. A key matches the
#: end of a target's dotted name ("judges.ReplayJudge" matches "ragmetrics_edu.judges.replay.ReplayJudge").
def _figure() -> Any:
    """A figure of the library's own (for the figure helpers)."""
    from ragmetrics_edu.plots import new_figure

    return new_figure()


def _plan_markers() -> tuple[str, str]:
    from ragmetrics_edu.course import course_plan

    return course_plan.README_START, course_plan.README_END


def _hashing_embedder() -> Any:
    from ragmetrics_edu.embeddings import HashingEmbedder

    return HashingEmbedder()


VALID: dict[str, Callable[[], dict[str, Any]]] = {
    # metrics (a registered spec's arithmetic takes its valid call from the spec's `example`: registered_kwargs)
    "metrics.context_precision_batch": lambda: dict(cases=[[1, 0], ["yes"]]),
    "metrics.word_overlap_batch": lambda: dict(answers=["Paris is in France."], contexts=[["Paris is in France."]]),
    "metrics.semantic_similarity_batch": lambda: dict(answers=["Paris is in France."], ground_truths=["In France."]),
    "embeddings.sparse.sparse_cosine": lambda: dict(u={0: 1.0, 3: -2.0}, v={3: 1.0}),
    "embeddings.sparse.hashed_counts": lambda: dict(embedder=_hashing_embedder(), text="Paris is in France."),
    "metrics.f_beta": lambda: dict(tp=1, fp=2, fn=0),
    "stats.adapted_resamples": lambda: dict(n=100, wanted=2000),
    "GivenJudge.in_turn": lambda: dict(first=["yes"]),
    # figures: a figure to make readable
    "plots.make_readable": lambda: dict(fig=_figure()),
    "plots.min_font_pt": lambda: dict(fig=_figure()),
    "MetricResult.value": lambda: dict(quantity="score"),
    "StatResult.value": lambda: dict(quantity="score"),
    "AgreementResult.table": lambda: dict(name="steps"),
    # agreement and statistics
    "agreement.match_items": lambda: dict(reference_texts=["a b", "c d"], judged_texts=["a b", "e f"]),
    "agreement.mean_absolute_error": lambda: dict(labels=[0.2, 0.5, 1.0], judge=[0.3, 0.5, 0.8], n_resamples=200),
    "agreement.pairwise_accuracy": lambda: dict(labels_a=[0.2, 0.9, 0.5], labels_b=[0.5, 0.1, 0.5],
                                                judge_a=[0.3, 0.8, 0.4], judge_b=[0.6, 0.2, 0.4], n_resamples=200),
    "agreement.cohen_kappa": lambda: dict(n_resamples=200),
    "stats.bootstrap_ci": lambda: dict(n_resamples=200),
    "stats.paired_bootstrap": lambda: dict(n_resamples=200),
    "stats.permutation_test": lambda: dict(n_resamples=200),
    "stats.grouped_bootstrap_ci": lambda: dict(values=[0.2, 0.4, 0.6, 0.9] * 3, groups=list("aabbccddeeff"),
                                               n_resamples=200, min_groups=2),
    # data, examples, judges
    "data.path": lambda: dict(name="deck_e_super_bowl.jsonl"),
    "data.recording": lambda: dict(name="qwen2.5-coder-1.5b_deck-examples"),
    "examples.Stated.matches": lambda: dict(computed=0.5),
    "examples.Stated.shown": lambda: dict(computed=0.5),
    "examples.Example.case": lambda: dict(label=None),
    "judges.OpenAIJudge": lambda: dict(model="m", base_url="http://127.0.0.1:9/v1"),
    "judges.ReplayJudge": lambda: dict(recording=_recording_file()),
    "judges.parse_json_reply": lambda: dict(text='{"a": 1}'),
    "judges.score_cases": lambda: dict(step=__import__("ragmetrics_edu.designs", fromlist=["x"]).context_precision,
                                       cases=[dict(question="q", nodes=["a", "b", "c"], expected_output="e")]),
    "judges.write_recording": lambda: dict(path="recording.json", meta={"model": "m", "server": "s"}, calls=[]),
    "designs.faithfulness_reanswer.agreement": lambda: dict(candidate_words={"a", "b"}, judge_words={"a"}, compare="recall"),
    "evaluate": lambda: dict(judge=_judge(), metrics=["context_precision"]),
    # your own data: summary, report, pairing and comparison of evaluate() tables
    "evaluation.summary.summarize": lambda: dict(frame=_evaluated_table(), n_resamples=200),
    "evaluation.failures.blame": lambda: dict(row={"tags": ["incomplete_answer"], "source_recall": 0.25}),
    "evaluation.summary.flat_rows": lambda: dict(frame=_evaluated_table()),
    "evaluation.summary.scored_metrics": lambda: dict(frame=_evaluated_table()),
    "evaluation.summary.summary_text": lambda: dict(summaries=_export("summary.summarize")(_evaluated_table(),
                                                                                          n_resamples=200)),
    "evaluation.summary.write_table": lambda: dict(frame=_evaluated_table(), path=_SCRATCH / "table.csv"),
    "evaluation.report.render_report": lambda: dict(frame=_evaluated_table()),
    "evaluation.report.write_report": lambda: dict(frame=_evaluated_table(), path=_SCRATCH / "report.html"),
    "evaluation.report.intervals_svg": lambda: dict(summaries=_export("summary.summarize")(_evaluated_table(),
                                                                                            n_resamples=200)),
    "evaluation.pairing.pair_rows": lambda: dict(a=_export("evaluation.read_cases")([{"question": "q", "answer": "a"}]),
                                                 b=_export("evaluation.read_cases")([{"question": "q", "answer": "b"}])),
    "evaluation.comparison.compare_scores": lambda: dict(pairing=_compared()[0], scores_a=_compared()[1],
                                                         scores_b=_compared()[2], n_resamples=200),
    "evaluation.comparison.pair_table_rows": lambda: dict(pairing=_compared()[0], scores_a=_compared()[1],
                                                          scores_b=_compared()[2]),
    "evaluation.comparison.comparison_text": lambda: dict(comparisons=_comparisons(), pairing=_compared()[0]),
    "evaluation.comparison.summary_line": lambda: dict(c=_comparisons()[0]),
    "evaluation.comparison.scores_of": lambda: dict(data=[{"question": "q", "word_overlap": 0.5}],
                                                    metric="word_overlap"),
    "halueval.study.freeze_choice": lambda: dict(target=_scored_choice_log()),
    "halueval.study.plot_distributions": lambda: dict(designs=["word_overlap"], split="dev"),
    "halueval.choosing.best_threshold": lambda: dict(dev_rows=_PAIRS),
    "halueval.choosing.compare": lambda: dict(rows=_PAIRS, baseline_rows=_PAIRS, design="a"),
    "halueval.designs.score_answer": lambda: dict(design=_export("halueval.designs.design_of")("word_overlap"),
                                                  judge=None, pair=_export("data.halueval.pairs")("dev")[0], answer="x"),
    "halueval.detection.plot_distributions": lambda: dict(rows={"word_overlap": _PAIRS}, split="dev"),
    # the judge study (lessons 10-11): the shipped labelled cases, as the course loads them
    "judge_study.agreement.contradiction_counts": lambda: dict(found={"judge": _export("agreement.cohen_kappa")(
        ["supported", "contradicted", "supported"], ["supported", "contradicted", "contradicted"])}),
    "judge_study.agreement.extraction_quality": lambda: dict(rows=[], metric="faithfulness", cases=_labelled_set()[0]),
    "judge_study.agreement.kept": lambda: dict(name="quoted", scores={"library": 0.5, "quoted": 0.6},
                                               builds_on={"quoted": "library"}),
    "judge_study.behaviour.once": lambda: dict(rows=[], metric="faithfulness", cases=_labelled_set()[0]),
    "judge_study.behaviour.overlap_rows": lambda: dict(cases=_labelled_set()[0], metric="faithfulness"),
    "judge_study.behaviour.run_means": lambda: dict(runs=[[], []], metric="faithfulness"),
    "judge_study.cases.adjudicated": lambda: dict(first=_labelled_set()[1], decisions=[]),
    "judge_study.cases.annotator_agreement": lambda: dict(a=_export("judge_study.labels.load_labels")("pass1"),
                                                         b=_export("judge_study.labels.load_labels")("pass2"),
                                                         cases=_labelled_set()[0]),
    "judge_study.cases.pairs": lambda: dict(cases=_labelled_set()[0]),
    "judge_study.cases.parse_decisions": lambda: dict(doc={"decisions": []}, first=_labelled_set()[1],
                                                      second=_labelled_set()[1]),
    "judge_study.cases.unique_items": lambda: dict(metric="faithfulness", cases=_labelled_set()[0]),
    "judge_study.injection.reading": lambda: dict(found=[]),
    "judge_study.passes.select": lambda: dict(cases=_labelled_set()[0], selection="subset"),
    "judge_study.study.JudgeStudy": lambda: dict(cases=_labelled_set()[0], labels=_labelled_set()[1], passes={}),
    # the designs' arithmetic and the validation of a judge against people (lessons 13-15)
    "agreement.validation_report": lambda: dict(failed=_FAILED, scores=_SCORES, n_resamples=200),
    "agreement.auc_difference": lambda: dict(failed=_FAILED, scores_a=_SCORES, scores_b=_SCORES[::-1], n_resamples=200),
    "agreement.stratified_auc_of": lambda: dict(failed=_FAILED, scores=_SCORES, strata=list("abababab"),
                                                n_resamples=200),
    "agreement.corrected_pass_rate": lambda: dict(system_passes=[True, False, True, True], labelled_failed=_FAILED,
                                                  labelled_passes=[not f for f in _FAILED], n_resamples=200),
    "agreement.best_threshold": lambda: dict(failed=_FAILED, scores=_SCORES),
    "alignment.cost.calibration": lambda: dict(pass_name="g_eval", recording=_g_eval_recording()[0],
                                               recorded=_g_eval_recording()[1]),
    "alignment.recordings.calibration_of": lambda: dict(pass_name="g_eval"),
    "alignment.cost.unit": lambda: dict(pass_name="support"),
    "alignment.cost.data_chars": lambda: dict(pass_name="support", item=_labelled_items()[0]),
    "alignment.cost.estimate": lambda: dict(cal=_export("course.alignment.recordings.calibration_of")("g_eval"),
                                            chosen=_labelled_items()[:2]),
    "alignment.cost.describe": lambda: dict(found=_cost()),
    "alignment.cost.minutes": lambda: dict(seconds=120.0),
    "alignment.labelled.read_labelled": lambda: dict(path=_LABELLED),
    "alignment.labelled.split_by_group": lambda: dict(groups=["a", "b", "c"]),
    "alignment.labelled.labelled": lambda: dict(items=_labelled_items(), split="dev"),
    "alignment.labels_report.labels_report": lambda: dict(design="support_min", chosen=_labelled_items()[:4],
                                                          results=[None] * 4, say=lambda line: None),
    "judges.served.served_name": lambda: dict(asked="qwen", served=["/models/qwen.gguf"]),
    "alignment.validate_judge.recording_out": lambda: dict(model="m", design="g_eval", data="mine", out=None),
    "agreement.estimate_pass_rate": lambda: dict(people=[True, False, True, True], judge_on_labelled=[True, False, False, True],
                                                 judge_on_all=[True, False, True, True, False, True]),
    "agreement.plan_pass_rate": lambda: dict(pass_rate=0.7, tpr=0.85, tnr=0.7),
    "PassRateResult.labels_needed": lambda: dict(half_width=0.1),
    "agreement.roc_auc": lambda: dict(failed=_FAILED, scores=_SCORES),
    "agreement.roc.roc_points": lambda: dict(failed=_FAILED, scores=_SCORES),
    "agreement.span_agreement": lambda: dict(predicted=[[(0, 4)], []], people=[[(2, 6)], [(0, 1)]]),
    "agreement.fit_combination": lambda: dict(features={"overlap": _SCORES * 3, "length": _SCORES[::-1] * 3},
                                              failed=_FAILED * 3, groups=[str(i) for i in range(24)], folds=3),
    "studies.against_people.pass_rate.model_inputs": lambda: dict(model="gpt-4-0613"),
    "studies.against_people.pass_rate.pass_rate_display": lambda: dict(table=_pass_rates()),
    "studies.against_people.pass_rate.pass_rate_reading": lambda: dict(table=_pass_rates()),
    "studies.against_people.pass_rate.check_share_se": lambda: dict(table=_pass_rates()),
    "studies.against_people.pass_rate.plot_pass_rates": lambda: dict(table=_pass_rates()),
    "studies.against_people.choice.candidates": lambda: dict(dev=_against_people_log()["dev"]),
    "studies.against_people.choice.best_candidate": lambda: dict(dev=_against_people_log()["dev"]),
    "studies.against_people.readings.pooled_and_within": lambda: dict(designs=["g_eval"]),
    "studies.against_people.readings.judge_failures": lambda: dict(log=_against_people_log(), answered={"s": False}),
    "studies.against_people.readings.measure_judge": lambda: dict(pass_name="g_eval", chosen=_people_items()),
    "studies.against_people.choice.score_part": lambda: dict(chosen=_people_items(), judges={}),
    "studies.against_people.choice.complete": lambda: dict(part=_people_part(), names=["word_overlap"]),
    "studies.against_people.choice.part_figures": lambda: dict(part=_people_part(), design="word_overlap",
                                                               idx=list(range(40)), threshold=None),
    "studies.against_people.choice.paired_figures": lambda: dict(part=_people_part(), a="g_eval", b="word_overlap",
                                                                 idx=list(range(40))),
    "metrics.checked.checked_rows": lambda: dict(said=["supported"], quotes=None, context=["a claim here"]),
    "judges.examples.labelled_sentences": lambda: dict(answer="AI is old. It thinks.", spans=[(11, 21)],
                                                       passages=["AI is old."], question="q", group="g", split="dev"),
    "judges.examples.pick_examples": lambda: dict(pool=_export("judges.examples.labelled_sentences")(
        "AI is old. It thinks.", [(11, 21)], ["AI is old."], question="q", group="g", split="dev"),
        question="q", context=["AI is old."], group="other", k=1),
    "judges.examples.example_text": lambda: dict(example=_export("judges.examples.labelled_sentences")(
        "AI is old.", [], ["AI is old."], question="q", group="g", split="dev")[0]),
    # lesson 15 (course.alignment) and the course's time rule
    "alignment.analysis.misses": lambda: dict(design="support_min", log=_alignment_log(), log14=_people_log()),
    "alignment.analysis.failure_kinds": lambda: dict(design="support_min", log=_alignment_log()),
    "alignment.analysis.old_design_misses": lambda: dict(log14=_people_log()),
    "alignment.analysis.spans": lambda: dict(log=_alignment_log()),
    "alignment.analysis.shown_answer": lambda: dict(log=_alignment_log()),
    "alignment.analysis.quote_reading": lambda: dict(results=[None], failed=[True]),
    "judge_study.passes.merged_rows": lambda: dict(parts=[[{"case": "c1", "metric": "faithfulness"}], []]),
    "halueval.choosing.recorded_cost": lambda: dict(replies=[{"prompt_tokens": 10, "completion_tokens": 2}], answers=2),
    "retrieval.pooling.unjudged_in_top": lambda: dict(corpus=_export("retrieval.load_corpus")(), rows=[]),
    "alignment.answer_view.one_answer": lambda: dict(answer_id="ragtruth-14323-gpt-4-0613", log=_alignment_log()),
    "alignment.choice.figures_of": lambda: dict(part=_alignment_log()["parts"]["ragtruth-dev"], name="word_overlap"),
    "alignment.choice.candidate_figures": lambda: dict(log=_alignment_log()),
    "alignment.choice.paired_on": lambda: dict(part=_alignment_log()["parts"]["ragtruth-dev"], keep=list(range(40)),
                                               first="support_min", second="word_overlap"),
    "alignment.choice.choose": lambda: dict(log=_alignment_log()),
    "alignment.choice.candidate_table": lambda: dict(log=_alignment_log()),
    "alignment.choice.takeaway": lambda: dict(log=_alignment_log()),
    "alignment.cost_figures.cost_comparison": lambda: dict(log=_alignment_log()),
    "alignment.cost_figures.explored": lambda: dict(log=_alignment_log(), log14=_people_log()),
    "alignment.comparisons.against_old_designs": lambda: dict(design="support_min", log=_alignment_log(),
                                                              log14=_people_log()),
    "alignment.comparisons.by_sources": lambda: dict(names=("support_min",), first=20, log=_alignment_log()),
    "alignment.comparisons.pooled_and_within": lambda: dict(log=_alignment_log()),
    "alignment.comparisons.halueval_table": lambda: dict(log=_alignment_log()),
    "alignment.comparisons.halueval_sentences": lambda: dict(log=_alignment_log()),
    "alignment.comparisons.without_late_figure": lambda: dict(name="judge_combination", log=_alignment_log()),
    "alignment.comparisons.cv_word_overlap": lambda: dict(log=_alignment_log()),
    "alignment.log.checked_log": lambda: dict(log=_alignment_log()),
    "alignment.log.lesson14_threshold": lambda: dict(log14=_people_log(), design="word_overlap"),
    "alignment.log.add_transferred": lambda: dict(fitted={}, part=_alignment_part()),
    "alignment.log.new_part": lambda: dict(chosen=_labelled_items()[:3]),
    "alignment.log.checked_part": lambda: dict(part=_alignment_part()),
    "alignment.log.add_pass": lambda: dict(part=_alignment_part(), pass_name="support",
                                           results=[None] * len(_alignment_part()["items"]),
                                           chosen=[None] * len(_alignment_part()["items"]), scorers={}),
    "alignment.log.add_timings": lambda: dict(part=_alignment_part(), pass_name="support",
                                              results=[None] * len(_alignment_part()["items"])),
    "alignment.stability.stability_figures": lambda: dict(sampled=[None], support=[None], failed=[True],
                                                          models=["m"], threshold=0.3),
    "alignment.analysis.answer_of": lambda: dict(answer_id="ragtruth-14323-gpt-4-0613"),
    "alignment.calibration.sentences": lambda: dict(log=_alignment_log()),
    "alignment.calibration.plot_reliability": lambda: dict(
        tables={"p": _export("agreement.calibration.reliability")([0.2, 0.7, 0.4], [False, True, True])}),
    "agreement.calibration.reliability": lambda: dict(p=[0.2, 0.7, 0.4], outcome=[False, True, True]),
    "judges.costs.checked_price": lambda: dict(field="price_in", value=0.5),
    "studies.deck_agreement.DeckRun.build": _deck_run_args,
    "studies.deck_agreement.yes_no": lambda: dict(values=[1, 0, "idk"]),
    "course.exercises.close": lambda: dict(given="1/2", value=0.5),
    "studies.calibration.calibration_cosines": lambda: dict(pairs=[{"label": "related", "a": "a cat", "b": "a dog"}]),
    "agreement.calibration.base_rate": lambda: dict(outcome=[False, True, True, False], groups=["a", "a", "b", "b"]),
    "agreement.calibration.brier_skill": lambda: dict(p=[0.2, 0.7, 0.4, 0.6], reference=[0.5, 0.5, 0.5, 0.5],
                                                      outcome=[False, True, True, False], groups=["a", "a", "b", "b"],
                                                      n_resamples=20),
    "stats.sample_size.units_needed": lambda: dict(half_width=0.08, units=50, target=0.05),
    "alignment.labels.rates": lambda: dict(design="word_overlap", log=_alignment_log(), log14=_people_log()),
    "alignment.labels.threshold_for": lambda: dict(design="support_min", log=_alignment_log(), log14=_people_log()),
    "alignment.labels.labels_plan": lambda: dict(log=_alignment_log(), log14=_people_log()),
    "alignment.labels.plan_summary": lambda: dict(plan=_export("studies.alignment.labels.labels_plan")(
        _alignment_log(), _people_log())),
    "alignment.stability.rule_flags": lambda: dict(sampled=[None], support=[None], failed=[True], threshold=0.3),
    "course.time_plan.counts": lambda: dict(notebook={"cells": [{"cell_type": "markdown", "source": "# A title"}]}),
    "course.course_plan.readme_part": lambda: dict(readme=f"{_plan_markers()[0]}\n{_plan_markers()[1]}"),
    "course.course_plan.with_readme_part": lambda: dict(readme=f"{_plan_markers()[0]}\n{_plan_markers()[1]}"),
    "course.exercises.changed_code.changed_core": lambda: dict(
        metric="context_precision", old="term = precision_at_k * r_k", new="term = precision_at_k"),
    "course.exercises.changed_code.change_exercise": lambda: dict(
        id="walk-1", metric="context_precision", old="term = precision_at_k * r_k", new="term = precision_at_k",
        case="deck A", run=lambda core: core.context_precision([0, 1, 1, 0, 0])[0], hint="h", explanation="e"),
    # widgets
    "widgets.ReorderModel": lambda: dict(nodes=["a", "b", "c"], verdicts=[1, 0, 1]),
    "widgets.PermutationModel": lambda: dict(nodes=["a", "b", "c"], verdicts=[1, 0, 1]),
    "widgets.ReorderExplorer": lambda: dict(nodes=["a", "b", "c"], verdicts=[1, 0, 1]),
    "widgets.PermutationExplorer": lambda: dict(nodes=["a", "b", "c"], verdicts=[1, 0, 1]),
    "widgets.StatementModel": lambda: dict(statements=["s1", "s2", "s3"], verdicts=["yes", "no", "yes"],
                                           nodes=[1, None, 2]),
    "widgets.StatementExplorer": lambda: dict(statements=["s1", "s2", "s3"], verdicts=["yes", "no", "yes"],
                                              nodes=[1, None, 2]),
    "widgets.DecomposeModel": lambda: dict(pieces=["p1", "p2", "p3"], verdicts=["yes", "no", "yes"]),
    "widgets.EntityModel": lambda: dict(reference_entities=["Paris", "France"], context_entities=["paris"]),
    "widgets.EntityExplorer": lambda: dict(reference_entities=["Paris", "France"], context_entities=["paris"]),
    "widgets.EntityModel.set_normalize": lambda: dict(value=True),
    "widgets.model_base.check_index": lambda: dict(value=1, n=3),
    "widgets.model_base.check_permutation": lambda: dict(order=[1, 0, 2], n=3),
    # validate: a field name and a value to check
    "validate.choice": lambda: dict(value="one", options=("one", "two")),
    "validate.count": lambda: dict(value=3),
    "validate.flag": lambda: dict(value=True),
    "validate.optional_flag": lambda: dict(value=None),
    "validate.identifier": lambda: dict(value="x"),
    "validate.number": lambda: dict(value=0.5),
    "validate.one_verdict": lambda: dict(value="yes"),
    "validate.optional_texts": lambda: dict(value=["a", "b"], n=2, what="node"),
    "validate.path": lambda: dict(value=_recording_file()),
    "validate.positive_int": lambda: dict(value=2),
    "validate.probability": lambda: dict(value=0.5),
    "validate.text": lambda: dict(value="x"),
    "validate.records": lambda: dict(value=[{"a": 1}], keys=("a",)),
    "validate.mapping": lambda: dict(value={"a": 1}),
    "validate.instance": lambda: dict(value=1, kind=int),
}

#: Instances whose public methods are walked, where the constructor's valid arguments are not
#: enough (a record the library builds). Keys match like :data:`VALID`'s.
INSTANCES: dict[str, Callable[[], Any]] = {
    "examples.Example": _example,
    "examples.Case": lambda: _example().cases[0],
    "examples.Stated": lambda: next(s for c in _example().cases for s in c.stated),
    "MetricResult": _result,
    "stats.StatResult": _stat_result,
    "agreement.AgreementResult": _agreement_result,
    "agreement.PassRateResult": _pass_rate_result,
    "judges.ReplayJudge": _replay,
    "retrieval.Corpus": lambda: _export("retrieval.load_corpus")(),
    "retrieval.Question": lambda: _export("retrieval.load_corpus")().questions[0],
    "judges.CallRecord": _call_record,
    "judges.Usage": lambda: _export("judges.Usage")(),
    "widgets.PermutationSummary": lambda: __import__("ragmetrics_edu.widgets", fromlist=["x"]).PermutationModel(
        verdicts=[1, 0, 1]).summary,
}

#: Targets not walked, and why. Exception classes are not walked either: the library raises
#: them, nobody calls them with data.
SKIPPED: dict[str, str] = {
    "OpenAIEmbedder.embed": "sends a request to a live embedding server (network)",
    "SentenceTransformerEmbedder": "loads a neural model (a download, torch); its checks have their own tests",
    "OpenAIJudge.ask": "sends a request to a live server; tests/library/test_judge_promises.py drives it on a scripted one",
    "judge_study.recording.record_passes": "runs a judge study against a live llama.cpp server",
    "alignment.calibration.platt_scaled": "fits a logistic regression per dev source (loads scikit-learn, about 3 s); "
                                          "tests/course/test_lesson15_alignment.py checks it against the stored fit",
    "alignment.log.add_combinations": "fits logistic regressions per dev source (scikit-learn); "
                                      "tests/course/test_lesson15_alignment.py checks them through build_log",
    "alignment.log.add_baseline_cv": "fits a logistic regression per dev source (scikit-learn); "
                                     "tests/course/test_lesson15_alignment.py checks it against the shipped log",
    "alignment.study.build_log": "replays every recording of lesson 15 (thousands of requests, about 15 s); "
                                 "tests/course/test_lesson15_alignment.py checks it against the shipped log",
    "recorded_embeddings.record_embeddings": "loads a neural model (a download, torch)",
    "recorded_embeddings.run_record_embeddings": "the CLI behind record_embeddings (a model download)",
    "recorded_embeddings.main": "the CLI behind record_embeddings (a model download)",
    "regression_gate_example.test_faithfulness_does_not_regress": "a pytest test shipped as an example file",
    "Judge": "an abstract base class (its subclasses are walked)",
    "Embedder": "a typing Protocol (the shape of an embedder), not something to call",
    "Observer": "a typing Protocol (the shape of a callback), not something to call",
    "Vector": "a type alias (Sequence[float]), not something to call",
    "model_base.Observable": "an abstract base of the explorer models (the models are walked)",
}

#: Parameters that take any object by design (a matplotlib axis, the value an error message
#: shows): a bad value there is not an input error.
SKIPPED_PARAMS: set[str] = {"ax", "got", "hint"}

#: Parameters that configure a check rather than carry data: ``validate``'s and ``errors``'
#: helpers take the field name, the wording and the bounds from the library's own code (the
#: value being checked is walked). Keys match like :data:`VALID`'s.
CONFIGURATION: dict[str, set[str]] = {
    "validate": {"field", "field_a", "field_b", "expected", "options", "low", "high", "low_open", "high_open", "maximum",
                 "minimum", "allow_idk", "allow_none", "allow_none_items", "kind", "exists", "n", "what", "keys",
                 "iterators"},
    "errors": {"limit", "field", "expected"},
}


# -- finding the targets --------------------------------------------------------------------
@dataclass
class Target:
    name: str  # dotted: module.Name or module.Class.method
    func: Callable[..., Any] = field(repr=False)
    owner: type | None = field(default=None, repr=False)  # for a method: the class to build
    params: list[inspect.Parameter] = field(default_factory=list, repr=False)


def _matches(name: str, key: str) -> bool:
    return name == key or name.endswith("." + key)


def _lookup(table: dict[str, Any], name: str) -> Any:
    keys = [k for k in table if _matches(name, k)]
    return table[max(keys, key=len)] if keys else None


#: old module names kept for one release: each imports its new home (walked there) and warns
DEPRECATED_MODULES: set[str] = set()


def _public_modules() -> list[types.ModuleType]:
    """The package and every module a user is meant to import.

    A module is public when no part of its name starts with ``_`` and it is a module of the
    package itself (``ragmetrics_edu.results``), or a module of a subpackage that does not curate
    its exports, or one the subpackage names in its ``__all__``, or a module that declares its
    own ``__all__`` (``from ragmetrics_edu.metrics.support import support_score`` is how a notebook
    reaches support per sentence's arithmetic: an ``__all__`` says which names a user may import). Any other
    module of a curated subpackage is implementation: its functions are reached through what the
    subpackage exports, and those are walked."""
    found = {PACKAGE: ragmetrics_edu}
    for info in pkgutil.walk_packages(ragmetrics_edu.__path__, PACKAGE + "."):
        if any(part.startswith("_") for part in info.name.split(".")) or info.name in DEPRECATED_MODULES:
            continue
        try:
            found[info.name] = importlib.import_module(info.name)
        except ImportError as exc:  # an optional dependency that is not installed
            warnings.warn(f"not walked: {info.name} ({exc})", stacklevel=1)

    def public(name: str) -> bool:
        if name == PACKAGE or "__all__" in vars(found[name]):
            return True
        parent_name, _, leaf = name.rpartition(".")
        parent = found.get(parent_name)
        if parent is None or not public(parent_name):
            return False
        if parent_name == PACKAGE:
            return True
        curated = getattr(parent, "__all__", None)
        return curated is None or leaf in curated

    return [module for name, module in found.items() if public(name)]


#: Exported names that could not be resolved (a module moved, say); the walk skips them.
UNRESOLVED: list[str] = []


def _exported(module: types.ModuleType) -> list[tuple[str, Any]]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, obj in vars(module).items()
                 if not n.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
                 and getattr(obj, "__module__", "") == module.__name__]
    found = []
    for n in names:
        try:
            obj = getattr(module, n, None)
        except ImportError as exc:  # an export that does not resolve: test_every_export_resolves says so
            UNRESOLVED.append(f"{module.__name__}.{n}: {exc}")
            continue
        if obj is None or inspect.ismodule(obj) or not callable(obj):
            continue
        found.append((n, obj))
    return found


def _signature(func: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(func)
    except (TypeError, ValueError):
        return None


def _params(func: Any, *, method: bool = False) -> list[inspect.Parameter]:
    sig = _signature(func)
    if sig is None:
        return []
    params = [p for p in sig.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    return params[1:] if method else params


def is_record(obj: Any) -> bool:
    """A plain data record: a class whose ``__init__`` is the one ``dataclass`` writes (it stores
    what it is given, checking nothing; the library builds these, and a learner reads them)."""
    init = getattr(obj, "__init__", None)
    code = getattr(init, "__code__", None)
    return inspect.isclass(obj) and code is not None and code.co_filename == "<string>"


def _is_protocol(obj: Any) -> bool:
    return inspect.isclass(obj) and bool(getattr(obj, "_is_protocol", False))


@functools.lru_cache(maxsize=1)
def _targets() -> tuple[Target, ...]:
    return tuple(_find_targets())


def public_targets() -> list[Target]:
    """Every public target (see the module), sorted by name; ``API_WALK_ONLY`` keeps the names containing it."""
    only = os.environ.get("API_WALK_ONLY", "")
    return [t for t in _targets() if only in t.name]


def _find_targets() -> list[Target]:
    targets: dict[Any, Target | None] = {}
    for module in _public_modules():
        for name, obj in _exported(module):
            full = f"{module.__name__}.{name}"
            if id(obj) in targets:
                continue
            # an Enum's call is the standard library's (a value lookup, or the functional API that builds a new
            # enum); its members are checked where they are used (metrics.StatementView, metrics.RankingView)
            if _is_protocol(obj) or _lookup(SKIPPED, full) or (
                    inspect.isclass(obj) and issubclass(obj, (BaseException, enum.Enum))):
                targets[id(obj)] = None
                continue
            targets[id(obj)] = Target(full, obj, params=_params(obj))
            if inspect.isclass(obj) and not issubclass(obj, BaseException) and not inspect.isabstract(obj):
                for attr in dir(obj):
                    if attr.startswith("_"):
                        continue
                    static = inspect.getattr_static(obj, attr)  # no property or descriptor runs
                    function = static.__func__ if isinstance(static, (staticmethod, classmethod)) else static
                    if not inspect.isfunction(function) or not function.__module__.startswith(PACKAGE):
                        continue
                    mname = f"{full}.{attr}"
                    if _lookup(SKIPPED, mname) or _lookup(SKIPPED, f"{obj.__name__}.{attr}"):
                        continue
                    if isinstance(static, (staticmethod, classmethod)):
                        bound = getattr(obj, attr)  # called on the class: no instance needed
                        targets[(id(obj), attr)] = Target(mname, bound, params=_params(bound))
                    elif is_record(obj) and _lookup(INSTANCES, full) is None:
                        continue  # a record's methods need a record the library built (INSTANCES)
                    else:
                        targets[(id(obj), attr)] = Target(mname, function, owner=obj,
                                                          params=_params(function, method=True))
    return sorted((t for t in targets.values() if t is not None), key=lambda t: t.name)


# -- building valid calls -------------------------------------------------------------------
def _by_annotation(param: inspect.Parameter) -> Any:
    text = str(param.annotation).lower()
    if "sequence[str]" in text or "list[str]" in text or "iterable[str]" in text:
        return ["one", "two"]
    if "mapping" in text or "dict" in text:
        return {}
    if "sequence" in text or "list" in text or "iterable" in text:
        return [1, 0]
    if text.startswith("'bool") or text.startswith("bool"):
        return False
    if text.startswith("'int") or text.startswith("int"):
        return 1
    if text.startswith("'float") or text.startswith("float"):
        return 0.5
    if "str" in text:
        return "text"
    return None


#: The case a registered spec's ``ask`` function is walked with, by what its :class:`~ragmetrics_edu.metrics.Ask`
#: passes (the columns evaluate() hands it, the walk's judge; no embedder: the recorded one; no criteria: the default).
CASE: dict[str, Callable[[], Any]] = {
    **{column: BY_NAME[column] for column in ("question", "answer", "contexts", "ground_truth")},
    "judge": _judge, "embedder": lambda: None, "criteria": lambda: None,
}


def registered_kwargs(func: Any) -> dict[str, Any] | None:
    """What the registry says ``func`` is valid with, or None when no registered spec names it: the spec's
    ``example`` for its arithmetic (``compute``), or :data:`CASE` passed the way its ``Ask`` passes a case for the
    function that scores one case (as :func:`ragmetrics_edu.evaluate` would call it)."""
    from ragmetrics_edu.metrics import SPECS

    specs = list(SPECS.values())
    for spec in specs:
        if spec.compute is func and spec.example is not None:
            return copy.deepcopy(dict(spec.example))
    for spec in specs:
        if spec.ask is not None and spec.ask.target is func:
            names = list(inspect.signature(func).parameters)
            kwargs = {names[i]: CASE[what]() for i, what in enumerate(spec.ask.args)}
            values = {key: CASE[what]() for key, what in spec.ask.kwargs}
            return kwargs | {key: value for key, value in values.items() if value is not None}
    return None


def valid_kwargs(name: str, params: list[inspect.Parameter], func: Any = None) -> dict[str, Any]:
    """Valid keyword arguments for every parameter: the registry's (:func:`registered_kwargs`), else :data:`VALID`'s,
    then for the rest the signature's defaults, :data:`BY_NAME` and the annotation."""
    registered = registered_kwargs(func) if func is not None else None
    given = _lookup(VALID, name)
    kwargs = registered if registered is not None else dict(given()) if given else {}
    for p in params:
        if p.name in kwargs:
            continue
        if p.default is not inspect.Parameter.empty:
            kwargs[p.name] = p.default
        elif p.name in BY_NAME:
            kwargs[p.name] = BY_NAME[p.name]()
        else:
            kwargs[p.name] = _by_annotation(p)
    return kwargs


def _owner_target(target: Target) -> str:
    return target.name.rsplit(".", 1)[0]


#: One instance per target, reused while calls on it only raise (an error leaves it as it was);
#: after a call that returned, the next call gets a fresh one.
_INSTANCES: dict[str, Any] = {}


def _instance(target: Target) -> Any:
    if target.name in _INSTANCES:
        return _INSTANCES[target.name]
    owner = target.owner
    assert owner is not None
    made = _lookup(INSTANCES, _owner_target(target))
    if made is not None:
        instance = made()
    else:
        instance = _invoke(owner, _params(owner), valid_kwargs(_owner_target(target), _params(owner), owner))
    _INSTANCES[target.name] = instance
    return instance


def _invoke(func: Callable[..., Any], params: list[inspect.Parameter], kwargs: dict[str, Any]) -> Any:
    args = [kwargs.pop(p.name) for p in params if p.kind == p.POSITIONAL_ONLY and p.name in kwargs]
    return func(*args, **kwargs)


# -- one call -------------------------------------------------------------------------------
def _reference_work() -> int:
    """A fixed piece of plain-Python work (dict updates, string keys, a sort), like the library's own."""
    table: dict[str, int] = {}
    for i in range(60_000):
        key = f"k{i % 997}"
        table[key] = table.get(key, 0) + (i * i) % 7
    return len(sorted(table, key=lambda k: (table[k], k)))


def reference_seconds() -> float:
    """CPU seconds of one :func:`_reference_work` here and now (the median of five runs; 10 ms here)."""
    times = []
    for _ in range(5):
        start = time.process_time()
        _reference_work()
        times.append(time.process_time() - start)
    return statistics.median(times)


#: The CPU limit in force (seconds); :func:`calibrate` sets it, and raises it before a retry.
_LIMIT: list[float] = []


def calibrate() -> float:
    """Set the CPU limit from the reference timed now (never lower than before); return it."""
    limit = max(MIN_CPU_LIMIT, HANG_UNITS * reference_seconds(), *_LIMIT)
    _LIMIT[:] = [limit]
    return limit


def cpu_limit() -> float:
    return _LIMIT[0] if _LIMIT else calibrate()


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so ``except Exception`` in the library cannot hide it."""


def _alarm(signum, frame):
    raise Hang()


@contextlib.contextmanager
def time_bound():
    """Raise :class:`Hang` inside the block after :func:`cpu_limit` CPU seconds, or :data:`WALL_FACTOR`
    times that (at least 30 s) of wall time."""
    limit = cpu_limit()
    previous = {sig: signal.signal(sig, _alarm) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, limit)
    signal.setitimer(signal.ITIMER_REAL, max(30.0, WALL_FACTOR * limit))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass
class Outcome:
    target: str
    param: str
    kind: str
    verdict: str  # "result", "error" (a library error), "raw", "hang", "range", "setup"
    detail: str = ""
    seconds: float = 0.0


#: Score ranges that are not [0, 1], by the result's metric name.
RANGES: dict[str, tuple[float, float]] = {
    "semantic_similarity": (-1.0, 1.0),
    "answer_relevancy_embedding": (-1.0, 1.0),
    "answer_correctness": (-1.0, 1.0),
    "bm25": (0.0, math.inf),
    "labels needed": (1.0, math.inf),  # a count of labelled answers (inf: no number suffices)
    "cosine": (-1.0, 1.0),
}


def _check_result(value: Any) -> str:
    """'' when ``value`` is a documented result, else what is wrong with it."""
    from ragmetrics_edu.agreement import AgreementResult
    from ragmetrics_edu.results import MetricResult
    from ragmetrics_edu.stats import StatResult

    if isinstance(value, StatResult):
        p = value.p_value
        if p is not None and not (math.isnan(p) or 0.0 <= p <= 1.0):
            return f"p-value {p} outside [0, 1]"
        interval = next((x for x in (getattr(value, "ci", None), getattr(value, "interval", None))
                         if isinstance(x, tuple)), None)
        if interval is not None and not any(math.isnan(x) for x in interval) and interval[0] > interval[1]:
            return f"interval {interval} has low > high"
    elif isinstance(value, MetricResult):
        low, high = RANGES.get(value.metric, (0.0, 1.0))
        score = value.score
        if not isinstance(score, (int, float)) or isinstance(score, bool):
            return f"score {score!r} is not a number"
        if not (math.isnan(score) or low <= score <= high):
            return f"{value.metric} score {score} outside [{low}, {high}]"
    elif isinstance(value, AgreementResult):
        v = value.score
        if not isinstance(v, (int, float)) or not (math.isnan(v) or -1.0 <= v <= 1.0):
            return f"{value.metric} value {v!r} outside [-1, 1]"
    if isinstance(value, (list, tuple)):
        for item in value[:50]:
            problem = _check_result(item)
            if problem:
                return problem
    return ""


def call_once(target: Target, param: str | None, kind: str | None, *, retry: bool = True) -> Outcome:
    """Call ``target`` with valid values, ``param`` (if any) replaced by the ``kind`` bad value.

    Only the call is timed (building the valid arguments and the instance is not); a call
    over the limit is tried once more, with the limit taken again from the reference (a burst of
    load may have passed), before it counts as a hang."""
    out = io.StringIO()
    stage = "setup"
    seconds = 0.0

    def outcome(verdict: str, detail: str = "") -> Outcome:
        if verdict != "error":  # anything but a clean refusal may have changed the instance
            _INSTANCES.pop(target.name, None)
        return Outcome(target.name, param or "", kind or "", verdict, detail, seconds)

    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                kwargs = valid_kwargs(target.name, target.params, target.func)
                func = target.func
                if target.owner is not None:
                    func = getattr(_instance(target), target.func.__name__)
                if param is not None:
                    kwargs[param] = KINDS[kind]()  # type: ignore[index]
                stage = "call"
                start = time.perf_counter()
                problem = ""
                with time_bound():
                    value = _invoke(func, target.params, kwargs)
                    if not is_record(target.func):  # a record holds what it was given, junk included
                        stage = "check"
                        problem = _check_result(value)
                        repr(value)
                seconds = time.perf_counter() - start
            except Hang:
                if retry:
                    calibrate()
                    return call_once(target, param, kind, retry=False)
                return outcome("hang", f"over {cpu_limit():.1f} CPU s ({HANG_UNITS:g} reference runs) in {stage}")
            except RagMetricsError as exc:
                return outcome("setup" if stage == "setup" else "error", _short(exc))
            except Exception as exc:  # noqa: BLE001 - what the walk is looking for
                return outcome("setup" if stage == "setup" else "raw", _short(exc))
    finally:
        if "matplotlib.pyplot" in sys.modules:
            sys.modules["matplotlib.pyplot"].close("all")
    return outcome("range", problem) if problem else outcome("result")


def _short(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001
        text = "<unprintable>"
    return f"{type(exc).__name__}: {text[:200]}"


# -- the crossing ---------------------------------------------------------------------------
def _rank(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).encode()).digest()[:4], "big")


def walked_params(target: Target) -> list[str]:
    """The parameters of ``target`` that bad values go into (not :data:`SKIPPED_PARAMS`, not configuration)."""
    configuration = next((names for key, names in CONFIGURATION.items()
                          if target.name.startswith(f"{PACKAGE}.{key}.")), set())
    return [p.name for p in target.params if p.name not in SKIPPED_PARAMS and p.name not in configuration]


#: Bad kinds per target in the default (sampled) walk; ``API_WALK=full`` uses every kind on every parameter.
KINDS_PER_TARGET = int(os.environ.get("API_WALK_KINDS", "4"))
#: Kinds every parameter of every target meets, sampled or not: the failures issue 21 names
#: (array-likes, a path too long, pandas' missing value, a broken iterable).
CORE_KINDS = ("numpy array", "pd.NA", "path too long", "broken __iter__")


def plan(targets: list[Target], full: bool = False, per_param: int = 0) -> list[tuple[Target, str, str]]:
    """(target, parameter, kind) triples, the same every run.

    Sampled (the default): every parameter meets the :data:`CORE_KINDS`, and each target
    :data:`KINDS_PER_TARGET` more kinds dealt round its parameters: a run of the kind list that
    starts where a hash of the target's name points, so every other kind is used some 50-80
    times, and a target's kinds never change because another target came or went.
    ``per_param`` adds that many kinds to each parameter; ``full`` crosses every parameter with
    every kind (about 44,000 calls, two minutes)."""
    calls: list[tuple[Target, str, str]] = []
    kinds = list(KINDS)
    for t in targets:
        params = walked_params(t)
        if not params:
            continue
        if full:
            calls += [(t, p, k) for p in params for k in kinds]
            continue
        start = _rank(t.name) % len(kinds)  # from the name alone: a new target changes no other's kinds
        picked = [kinds[(start + i) % len(kinds)] for i in range(min(KINDS_PER_TARGET, len(kinds)))]
        order = sorted(params, key=lambda p: _rank(t.name, p))
        chosen = {(order[i % len(order)], k) for i, k in enumerate(picked)}
        chosen |= {(p, k) for p in params for k in CORE_KINDS}
        for p in params:
            for k in sorted(kinds, key=lambda k: _rank(t.name, p, k))[:per_param]:
                chosen.add((p, k))
        calls += [(t, p, k) for p, k in sorted(chosen)]
    return calls


@contextlib.contextmanager
def _in_tmp_dir():
    """Run in a scratch folder, so nothing a call writes lands in the repository."""
    here = os.getcwd()
    scratch = tempfile.mkdtemp(prefix="cwd-", dir=_SCRATCH)
    os.chdir(scratch)
    try:
        yield Path(scratch)
    finally:
        os.chdir(here)


def warm_up() -> None:
    """Import what the first call of a plot or a widget would (seconds, on a busy machine), so
    the time limit measures the call, not a one-off import."""
    for name in ("matplotlib.pyplot", "ipywidgets", "pandas", "numpy", "openai", "sklearn.linear_model",
                 "sklearn.model_selection", "sklearn.preprocessing"):
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def walk(full: bool = False, per_param: int = 0) -> tuple[list[Outcome], list[Outcome]]:
    """(baseline outcomes, bad-value outcomes)."""
    warm_up()
    calibrate()
    targets = public_targets()
    with _in_tmp_dir():
        baseline = [call_once(t, None, None) for t in targets]
        outcomes = [call_once(t, p, k) for t, p, k in plan(targets, full, per_param)]
    return baseline, outcomes


# -- the command line -------------------------------------------------------------------------
#: Commands not walked, and why.
SKIPPED_COMMANDS = {
    "judge-server": "starts a llama.cpp server (a long-running process)",
    "record-embeddings": "loads a neural model (a download, torch)",
    "record-judge": "runs every deck case against a live judge server (minutes; the openai client retries)",
    "record-judge-study": "runs a judge study against a live llama.cpp server (hours)",
}

#: Bad words for a command-line option (what a shell can pass: strings).
BAD_WORDS: dict[str, Callable[[], str]] = {
    "empty": lambda: "",
    "huge": lambda: "word " * 20_000,
    "nan": lambda: "nan",
    "inf": lambda: "-inf",
    "negative": lambda: "-1",
    "huge number": lambda: "1e400",
    "zero": lambda: "0",
    "list": lambda: "yes,no,maybe",
    "path too long": lambda: "/tmp/" + "d" * 5000 + ".json",
    "directory": lambda: str(_DIR),
    "option-like": lambda: "--help-me",
}

#: Valid words for each command: its positional words, then its options (``{DIR}``: a scratch folder).
COMMANDS: dict[str, tuple[list[str], dict[str, list[str]]]] = {
    "examples": ([], {}),
    "explain": (["A-cp-what-is-ai"], {}),
    "score": (["context_precision", "1", "0", "1"], {}),
}


def _argv(command: str, parser: Any, bad: tuple[Any, str] | None) -> list[str]:
    """``command``'s valid words with one action's words replaced by a bad word."""
    words, options = COMMANDS.get(command, ([], {}))
    words, options = list(words), {k: list(v) for k, v in options.items()}
    positional: list[str] = []
    for action in (a for a in parser._actions if not a.option_strings):
        taken = words[:1] if action.nargs in (None, 1) else words
        words = words[len(taken):]
        positional += [bad[1]] if bad is not None and bad[0] is action else taken
    if bad is not None and bad[0].option_strings:
        options[bad[0].option_strings[0]] = [bad[1]]
    return [command] + positional + [w for option, values in options.items() for w in (option, *values)]


def cli_plan() -> list[tuple[str, list[str], str, str]]:
    """(command, argv, argument, bad kind): every argument of every command with every bad word."""
    from ragmetrics_edu.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    calls = []
    for command, parser in sub.choices.items():
        if command in SKIPPED_COMMANDS:
            continue
        calls.append((command, _argv(command, parser, None), "", ""))
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction) or action.nargs == 0:
                continue  # --help and on/off flags take no value
            name = action.option_strings[0] if action.option_strings else action.dest
            calls += [(command, _argv(command, parser, (action, kind)), name, kind) for kind in BAD_WORDS]
    return calls


def cli_call(command: str, argv: list[str], option: str, kind: str) -> Outcome:
    """Run ``main(argv)`` with the bad word; pass when it exits 0, 1 or 2 with no traceback, in time."""
    from ragmetrics_edu.cli import main

    words = [BAD_WORDS[w]() if w in BAD_WORDS else w.replace("{DIR}", str(_DIR)) for w in argv]
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    name = f"cli {command}"
    try:
        with time_bound(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = main(words)
    except Hang:
        return Outcome(name, option, kind, "hang", f"over {cpu_limit():.1f} CPU s ({HANG_UNITS:g} reference runs)",
                       time.perf_counter() - start)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - main must return a code, never raise
        return Outcome(name, option, kind, "raw", _short(exc), time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if code not in (0, 1, 2) or "Traceback" in err.getvalue():
        return Outcome(name, option, kind, "raw", f"exit {code}: {err.getvalue()[-300:]}", seconds)
    return Outcome(name, option, kind, "result" if code == 0 else "error", "", seconds)


def _report(baseline: list[Outcome], outcomes: list[Outcome], seconds: float) -> str:
    counts = collections.Counter(o.verdict for o in outcomes)
    base = collections.Counter(o.verdict for o in baseline)
    lines = [f"{len(baseline)} targets ({dict(base)} with valid arguments); {len(outcomes)} bad-value calls "
             f"in {seconds:.1f} s: {dict(counts)}"]
    bad = [o for o in outcomes if o.verdict in ("raw", "hang", "range")]
    for o in bad:
        lines.append(f"  {o.verdict}: {o.target}({o.param}=<{o.kind}>): {o.detail}")
    return "\n".join(lines)


# -- the tests ------------------------------------------------------------------------------
#: Where a raw exception, a hang or a score out of range may still happen today, and why. A key
#: names a module (every target in it) or the end of a target's name; the walk tolerates its
#: failures, and :func:`test_known_failures_still_fail` fails once a key matches none (so a fix
#: removes its entry).
#: The targets that still fail today, by module (see :data:`KNOWN`).
_ENGINE = ("an engine helper a module's own __all__ exports (walked since modules with an __all__ are public); "
           "the library calls it with values it built, and it does not check them yet (issue 35, item 8)")
KNOWN_BY_MODULE: dict[str, tuple[str, list[str]]] = {
    "judges.requests": (_ENGINE, ["verdict_request", "finish", "ask", "key_names", "sized",
                                  "extracted"]),
    "designs.faithfulness_reanswer": (_ENGINE, ["agreement"]),
    "judges.batch": (_ENGINE, ["Run"]),
    "judges.cache_entries": (_ENGINE, ["read_cache_entry"]),
    "designs.faithfulness_checked": (_ENGINE, ["quote_found"]),
    "judges.token_probs": (_ENGINE, ["p_yes", "alternatives"]),
    "metrics.specs": (_ENGINE, ["call_with", "Registry.name"]),
    "metrics.registry": (_ENGINE, ["MetricTable"]),
    "metrics.checked": (_ENGINE, ["row_line", "still_open"]),
    "metrics.rubric": (_ENGINE, ["scale_of"]),
    "agreement.roc": (_ENGINE, ["roc_points", "scores_of"]),
    "ranking.precision": (_ENGINE, ["per_k_precision"]),
    "stats.grouped": (_ENGINE, ["group_indices"]),
    "widgets.offered": (_ENGINE, ["title_of"]),
    "widgets.statements_model": (_ENGINE, ["accepted"]),
}
KNOWN: dict[str, str] = {f"{module}.{name}": why for module, (why, names) in KNOWN_BY_MODULE.items() for name in names}


def _known_key(name: str, key: str) -> bool:
    return _matches(name, key) or f".{key}." in f".{name}."


def _known(o: Outcome) -> bool:
    return any(_known_key(o.target, key) for key in KNOWN)


#: The targets whose valid call ends in a library error today, each with its reason (by the full name after
#: ``ragmetrics_edu.``). Every other target's valid call must give a result (:func:`test_valid_arguments_give_a_result`):
#: a function that gave one and now errors fails the walk, and so does a new function whose valid call errors, until
#: it gets a :data:`VALID` line (or, for a registered metric, an ``example`` on its spec) or an entry here saying why.
#: :func:`test_every_no_result_entry_is_current` fails once an entry gives a result or names no target, so the
#: list only shrinks with the code. (It replaced a global budget, "70 % of the valid calls give a result", which
#: sat a few points above the count and let a new error pass unseen while the share stayed above it.)
_BUILT = ("takes what another library function builds (a result of one metric, a choice log, a corpus record, an "
          "Item, a run's rows, a judge or a spec, an instance the walk cannot make); the walk's made-up value is "
          "refused with a library error")
_CLOSED = ("takes a name or an id from a closed set (a design, a pass, an example, a split, a passage or question of "
           "the corpus, a metric added with register(), a recorded reply) that the walk's guess is not in")
_MISFIT = ("the walk's guess from the parameter's name or annotation does not fit what it takes (a list where one "
           "value goes, a count or length that must agree with another argument, an empty table)")
_LIVE = ("asks a live server which models it serves (an OpenAIJudge's endpoint; the walk starts none): "
         "tests/library/test_served.py drives it against a scripted server")
NO_RESULT_BY_REASON: dict[str, list[str]] = {
    _LIVE: ["judges.served.check_served", "judges.served.served_models"],
    _BUILT: [
        "MetricResult.plot", "agreement.plot_roc", "agreement.roc.checked_curve", "agreement.spans.marked_characters",
        "studies.against_people.spans.SpanView", "studies.against_people.spans.SpanView.caught",
        "studies.against_people.spans.SpanView.flag_offsets", "studies.against_people.spans.SpanView.unmarked_flags",
        "studies.against_people.figures.auc_by_group", "studies.against_people.figures.roc_curves",
        "studies.against_people.figures.score_distribution", "studies.against_people.spans.span_view",
        "studies.against_people.readings.plot_judge_failures", "studies.against_people.choice.build_log",
        "course.against_people.study.threshold_of",
        "course.against_people.record.record", "studies.against_people.choice.choose",
        "studies.alignment.designs.ask_entailment",
        "studies.alignment.designs.ask_fewshot", "studies.alignment.designs.ask_quote",
        "studies.alignment.designs.examples_for", "studies.alignment.designs.ask_stability_of",
        "studies.alignment.validate_judge.validate_judge",
        "studies.capstone.diagnosis.rules_vs_annotator", "studies.capstone.summary.reading_rows",
        "studies.deck_agreement.agreement",
        "studies.deck_agreement.baseline_verdicts", "studies.deck_agreement.metric_agreement", "course.display.by_node",
        "course.display.explorer_step", "course.gate_cases.decision", "course.halueval.study.curse_rows",
        "studies.halueval.choosing.choose", "course.halueval.study.score_test", "studies.judge_study.failures.count",
        "studies.judge_study.paired.compare_columns", "studies.judge_study.paired.fmt_compare",
        "evaluation.judge_identity.gguf_header", "studies.judge_study.runs.UndelimitedJudge",
        "studies.judge_study.runs.UndelimitedJudge.accepted", "studies.judge_study.runs.UndelimitedJudge.ask",
        "studies.judge_study.runs.UndelimitedJudge.describe", "studies.judge_study.runs.UndelimitedJudge.prepare",
        "studies.judge_study.runs.UndelimitedJudge.settled", "studies.judge_study.runs.run",
        "studies.judge_study.runs.run_cases", "judges.costs.cost_per_1000", "judges.costs.measure",
        "course.slides.figure", "embeddings.weights_sha256",
        "judges.OpenAIJudge.accepted", "judges.OpenAIJudge.settled", "judges.batch.run_tasks",
        "judges.requests.make_request", "metrics.RankingView", "metrics.StatementView", "metrics.f1_counts",
        "metrics.register", "metrics.specs.Registry.add", "plots.plot_answer_correctness", "plots.plot_cosines",
        "plots.plot_entity_sets", "plots.plot_interval_narrowing", "plots.plot_scores", "plots.plot_statements",
        "regression_gate.gate", "results.Result.explain", "results.Result.headline", "results.Result.lookup",
        "results.Result.plot", "results.Result.to_dict", "retrieval.Corpus", "retrieval.compare_retrievers",
        "retrieval.evaluate_retriever", "retrieval.neither_answers", "retrieval.plot_retriever_comparison",
        "retrieval.pool", "retrieval.pooling_table", "stats.resample.draw", "widgets.DecomposeModel.split",
        "widgets.offered.ranking_view", "widgets.offered.statement_view"
    ],
    _CLOSED: [
        "MetricResult.lookup", "agreement.AgreementResult.lookup", "agreement.AgreementResult.table",
        "agreement.PassRateResult.lookup", "agreement.PassRateResult.table", "studies.against_people.designs.ask_pass",
        "course.against_people.items.items",
        "studies.against_people.tables.breakdown", "studies.against_people.tables.by_model",
        "course.against_people.study.replay",
        "studies.against_people.choice.replayed_or_none", "course.against_people.study.scored",
        "studies.against_people.tables.test_difference",
        "course.alignment.answer_view.support_view", "studies.alignment.designs.ask_any_pass",
        "studies.alignment.choice.paired",
        "course.alignment.recordings.replayed", "studies.alignment.validate_judge.report",
        "studies.capstone.diagnosis.paired_scores", "studies.capstone.summary.plot_paired",
        "course.capstone.systems.answer_rows",
        "studies.capstone.systems.generate", "course.display.show_claims_example", "course.display.show_hits",
        "course.display.show_recall_case", "course.display.show_relevancy_case", "course.gate_cases.case_gate",
        "studies.halueval.detection.detection_difference", "course.halueval.record.record",
        "course.halueval.study.best_threshold", "course.halueval.study.checked_split", "course.halueval.study.compare",
        "course.halueval.study.design_calls", "studies.halueval.designs.design_of", "course.halueval.study.design_table",
        "course.halueval.study.detection", "course.halueval.study.freeze_choice", "course.halueval.study.pair_scores",
        "course.halueval.study.scored_pairs", "studies.judge_study.cases.item_keys",
        "course.judge_study.passes.recording_path", "course.judge_study.passes.rows", "course.metric_map.get",
        "judges.GivenJudge.ask", "judges.ReplayJudge.ask", "metrics.registry.MetricTable.entry",
        "metrics.registry.MetricTable.name", "metrics.specs.Registry.name", "metrics.specs.Registry.remove",
        "metrics.unregister", "results.Result", "retrieval.BM25Retriever.explain", "retrieval.BM25Retriever.score",
        "retrieval.Corpus.passage", "retrieval.Corpus.question", "retrieval.Corpus.text", "retrieval.Corpus.unjudged",
        "retrieval.EmbeddingRetriever.explain", "retrieval.EmbeddingRetriever.similarity",
        "retrieval.pool_only_question", "stats.StatResult.lookup", "validate.member",
        "widgets.DecomposeExplorer.from_example", "widgets.DecomposeModel.from_example",
        "widgets.DecomposeModel.set_variant", "widgets.EntityExplorer.from_example", "widgets.EntityModel.from_example",
        "widgets.StatementExplorer.from_example", "widgets.StatementModel.from_example",
        "widgets.StatementModel.set_penalize_ambiguous", "widgets.StatementModel.set_variant",
        "widgets.offered.decompose_spec", "widgets.offered.ranking_spec", "widgets.offered.statement_spec",
        "widgets.offered.title_of"
    ],
    _MISFIT: [
        "agreement.roc.labels_of", "agreement.roc.scores_of",
        "studies.against_people.readings.stratified_auc", "studies.alignment.stability.flip_rates",
        "studies.alignment.validate_judge.add_parser", "studies.capstone.diagnosis.describe_row",
        "evaluation.failures.tag_row", "course.deck_table.exact_text",
        "widgets.CorrectnessPanel.score_directly", "studies.calibration.plot_calibration",
        "studies.calibration.threshold_splits", "studies.halueval.choosing.checked_threshold",
        "studies.halueval.choosing.pairwise", "course.halueval.study.rescore_comparator",
        "studies.judge_study.agreement.label_score", "studies.judge_study.agreement.labels_for",
        "studies.judge_study.agreement.matched_verdicts", "studies.judge_study.agreement.pairwise",
        "studies.judge_study.agreement.verdict_agreement", "studies.judge_study.behaviour.flip_rate",
        "studies.judge_study.behaviour.injection_effect", "studies.judge_study.behaviour.position_effect",
        "course.judge_study.report.pairwise", "course.judge_study.report.verdicts",
        "studies.judge_study.cases.disagreements", "studies.judge_study.cases.label_vectors",
        "studies.judge_study.cases.parse_cases", "studies.judge_study.cases.parse_labels",
        "course.judge_study.passes.cases_for", "course.judge_study.recording.add_parser",
        "course.judge_study.report.show", "judges.costs.check_costs",
        "judges.costs.combine", "course.slides.embedder_sources", "judges.OpenAIJudge.cache_key",
        "judges.cache_entries.read_cache_entry", "metrics.Ask", "metrics.inputs.typed_verdicts",
        "metrics.reanswer.threshold_of", "metrics.reanswer.weight_of", "regression_gate.judge_noise",
        "results.html_table", "results.markdown_table", "retrieval.EmbeddingRetriever.collisions",
        "retrieval.corpus_from_dict", "retrieval.intervals_by_size", "retrieval.mean_scores", "validate.integer",
        "validate.optional_integer", "validate.optional_number", "widgets.DecomposeModel.set_cuts",
        "widgets.DecomposeModel.set_lenient", "widgets.DecomposeModel.set_verdict",
        "widgets.PermutationModel.set_total_relevant", "widgets.PermutationModel.set_verdict",
        "widgets.ReorderModel.set_total_relevant", "widgets.ReorderModel.set_verdict",
        "widgets.StatementModel.set_verdict"
    ],
}
NO_RESULT: dict[str, str] = {name: why for why, names in NO_RESULT_BY_REASON.items() for name in names}


def _no_result(o: Outcome) -> bool:
    return o.target.removeprefix(PACKAGE + ".") in NO_RESULT


@pytest.fixture(scope="module")
def walked():
    """The whole walk, once per test session: (baseline outcomes, bad-value outcomes, CLI outcomes, seconds)."""
    start = time.perf_counter()
    per_param = int(os.environ.get("API_WALK_PER_PARAM", "0"))
    baseline, outcomes = walk(full=os.environ.get("API_WALK") == "full", per_param=per_param)
    with _in_tmp_dir():
        cli = [cli_call(*call) for call in cli_plan()]
    seconds = time.perf_counter() - start
    print(f"\napi walk: {len(public_targets())} targets, {len(outcomes)} bad-value calls and {len(cli)} command lines "
          f"in {seconds:.1f} s, each held to {cpu_limit():.1f} CPU s; slowest targets (seconds in calls):")
    spent: collections.Counter[str] = collections.Counter()
    for o in baseline + outcomes + cli:
        spent[o.target] += o.seconds
    for name, total in spent.most_common(8):
        print(f"  {total:6.2f}  {name}")
    return baseline, outcomes, cli, seconds


def test_a_call_that_never_ends_is_stopped(monkeypatch):
    # The limit's mechanism, at a tenth of a second (the walk's own limit is about 5 CPU seconds).
    monkeypatch.setattr(sys.modules[__name__], "_LIMIT", [0.1])
    start = time.process_time()
    with pytest.raises(Hang), time_bound():
        while True:
            pass
    assert time.process_time() - start > 0.02  # it ran (the timer's accounting is coarser than process_time's)


def test_the_limit_follows_the_reference(monkeypatch):
    # A machine running the reference three times slower gets three times the limit, never a lower one.
    monkeypatch.setattr(sys.modules[__name__], "_LIMIT", [])
    monkeypatch.setattr(sys.modules[__name__], "reference_seconds", lambda: 0.01)
    assert calibrate() == pytest.approx(HANG_UNITS * 0.01)
    monkeypatch.setattr(sys.modules[__name__], "reference_seconds", lambda: 0.03)
    assert calibrate() == pytest.approx(HANG_UNITS * 0.03)
    monkeypatch.setattr(sys.modules[__name__], "reference_seconds", lambda: 0.001)
    assert calibrate() == pytest.approx(HANG_UNITS * 0.03) and cpu_limit() >= MIN_CPU_LIMIT


def test_the_walk_finds_the_public_api():
    targets = public_targets()
    names = {t.name.rsplit(".", 1)[-1] for t in targets}
    for expected in ("context_precision", "evaluate", "load", "compute", "StatementModel", "PermutationModel",
                     "OpenAIJudge", "ReplayJudge", "bootstrap_ci", "cohen_kappa", "from_example",
                     # issue 35: the newest, some exported only by their own module's __all__
                     "validation_report", "corrected_pass_rate", "auc_difference", "stratified_auc_of",
                     "g_eval_score", "aspect_critic_score", "support_score", "score_reanswer", "score_checked",
                     "answers", "pairs", "fit_combination", "span_agreement", "cheap_signals", "sentence_spans",
                     "pick_examples", "labelled_sentences"):
        assert expected in names, expected
    assert len(targets) >= 300
    assert not UNRESOLVED, UNRESOLVED                      # every exported name resolves


def test_every_target_and_every_kind_is_walked(walked):
    _, outcomes, cli, _ = walked
    walked_targets = {o.target for o in outcomes}
    with_params = {t.name for t in public_targets() if walked_params(t)}
    assert with_params <= walked_targets, sorted(with_params - walked_targets)[:20]
    kinds = collections.Counter(o.kind for o in outcomes)
    assert set(kinds) == set(KINDS) and min(kinds.values()) >= 40, kinds
    assert {o.kind for o in cli if o.kind} == set(BAD_WORDS)
    commands = {o.target for o in cli}
    assert {"cli examples", "cli explain", "cli score"} <= commands


def test_valid_arguments_never_crash(walked):
    """The valid arguments of every target give a result or a library error (the table of valid
    examples is good enough to reach past the first check of most targets)."""
    baseline, _, _, _ = walked
    bad = [o for o in baseline if o.verdict in ("raw", "hang", "range") and not _known(o)]
    assert not bad, "\n".join(f"{o.verdict}: {o.target}(): {o.detail}" for o in bad[:40])


def test_valid_arguments_give_a_result(walked):
    """Every target's valid call gives a result, but for those :data:`NO_RESULT` names with a reason (and the
    :data:`KNOWN` failures). Not a share of the calls: one function that stops giving a result fails it."""
    baseline, _, _, _ = walked
    errors = [o for o in baseline if o.verdict in ("error", "setup") and not _no_result(o) and not _known(o)]
    assert not errors, (
        f"{len(errors)} valid calls gave no result (give the target a VALID line, a registered metric an example= on "
        "its spec, or, if a library error is the right answer to every call the walk can make, a NO_RESULT entry "
        "with its reason):\n" + "\n".join(f"{o.verdict}: {o.target}(): {o.detail}" for o in errors[:40]))


def test_every_no_result_entry_is_current(walked):
    """Each :data:`NO_RESULT` entry names a public target whose valid call still ends in an error (remove the entry
    once it gives a result)."""
    names = {t.name.removeprefix(PACKAGE + ".") for t in _targets()}
    assert not sorted(set(NO_RESULT) - names), sorted(set(NO_RESULT) - names)
    giving = sorted(o.target for o in walked[0] if o.verdict == "result" and _no_result(o))
    assert not giving, f"these give a result now: remove their NO_RESULT entries: {giving}"


def spec_problems(spec: Any) -> list[str]:
    """What keeps a registered spec's functions from a result, each called once as the walk calls it
    (:func:`registered_kwargs`): its arithmetic with the spec's ``example`` (or, with none, the arguments the walk
    guesses), and its ``ask`` function with the walk's case, passed as its ``Ask`` says, and the walk's judge
    (a ``GivenJudge`` answering every registered step from the step's schema). Empty: both give a result."""
    problems = []
    for role, func in (("compute", spec.compute), ("ask", spec.ask.target if spec.ask is not None else None)):
        if func is None:
            continue
        name = f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', repr(func))}"
        with _in_tmp_dir():
            o = call_once(Target(name, func, params=_params(func)), None, None)
        if o.verdict != "result":
            fix = ("give the spec example=dict(...): keyword arguments its compute gives a result for" if role == "compute"
                   else "its Ask passes a case's columns and the judge; it must score the walk's case")
            problems.append(f"{spec.name}: {role} {name} gave {o.verdict}: {o.detail} ({fix})")
    return problems


def test_every_registered_spec_gives_a_result_with_its_example():
    """Every registered spec's arithmetic gives a result with its ``example`` and its ``ask`` function with the
    walk's case and judge: all of them, not a share. A new design brings its example in its own spec, and needs no
    line in this file (tests/library/test_add_a_metric.py checks a toy design written outside the library)."""
    from ragmetrics_edu.metrics import SPECS

    assert len(SPECS) >= 20
    problems = [p for spec in SPECS.values() for p in spec_problems(spec)]
    assert not problems, "\n".join(problems)


def test_a_registered_function_has_no_valid_line():
    """What the walk knows of a registered spec's functions comes from the registry alone: no :data:`VALID` entry
    names them (it would be ignored, and say something the spec does not)."""
    doubled = [t.name for t in public_targets() if registered_kwargs(t.func) is not None and _lookup(VALID, t.name)]
    assert not doubled, doubled


def test_bad_values_give_a_library_error_or_a_documented_result_in_time(walked):
    _, outcomes, cli, _ = walked
    bad = [o for o in outcomes + cli if o.verdict in ("raw", "hang", "range") and not _known(o)]
    assert not bad, f"{len(bad)} calls escaped:\n" + "\n".join(
        f"{o.verdict}: {o.target}({o.param}=<{o.kind}>): {o.detail}" for o in bad[:60])


def test_known_failures_still_fail(walked):
    """Each :data:`KNOWN` entry still matches a failing call (remove the entry once it is fixed)."""
    baseline, outcomes, cli, _ = walked
    failing = [o for o in baseline + outcomes + cli if o.verdict in ("raw", "hang", "range")]
    stale = [key for key in KNOWN if not any(_known_key(o.target, key) for o in failing)]
    assert not stale, stale


if __name__ == "__main__":
    t0 = time.perf_counter()
    base, outs = walk(full=os.environ.get("API_WALK") == "full", per_param=int(os.environ.get("API_WALK_PER_PARAM", "0")))
    with _in_tmp_dir():
        outs += [cli_call(*call) for call in cli_plan()]
    print(_report(base, outs, time.perf_counter() - t0))
