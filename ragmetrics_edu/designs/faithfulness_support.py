"""Support per sentence: ask, for each sentence of an answer, whether the passages state it.

A 1.5B judge asked "rate this whole answer" gave 4-5 to most hallucinated answers (lesson 14). This design asks
it one small question at a time: the answer is split into sentences (:func:`~ragmetrics_edu.text.sentence_spans`)
and each is checked alone. The prompt puts the passages first, then the question, then the sentence, and draws
its data fence from the passages and question only, so every request about one source's answers opens with the
same tokens: a llama.cpp server keeps the previous prompt and reads the shared opening once per source, then
only each sentence (send a source's answers in order, one request at a time).

The reply is one word, yes or no (one token; no JSON). Its support is p(yes) from the first reply token's
probabilities where the server returns them; where it returns none, ``votes`` more replies are sampled (each at
:data:`~ragmetrics_edu.designs.g_eval.SAMPLE_TEMPERATURE`, each with its own seed) and the share of yes among all
the replies is the support; with ``votes=0`` the reply's own word (1 or 0) is used, and the result says so.

``examples``: a few sentences people labelled, shown before the passages (few-shot; see
:mod:`ragmetrics_edu.judges.examples` for choosing them without leaking the answer's own labels). Keep them fixed
for a source's answers, or the shared opening is lost.

The arithmetic (the answer's score, its spans) is :func:`ragmetrics_edu.metrics.support.support_score`.
"""

from __future__ import annotations

from typing import Any, Sequence

from .. import metrics
from ..errors import InputError
from ..judges.base import Judge
from ..judges.prompting import Texts
from ..judges.records import CallList
from ..judges.requests import ask, check_judge, finish, make_request
from ..judges.token_probs import p_yes
from ..metrics import Ask, MetricSpec, Step
from ..metrics.support import THRESHOLD, support_score
from ..results import MetricResult
from ..text import sentence_spans
from ..validate import choice, integer, text, text_list
from .common import PROMPTS, QUESTION, SAMPLE_TEMPERATURE, models

__all__ = ["STEP", "SPEC", "faithfulness_support", "support_request", "TOP_LOGPROBS", "EXAMPLES_INTRO", "LAYOUTS",
           "WORDINGS"]

STEP = Step("faithfulness.support", '"yes" or "no": do the passages state this sentence?; short form: the word',
            shorthand=lambda a: {"verdict": a} if isinstance(a, (str, bool)) else a,
            schema=lambda: models().Verdict, prompts=PROMPTS)

#: the prompt layouts: the passages first (a source's requests share their opening), or the sentence first (each
#: request differs from its first token: the costly layout, kept to measure what the first one saves)
LAYOUTS = ("passages_first", "sentence_first")

#: how the question is put: "check" (do the passages state this sentence?) or "entailment" (the NLI wording: does the
#: premise, the passages, entail the hypothesis, the sentence?); both keep the passages first and read p(yes)
WORDINGS = ("check", "entailment")

#: the prompt for each (wording, layout) pair; the NLI wording names the passages the premise, so they come first
TEMPLATES = {("check", "passages_first"): "sentence_support", ("check", "sentence_first"): "sentence_support_sentence_first",
             ("entailment", "passages_first"): "sentence_entailment"}


def _template(layout: Any, wording: Any) -> tuple[str, str]:
    """The checked layout and the prompt of a (wording, layout) pair, or an InputError naming the one that is wrong."""
    layout, wording = choice("layout", layout, LAYOUTS), choice("wording", wording, WORDINGS)
    if (wording, layout) not in TEMPLATES:
        raise InputError("layout", f'layout "passages_first" with wording "{wording}" (the premise comes first)', layout)
    return layout, TEMPLATES[(wording, layout)]


#: alternatives asked for the reply's one token (yes and no are both among the top few)
TOP_LOGPROBS = 5

#: the line before the few-shot examples (none without examples)
EXAMPLES_INTRO = ("\nPeople checked these sentences from other answers against their own passages; each example "
                  "shows the passage line the verdict rests on, the sentence and the verdict:\n\n")


def support_request(sentence: str, context: Sequence[str], *, question: str | None = None,
                    examples: Sequence[str] = (), sample: int | None = None, layout: str = "passages_first",
                    wording: str = "check") -> Any:
    """The request about one sentence (``sample``: the n-th sampled vote, None for the first reply)."""
    shown = text_list("examples", examples)
    layout, template = _template(layout, wording)
    first = layout == "passages_first"
    data = {"examples": Texts("example", shown), "context": Texts("passage", text_list("context", context), "(no passages)"),
            "question_block": None if question is None else text("question", question),
            "sentence": text("sentence", sentence)}
    return make_request(STEP, template, None,
                        'one word: "yes" or "no"', data=data, legacy=False,
                        fence_from=("examples", "context", "question_block") if first else None,
                        top_logprobs=TOP_LOGPROBS if sample is None else 0, sample=sample,
                        temperature=None if sample is None else SAMPLE_TEMPERATURE,
                        words=("yes", "no"), examples_intro=EXAMPLES_INTRO if shown else "")


def faithfulness_support(judge: Judge, answer: str, context: Sequence[str], *, question: str | None = None,
                         examples: Sequence[str] = (), votes: int = 3, aggregate: str = "min",
                         threshold: float = THRESHOLD, layout: str = "passages_first",
                         wording: str = "check") -> MetricResult:
    """Support per sentence on one answer: one request per sentence (plus ``votes`` each where the server gives
    no token probabilities); the score is ``aggregate`` of the sentences' p(yes), the unsupported ones are spans.
    ``wording``: one of :data:`WORDINGS`."""
    judge = check_judge(judge)
    answer = text("answer", answer)
    context = text_list("context", context)
    votes = integer("votes", votes, low=0, high=50, expected="a whole number of sampled votes from 0 to 50")
    layout, _ = _template(layout, wording)  # checks both before any call
    support_score(answer, [], [], aggregate=aggregate, threshold=threshold)  # checks both before any call
    places = sentence_spans(answer)
    calls = CallList()
    supports: list[float] = []
    sources: list[str] = []
    for start, end in places:
        sentence = answer[start:end]
        first = ask(judge, support_request(sentence, context, question=question, examples=examples, layout=layout,
                                                    wording=wording),
                    calls)
        found = p_yes(calls[-1].logprobs)
        if found is not None:
            supports.append(found)
            sources.append("logprobs")
            continue
        said = [first.data["verdict"]]
        for i in range(1, votes + 1):
            request = support_request(sentence, context, question=question, examples=examples, sample=i, layout=layout,
                                      wording=wording)
            said.append(ask(judge, request, calls).data["verdict"])
        supports.append(sum(v == "yes" for v in said) / len(said))
        sources.append("votes" if votes else "reply")
    result = support_score(answer, places, supports, aggregate=aggregate, threshold=threshold, sources=sources)
    if "votes" in sources:
        result.notes.append(f"The server gave no token probabilities: each support is the share of yes among the "
                            f"reply and {votes} sampled votes.")
    elif "reply" in sources:
        result.notes.append("The server gave no token probabilities and votes=0: each support is the reply's own "
                            "word (1 for yes, 0 for no).")
    result.inputs.update(context=list(context), question=question, examples=list(examples), wording=wording)
    return finish(result, judge, calls, False)


SPEC = metrics.register(MetricSpec(
    "faithfulness_support", "Faithfulness (support per sentence)", support_score, of="faithfulness",
    component="generator", ask=Ask(faithfulness_support, ("judge", "answer", "contexts"), QUESTION),
    design="a yes/no per sentence, read as p(yes); the least supported sentence; unsupported sentences as spans",
    steps=(STEP,), variants=("min", "mean", "min_claims"),
    example=dict(answer="AI is old. It thinks.", offsets=[(0, 10), (11, 21)], supports=[0.9, 0.2])))
