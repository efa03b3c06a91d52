"""Judges against people: the RAGTruth rows and their split, the recordings' provenance, and a choice log
that the recordings reproduce and that follows its rule."""

import json
from pathlib import Path

import pytest

from ragmetrics_edu import data
from ragmetrics_edu.course.against_people import study
from ragmetrics_edu.course.against_people.items import items
from ragmetrics_edu.data import ragtruth
from ragmetrics_edu.errors import InputError
from ragmetrics_edu.studies.against_people import choice, tables
from ragmetrics_edu.studies.against_people.designs import DESIGNS

RECORDINGS = Path(data.root()) / "recordings" / "against_people"


def test_the_ragtruth_rows_and_their_split_are_the_ones_written_in_the_data():
    dev, test = ragtruth.answers("dev"), ragtruth.answers("test")
    assert (len(dev), len(test)) == (291, 325)
    assert (sum(a.hallucinated for a in dev), sum(a.hallucinated for a in test)) == (102, 96)
    assert not {a.source_id for a in dev} & {a.source_id for a in test}
    assert all(a.source_id % 4 != 0 for a in dev + test)          # the held-back sources are not shipped
    assert all((a.source_id // 4) % 2 == 1 for a in test) and all((a.source_id // 4) % 2 == 0 for a in dev)
    assert {a.model for a in dev + test} == set(ragtruth.MODELS)
    for a in dev[:50]:
        for span in a.spans:
            assert a.answer[span.start:span.end] == span.text   # the spans point into the answer they label


def test_ragtruth_ships_its_licence_and_attribution():
    folder = Path(data.root()) / "ragtruth_qa"
    assert "MIT License" in (folder / "LICENSE").read_text(encoding="utf-8")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "Niu et al." in readme and "source_id // 4" in readme and "People" in readme


LESSON_14_PASSES = {d.recording for d in DESIGNS.values() if d.recording}


def test_every_recording_names_the_model_its_weights_the_server_and_the_date():
    files = sorted(RECORDINGS.glob("*.json"))
    assert files
    for file in files:
        meta = json.loads(file.read_text(encoding="utf-8"))
        assert meta["model"] and meta["date"] and "llama-cpp-python" in meta["server"]
        assert len(meta["gguf"]["sha256"]) == 64 and meta["gguf"]["general.name"]
        if meta["pass"]["name"] in LESSON_14_PASSES:  # lesson 14 reads finished passes only
            assert meta["pass"]["answers_done"] == meta["pass"]["answers"], f"{file.name} is an unfinished pass"
        else:  # lesson 15's passes: a pass cut off is kept (what was paid for), and lesson 15 says how far it got
            assert 0 < meta["pass"]["answers_done"] <= meta["pass"]["answers"]


def test_the_shipped_log_is_what_the_recordings_replay():
    assert study.check_log() == []


def test_the_choice_is_the_rule_applied_to_the_dev_figures():
    log = study.load_log()
    chosen, reasons = choice.choose(log["dev"])
    assert (chosen, reasons) == (log["chosen"], log["reasons"])
    assert log["rule"] == choice.RULE


def test_dev_figures_are_recomputed_from_the_logged_scores():
    log = study.load_log()
    part = log["parts"]["ragtruth-dev"]
    idx = [i for i, v in enumerate(part["scores"]["word_overlap"]) if v == v]
    from ragmetrics_edu.agreement import roc_auc

    auc = roc_auc([part["items"][i]["failed"] for i in idx], [part["scores"]["word_overlap"][i] for i in idx])
    assert auc == pytest.approx(log["dev"]["designs"]["word_overlap"]["ragtruth"]["auc"])


def test_the_dev_sample_is_the_first_sources_of_the_dev_part():
    sample = items("ragtruth", "dev", groups=choice.DEV_SAMPLE_SOURCES["ragtruth"])
    assert len({i.group for i in sample}) == choice.DEV_SAMPLE_SOURCES["ragtruth"]
    assert [i.id for i in sample] == [r["id"] for r in study.load_log()["parts"]["ragtruth-dev"]["items"]]


def test_breakdown_refuses_what_it_does_not_know():
    with pytest.raises(InputError, match="design"):
        tables.breakdown("bleu", "model")
    with pytest.raises(InputError, match="by"):
        tables.breakdown("word_overlap", "colour")
