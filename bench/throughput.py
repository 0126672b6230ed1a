"""Benchmark 2: throughput and latency end to end in the production shape.

    python -m bench.throughput [--count 1000] [--clients 16] [--layout 2x1|1x2] [--reuse-db]

One daphne process and two Celery worker processes (``--layout 2x1``: two workers started
as ``celery worker --pool=prefork --concurrency=1``; ``1x2``: one worker with concurrency 2)
on the bench PostgreSQL and Redis, offline model. ``--clients`` threads, each with its own
keep-alive ``httpx.Client``, take the mixed inquiries one at a time: POST /api/v1/inquiries
with a storefront token, then GET /api/v1/inquiries/{id} (after 50 ms, then 1.5x longer each
time up to ``--poll`` seconds) until it is resolved, awaiting_approval or escalated. Reports
inquiries per second over the whole timed phase and p50/p95/p99 from submit to that state,
both as the client saw it (poll-granular) and as the server recorded it (the inquiry's
created_at to its updated_at). Target: >= 25/s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx

from bench import harness

TARGET_PER_S = 25.0
SETTLED = {"resolved", "awaiting_approval", "escalated", "handled_by_human", "failed"}
INQUIRY_TIMEOUT_S = 120.0
PHASE_TIMEOUT_S = 20 * 60.0
WARMUP = 12
FIRST_POLL_S = 0.05  # then 1.5x longer each time, up to --poll: polling costs daphne CPU


@dataclass
class Done:
    kind: str
    status: str
    client_s: float
    server_s: float | None
    polls: int


class Storefront:
    """The clients: one keep-alive connection per thread, bounded in time."""

    def __init__(self, base_url: str, key: str, poll_s: float) -> None:
        self.base_url = base_url
        self.headers = {"Authorization": f"Bearer {key}"}
        self.poll_s = poll_s
        self.local = threading.local()
        self.clients: list[httpx.Client] = []
        self.lock = threading.Lock()
        self.deadline = time.monotonic() + PHASE_TIMEOUT_S
        self.serial = itertools.count()

    def client(self) -> httpx.Client:
        client = getattr(self.local, "client", None)
        if client is None:
            client = httpx.Client(base_url=self.base_url, headers=self.headers, timeout=30)
            self.local.client = client
            with self.lock:
                self.clients.append(client)
        return client

    def ask(self, ask: harness.Ask) -> Done:
        client = self.client()
        body = {
            "customer_id": ask.customer,
            "text": ask.text,
            "idempotency_key": f"bench-{time.time_ns()}-{next(self.serial)}",
        }
        started = time.perf_counter()
        accepted = client.post("/api/v1/inquiries", json=body)
        accepted.raise_for_status()
        inquiry_id = accepted.json()["id"]
        polls, wait_s = 0, FIRST_POLL_S
        give_up = min(time.monotonic() + INQUIRY_TIMEOUT_S, self.deadline)
        while time.monotonic() < give_up:
            time.sleep(wait_s)
            wait_s = min(wait_s * 1.5, self.poll_s)
            polls += 1
            current = client.get(f"/api/v1/inquiries/{inquiry_id}").json()
            if current["status"] in SETTLED:
                return Done(
                    ask.kind,
                    current["status"],
                    time.perf_counter() - started,
                    _server_latency(current),
                    polls,
                )
        return Done(ask.kind, "timed_out", time.perf_counter() - started, None, polls)

    def close(self) -> None:
        for client in self.clients:
            client.close()


def _server_latency(inquiry: dict[str, Any]) -> float:
    created = dt.datetime.fromisoformat(inquiry["created_at"])
    updated = dt.datetime.fromisoformat(inquiry["updated_at"])
    return (updated - created).total_seconds()


def run_phase(storefront: Storefront, asks: list[harness.Ask], clients: int) -> list[Done]:
    with ThreadPoolExecutor(max_workers=clients, thread_name_prefix="client") as pool:
        return list(pool.map(storefront.ask, asks))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="inquiries (max 5000)")
    parser.add_argument("--clients", type=int, default=16, help="client threads (max 64)")
    parser.add_argument("--poll", type=float, default=0.25, help="longest wait between polls")
    parser.add_argument("--layout", choices=("2x1", "1x2"), default="2x1")
    parser.add_argument("--reuse-db", action="store_true", help="skip recreating the bench DB")
    args = parser.parse_args(argv)
    count = max(1, min(args.count, 5000))
    clients = max(1, min(args.clients, 64))
    workers, concurrency = (2, 1) if args.layout == "2x1" else (1, 2)

    harness.configure(fresh=not args.reuse_db)
    key = harness.api_token()
    asks = harness.mixed_inquiries(WARMUP + count)
    env = harness.bench_env()
    with (
        harness.celery_workers(workers, concurrency, env) as worker_processes,
        harness.daphne_servers(1, env) as [server],
    ):
        storefront = Storefront(server.url, key, args.poll)
        harness.log(f"warming up with {WARMUP} inquiries")
        run_phase(storefront, asks[:WARMUP], clients)
        sessions = {
            "workers": [p.popen.pid for p in worker_processes],
            "daphne": [server.process.popen.pid],
        }
        cpu_before = _cpu(sessions)
        busy_before = harness.machine_busy()
        harness.log(f"submitting {count} inquiries from {clients} client threads")
        with harness.measured() as took:
            done = run_phase(storefront, asks[WARMUP:], clients)
        cpu_after = _cpu(sessions)
        busy_after = harness.machine_busy()
        storefront.close()
    report(args, done, took, cpu_before, cpu_after, busy_before, busy_after)


def _cpu(sessions: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of the processes of each role (each started in its own session)."""
    return {
        role: sum(harness.session_cpu_s(pid) for pid in pids) for role, pids in sessions.items()
    }


def report(
    args: argparse.Namespace,
    done: list[Done],
    took: harness.Measure,
    cpu_before: dict[str, float],
    cpu_after: dict[str, float],
    busy_before: tuple[float, float],
    busy_after: tuple[float, float],
) -> None:
    count = len(done)
    settled = [d for d in done if d.status in SETTLED - {"failed"}]
    per_s = count / took.wall_s
    client = harness.summary_ms([d.client_s for d in settled])
    server = harness.summary_ms([d.server_s for d in settled if d.server_s is not None])
    harness.print_table(
        f"Throughput: {count} inquiries, {args.clients} clients, workers {args.layout}, "
        f"polls 0.05 s growing to {args.poll:.2f} s",
        [
            (
                "client: submit -> seen settled",
                *(client[k] for k in ("p50_ms", "p95_ms", "p99_ms")),
            ),
            (
                "server: created_at -> updated_at",
                *(server[k] for k in ("p50_ms", "p95_ms", "p99_ms")),
            ),
        ],
        ("latency", "p50 ms", "p95 ms", "p99 ms"),
    )
    met = harness.verdict(per_s, TARGET_PER_S, at_most=False)
    print(f"throughput = {per_s:.1f} inquiries/s over {took.wall_s:.1f} s "
          f"(target >= {TARGET_PER_S:.0f}/s: {met})")  # fmt: skip
    statuses = Counter(d.status for d in done)
    print(f"outcomes: {dict(statuses)}")
    busy = busy_after[0] - busy_before[0]
    elapsed = busy_after[1] - busy_before[1]
    worker_cpu = cpu_after["workers"] - cpu_before["workers"]
    daphne_cpu = cpu_after["daphne"] - cpu_before["daphne"]
    cpu = {
        "workers_cpu_ms_per_inquiry": round(worker_cpu * 1000 / count, 1),
        "daphne_cpu_ms_per_inquiry": round(daphne_cpu * 1000 / count, 1),
        "bench_client_cpu_ms_per_inquiry": round(took.cpu_s * 1000 / count, 1),
        "machine_busy_pct": round(100 * busy / elapsed, 1) if elapsed else None,
        "machine_busy_cpu_ms_per_inquiry": round(busy * 1000 / count, 1),
    }
    print(
        f"CPU per inquiry: workers {cpu['workers_cpu_ms_per_inquiry']} ms, "
        f"daphne {cpu['daphne_cpu_ms_per_inquiry']} ms, "
        f"this client {cpu['bench_client_cpu_ms_per_inquiry']} ms, whole machine "
        f"{cpu['machine_busy_cpu_ms_per_inquiry']} ms ({cpu['machine_busy_pct']}% busy: "
        "includes PostgreSQL, Redis and anything else running)"
    )
    ours_ms = cpu["workers_cpu_ms_per_inquiry"] + cpu["daphne_cpu_ms_per_inquiry"]
    cpus = os.cpu_count() or 1
    ceiling = cpus * 1000 / ours_ms if ours_ms else None
    cpu["ceiling_per_s"] = round(ceiling, 1) if ceiling else None
    workers_only = cpus * 1000 / cpu["workers_cpu_ms_per_inquiry"]
    cpu["workers_only_ceiling_per_s"] = round(workers_only, 1)
    print(
        f"CPU ceiling on {cpus} cores: {cpu['ceiling_per_s']}/s for workers + daphne, "
        f"{cpu['workers_only_ceiling_per_s']}/s for the workers alone (if nothing else ran "
        "and PostgreSQL cost nothing)"
    )
    harness.write_results(
        "throughput",
        {
            "target": {"per_s_at_least": TARGET_PER_S},
            "count": count,
            "clients": args.clients,
            "layout": args.layout,
            "poll_s": args.poll,
            "per_s": round(per_s, 2),
            "verdict": met,
            "wall_s": round(took.wall_s, 2),
            "client_latency": client,
            "server_latency": server,
            "outcomes": dict(statuses),
            "polls_per_inquiry": round(sum(d.polls for d in done) / count, 1),
            "cpu": cpu,
        },
    )


if __name__ == "__main__":
    main()
