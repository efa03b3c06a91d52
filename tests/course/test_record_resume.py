"""A pass cut off in one session resumes from its recording in the next: answers it holds are not asked again."""

import json
import math
import struct

from ragmetrics_edu.course.against_people.record import record
from scripted_server import Scripted


def _gguf(tmp_path):
    def kv_string(key, value):
        k, v = key.encode(), value.encode()
        return struct.pack("<Q", len(k)) + k + struct.pack("<I", 8) + struct.pack("<Q", len(v)) + v

    body = (b"GGUF" + struct.pack("<IQQ", 3, 0, 2) + kv_string("general.architecture", "qwen2")
            + kv_string("general.name", "Tiny Test"))
    path = tmp_path / "tiny.gguf"
    path.write_bytes(body)
    return path


def _yes(body):
    return Scripted(content="yes", logprobs=[{"token": "yes", "logprob": math.log(0.7), "bytes": None,
                                              "top_logprobs": [{"token": "yes", "logprob": math.log(0.7), "bytes": None},
                                                               {"token": "no", "logprob": math.log(0.3), "bytes": None}]}])


def test_a_second_session_takes_what_the_recording_holds(server, tmp_path):
    server.responder = _yes
    gguf = _gguf(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    target = record("support", "halueval", "dev", groups=2, base_url=server.base_url, gguf=str(gguf),
                    out_dir=str(out), cache_dir=str(tmp_path / "cache-1"))
    first = server.hits
    meta = json.loads(target.read_text())
    assert first > 0 and meta["pass"]["answers_done"] == meta["pass"]["answers"] == 4
    # a new session: no cache, a server that would fail every request; the recording answers everything
    server.responder = lambda body: Scripted(status=500, message="should not be asked")
    record("support", "halueval", "dev", groups=2, base_url=server.base_url, gguf=str(gguf), out_dir=str(out),
           cache_dir=str(tmp_path / "cache-2"))
    assert server.hits == first
    again = json.loads(target.read_text())
    assert len(again["replies"]) == len(meta["replies"])
