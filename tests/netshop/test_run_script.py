"""scripts/run stops with everything it started, however it was started.

Started in the background by a shell without job control (``scripts/run &`` in a script, a
test harness), bash inherits SIGINT ignored and may not trap it: ``kill -INT`` did nothing,
and a TERM left the step it was running (a migration, pip under scripts/bootstrap) behind.
Given scripts/run started that way, when it gets SIGINT, then it exits with 130 and no process
of its session is left; the same for the helper scripts/lib/children.sh, with a server that has
a child of its own. Each test gives its processes a session of their own, so the check counts
only what they started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


# What a non-interactive shell does to ``cmd &``: the command starts with SIGINT ignored.
IN_THE_BACKGROUND_OF_A_SCRIPT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``command`` as ``command &`` in a script starts it, in a session of its own."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-c", IN_THE_BACKGROUND_OF_A_SCRIPT, *command],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def session_pids(session: int) -> dict[int, str]:
    """The live processes of ``session`` (zombies are gone already) and their command lines."""
    members = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z" and int(fields[3]) == session:
                command = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ")
                members[int(stat.parent.name)] = command.decode()
        except (OSError, IndexError):
            continue  # ended while we looked
    return members


def session_members(session: int) -> list[str]:
    return list(session_pids(session).values())


@pytest.fixture
def sessions() -> Iterator[list[int]]:
    """The sessions a test started: whatever is left of them is killed after it, pass or fail."""
    started: list[int] = []
    yield started
    for session in started:
        for pid in session_pids(session):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def wait_for(log: Path, text: str, *, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


def running(session: int, command: str, *, timeout: float = 30) -> bool:
    """Whether ``command`` runs in ``session`` within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(command in member for member in session_members(session)):
            return True
        time.sleep(0.02)
    return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def plain_shell(**extra: str) -> dict[str, str]:
    env = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    return env | extra


def test_sigint_to_a_backgrounded_scripts_run_stops_it_and_the_step_it_runs(
    tmp_path: Path, sessions: list[int]
) -> None:
    env = plain_shell(NETSHOP_VAR_DIR=str(tmp_path), PORT=str(free_port()))
    log = tmp_path / "run.log"
    run = start([str(ROOT / "scripts" / "run")], env, log)
    sessions.append(run.pid)
    wait_for(log, "Migrating the database...")
    migrating = running(run.pid, "manage.py migrate")  # a child of its own, under way

    run.send_signal(signal.SIGINT)

    assert run.wait(timeout=20) == 130, log.read_text()
    assert migrating
    assert session_members(run.pid) == []
    assert "Listening on" not in log.read_text()


CHILDREN = """
source scripts/lib/children.sh
signals_default "$@"
children_trap
child_start bash -c 'sleep 300 & echo serving; wait'
wait "$!"
"""


def test_children_sh_stops_a_server_and_the_processes_it_started(
    tmp_path: Path, sessions: list[int]
) -> None:
    log = tmp_path / "children.log"
    script = tmp_path / "serve"
    script.write_text("#!/usr/bin/env bash\ncd " + str(ROOT) + "\n" + CHILDREN)
    script.chmod(0o755)
    serve = start([str(script)], plain_shell(), log)
    sessions.append(serve.pid)
    wait_for(log, "serving")
    started = session_members(serve.pid)

    serve.send_signal(signal.SIGINT)

    assert serve.wait(timeout=15) == 130
    assert "sleep 300 " in started, started  # the server's own child
    assert session_members(serve.pid) == []
