"""Few-shot examples from people's labels: what is labelled "no", and that no test row (and no row of the
answer's own source) can enter a prompt."""

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.data import ragtruth
from ragmetrics_edu.designs.faithfulness_support import support_request
from ragmetrics_edu.judges.examples import Labelled, example_text, labelled_sentences, pick_examples
from ragmetrics_edu.judges.prompting import data_blocks


def _pool(split):
    out = []
    for a in ragtruth.answers(split):
        out += labelled_sentences(a.answer, [(s.start, s.end) for s in a.spans], a.context, question=a.question,
                                  group=f"source-{a.source_id}", split=a.split)
    return out


def test_a_sentence_is_no_when_it_overlaps_a_marked_span():
    ex = labelled_sentences("It is red. It is 5 m tall.", [(17, 20)], ["It is red and 3 m tall."],
                            question="What is it?", group="g", split="dev")
    assert [(e.sentence, e.verdict) for e in ex] == [("It is red.", "yes"), ("It is 5 m tall.", "no")]
    assert ex[1].evidence == "It is red and 3 m tall."
    assert "People's verdict: no" in example_text(ex[1])


def test_no_test_row_and_no_own_source_row_can_enter_a_prompt():
    pool = _pool("dev") + _pool("test")              # a careless caller hands over both parts
    for a in ragtruth.answers("test")[:30] + ragtruth.answers("dev")[:30]:
        group = f"source-{a.source_id}"
        picked = pick_examples(pool, question=a.question, context=a.context, group=group, k=4)
        assert len(picked) == 4
        assert all(e.split == "dev" and e.group != group for e in picked)
        prompt = support_request("A sentence.", a.context, question=a.question,
                                 examples=[example_text(e) for e in picked]).messages[-1]["content"]
        shown = [b.text for b in data_blocks(prompt) if b.name.startswith("example_")]
        allowed = {example_text(e) for e in pool if e.split == "dev" and e.group != group}
        assert len(shown) == 4 and all(t in allowed for t in shown)


def test_the_examples_are_fixed_for_a_source_and_half_of_them_no():
    pool = _pool("dev")
    answers = [a for a in ragtruth.answers("dev") if a.source_id == ragtruth.answers("dev")[0].source_id]
    picks = [tuple(pick_examples(pool, question=a.question, context=a.context, group=f"source-{a.source_id}"))
             for a in answers]
    assert len(set(picks)) == 1
    assert [e.verdict for e in picks[0]].count("no") == 2


def test_bad_input_names_its_field():
    with pytest.raises(InputError) as caught:
        pick_examples(["not an example"], question="q", context=["c"], group="g")
    assert caught.value.field == "pool"
    with pytest.raises(InputError) as caught:
        pick_examples([], question="q", context=["c"], group="g", k=-1)
    assert caught.value.field == "k"
    assert pick_examples([Labelled("g", "dev", "t", "s", "no", "e")], question="q", context=["c"], group="g") == []
