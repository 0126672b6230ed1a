"""Starting the sandbox child and reading its events (the parent's side).

The child is ``manage.py simulation_sandbox`` under the sandbox environment; its events are
JSON lines after ``EVENT_PREFIX`` on stdout, read as they come (``on_event``), so a long run
can be stored case by case. One simulation at a time per sandbox: the parent holds an advisory
lock on the sandbox database while its child runs (another waits), since each seeds the demo
over the other's shop.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import psycopg
from django.conf import settings

from agents.simulation.candidates import Candidate
from agents.simulation.sandbox.database import sandbox_database_ensure, sandbox_url
from agents.simulation.sandbox.environment import sandbox_environment
from netshop.knowledge.files import articles_export_text
from netshop.knowledge.selectors import articles_published

EVENT_PREFIX: Final = "@@simulation "
SANDBOX_LOCK: Final = 0x51A1  # the advisory lock key one simulation holds on its sandbox
STDERR_TAIL: Final = 4000


class SandboxError(RuntimeError):
    """The sandbox could not run (the child failed); the message ends with its output."""


@dataclass
class SandboxOutput:
    """What the child reported: the versions it ran against and one event per case."""

    versions: dict[str, Any] = field(default_factory=dict)
    cases: list[dict[str, Any]] = field(default_factory=list)


def sandbox_run(
    *,
    cases: list[dict[str, Any]],
    k: int = 1,
    candidate: Candidate,
    on_event: Callable[[dict[str, Any]], None] | None = None,
) -> SandboxOutput:
    """Run ``cases`` (the suite's multi-turn form) ``k`` times each in the sandbox."""
    url = sandbox_url()
    sandbox_database_ensure(url)
    output = SandboxOutput()
    with tempfile.TemporaryDirectory(prefix="simulation-") as folder:
        spec = Path(folder) / "spec.json"
        spec.write_text(json.dumps({"cases": cases, "k": k}, ensure_ascii=False), "utf-8")
        env = sandbox_environment(url=url, candidate=candidate, articles=_shop_articles(folder))
        with _sandbox_held(url):
            _child(spec, env, output, on_event)
    return output


def _shop_articles(folder: str) -> str:
    """The shop's published articles as a file for the child ("" when the shop has none yet:
    the scenario's own articles stand)."""
    if not articles_published():
        return ""
    path = Path(folder) / "articles.json"
    path.write_text(articles_export_text(), "utf-8")
    return str(path)


@contextmanager
def _sandbox_held(url: str) -> Iterator[None]:
    with psycopg.connect(url, autocommit=True) as lock:
        lock.execute("SELECT pg_advisory_lock(%s)", [SANDBOX_LOCK])
        yield


def _child(
    spec: Path,
    env: dict[str, str],
    output: SandboxOutput,
    on_event: Callable[[dict[str, Any]], None] | None,
) -> None:
    command = [
        sys.executable,
        str(settings.BASE_DIR / "manage.py"),
        "simulation_sandbox",
        str(spec),
    ]
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        child = subprocess.Popen(  # noqa: S603  (our own interpreter and manage.py)
            command,
            env=env,
            cwd=settings.BASE_DIR,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            encoding="utf-8",
        )
        for line in child.stdout or ():
            if line.startswith(EVENT_PREFIX):
                _take(json.loads(line[len(EVENT_PREFIX) :]), output, on_event)
        if child.wait() != 0:
            errors.seek(0)
            tail = errors.read()[-STDERR_TAIL:]
            raise SandboxError(f"the sandbox exited with {child.returncode}:\n{tail}")


def _take(
    event: dict[str, Any],
    output: SandboxOutput,
    on_event: Callable[[dict[str, Any]], None] | None,
) -> None:
    if event["event"] == "versions":
        output.versions = event["versions"]
    else:
        output.cases.append(event)
    if on_event is not None:
        on_event(event)
