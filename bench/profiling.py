"""cProfile across LangGraph's worker threads: where a run's CPU time goes.

The profiler's clock is ``time.thread_time`` (the CPU of the thread being profiled), so time
spent waiting on PostgreSQL, locks or sockets does not show up: only CPU this process burns.

cProfile sees one thread; LangGraph runs parallel branches (and some checkpoint writes) on a
thread pool of its own. While ``profiled()`` is active every task handed to that pool is
profiled too, and the profiles are merged into one ``pstats.Stats``.
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import pstats
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

SITE = re.compile(r"site-packages/([^/]+)")
OURS = re.compile(r"/(agents|netshop|operators|bench)/")


@contextlib.contextmanager
def profiled() -> Iterator[list[pstats.Stats]]:
    """Profile the block in every thread; the merged stats are appended to the yielded list."""
    from langgraph.pregel import _executor

    thread_profiles: list[cProfile.Profile] = []
    original = _executor.BackgroundExecutor.submit

    def submit(self: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        def run(*inner_args: Any, **inner_kwargs: Any) -> Any:
            profile = cProfile.Profile(time.thread_time)
            try:
                return profile.runcall(fn, *inner_args, **inner_kwargs)
            finally:
                thread_profiles.append(profile)

        return original(self, run, *args, **kwargs)

    main = cProfile.Profile(time.thread_time)
    out: list[pstats.Stats] = []
    _executor.BackgroundExecutor.submit = submit  # type: ignore[method-assign]
    main.enable()
    try:
        yield out
    finally:
        main.disable()
        _executor.BackgroundExecutor.submit = original  # type: ignore[method-assign]
        stats = pstats.Stats(main)
        for profile in thread_profiles:
            stats.add(profile)
        out.append(stats)


def top_functions(stats: pstats.Stats, *, sort: str, limit: int = 15) -> str:
    buffer = io.StringIO()
    stats.stream = buffer  # type: ignore[attr-defined]
    stats.sort_stats(sort).print_stats(limit)
    lines = buffer.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
    return "\n".join(line for line in lines[start:] if line.strip())


def self_time_by_package(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Self (exclusive) seconds summed by the package the code lives in."""
    totals: dict[str, float] = defaultdict(float)
    for (filename, _line, function), row in stats.stats.items():  # type: ignore[attr-defined]
        totals[_package(filename, function)] += row[2]
    return sorted(totals.items(), key=lambda item: -item[1])


def _package(filename: str, function: str) -> str:
    if filename == "~":  # C functions: name them by what they belong to
        for name in ("psycopg", "pydantic", "json", "re.", "ormsgpack", "msgpack", "select"):
            if name in function:
                return f"C:{name.rstrip('.')}"
        return "C:builtins"
    if match := SITE.search(filename):
        return match.group(1)
    if match := OURS.search(filename):
        return f"ours:{match.group(1)}"
    if "/lib/python3" in filename:
        return "stdlib"
    return filename


# (label, ((path suffix, function name), ...)): the cumulative CPU of the code behind each
# label. The labels do not nest, so what is left over is LangGraph's own engine and glue.
PG = "checkpoint/postgres/__init__.py"
COMPONENTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("checkpoint writes (PostgresSaver.put, put_writes)", ((PG, "put"), (PG, "put_writes"))),
    ("checkpoint reads (PostgresSaver.get_tuple)", ((PG, "get_tuple"),)),
    ("supervisor classify (model call)", (("agents/team/graph/supervisor.py", "classify"),)),
    (
        "supervisor plan/execute/route/review/finalize",
        tuple(
            ("agents/team/graph/supervisor.py", name)
            for name in ("planned", "execute", "route_steps", "review", "finalize")
        ),
    ),
    (
        "supervisor writer (merge, acknowledge)",
        (
            ("agents/team/graph/supervisor.py", "merge"),
            ("agents/team/graph/supervisor.py", "acknowledge"),
        ),
    ),
    (
        "specialist model turns (bind_tools + model)",
        (("agents/team/specialists/loop.py", "think"),),
    ),
    ("specialist tool turns (ORM, adapters)", (("agents/team/specialists/loop.py", "act"),)),
    (
        "approval nodes (await_approval, act_on_decisions)",
        (
            ("agents/team/graph/approval_nodes.py", "await_approval"),
            ("agents/team/graph/approval_nodes.py", "act_on_decisions"),
        ),
    ),
    (
        "run bookkeeping (inquiry_record_run, inquiry_mark_running, lease)",
        (
            ("agents/team/runs/recording.py", "inquiry_record_run"),
            ("agents/team/runs/recording.py", "inquiry_mark_running"),
            ("agents/team/runs/lease.py", "_postgres_lease"),
        ),
    ),
    (
        "inquiry row (inquiry_create)",
        (("agents/support/conversations/intake.py", "inquiry_create"),),
    ),
)


def components(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Cumulative seconds under each of ``COMPONENTS``, plus everything else, and the total
    (the sum of all self times, every thread)."""
    table = stats.stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in table.values())
    rows: list[tuple[str, float]] = []
    for label, functions in COMPONENTS:
        seconds = sum(
            row[3]
            for (filename, _line, function), row in table.items()
            if any(filename.endswith(path) and function == name for path, name in functions)
        )
        rows.append((label, seconds))
    rows.append(("everything else (LangGraph engine, node glue)", total - sum(s for _, s in rows)))
    rows.append(("total", total))
    return rows
