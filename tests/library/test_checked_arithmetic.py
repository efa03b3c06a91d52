"""The checked faithfulness pipeline's arithmetic (metrics.checked.score_checked): hand-computed cases, and
the judged pipeline (designs.faithfulness_checked) giving the same numbers on the same verdicts."""

from __future__ import annotations

import importlib
import math

import pytest

from ragmetrics_edu import InputError, metrics
from ragmetrics_edu.judges import GivenJudge
from ragmetrics_edu.metrics.checked import (
    FROM_LIBRARY,
    INVENTED_BELOW,
    TO_LIBRARY,
    checked_rows,
    drop_invented,
    invented,
    quote_found,
    score_checked,
    still_open,
)

#: the module (``designs.faithfulness_checked`` itself is its function)
judged = importlib.import_module("ragmetrics_edu.designs.faithfulness_checked")

CONTEXT = ["Beowulf (2007) was directed by Robert Zemeckis.", "It opened in 2001 in London."]
CLAIMS = ["Robert Zemeckis directed Beowulf.", "It opened in 1999.", "It is red."]


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


# -- hand-computed scores --------------------------------------------------------------------------
def test_no_claims_is_nan_under_ragas_and_one_under_deepeval():
    ragas = score_checked([], [], CONTEXT)
    assert math.isnan(ragas.score) and ragas.values["checked"] == [] and ragas.values["total"] == 0
    assert score_checked([], [], CONTEXT, variant="deepeval").score == 1.0
    assert score_checked([], [], CONTEXT, quotes=[], contradicted=[]).values["checked"] == []


def test_one_of_each_verdict():
    # supported / contradicted / not_mentioned: Ragas counts 1 of 3, DeepEval everything but "no": 2 of 3
    said = ["supported", "contradicted", "not_mentioned"]
    ragas = score_checked(CLAIMS, said, CONTEXT)
    assert ragas.score == pytest.approx(1 / 3) and ragas.values["faithful"] == 1
    assert ragas.inputs["verdicts"] == ["yes", "no", "idk"]
    assert score_checked(CLAIMS, said, CONTEXT, variant="deepeval").score == pytest.approx(2 / 3)


def test_all_supported_all_unsupported_all_contradicted():
    assert score_checked(CLAIMS, ["supported"] * 3, CONTEXT).score == 1.0
    assert score_checked(CLAIMS, ["not_mentioned"] * 3, CONTEXT).score == 0.0                 # Ragas: idk is 0
    assert score_checked(CLAIMS, ["not_mentioned"] * 3, CONTEXT, variant="deepeval").score == 1.0  # DeepEval: 1
    assert score_checked(CLAIMS, ["contradicted"] * 3, CONTEXT, variant="deepeval").score == 0.0


def test_the_quote_check_downgrades_a_supported_claim_whose_quote_is_absent():
    said, quotes = ["supported", "supported", "supported"], ["directed by Robert Zemeckis", "in 1999", ""]
    loose = score_checked(CLAIMS, said, CONTEXT, quotes=quotes)
    assert loose.score == 1.0  # unchecked: the judge's word stands
    assert [r["quote_found"] for r in loose.values["checked"]] == [True, False, None]  # a blank quote is not looked for
    strict = score_checked(CLAIMS, said, CONTEXT, quotes=quotes, quotes_checked=True)
    assert strict.score == pytest.approx(1 / 3)  # only the first quote is in the context
    assert [r["final"] for r in strict.values["checked"]] == ["supported", "not_mentioned", "not_mentioned"]
    assert strict.values["checked"][1]["why"] == "its quote is not in the context"
    assert "claim_2: the judge said supported, quoting 'in 1999' (NOT found in the context) -> not_mentioned" \
           " (its quote is not in the context)." in strict.narrative


def test_no_quotes_means_nothing_to_check():
    rows = checked_rows(["supported"], None, CONTEXT, quotes_checked=True)
    assert rows == [{"said": "supported", "quote": "", "quote_found": None, "final": "supported", "why": ""}]


def test_contradiction_asked_apart():
    # not_supported is not_mentioned until the separate question says yes: supported, contradicted, not_mentioned
    said, quotes = ["supported", "not_supported", "not_supported"], ["directed by Robert Zemeckis", "", ""]
    rows = checked_rows(said, quotes, CONTEXT)
    assert still_open(rows) == [1, 2]
    assert rows[1]["final"] == "not_mentioned" and rows[1]["why"] == "not supported; contradiction asked apart"
    result = score_checked(CLAIMS, said, CONTEXT, quotes=quotes, contradicted=["yes", "no"])
    assert [r["final"] for r in result.values["checked"]] == ["supported", "contradicted", "not_mentioned"]
    assert result.values["checked"][1]["why"] == "the separate contradiction question said yes"
    assert result.score == pytest.approx(1 / 3)
    assert score_checked(CLAIMS, said, CONTEXT, quotes=quotes, contradicted=["yes", "no"],
                         variant="deepeval").score == pytest.approx(2 / 3)
    # a supported claim downgraded by the quote check is open too
    assert still_open(checked_rows(said, ["in 1999", "", ""], CONTEXT, quotes_checked=True)) == [0, 1, 2]


def test_invented_claims_are_dropped_and_noted():
    kept, dropped = drop_invented(["Robert Zemeckis directed Beowulf.", "Paramount released Beowulf worldwide."],
                                  "Who directed Beowulf?", "Robert Zemeckis")
    assert kept == ["Robert Zemeckis directed Beowulf."] and dropped == ["Paramount released Beowulf worldwide."]
    assert invented(dropped[0], "Who directed Beowulf?\nRobert Zemeckis") and INVENTED_BELOW == 0.75
    assert not invented("the of and", "anything")  # no content words: nothing to call invented
    result = score_checked(kept, ["supported"], CONTEXT, dropped=dropped)
    assert result.narrative[-2] == ("Dropped as invented (under 75% of its content words are in the question or "
                                    "the answer): 'Paramount released Beowulf worldwide.'")
    assert result.narrative[-1] == "claim_1: the judge said supported."


def test_quote_found_and_the_word_maps():
    assert quote_found("ROBERT zemeckis!", CONTEXT) and not quote_found("", CONTEXT)
    assert TO_LIBRARY == {"supported": "yes", "contradicted": "no", "not_mentioned": "idk"}
    assert {FROM_LIBRARY[v]: v for v in FROM_LIBRARY} == TO_LIBRARY


def test_bad_inputs():
    with pytest.raises(InputError, match="said"):
        score_checked(CLAIMS, ["supported"], CONTEXT)
    with pytest.raises(InputError, match=r"said\[0\]"):
        score_checked(["c"], ["yes"], CONTEXT)
    with pytest.raises(InputError, match="quotes"):
        score_checked(["c"], ["supported"], CONTEXT, quotes=["a", "b"])
    with pytest.raises(InputError, match="contradicted"):
        score_checked(["c"], ["not_supported"], CONTEXT, quotes=[""], contradicted=[])
    with pytest.raises(InputError, match="contradicted"):
        score_checked(["c"], ["not_supported"], CONTEXT, quotes=[""], contradicted=["maybe"])
    with pytest.raises(InputError, match="quotes_checked"):
        score_checked(["c"], ["supported"], CONTEXT, quotes=[""], quotes_checked="yes")
    with pytest.raises(InputError, match="threshold"):
        score_checked(["c"], ["supported"], CONTEXT, threshold=2)


def test_one_home():
    assert metrics.score_checked is score_checked
    assert judged.quote_found is quote_found and judged.invented is invented and judged.TO_LIBRARY is TO_LIBRARY


# -- the judged pipeline gives the pure function's numbers -------------------------------------------
QUOTED = [{"verdict": "supported", "quote": "directed by Robert Zemeckis"},
          {"verdict": "contradicted", "quote": "2001"}, {"verdict": "supported", "quote": "painted red"}]


def given_judge() -> GivenJudge:
    def quoted(request):
        keys = list(request.model.fields())
        if request.step == "faithfulness.supported":
            return {k: {"verdict": "supported" if QUOTED[i]["verdict"] == "supported" else "not_supported",
                        "quote": QUOTED[i]["quote"]} for i, k in enumerate(keys)}
        return {k: QUOTED[i] for i, k in enumerate(keys)}
    return GivenJudge({"faithfulness.quoted": quoted, "faithfulness.supported": quoted,
                       "faithfulness.contradiction": lambda r: {k: "yes" for k in r.model.fields()},
                       "faithfulness.verdicts": ["yes", "no", "idk"],
                       "faithfulness.claims": CLAIMS,
                       "faithfulness.claims_qa": CLAIMS[:1] + ["Paramount released Beowulf worldwide."]})


@pytest.mark.parametrize("pipeline", list(judged.PIPELINES))
@pytest.mark.parametrize("variant", ["ragas", "deepeval"])
def test_the_judged_pipeline_scores_with_the_pure_function(pipeline, variant):
    options = judged.PIPELINES[pipeline]
    result = judged.faithfulness_checked(given_judge(), "Robert Zemeckis", CONTEXT, question="Who directed Beowulf?",
                                         pipeline=pipeline, variant=variant)
    if options["claims_from"] == "question_and_answer":
        claims, dropped = CLAIMS[:1], ["Paramount released Beowulf worldwide."]
    else:
        claims, dropped = CLAIMS, []
    if options["verdicts"] == "yes_no_idk":
        said, quotes, contradicted = ["supported", "contradicted", "not_mentioned"], None, None
    else:
        apart = options["contradiction"] == "apart"
        said = [("not_supported" if apart and q["verdict"] != "supported" else q["verdict"])
                for q in QUOTED[:len(claims)]]
        quotes = [q["quote"] for q in QUOTED[:len(claims)]]
        rows = checked_rows(said, quotes, CONTEXT, quotes_checked=options["quotes_checked"])
        contradicted = ["yes"] * len(still_open(rows)) if apart else None
    pure = score_checked(claims, said, CONTEXT, quotes=quotes, quotes_checked=options["quotes_checked"],
                         contradicted=contradicted, dropped=dropped, variant=variant)
    assert same(result.score, pure.score)
    assert result.values["checked"] == pure.values["checked"]
    assert result.inputs["verdicts"] == pure.inputs["verdicts"]
    assert [line for line in result.narrative if line.startswith(("claim_", "Dropped"))] == \
           [line for line in pure.narrative if line.startswith(("claim_", "Dropped"))]


def test_hand_computed_through_the_judge():
    # contradiction_apart (quote check on): claim 1 supported and found; claim 2 not supported, then "yes" ->
    # contradicted; claim 3 supported but "painted red" is not in the context -> open, then "yes" -> contradicted
    result = judged.faithfulness_checked(given_judge(), "x", CONTEXT, claims=CLAIMS, pipeline="contradiction_apart")
    assert [r["final"] for r in result.values["checked"]] == ["supported", "contradicted", "contradicted"]
    assert result.score == pytest.approx(1 / 3) and len(result.calls) == 2
    unchecked = judged.faithfulness_checked(given_judge(), "x", CONTEXT, claims=CLAIMS, pipeline="apart_unchecked")
    assert [r["final"] for r in unchecked.values["checked"]] == ["supported", "contradicted", "supported"]
    assert unchecked.score == pytest.approx(2 / 3)
