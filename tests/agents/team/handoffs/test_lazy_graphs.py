"""No graph is compiled when a module is imported: each is built on first use, then kept.

A worker builds them all up front (``agents.team.runs.warm_up``); a management command or a web
process that never runs a specialist never pays for one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from agents.support import run_requests
from agents.team.graph import delegation

ROOT = Path(__file__).resolve().parents[4]

COUNT_COMPILES_ON_IMPORT = """
import importlib, pkgutil
import django
django.setup()
from langgraph.graph.state import StateGraph
compiled = []
original = StateGraph.compile
StateGraph.compile = lambda self, *a, **k: compiled.append(1) or original(self, *a, **k)
import agents
for module in pkgutil.walk_packages(agents.__path__, "agents."):
    # (the sandbox's settings module is a process's settings, refused outside the sandbox)
    skipped = (".warm_up", "sandbox.settings")
    if ".migrations" not in module.name and not module.name.endswith(skipped):
        importlib.import_module(module.name)
print(len(compiled))
"""


def test_importing_every_agents_module_compiles_no_graph() -> None:
    done = subprocess.run(
        [sys.executable, "-c", COUNT_COMPILES_ON_IMPORT],
        cwd=ROOT,
        env=os.environ | {"DJANGO_SETTINGS_MODULE": "netshop.settings"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "0"


def test_a_specialists_graph_is_built_once_and_kept() -> None:
    first = delegation.specialist_graph("order")

    assert delegation.specialist_graph("order") is first
    assert first.name == "order_agent"


def test_the_unused_alias_and_constant_are_gone() -> None:
    assert not hasattr(run_requests, "enqueue_resume")  # callers use enqueue_run
    assert not hasattr(delegation, "CONTEXT_CONTRACT_VERSION")  # the cards carry the version
