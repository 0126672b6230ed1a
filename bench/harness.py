"""What every benchmark shares: the bench database and Redis, server and worker processes,
timing helpers, the mixed inquiries, and writing results.

Benchmarks run against their own PostgreSQL database and Redis database (never the ones the
tests or ``scripts/run`` use), only on 127.0.0.1. ``configure()`` must run before anything
imports Django settings: it sets the environment, prepares the database and sets Django up.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
LOGS = ROOT / "var" / "bench"  # the started processes' output (var/ is git-ignored)
PYTHON = sys.executable

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/netshop_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


# --- environment and database --------------------------------------------------------------


def _local_only(url: str) -> str:
    host = urlsplit(url).hostname or ""
    if host not in LOCAL_HOSTS:
        raise SystemExit(f"benchmarks only target 127.0.0.1, not {host!r} ({url})")
    return url


def bench_env(**extra: str) -> dict[str, str]:
    """The environment of this process and of every process a benchmark starts."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=_local_only(DATABASE_URL),
        REDIS_URL=_local_only(REDIS_URL),
        SECRET_KEY=os.environ.get("SECRET_KEY") or "bench-only-secret-key",
        NETSHOP_AUDIT_KEY=os.environ.get("NETSHOP_AUDIT_KEY")
        or "bench:bench-only-audit-key-0123456789ab",
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver",  # testserver: Django's test clients
        LOG_LEVEL=os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
        NETSHOP_RETRY_BACKOFF_S="0",
        # The benchmark's storefront sends more than a shop's default quota (600 a minute per
        # token): the throttle still runs on every request, with room for the load measured.
        NETSHOP_INTAKE_RATE=os.environ.get("BENCH_INTAKE_RATE", "60000/m"),
        NETSHOP_MODEL_PROVIDER="offline",
        NETSHOP_WEBHOOK_ALLOW_PRIVATE="1",  # the storefront's receiver is on this machine
        DJANGO_SETTINGS_MODULE="netshop.settings",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


def configure(*, fresh: bool = True, **extra_env: str) -> None:
    """Point this process at the bench services, prepare the database, set Django up.

    ``fresh`` drops and recreates the database (about 20 s: migrate and seed); otherwise the
    existing one is migrated and its demo orders reset.
    """
    os.environ.update(bench_env(**extra_env))
    prepare_database(fresh=fresh)
    purge_redis()
    import django

    django.setup()


def manage(*args: str, env: dict[str, str] | None = None) -> str:
    """Run ``manage.py`` with the bench environment; its stdout."""
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env or bench_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def prepare_database(*, fresh: bool) -> None:
    import psycopg
    from psycopg import sql

    url = urlsplit(_local_only(DATABASE_URL))
    name = url.path.lstrip("/")
    admin_url = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin_url, autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if fresh and exists:
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        if fresh or not exists:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    log(f"database {name}: {'created' if fresh or not exists else 'reused'}; migrating, seeding")
    manage("migrate", "--noinput")
    manage("seed_demo", *(() if fresh else ("--reset",)))


def purge_redis() -> None:
    """Empty the bench's Redis database (only that one): no task or group left from before."""
    import redis

    redis.Redis.from_url(_local_only(REDIS_URL)).flushdb()


def api_token(name: str = "bench") -> str:
    """A fresh storefront key, made the way an operator makes one."""
    return manage("create_api_token", f"{name}-{os.getpid()}-{time.time_ns()}").strip()


def api_token_with_webhooks(callback_url: str, name: str = "bench") -> tuple[str, str]:
    """A fresh storefront key whose conversations are pushed to ``callback_url``, and the
    secret that signs the pushes."""
    unique = f"{name}-{os.getpid()}-{time.time_ns()}"
    key, secret = manage("create_api_token", unique, "--callback-url", callback_url).split()[:2]
    return key, secret


# --- timing ---------------------------------------------------------------------------------


@dataclass
class Measure:
    """Wall and CPU seconds of a block (``process_time``: every thread of this process)."""

    wall_s: float = 0.0
    cpu_s: float = 0.0
    _start: tuple[float, float] = field(default=(0.0, 0.0), repr=False)


@contextlib.contextmanager
def measured() -> Iterator[Measure]:
    measure = Measure(_start=(time.perf_counter(), time.process_time()))
    try:
        yield measure
    finally:
        measure.wall_s = time.perf_counter() - measure._start[0]
        measure.cpu_s = time.process_time() - measure._start[1]


def percentile(values: Sequence[float], pct: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * pct / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary_ms(values_s: Sequence[float]) -> dict[str, float]:
    """p50/p95/p99/mean/max of seconds, in milliseconds."""
    if not values_s:
        return {}
    ms = [v * 1000 for v in values_s]
    return {
        "count": len(ms),
        "p50_ms": round(percentile(ms, 50), 1),
        "p95_ms": round(percentile(ms, 95), 1),
        "p99_ms": round(percentile(ms, 99), 1),
        "mean_ms": round(sum(ms) / len(ms), 1),
        "max_ms": round(max(ms), 1),
    }


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


# --- results --------------------------------------------------------------------------------


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def print_table(title: str, rows: Sequence[Sequence[Any]], header: Sequence[str]) -> None:
    cells = [[str(c) for c in header]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)
    print(f"\n{title}")
    print(line)
    for index, row in enumerate(cells):
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)))
        if index == 0:
            print(line)
    print(line)


def verdict(value: float, target: float, *, at_most: bool) -> str:
    met = value <= target if at_most else value >= target
    return "met" if met else "MISSED"


def git_commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def write_results(name: str, payload: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    document = {
        "benchmark": name,
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": machine(),
        **payload,
    }
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nresults: {path.relative_to(ROOT)}")
    return path


# --- processes ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Process:
    """A child process in its own session, stopped by its own id only."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.log_path = LOGS / f"{name}.log"
        LOGS.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("w", encoding="utf-8")
        self.popen = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self, timeout: float = 15) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(timeout=5)
        self._log.close()


def wait_for_port(port: int, process: Process, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not process.alive():
            raise SystemExit(f"{process.name} exited; see {process.log_path}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise SystemExit(f"{process.name} did not listen on {port} within {timeout:.0f} s")


@dataclass(frozen=True)
class Server:
    url: str
    process: Process


@contextlib.contextmanager
def daphne_servers(count: int = 1, env: dict[str, str] | None = None) -> Iterator[list[Server]]:
    """``count`` daphne processes, each on a free port of 127.0.0.1."""
    started: list[Server] = []
    try:
        for index in range(count):
            port = free_port()
            argv = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            argv.append("netshop.asgi:application")
            process = Process(f"daphne{index}", argv, env or bench_env())
            started.append(Server(f"http://127.0.0.1:{port}", process))
            wait_for_port(port, process)
        yield started
    finally:
        for server in started:
            server.process.stop()


@contextlib.contextmanager
def celery_workers(
    count: int = 2, concurrency: int | None = None, env: dict[str, str] | None = None
) -> Iterator[list[Process]]:
    """``count`` worker processes in the production pool (threads), ``concurrency`` runs in
    flight each (default: ``NETSHOP_WORKER_CONCURRENCY``), once all answer a ping; the bench
    Redis database is purged first."""
    purge_redis()
    stamp = f"{os.getpid()}-{time.time_ns() % 10**6}"
    names = [f"bench{index}-{stamp}" for index in range(count)]
    started = [
        Process(f"worker{index}", [PYTHON, *_worker_args(name, concurrency)], env or bench_env())
        for index, name in enumerate(names)
    ]
    try:
        _wait_for_workers(names, started)
        yield started
    finally:
        for process in started:
            process.stop(timeout=30)


def _worker_args(name: str, concurrency: int | None) -> list[str]:
    chosen = f"--concurrency={concurrency} " if concurrency else ""
    return (
        f"-m celery -A netshop worker {chosen}"
        f"--without-gossip --without-mingle --without-heartbeat -n {name}@%h -l warning"
    ).split()


@contextlib.contextmanager
def fake_model(latency_s: float, jitter_s: float = 0.0) -> Iterator[dict[str, str]]:
    """The local OpenAI-compatible server (``bench.fake_model``, a process of its own) answering
    each call after ``latency_s`` (plus up to ``jitter_s``); yields the environment that points
    the real ``ChatOpenAI`` path at it."""
    port = free_port()
    argv = ["-m", "bench.fake_model", "--port", str(port), "--latency", str(latency_s)]
    server = Process("fake_model", [PYTHON, *argv, "--jitter", str(jitter_s)], bench_env())
    try:
        wait_for_port(port, server)
        yield {
            "NETSHOP_MODEL_PROVIDER": "openai",
            "OPENAI_API_KEY": "bench-key",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "NETSHOP_MODEL_TIMEOUT_S": str(max(10.0, 4 * (latency_s + jitter_s))),
        }
    finally:
        server.stop()


def model_calls(state: dict[str, Any]) -> tuple[int, int]:
    """(critical-path calls, total calls) of a finished run, from its plan and transcripts:
    the critical path is the longest chain of model calls that wait for one another."""
    turns = {
        step["step"]: sum(1 for m in state["transcripts"][step["agent"]] if m["type"] == "ai")
        for step in state["plan"]
    }
    depends = {step["step"]: step["depends_on"] for step in state["plan"]}

    def chain(step: int) -> int:
        return turns[step] + max((chain(d) for d in depends[step]), default=0)

    writer = 1 if state.get("reply") else 0
    return 1 + max((chain(s) for s in turns), default=0) + writer, 1 + sum(turns.values()) + writer


def _wait_for_workers(names: list[str], processes: list[Process], timeout: float = 60) -> None:
    from netshop.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process in processes:
            if not process.alive():
                raise SystemExit(f"{process.name} exited; see {process.log_path}")
        replies = app.control.ping(timeout=0.5) or []
        alive = {name.split("@")[0] for reply in replies for name in reply}
        if set(names) <= alive:
            return
    raise SystemExit(f"workers {names} did not answer within {timeout:.0f} s")


# --- the mixed inquiries --------------------------------------------------------------------


@dataclass(frozen=True)
class Ask:
    customer: str
    text: str
    kind: str


# (kind, Japanese, English); {n} is one of the customer's own order numbers.
TEMPLATES: dict[str, tuple[str, str]] = {
    "tracking": ("注文{n}の荷物は今どこにありますか？", "Where is my order {n} right now?"),
    "details": ("{n}の注文内容を教えてください。", "Please show me the details of order {n}."),
    "payment": ("{n}の支払い状況を確認したいです。", "Has my payment for {n} gone through?"),
    "three_way": (
        "{n}の配送状況と支払い状況、注文内容を教えてください。",
        "Where is {n}? Has my payment gone through? Please show the order details.",
    ),
    "faq": ("返品できる期間は何日ですか？", "How long do I have to return an item?"),
    "faq_tracking": (
        "クーポンの使い方がわかりません。あと、注文{n}はいつ届きますか？",
        "How do I use a coupon? And when will {n} arrive?",
    ),
    "refund": (
        "届いた商品（{n}）が壊れていました。返金をお願いします。",
        "The item from {n} arrived broken. Please refund it.",
    ),
    "cancel": ("{n}をキャンセルしたいです。", "Please cancel my order {n}."),
    "human": ("オペレーターと話したいです。", "I'd like to talk to a real person, please."),
}
# One cycle of the mix: mostly look-ups, some multi-specialist, some stopping for a person.
MIX = (
    "tracking", "details", "three_way", "payment", "faq", "refund",
    "tracking", "faq_tracking", "three_way", "cancel", "details", "human",
)  # fmt: skip


def mixed_inquiries(count: int) -> list[Ask]:
    """``count`` inquiries cycling through ``MIX``, spread over the demo customers' own orders
    so that runs do not all queue on the same rows (needs Django set up)."""
    from netshop.models import Order

    by_kind = {
        "tracking": Order.objects.filter(status="shipped"),
        "faq_tracking": Order.objects.filter(status="shipped"),
        "three_way": Order.objects.filter(status__in=["shipped", "delivered"]),
        "refund": Order.objects.filter(status="delivered", payment__captured_amount__gt=0),
        "cancel": Order.objects.filter(status="pending"),
    }
    columns = ("number", "customer__code", "customer__language")
    everything = list(Order.objects.order_by("number").values_list(*columns))
    pools: dict[str, list[tuple[str, str, str]]] = {}
    for kind in TEMPLATES:
        queryset = by_kind.get(kind)
        rows = (
            everything
            if queryset is None
            else list(queryset.order_by("number").values_list(*columns))
        )
        pools[kind] = rows or everything
    asks: list[Ask] = []
    for index in range(count):
        kind = MIX[index % len(MIX)]
        pool = pools[kind]
        number, customer, language = pool[(index // len(MIX)) % len(pool)]
        japanese, english = TEMPLATES[kind]
        text = (japanese if language == "ja" else english).format(n=number)
        asks.append(Ask(customer=customer, text=text, kind=kind))
    return asks


# --- CPU accounting of processes we started (Linux /proc) -----------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def session_cpu_s(session_id: int) -> float:
    """CPU seconds (user + system) of the live processes in session ``session_id``: a process
    we started in its own session and the children it forked (prefork pool)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session_id:  # field 6 (session) after pid and comm
                total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values) - idle) / CLOCK_TICKS, sum(values) / CLOCK_TICKS
