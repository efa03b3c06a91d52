"""`ragmetrics-edu judge-server` and `make judge-server`: host and port, and the mode the notebook advises."""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragmetrics_edu import cli

REPO = Path(__file__).resolve().parents[2]


def _serve(monkeypatch, tmp_path, capsys, *extra):
    """Run _judge_server with llama_cpp pretended installed and the server command captured, not run."""
    import importlib.util

    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "llama_cpp" else real(name, *a))
    ran = []

    def execv(program, command):  # the command would become the server: stop here instead
        ran.append(command[1:])
        raise SystemExit(0)

    monkeypatch.setattr(os, "execv", execv)
    assert cli.main(["judge-server", "--model", str(model), *extra]) == 0
    return ran[0], capsys.readouterr()


def test_parser_takes_host_and_port_with_loopback_default():
    args = cli.build_parser().parse_args(["judge-server", "--model", "m.gguf"])
    assert (args.host, args.port) == ("127.0.0.1", 8080)
    args = cli.build_parser().parse_args(["judge-server", "--model", "m.gguf", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)


def test_host_and_port_reach_the_server_command_and_the_printed_url(monkeypatch, tmp_path, capsys):
    command, out = _serve(monkeypatch, tmp_path, capsys, "--host", "127.0.0.2", "--port", "9123")
    assert command[command.index("--host") + 1] == "127.0.0.2"
    assert command[command.index("--port") + 1] == "9123"
    assert "http://127.0.0.2:9123/v1" in out.out
    assert "reachable" not in out.err


def test_a_host_beyond_this_machine_is_warned_about(monkeypatch, tmp_path, capsys):
    command, out = _serve(monkeypatch, tmp_path, capsys, "--host", "0.0.0.0")
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert "reachable from other machines" in out.err


def test_an_empty_host_is_refused(monkeypatch, tmp_path, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "llama_cpp" else real(name, *a))
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    assert cli.main(["judge-server", "--model", str(model), "--host", " "]) == 2
    assert "--host" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_judge_server_passes_host_and_port():
    done = subprocess.run(["make", "-n", "judge-server", "MODEL=m.gguf", "HOST=127.0.0.3", "PORT=9124"], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if "judge-server" in x and "--model" in x)
    assert '--host "127.0.0.3"' in line and '--port "9124"' in line
    default = subprocess.run(["make", "-n", "judge-server", "MODEL=m.gguf"], cwd=REPO, capture_output=True, text=True,
                             timeout=60)
    assert '--host "127.0.0.1"' in default.stdout and '--port "8080"' in default.stdout


def test_notebook_10_and_the_server_advise_the_same_mode(monkeypatch, tmp_path, capsys):
    _, out = _serve(monkeypatch, tmp_path, capsys)
    server_mode = re.search(r"mode='(\w+)'", out.out).group(1)
    notebook = json.loads((REPO / "notebooks" / "10_llm_as_judge.ipynb").read_text())
    source = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    assert "judges.OpenAIJudge(" in source
    local = re.search(r'mode = "(\w+)" if BASE_URL', source)
    assert local is not None, "notebook 10 must choose a mode for a local server (BASE_URL)"
    assert local.group(1) == server_mode == "json_object_schema"
    call = re.search(r"judges\.OpenAIJudge\([^\n]*\)", source).group(0)
    assert "mode=mode" in call


def test_without_llama_cpp_the_message_says_what_building_needs(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llama_cpp" else real(name, *a))
    assert cli.main(["judge-server", "--model", "m.gguf"]) != 0
    err = capsys.readouterr().err
    assert "C/C++ compiler and CMake" in err and cli.PORTABLE_CMAKE_ARGS in err and "{" not in err


def test_readme_says_what_building_the_server_needs_and_how_to_reach_it():
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("make judge-server-install"):readme.index("### What the judge promises")]
    assert "C/C++ compiler and CMake" in section and "7–16 minutes on 2 cores" in section
    assert "HOST=" in section and "PORT=" in section and 'mode="json_object_schema"' in section
    assert "`question` and `answer`" in readme


# A stand-in for llama_cpp.server: it listens on the port it is given until it is stopped.
FAKE_SERVER = """
import socket, sys, time
port = int(sys.argv[sys.argv.index("--port") + 1])
listener = socket.socket()
listener.bind(("127.0.0.1", port))
listener.listen()
print("listening", flush=True)
while True:
    time.sleep(1)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_taken(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.skipif(os.name != "posix", reason="exec keeps the PID on POSIX only")
def test_the_command_stopped_by_pid_leaves_no_server_behind(tmp_path):
    fake = tmp_path / "fake" / "llama_cpp"
    (fake / "server").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "server" / "__init__.py").write_text("")
    (fake / "server" / "__main__.py").write_text(FAKE_SERVER)
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), str(REPO)])}
    command = subprocess.Popen([sys.executable, "-m", "ragmetrics_edu.cli", "judge-server", "--model", str(model),
                                "--port", str(port)], env=env, stdout=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not _port_taken(port):
            assert command.poll() is None, "the command ended before its server listened"
            assert time.monotonic() < deadline, "the server never listened"
            time.sleep(0.1)
        os.kill(command.pid, signal.SIGTERM)  # a plain `kill PID` of the command
        command.wait(timeout=20)
        deadline = time.monotonic() + 10
        while _port_taken(port) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _port_taken(port), "the port is still taken: a server outlived its command"
    finally:
        if command.poll() is None:
            command.kill()


def test_the_server_serves_the_model_under_the_name_it_prints(monkeypatch, tmp_path, capsys):
    """validate-judge --model takes what judge-server prints: the server lists the model under that alias."""
    command, out = _serve(monkeypatch, tmp_path, capsys)
    alias = command[command.index("--model_alias") + 1]
    assert alias == "tiny" and "as model 'tiny'" in out.out and "--model tiny" in out.out


@pytest.mark.skipif(os.name != "posix" or shutil.which("make") is None, reason="make and exec on POSIX")
def test_make_judge_server_stopped_by_makes_pid_leaves_no_server_behind(tmp_path):
    """`kill MAKE_PID` (SIGTERM): make passes it to its child, which is the server itself (the recipe execs)."""
    fake = tmp_path / "fake" / "llama_cpp"
    (fake / "server").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "server" / "__init__.py").write_text("")
    pid_file = tmp_path / "server.pid"  # so a failing run still stops the server it started
    (fake / "server" / "__main__.py").write_text(f"import os; open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                                                 + FAKE_SERVER)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    entry = bin_dir / "ragmetrics-edu"  # the console script make runs, here the real command from this checkout
    entry.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ragmetrics_edu.cli "$@"\n')
    entry.chmod(0o755)
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), str(REPO)])}
    make = subprocess.Popen(["make", "--no-print-directory", "judge-server", f"BIN={bin_dir}", f"MODEL={model}",
                             f"PORT={port}"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while not _port_taken(port):
            assert make.poll() is None, "make ended before the server listened"
            assert time.monotonic() < deadline, "the server never listened"
            time.sleep(0.1)
        os.kill(make.pid, signal.SIGTERM)  # a plain `kill PID` of make, not of the server
        make.wait(timeout=20)
        deadline = time.monotonic() + 10
        while _port_taken(port) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _port_taken(port), "the port is still taken: the server outlived make"
    finally:
        if make.poll() is None:
            make.kill()
        if pid_file.exists():
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass
