"""Run by ``test_judge_promises.py`` in a fresh Python process, as a notebook's kernel is one: evaluate()
against a scripted server that presses Ctrl-C (a real SIGINT to the main thread) on its 4th request.

Once the run stops, at most the requests already on their way come in; should a request still arrive
``PATIENCE`` seconds after the press, the press was lost, and the server presses again so that the run
ends and the test can say so. Prints what happened as one line of JSON.
"""

from __future__ import annotations

import itertools
import json
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ragmetrics_edu import evaluate  # noqa: E402
from scripted_server import Scripted, ScriptedServer, schema_responder, scripted_judge  # noqa: E402

#: Seconds within which a Ctrl-C stops an evaluate() run (its requests take 0.25 s each).
PATIENCE = 3.0


def main() -> None:
    # A process started in the background by a non-interactive shell (as CI may start make test) inherits
    # SIGINT ignored, and Python then installs no handler; a kernel always has one, so install Python's own.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = ScriptedServer().start()
    answer = schema_responder(delay=0.25)
    received = itertools.count(1)                   # next() is atomic: each request gets its own number
    presses: list[tuple[int, float]] = []

    def press(number: int) -> None:
        presses.append((number, time.monotonic()))
        # a real SIGINT to the main thread, as Ctrl-C or JupyterLab's interrupt sends: it also wakes a
        # wait the main thread is blocked in (_thread.interrupt_main only sets a flag, seen when the wait ends)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    def respond(body: dict) -> Scripted:
        number = next(received)
        if number == 4:
            press(number)
        elif len(presses) == 1 and time.monotonic() - presses[0][1] > PATIENCE:
            press(number)
        return answer(body)

    server.responder = respond
    judge = scripted_judge(server, max_concurrency=3)
    cases = [{"question": f"Q{i}?", "answer": "A.", "contexts": ["c1", "c2"], "ground_truth": "G."} for i in range(30)]
    try:
        frame = evaluate(cases, metrics=["context_precision", "faithfulness"], judge=judge, max_concurrency=3,
                         progress=False)
        running = [t.name for t in threading.enumerate() if t.name.startswith("ragmetrics-judge")]
        hits = server.hits
        time.sleep(0.8)
        print(json.dumps({"presses": presses, "interrupted": bool(frame.attrs["interrupted"]), "rows": len(frame),
                          "running": running, "requests_after": server.hits - hits}))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
