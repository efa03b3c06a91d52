"""The ``ragmetrics-edu`` command.

    ragmetrics-edu examples            stated vs computed for every worked example
    ragmetrics-edu explain ID          one example: step table, formula and narrative
    ragmetrics-edu score METRIC ...    a quick calculation from verdicts on the command line
    ragmetrics-edu judge-server ...    start a local OpenAI-compatible judge (optional extra)
    ragmetrics-edu record-judge ...    put the decks' examples to a judge and save a recording
    ragmetrics-edu record-embeddings   embed the course's texts with a real model and save a recording
    ragmetrics-edu validate-judge ...  measure a judge (any OpenAI-compatible endpoint) against people
    ragmetrics-edu evaluate FILE ...   score your own cases: summary, flat table, HTML report
    ragmetrics-edu compare A B ...     score two versions and compare them pair by pair (tests and gate)
    ragmetrics-edu stats A B ...       the same comparison on two tables already scored
    ragmetrics-edu --version           the installed version

Exit status 0 on success, 2 with a one-line message on bad input.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn, Sequence

from . import __version__, examples, validate
from .course.against_people.items import items
from .course.alignment.recordings import calibration_of
from .course.deck_cases import run_deck_cases
from .course.embedding_texts import course_texts
from .course.judge_study.recording import add_parser as add_record_study_parser
from .course.judge_study.recording import main as record_study
from .embeddings.recorded import add_record_embeddings_parser, run_record_embeddings
from .errors import IN_BROWSER, InputError, RagMetricsError
from .evaluation import evaluate
from .evaluation.commands import COMMANDS as EVALUATION_COMMANDS
from .evaluation.commands import add_parsers as add_evaluation_parsers
from .judges.openai_judge import OpenAIJudge
from .metrics.specs import SPECS
from .results import fmt
from .studies.alignment.validate_judge import add_parser as add_validate_judge_parser
from .studies.alignment.validate_judge import main as validate_judge
from .studies.deck_agreement import metric_agreement


def score_metrics() -> tuple[str, ...]:
    """The metrics ``score`` scores: every registered metric whose spec says what it reads (``reads``)."""
    return tuple(spec.name for spec in SPECS.values() if spec.reads is not None)


def _reads_of(name: str) -> Any:
    """What ``score`` reads for the metric ``name`` (its spec's ``reads``)."""
    return SPECS[name].reads


def _own_options() -> dict[str, tuple[type, str]]:
    """Every option a metric of ``score`` declares on its reader: name -> (type, help, with the metrics named)."""
    found: dict[str, tuple[type, list[str]]] = {}
    for name in score_metrics():
        for option, kind, text in _reads_of(name).options:
            found.setdefault(option, (kind, []))[1].append(text)
    return {option: (kind, "; ".join(texts)) for option, (kind, texts) in found.items()}

EPILOG = """examples of score:
  ragmetrics-edu score context_precision no yes yes no no
  ragmetrics-edu score context_precision yes no --variant ragas
  ragmetrics-edu score average_precision 1 0 1 --total-relevant 4
  ragmetrics-edu score ndcg_at_k 3 0 1 --k 2 --gain exponential      (graded gains)
  ragmetrics-edu score r_precision 1 0 1 --total-relevant 4
  ragmetrics-edu score precision_at_k 1 0 1 --k 2
  ragmetrics-edu score recall_at_k 1 0 1 --k 2 --total-relevant 3
  ragmetrics-edu score reciprocal_rank 0 0 1
  ragmetrics-edu score hit_at_k 0 1 0 --k 2
  ragmetrics-edu score context_recall yes yes no
  ragmetrics-edu score answer_relevancy yes no idk
  ragmetrics-edu score faithfulness yes idk no --variant ragas
  ragmetrics-edu score contextual_relevancy no no yes,yes,yes      (one comma list per node)
  ragmetrics-edu score context_entity_recall --reference "Taj Mahal;Agra;1631" --context "Agra;India"
  ragmetrics-edu score answer_correctness --tp 1 --fp 1 --fn 1 --similarity 0.8
  ragmetrics-edu score answer_correctness --fp 1 --similarity 0.9 --variant ragas_collections
  ragmetrics-edu score semantic_similarity --answer "..." --ground-truth "..."
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    one_line = message.replace("\r", "\\r").replace("\n", "\\n")  # an argument may hold a newline
    print(f"error: {one_line}", file=sys.stderr)
    return 2


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ragmetrics-edu", description="RAG evaluation metrics, step by step.")
    parser.add_argument("--version", action="version", version=f"ragmetrics-edu {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ex = sub.add_parser("examples", help="stated vs computed for every worked example")
    ex.add_argument("--deck", help="only this deck (A-E)")
    ex.add_argument("--failing", action="store_true", help="only examples whose numbers do not match")
    explain = sub.add_parser("explain", help="step table and narrative of one worked example")
    explain.add_argument("id", help="an example id, see `ragmetrics-edu examples`")
    explain.add_argument("--case", help="which case of the example (default: all)")
    score = sub.add_parser("score", help="score verdicts given on the command line",
                           epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    score.add_argument("metric", choices=score_metrics(), metavar="METRIC",
                       help="; ".join(f"{name} ({_reads_of(name).help})" for name in score_metrics()))
    score.add_argument("verdicts", nargs="*", help="yes/no/idk, y/n, true/false or 1/0, in order (gains for ndcg_at_k)")
    score.add_argument("--variant", help="one of the metric's named variants (refused where it has none)")
    score.add_argument("--k", type=int, help="cut-off for precision_at_k, recall_at_k, ndcg_at_k, hit_at_k")
    score.add_argument("--gain", default="linear", help="ndcg_at_k: linear (trec_eval) or exponential (2^rel - 1)")
    score.add_argument("--total-relevant", type=int, help="relevant documents in the corpus (AP, recall@k, R-precision)")
    score.add_argument("--threshold", type=float,
                       help="report success: score >= threshold (score <= threshold for a lower-is-better metric)")
    score.add_argument("--reference", help="reference entities, separated by ';'")
    score.add_argument("--context", help="context entities, separated by ';'")
    score.add_argument("--normalize", action="store_true", help="entity match ignoring case/accents/spaces")
    for name in ("tp", "fp", "fn"):
        score.add_argument(f"--{name}", type=int, default=0, help=f"number of {name.upper()} statements")
    score.add_argument("--similarity", type=float, help="semantic similarity for answer_correctness")
    score.add_argument("--answer", help="answer text (metrics that read two texts)")
    score.add_argument("--ground-truth", help="ground-truth text (metrics that read two texts)")
    for name, (kind, text) in _own_options().items():  # each metric's own options, from its spec's reads
        score.add_argument(f"--{name.replace('_', '-')}", dest=f"own_{name}", type=kind, help=text)
    server = sub.add_parser("judge-server", help="start a local OpenAI-compatible server (llama.cpp) for the judge")
    server.add_argument("--model", required=True, help="a GGUF model file")
    server.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; the server has no key)")
    server.add_argument("--port", type=int, default=8080)
    server.add_argument("--threads", type=int, default=2)
    server.add_argument("--ctx", type=int, default=4096, help="context length in tokens")
    record = sub.add_parser("record-judge", help="run the decks' examples through a judge and save a recording")
    record.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8080/v1")
    record.add_argument("--model", required=True, help="the model's name, written into the recording")
    record.add_argument("--server", required=True, help="what served it, e.g. 'llama-cpp-python 0.3.36, Q4_K_M'")
    record.add_argument("--out", required=True, help="the recording file to write (JSON)")
    record.add_argument("--mode", default="json_object_schema", help="json_schema | json_object_schema | json")
    record.add_argument("--ids", nargs="*", help="only these example ids")
    record.add_argument("--timeout", type=float, default=600.0)
    record.add_argument("--notes", default="")
    record.add_argument("--dataset", help="also evaluate() this JSONL dataset, so the batch path replays too")
    record.add_argument("--metrics", nargs="*", default=["context_precision", "context_recall", "faithfulness",
                                                         "answer_relevancy"], help="metrics for --dataset")

    add_record_embeddings_parser(sub)

    add_record_study_parser(sub)
    add_validate_judge_parser(sub)
    add_evaluation_parsers(sub)
    return parser


#: CMake flags for a portable llama.cpp build: no native detection, no AVX-512/AMX (a native
#: build crashed with a protection fault on a VM whose CPU advertises AMX it cannot use).
PORTABLE_CMAKE_ARGS = ("-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON "
                       "-DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF")


def _loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1 or localhost)."""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _judge_server(args: argparse.Namespace) -> int:
    if IN_BROWSER:
        return _fail("`ragmetrics-edu judge-server` cannot run in a browser (JupyterLite/Pyodide has no subprocesses "
                     "or sockets): on your own machine, `make judge-server-install`, then "
                     "`make judge-server MODEL=path/to/model.gguf`")
    if importlib.util.find_spec("llama_cpp") is None:
        return _fail("llama-cpp-python is not installed: run `make judge-server-install` (compiles llama.cpp: "
                     "needs a C/C++ compiler and CMake, about 7-16 minutes on 2 cores), or "
                     f"CMAKE_ARGS=\"{PORTABLE_CMAKE_ARGS}\" pip install -e \".[llm,judge-server]\" "
                     "from a clone of the project")
    if not Path(args.model).is_file():
        raise InputError("--model", "the path of a GGUF model file", args.model)
    host = args.host.strip() if isinstance(args.host, str) else ""
    if not host or any(c.isspace() for c in host):
        raise InputError("--host", "an address to listen on, e.g. 127.0.0.1", args.host)
    if not 0 < args.port < 65536:
        raise InputError("--port", "a port number from 1 to 65535", args.port)
    if not _loopback(host):
        print(f"warning: --host {host} makes the server reachable from other machines, with no key; "
              "use 127.0.0.1 unless you mean it", file=sys.stderr, flush=True)
    base_url = f"http://{'[' + host + ']' if ':' in host else host}:{args.port}/v1"
    name = Path(args.model).stem  # served under this name (--model_alias), the one printed and checked at /v1/models
    print(f"Serving {Path(args.model).name} as model '{name}' at {base_url} (Ctrl-C stops it). In Python:\n"
          f"  judge = judges.OpenAIJudge('{name}', base_url='{base_url}', api_key='local', "
          "mode='json_object_schema')\n"
          f"Validate it: ragmetrics-edu validate-judge --base-url {base_url} --model {shlex.quote(name)} "
          "--design support_min --sources 5", flush=True)
    command = [sys.executable, "-m", "llama_cpp.server", "--model", args.model, "--model_alias", name, "--host", host,
               "--port", str(args.port), "--n_threads", str(args.threads), "--n_ctx", str(args.ctx)]
    # The command becomes the server (exec): a plain `kill PID` of the command, from a script, a notebook or
    # a test, stops the server itself, instead of leaving a child holding the model (~2 GB) and the port.
    if os.name == "posix":
        os.execv(sys.executable, command)
    child = subprocess.Popen(command)  # Windows has no exec that keeps the PID: wait, and stop the child with us
    try:
        return child.wait()
    except KeyboardInterrupt:
        child.terminate()
        child.wait()
        return 0


def _record_judge(args: argparse.Namespace) -> int:
    # the files are checked before the run, not after minutes of paid requests
    validate.path("--out", args.out, exists=False, expected="a file path for the recording")
    if args.dataset:
        validate.path("--dataset", args.dataset, expected="the path of an existing JSONL file")
    judge = OpenAIJudge(args.model, base_url=args.base_url, api_key="local", mode=args.mode, temperature=0,
                        seed=7, timeout=args.timeout, max_retries=1, max_concurrency=1)
    runs = run_deck_cases(judge, ids=args.ids or None)
    for run in runs:
        score = f"error: {run.error}" if run.result is None else f"{run.result.score:.4f}"
        print(f"{run.case.label:<36} judge {score:<12} deck {run.deck.score:.4f}", flush=True)
    if args.dataset:
        table = evaluate(args.dataset, metrics=args.metrics, judge=judge, progress=False)
        print(table[["question", *args.metrics, "error"]].to_string(), flush=True)
    path = judge.save_recording(args.out, server=args.server, notes=args.notes)
    for step in dict.fromkeys(run.case.step for run in runs):  # one judging task at a time, never pooled
        try:
            found = metric_agreement(runs, step)
        except (InputError, ValueError) as exc:
            print(f"{step}: no agreement figure ({exc})")
            continue
        if found["judge"] is None:
            print(f"{step}: no item matched by content; {len(found['left_out'])} left out")
            continue
        low, high = found["judge"].ci or (float("nan"), float("nan"))
        print(f"{step}: kappa {found['judge'].score:.2f} [{low:.2f}, {high:.2f}] over {found['items']} items "
              f"matched by content; {len(found['left_out'])} left out")
    print(f"cost: {judge.usage}")
    print(f"recording written to {path}")
    return 0


def _score(args: argparse.Namespace) -> Any:
    """Score ``args.metric`` from what its spec reads (:mod:`ragmetrics_edu.metrics.inputs`); a ``--variant`` the
    metric does not take is refused, never ignored."""
    spec = SPECS[args.metric]
    assert spec.reads is not None  # score_metrics() offers only these
    compute = spec.function()
    options: dict[str, Any] = {"threshold": args.threshold} if args.threshold is not None else {}
    if args.variant is not None:
        if not spec.named_variants or "variant" not in spec.parameters():
            raise InputError("--variant", f"no --variant ({spec.name} has one definition here)", args.variant)
        options["variant"] = validate.choice("--variant", args.variant, spec.named_variants)
    own = {name for name, _, _ in spec.reads.options}
    for name in _own_options():
        value = getattr(args, f"own_{name}", None)
        if value is not None and name not in own:
            have = ", ".join(f"--{o.replace('_', '-')}" for o in sorted(own)) or "none of its own"
            raise InputError(f"--{name.replace('_', '-')}", f"an option of {spec.name} (it has {have})", value)
        if value is not None:
            options[name] = value
    return spec.directed(spec.reads.score(compute, args, options))


def _print_result(result: Any, title: str = "") -> None:
    if title:
        print(title)
    if result.rows:
        print(result.table_text())
    print()
    for i, line in enumerate(result.narrative, 1):
        print(f"{i}. {line}")
    print(f"formula: {result.formula}")
    exact = repr(result.score)
    print(f"score: {fmt(result.score)}" + (f"  (exact {exact})" if exact not in (fmt(result.score), fmt(result.score) + ".0") else ""))
    if result.threshold is not None:
        print(f"threshold {fmt(result.threshold)}: success = {result.success}")
    for note in result.notes:
        print(f"note: {note}")


def _examples(args: argparse.Namespace) -> int:
    if args.deck and args.deck.strip().upper() not in examples.decks():
        raise InputError("--deck", "one of " + ", ".join(sorted(examples.decks())), args.deck)
    rows = examples.catalog_rows()
    if args.deck:
        rows = [r for r in rows if r["deck"] == args.deck.strip().upper()]
    if args.failing:
        rows = [r for r in rows if r["matches"] is False]
    mark = {True: "yes", False: "NO", None: "-"}
    table = [("id", "deck", "metric", "stated", "computed", "match")]
    table += [(r["id"], r["deck"], r["metric"], r["stated"], r["computed"], mark[r["matches"]]) for r in rows]
    widths = [min(max(len(str(row[i])) for row in table), 44) for i in range(6)]
    for row in table:
        print("  ".join(_clip(str(c), w).ljust(w) for c, w in zip(row, widths, strict=False)).rstrip())
    stated = [r for r in rows if r["matches"] is not None]
    matched = sum(1 for r in stated if r["matches"])
    print(f"\n{len(rows)} examples; {len(stated)} state numbers ({sum(r['checked'] for r in stated)} numbers checked), "
          f"{matched} match every stated number; {len(rows) - len(stated)} state none.")
    return 0 if matched == len(stated) else 1


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _explain(args: argparse.Namespace) -> int:
    ex = examples.load(args.id)
    print(f"{ex.id}: {ex.title}\n{ex.citation}\n")
    labels = [args.case] if args.case else ex.case_labels
    for label in labels:
        _print_result(ex.compute(label), title=f"--- case: {label} ---" if len(ex.cases) > 1 or args.case else "")
        print()
    checks = ex.checks()
    if checks:
        print("deck vs computed:")
        for c in checks:
            print(f"  [{c['case']}] {c['quantity']}: deck {c['stated']} | computed {c['computed']} | "
                  f"{'match' if c['matches'] else 'MISMATCH'}")
    for label, text in (("assumed", ex.assumed), ("note", ex.note)):
        if text:
            print(f"{label}: {text}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; ``argv`` is the words after the program's name (None: ``sys.argv[1:]``).

    Returns the exit status: 0 on success, 1 when a run failed, 2 with a one-line message on bad input."""
    try:
        if argv is not None:
            argv = [_word(i, w) for i, w in enumerate(validate.as_list("argv", argv, "a list of words (strings)"))]
        args = build_parser().parse_args(argv)
        if args.command == "examples":
            return _examples(args)
        if args.command == "explain":
            return _explain(args)
        if args.command == "judge-server":
            return _judge_server(args)
        if args.command == "record-judge":
            return _record_judge(args)
        if args.command == "record-judge-study":
            return record_study(args)
        if args.command == "validate-judge":
            # the shipped data validate-judge reads, from the course's loaders: RAGTruth dev, the recordings
            return validate_judge(args, dev_items=lambda n: items("ragtruth", "dev", groups=n),
                                  calibration=calibration_of)
        if args.command in EVALUATION_COMMANDS:
            return EVALUATION_COMMANDS[args.command](args)
        if args.command == "record-embeddings":
            return run_record_embeddings(args, course_texts())
        _print_result(_score(args))
        return 0
    except SystemExit as exc:
        return int(exc.code or 0)
    except (InputError, RagMetricsError) as exc:
        return _fail(str(exc))
    except BrokenPipeError:  # e.g. `ragmetrics-edu examples | head`
        sys.stderr.close()
        return 0


def _word(i: int, word: Any) -> str:
    if not isinstance(word, str):
        raise InputError(f"argv[{i}]", "a word (a string)", word)
    return word


if __name__ == "__main__":
    raise SystemExit(main())
