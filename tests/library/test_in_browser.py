"""In a browser (Pyodide) what cannot run there says so in one line, naming what to install instead.

Pyodide is simulated by setting ``errors.IN_BROWSER``, as ``sys.platform == "emscripten"`` would; the
site's own test (``make test-site``) runs the notebooks in the real one.
"""

from __future__ import annotations

import pytest

from ragmetrics_edu import cli, embeddings, errors, judges


@pytest.fixture
def browser(monkeypatch):
    monkeypatch.setattr(errors, "IN_BROWSER", True)
    monkeypatch.setattr(cli, "IN_BROWSER", True)


def _one_line(exc: BaseException) -> str:
    shown = exc._render_traceback_()  # what IPython prints instead of a traceback
    assert len(shown) == 1 and "\n" not in shown[0]
    return shown[0]


@pytest.mark.parametrize("make, names", [
    (lambda: judges.OpenAIJudge("gpt-4o-mini"), ("OpenAIJudge", "ReplayJudge", "[llm]")),
    (lambda: embeddings.SentenceTransformerEmbedder("all-MiniLM-L6-v2"), ("SentenceTransformerEmbedder", "[embeddings]")),
    (lambda: embeddings.OpenAIEmbedder(), ("OpenAIEmbedder", "RecordedEmbedder", "[llm]")),
], ids=["live judge", "neural embedder", "embeddings endpoint"])
def test_what_needs_the_network_or_torch_says_so_in_one_line(browser, make, names):
    with pytest.raises(errors.NotInBrowser) as caught:
        make()
    line = _one_line(caught.value)
    assert "cannot run in a browser" in line and all(n in line for n in names), line


def test_the_judge_server_command_says_so_in_one_line(browser, capsys):
    code = cli.main(["judge-server", "--model", "model.gguf"])
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1, err
    assert "cannot run in a browser" in err and "make judge-server-install" in err


def test_outside_a_browser_nothing_is_refused():
    assert errors.IN_BROWSER is False
    errors.refuse_in_browser("anything", "nothing")  # returns: this is CPython
    judges.OpenAIJudge("gpt-4o-mini", api_key="k")  # builds (no request is made)


def test_a_recorded_judge_replays_with_no_openai_no_pydantic_and_no_thread():
    """What Pyodide offers: the deck recording replays every deck case, with the scores a normal run gives."""
    import json
    import subprocess
    import sys

    run = ("from ragmetrics_edu import data, judges\n"
           "from ragmetrics_edu.course.deck_cases import run_deck_cases\n"
           "judge = judges.ReplayJudge(data.recording('qwen2.5-coder-1.5b_deck-examples'))\n"
           "runs = run_deck_cases(judge)\n"
           "import json; print(json.dumps([[r.case.example_id, r.case.step, r.result.score if r.result else None]"
           " for r in runs]))\n")
    browser_like = ("import sys, threading\n"
                    "sys.modules['openai'] = None; sys.modules['pydantic'] = None\n"
                    "def refuse(*a, **k): raise RuntimeError(\"can't start new thread\")\n"
                    "threading.Thread.start = refuse\n"
                    "from ragmetrics_edu.judges import batch; batch.THREADS = False\n")
    here = subprocess.run([sys.executable, "-c", browser_like + run], capture_output=True, text=True)
    assert here.returncode == 0, here.stderr[-2000:]
    normal = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, check=True)
    scores = json.loads(here.stdout)
    assert len(scores) > 10 and sum(s[2] is not None for s in scores) > 10
    assert scores == json.loads(normal.stdout)
