"""`validate-judge --labels FILE`: a judge against your own labelled answers, end to end against a real HTTP
server on 127.0.0.1 (tests/scripted_server.py); the dev/test rule; the token estimate against what is used."""

from __future__ import annotations

import csv
import json
import math
import re
from importlib import resources

import pytest

from ragmetrics_edu import InputError
from ragmetrics_edu.baselines import answer_overlap
from ragmetrics_edu.cli import main
from ragmetrics_edu.course.against_people.items import items
from ragmetrics_edu.course.against_people.study import recording_path
from ragmetrics_edu.course.alignment.recordings import calibration_of
from ragmetrics_edu.judges.served import served_name
from ragmetrics_edu.studies.alignment import cost
from ragmetrics_edu.studies.alignment.labelled import read_labelled, split_by_group
from ragmetrics_edu.studies.alignment.validate_judge import recording_out
from scripted_server import Scripted, schema_responder, yes_no_tokens

EXAMPLE = resources.files("ragmetrics_edu") / "data" / "labelled_answers_example.jsonl"
_BLOCK = re.compile(r'<data-[0-9a-f]+ name="([^"]+)">\n(.*?)\n</data-[0-9a-f]+>', re.S)


def _tokens(body) -> int:
    """The prompt tokens the scripted server reports: the characters sent at 3.8 a token (the local judge's rate)."""
    return math.ceil(sum(len(m["content"]) for m in body["messages"]) / 3.8)


def _support(body) -> Scripted:
    """An informative judge: p(yes) is the sentence's word coverage by the passages."""
    blocks = dict((name, text) for name, text in _BLOCK.findall(body["messages"][-1]["content"]))
    passages = "\n".join(v for k, v in blocks.items() if k.startswith("passage"))
    p_yes = min(max(answer_overlap(blocks.get("sentence", ""), [passages]), 0.02), 0.98)
    return Scripted(content="yes" if p_yes >= 0.5 else "no", logprobs=yes_no_tokens(p_yes),
                    prompt_tokens=_tokens(body), completion_tokens=1)


def _args(server, tmp_path, *extra):
    return ["validate-judge", "--base-url", server.base_url, "--model", "judge-m", "--design", "support_min",
            "--labels", str(EXAMPLE), "--cache-dir", str(tmp_path / "cache"), *extra]


def test_labels_run_end_to_end_with_every_figure_the_report_promises(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.chdir(tmp_path)
    server.models, server.responder = ["judge-m"], _support
    scores = tmp_path / "scores.csv"
    assert main(_args(server, tmp_path, "--scores-out", str(scores))) == 0
    out = capsys.readouterr().out
    chosen = read_labelled(EXAMPLE)
    dev = [i for i in chosen if i.split == "dev"]
    test = [i for i in chosen if i.split == "test"]
    assert f"dev: {len(dev)} labelled answers" in out and f"test: {len(test)} labelled answers" in out
    assert f"{sum(i.hallucinated for i in test)} hallucinated" in out
    assert "Test ROC AUC of support_min" in out and "word overlap" in out and "no interval" in out
    assert "flagging every answer" in out and "F1" in out
    for method in ("labels", "ppi", "rogan_gladen"):
        assert re.search(rf"{method} [0-9.]+", out), method
    assert "Labels for ±0.05" in out
    assert re.search(r"The first 3 answers took \d+ s \([0-9.]+ s a request at this server\): about \d+ (s|min) left", out)
    assert "read its score from token probabilities for 20 answers" in out
    # the estimate came before the first request, and the tokens used are within 20 % of it
    estimated = int(re.search(r"and ([\d,]+) tokens \(", out).group(1).replace(",", ""))
    used = int(re.search(r"Tokens used: ([\d,]+)", out).group(1).replace(",", ""))
    assert out.index("tokens (") < out.index("Tokens used")
    assert abs(used / estimated - 1) <= 0.2, (estimated, used)
    rows = list(csv.DictReader(scores.open(encoding="utf-8")))
    assert len(rows) == len(chosen) and {r["split"] for r in rows} == {"dev", "test"}
    assert {r["label"] for r in rows} == {"faithful", "hallucinated"}
    assert all(r["reading"] == "token probabilities" and 0 <= float(r["score"]) <= 1 for r in rows)
    # a second run resumes from the cache and writes its own recording beside the first
    sent = server.hits
    assert main(_args(server, tmp_path)) == 0
    assert server.hits == sent
    recordings = sorted(tmp_path.glob("validate-judge-m-support_min-labelled_answers_example-*.json"))
    assert len(recordings) == 2
    assert json.loads(recordings[0].read_text())["pass"]["data"].startswith("labelled_answers_example.jsonl")


def test_unlabelled_rows_count_only_for_the_pass_rate_and_a_csv_file_reads(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    rows = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "mine.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["user_input", "response", "context_1", "context_2", "label", "group"])
        for k, r in enumerate(rows):
            label = "" if k % 4 == 3 else ("fail" if r["label"] == "hallucinated" else "pass")
            writer.writerow([r["question"], r["answer"], r["contexts"][0], r["contexts"][1], label, r["group"]])
    server.models, server.responder = ["judge-m"], _support
    args = _args(server, tmp_path, "--out", str(tmp_path / "rec.json"))
    args[args.index("--labels") + 1] = str(path)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Unlabelled answers (scored, used only for the pass rate): 5" in out
    assert "verdicts at the dev threshold on all 20 scored answers" in out


def test_the_written_rule_splits_by_group_deterministically_and_a_split_column_wins(tmp_path):
    names = [f"source-{k}" for k in range(9)]
    split = split_by_group(names)
    assert split == split_by_group(names[::-1])                       # row order does not matter
    assert sum(v == "dev" for v in split.values()) == 5               # the first half, rounded up
    rows = [json.loads(line) for line in EXAMPLE.read_text(encoding="utf-8").splitlines()]
    own = tmp_path / "own.jsonl"
    own.write_text("\n".join(json.dumps(r | {"split": "test" if r["group"] == "sourdough" else "dev"}) for r in rows),
                   encoding="utf-8")
    assert {i.group for i in read_labelled(own) if i.split == "test"} == {"sourdough"}
    straddle = tmp_path / "straddle.jsonl"
    straddle.write_text("\n".join(json.dumps(r | {"split": "test" if r["id"].endswith("1") else "dev"}) for r in rows),
                        encoding="utf-8")
    with pytest.raises(InputError, match="each group in one split"):
        read_labelled(straddle)


@pytest.mark.parametrize("row, field", [
    ({"answer": "a", "contexts": ["c"], "label": "pass"}, "question"),
    ({"question": "q", "answer": "a", "contexts": "", "label": "pass"}, "contexts"),
    ({"question": "q", "answer": "a", "contexts": ["c"], "label": "maybe"}, "label"),
    ({"question": "q", "answer": "a", "contexts": ["c"], "label": True}, "label"),
])
def test_a_bad_row_is_refused_naming_the_row_and_field(tmp_path, row, field):
    path = tmp_path / "bad.jsonl"
    good = {"question": "q", "answer": "b", "contexts": ["c"], "label": "fail", "group": "g2"}
    path.write_text(json.dumps(good) + "\n" + json.dumps(row | {"group": "g1"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"bad.jsonl row 2: {field}"):
        read_labelled(path)


def test_a_file_with_no_label_column_says_so(tmp_path):
    """Not 'fewer than 2 groups', which is what counting the labelled groups alone would say."""
    path = tmp_path / "nolabels.jsonl"
    path.write_text("".join(json.dumps({"question": f"q{i}", "answer": "a", "contexts": ["c"], "group": f"g{i}"})
                            + "\n" for i in range(4)), encoding="utf-8")
    with pytest.raises(InputError, match=r"^nolabels.jsonl: label: expected a label column"):
        read_labelled(path)


def test_model_names_the_server_serves_by_its_path_are_accepted_and_others_say_what_to_pick():
    assert served_name("qwen", ["/models/qwen.gguf"]) == "/models/qwen.gguf"
    assert served_name("judge-m", ["judge-m", "other"]) == "judge-m"
    assert served_name("anything", None) == "anything"
    with pytest.raises(InputError, match="run again with --model 'judge-m'"):
        served_name("model", ["judge-m"])


def test_recordings_never_overwrite_one_another(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first = recording_out("/m/qwen.gguf", "g_eval", "mine", None)
    assert first.name.startswith("validate-qwen.gguf-g_eval-mine-") and first.suffix == ".json"
    first.write_text("{}")
    given = tmp_path / "rec.json"
    given.write_text("{}")
    assert recording_out("m", "g_eval", "mine", str(given)).name == "rec-2.json"


def test_g_eval_says_it_read_the_written_digit_without_probabilities(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    server.models, server.responder = ["judge-m"], schema_responder()
    args = _args(server, tmp_path, "--out", str(tmp_path / "rec.json"), "--mode", "json_schema")
    args[args.index("--design") + 1] = "g_eval"
    assert main(args) == 0
    assert "g_eval read its score from the written digit for 20 answers" in capsys.readouterr().out


@pytest.mark.parametrize("pass_name, dataset, split", [("g_eval", "halueval", "dev"), ("support", "halueval", "dev"),
                                                       ("claims", "ragtruth", "test"), ("reanswer", "ragtruth", "test")])
def test_the_token_estimate_is_within_20_percent_of_a_real_judge_on_data_it_was_not_calibrated_on(pass_name, dataset,
                                                                                                    split):
    """Calibrated on RAGTruth dev; checked on the other recordings of the same local judge."""
    meta = json.loads(recording_path(pass_name, dataset, split).read_text(encoding="utf-8"))
    done = meta["pass"].get("answers_done") or meta["pass"].get("answers")
    chosen = items(dataset, split, groups=meta["pass"].get("groups"))[:done]
    used = sum(r["prompt_tokens"] + (r.get("completion_tokens") or 0) for r in meta["replies"] if r.get("prompt_tokens"))
    found = cost.estimate(calibration_of(pass_name), chosen)
    assert abs(found["tokens"] / used - 1) <= 0.2, (found["tokens"], used)
    assert found["calls"] == pytest.approx(len([r for r in meta["replies"] if r.get("prompt_tokens")]), rel=0.1)
