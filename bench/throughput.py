"""Benchmark 2: throughput and latency end to end in the production shape.

    python -m bench.throughput [--count 1000] [--clients N] [--workers 2] [--concurrency C]
                               [--model-latency S [--jitter S]] [--reuse-db]

One daphne process and ``--workers`` Celery worker processes in the production pool (runs on
threads, ``--concurrency`` in flight each; default ``NETSHOP_WORKER_CONCURRENCY``) on the bench
PostgreSQL and Redis. Without ``--model-latency`` the offline model answers; with it the real
``ChatOpenAI`` path calls the local OpenAI-compatible server (``bench.fake_model``, its own
process) answering each call after S seconds (plus up to ``--jitter``).

``--clients`` threads, each with its own keep-alive ``httpx.Client``, take the mixed inquiries
one at a time: POST /api/v1/inquiries with a storefront token whose conversations are pushed to
a webhook receiver in this process (each push's signature checked), then wait for the push that
says it is resolved, awaiting approval or with a person. ``--poll S`` polls instead, as before
webhooks (GET /api/v1/inquiries/{id} after 50 ms, then 1.5x longer each time up to S).

Reports inquiries per second over the whole timed phase, runs in flight (mean and peak, from the
clients' submit and settle times), p50/p95/p99 from submit to that state, both as the client
saw it and as the server recorded it (created_at to updated_at),
and with a model latency, each inquiry's latency against the critical path of its model calls
(the longest chain of calls that wait for one another, times the latency). CPU per inquiry by
process says what limits it.

Targets (issue 14): offline >= 15/s with the machine's CPU per inquiry <= 150 ms; at 1.0 s model
latency >= 10/s with p95 <= 2x the critical path.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import hashlib
import hmac
import itertools
import json
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from bench import harness

TARGET_PER_S = 15.0
TARGET_PER_S_AT_MODEL_LATENCY = 10.0
TARGET_MACHINE_CPU_MS = 150.0
TARGET_P95_OVER_CRITICAL = 2.0
SETTLED = {"resolved", "awaiting_approval", "escalated", "handled_by_human", "failed"}
INQUIRY_TIMEOUT_S = 120.0
PHASE_TIMEOUT_S = 20 * 60.0
WARMUP = 12
FIRST_POLL_S = 0.05  # then 1.5x longer each time, up to --poll: polling costs daphne CPU


class Pushes:
    """The storefront's webhook receiver: checks each push's signature and wakes the client
    waiting for that conversation once a push says it settled."""

    def __init__(self) -> None:
        self.secret = ""
        self.lock = threading.Lock()
        self.settled: dict[str, tuple[str, float]] = {}  # inquiry id -> (status, when)
        self.waiting: dict[str, threading.Event] = {}
        self.bad_signatures = 0
        self.received = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/netshop-webhooks"

    def wait(self, inquiry_id: str, timeout: float) -> tuple[str, float] | None:
        with self.lock:
            event = self.waiting.setdefault(inquiry_id, threading.Event())
        event.wait(timeout)
        with self.lock:
            self.waiting.pop(inquiry_id, None)
            return self.settled.pop(inquiry_id, None)

    def close(self) -> None:
        self.server.shutdown()

    def _push(self, headers: Any, body: bytes) -> None:
        at = time.perf_counter()
        timestamp = headers.get("NetShop-Webhook-Timestamp", "")
        signed = f"{timestamp}.".encode() + body
        expected = "v1=" + hmac.new(self.secret.encode(), signed, hashlib.sha256).hexdigest()
        with self.lock:
            self.received += 1
            if not hmac.compare_digest(expected, headers.get("NetShop-Webhook-Signature", "")):
                self.bad_signatures += 1
                return
        data = json.loads(body)["data"]
        if data.get("status") not in SETTLED:
            return
        inquiry_id = str(data["inquiry_id"])
        with self.lock:
            self.settled.setdefault(inquiry_id, (data["status"], at))
            event = self.waiting.setdefault(inquiry_id, threading.Event())
        event.set()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        pushes = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                pushes._push(self.headers, body)
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@dataclass
class Done:
    inquiry_id: str
    kind: str
    status: str
    started: float  # perf_counter at submit
    client_s: float
    server_s: float | None
    polls: int
    critical_calls: int | None = None


class Storefront:
    """The clients: one keep-alive connection per thread, bounded in time."""

    def __init__(self, base_url: str, key: str, poll_s: float, pushes: Pushes | None) -> None:
        self.base_url = base_url
        self.headers = {"Authorization": f"Bearer {key}"}
        self.poll_s = poll_s
        self.pushes = pushes
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
        if self.pushes is not None:
            return self._pushed(ask, inquiry_id, started)
        polls, wait_s = 0, FIRST_POLL_S
        give_up = min(time.monotonic() + INQUIRY_TIMEOUT_S, self.deadline)
        while time.monotonic() < give_up:
            time.sleep(wait_s)
            wait_s = min(wait_s * 1.5, self.poll_s)
            polls += 1
            current = client.get(f"/api/v1/inquiries/{inquiry_id}").json()
            if current["status"] in SETTLED:
                took = time.perf_counter() - started
                server_s = _server_latency(current)
                return Done(inquiry_id, ask.kind, current["status"], started, took, server_s, polls)
        took = time.perf_counter() - started
        return Done(inquiry_id, ask.kind, "timed_out", started, took, None, polls)

    def _pushed(self, ask: harness.Ask, inquiry_id: str, started: float) -> Done:
        assert self.pushes is not None
        timeout = max(0.0, min(INQUIRY_TIMEOUT_S, self.deadline - time.monotonic()))
        settled = self.pushes.wait(inquiry_id, timeout)
        if settled is None:
            took = time.perf_counter() - started
            return Done(inquiry_id, ask.kind, "timed_out", started, took, None, 0)
        status, at = settled
        return Done(inquiry_id, ask.kind, status, started, at - started, None, 0)

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


def in_flight(done: list[Done], wall_s: float) -> tuple[float, int]:
    """(mean, peak) inquiries between submit and settled over the phase."""
    edges = sorted(
        [(d.started, 1) for d in done] + [(d.started + d.client_s, -1) for d in done],
        key=lambda edge: (edge[0], edge[1]),
    )
    current = peak = 0
    for _, step in edges:
        current += step
        peak = max(peak, current)
    mean = sum(d.client_s for d in done) / wall_s if wall_s else 0.0
    return mean, peak


def _server_latencies(done: list[Done]) -> None:
    """Each inquiry's created_at to updated_at, read from the database (no poll brought it)."""
    from agents.models import Inquiry

    rows = Inquiry.objects.filter(pk__in=[d.inquiry_id for d in done])
    times = {str(pk): (updated - created).total_seconds() for pk, created, updated in
             rows.values_list("pk", "created_at", "updated_at")}  # fmt: skip
    for d in done:
        d.server_s = times.get(d.inquiry_id)


def count_critical_calls(done: list[Done]) -> None:
    """Each settled run's critical path of model calls, from its checkpointed state."""
    from agents.models import Inquiry
    from agents.team.run_context import run_config
    from agents.team.runs.support_graph import support_graph

    rows = Inquiry.objects.filter(pk__in=[d.inquiry_id for d in done])
    customers = {str(pk): code for pk, code in rows.values_list("pk", "customer__code")}
    graph = support_graph()
    for d in done:
        customer = customers.get(d.inquiry_id)
        if customer is None or d.status not in SETTLED:
            continue
        state = graph.get_state(run_config(inquiry_id=d.inquiry_id, customer_id=customer)).values
        if state.get("plan") is not None:
            d.critical_calls = harness.model_calls(state)[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="inquiries (max 5000)")
    parser.add_argument(
        "--clients", type=int, help="client threads (max 256; default 16, 96 with a latency)"
    )
    parser.add_argument("--poll", type=float, help="poll, waiting at most S between polls")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--concurrency", type=int, help="runs in flight per worker")
    parser.add_argument("--model-latency", type=float, default=0.0, help="seconds per model call")
    parser.add_argument("--jitter", type=float, default=0.0, help="up to this much more, s")
    parser.add_argument("--reuse-db", action="store_true", help="skip recreating the bench DB")
    args = parser.parse_args(argv)
    count = max(1, min(args.count, 5000))
    default_clients = 96 if args.model_latency > 0 else 16
    args.clients = max(1, min(args.clients or default_clients, 256))

    with _model(args.model_latency, args.jitter) as model_env:
        harness.configure(fresh=not args.reuse_db, **model_env)
        pushes = None if args.poll else Pushes()
        if pushes is None:
            key = harness.api_token()
        else:
            key, pushes.secret = harness.api_token_with_webhooks(pushes.url)
        asks = harness.mixed_inquiries(WARMUP + count)
        env = harness.bench_env(**model_env)
        with (
            harness.celery_workers(args.workers, args.concurrency, env) as worker_processes,
            harness.daphne_servers(1, env) as [server],
        ):
            storefront = Storefront(server.url, key, args.poll or 0.0, pushes)
            harness.log(f"warming up with {WARMUP} inquiries")
            run_phase(storefront, asks[:WARMUP], args.clients)
            sessions = {
                "workers": [p.popen.pid for p in worker_processes],
                "daphne": [server.process.popen.pid],
            }
            cpu_before = _cpu(sessions)
            busy_before = harness.machine_busy()
            harness.log(f"submitting {count} inquiries from {args.clients} client threads")
            with harness.measured() as took:
                done = run_phase(storefront, asks[WARMUP:], args.clients)
            cpu_after = _cpu(sessions)
            busy_after = harness.machine_busy()
            storefront.close()
        if pushes is not None:
            pushes.close()
            _server_latencies(done)
        if args.model_latency > 0:
            count_critical_calls(done)
    report(args, done, took, cpu_before, cpu_after, busy_before, busy_after)


@contextlib.contextmanager
def _model(latency_s: float, jitter_s: float) -> Iterator[dict[str, str]]:
    """The environment of the model the runs call: the offline one, or the fake server."""
    if latency_s <= 0:
        yield {}
        return
    with harness.fake_model(latency_s, jitter_s) as model_env:
        yield model_env


def _cpu(sessions: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of the processes of each role (each started in its own session)."""
    return {
        role: sum(harness.session_cpu_s(pid) for pid in pids) for role, pids in sessions.items()
    }


def _critical(args: argparse.Namespace, settled: list[Done]) -> dict[str, Any] | None:
    """Latency against each run's critical path of model calls (with a model latency)."""
    timed = [d for d in settled if d.critical_calls]
    if args.model_latency <= 0 or not timed:
        return None
    mean_latency = args.model_latency + args.jitter / 2
    ratios = [d.client_s / (d.critical_calls * mean_latency) for d in timed]  # type: ignore[operator]
    calls = Counter(d.critical_calls for d in timed)
    p95_ratio = harness.percentile(ratios, 95)
    return {
        "critical_path_calls": dict(sorted(calls.items())),
        "mean_model_latency_s": mean_latency,
        "p50_latency_over_critical": round(harness.percentile(ratios, 50), 2),
        "p95_latency_over_critical": round(p95_ratio, 2),
        "verdict": harness.verdict(p95_ratio, TARGET_P95_OVER_CRITICAL, at_most=True),
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
    model = f"model {args.model_latency:.2f} s" if args.model_latency > 0 else "offline model"
    told = f"polls 0.05 s growing to {args.poll:.2f} s" if args.poll else "webhooks"
    if args.jitter:
        model += f" + up to {args.jitter:.2f} s"
    harness.print_table(
        f"Throughput: {count} inquiries, {args.clients} clients, {args.workers} workers "
        f"x {args.concurrency or 'default'} in flight, {model}, {told}",
        [
            (
                "client: submit -> told settled",
                *(client[k] for k in ("p50_ms", "p95_ms", "p99_ms")),
            ),
            (
                "server: created_at -> updated_at",
                *(server[k] for k in ("p50_ms", "p95_ms", "p99_ms")),
            ),
        ],
        ("latency", "p50 ms", "p95 ms", "p99 ms"),
    )
    target = TARGET_PER_S_AT_MODEL_LATENCY if args.model_latency > 0 else TARGET_PER_S
    met = harness.verdict(per_s, target, at_most=False)
    print(f"throughput = {per_s:.1f} inquiries/s over {took.wall_s:.1f} s "
          f"(target >= {target:.0f}/s: {met})")  # fmt: skip
    mean_in_flight, peak_in_flight = in_flight(done, took.wall_s)
    print(f"runs in flight: mean {mean_in_flight:.1f}, peak {peak_in_flight}")
    critical = _critical(args, settled)
    if critical:
        print(
            f"latency / critical path of model calls ({critical['critical_path_calls']} calls"
            f" x {critical['mean_model_latency_s']:.2f} s): p50 "
            f"{critical['p50_latency_over_critical']}, p95 {critical['p95_latency_over_critical']}"
            f" (target <= {TARGET_P95_OVER_CRITICAL:.0f}: {critical['verdict']})"
        )
    statuses = Counter(d.status for d in done)
    print(f"outcomes: {dict(statuses)}")
    cpu = _cpu_report(cpu_before, cpu_after, busy_before, busy_after, took, count)
    harness.write_results(
        "throughput" if args.model_latency <= 0 else "throughput_model_latency",
        {
            "target": {
                "per_s_at_least": target,
                "machine_cpu_ms_per_inquiry_at_most": TARGET_MACHINE_CPU_MS,
                "p95_over_critical_path_at_most": TARGET_P95_OVER_CRITICAL,
            },
            "count": count,
            "clients": args.clients,
            "workers": args.workers,
            "concurrency": args.concurrency,
            "model_latency_s": args.model_latency,
            "jitter_s": args.jitter,
            "poll_s": args.poll,
            "per_s": round(per_s, 2),
            "verdict": met,
            "wall_s": round(took.wall_s, 2),
            "in_flight": {"mean": round(mean_in_flight, 1), "peak": peak_in_flight},
            "critical_path": critical,
            "client_latency": client,
            "server_latency": server,
            "outcomes": dict(statuses),
            "polls_per_inquiry": round(sum(d.polls for d in done) / count, 1),
            "cpu": cpu,
        },
    )


def _cpu_report(
    cpu_before: dict[str, float],
    cpu_after: dict[str, float],
    busy_before: tuple[float, float],
    busy_after: tuple[float, float],
    took: harness.Measure,
    count: int,
) -> dict[str, Any]:
    busy = busy_after[0] - busy_before[0]
    elapsed = busy_after[1] - busy_before[1]
    worker_cpu = cpu_after["workers"] - cpu_before["workers"]
    daphne_cpu = cpu_after["daphne"] - cpu_before["daphne"]
    cpu: dict[str, Any] = {
        "workers_cpu_ms_per_inquiry": round(worker_cpu * 1000 / count, 1),
        "daphne_cpu_ms_per_inquiry": round(daphne_cpu * 1000 / count, 1),
        "bench_client_cpu_ms_per_inquiry": round(took.cpu_s * 1000 / count, 1),
        "machine_busy_pct": round(100 * busy / elapsed, 1) if elapsed else None,
        "machine_busy_cpu_ms_per_inquiry": round(busy * 1000 / count, 1),
    }
    others = busy - worker_cpu - daphne_cpu - took.cpu_s
    cpu["others_cpu_ms_per_inquiry"] = round(max(others, 0.0) * 1000 / count, 1)
    machine_met = harness.verdict(
        cpu["machine_busy_cpu_ms_per_inquiry"], TARGET_MACHINE_CPU_MS, at_most=True
    )
    cpu["machine_verdict"] = machine_met
    print(
        f"CPU per inquiry: workers {cpu['workers_cpu_ms_per_inquiry']} ms, "
        f"daphne {cpu['daphne_cpu_ms_per_inquiry']} ms, "
        f"this client {cpu['bench_client_cpu_ms_per_inquiry']} ms, the rest "
        f"{cpu['others_cpu_ms_per_inquiry']} ms (PostgreSQL, Redis, the model server, anything "
        f"else); whole machine {cpu['machine_busy_cpu_ms_per_inquiry']} ms "
        f"({cpu['machine_busy_pct']}% busy; target <= {TARGET_MACHINE_CPU_MS:.0f} ms: "
        f"{machine_met})"
    )
    cpus = os.cpu_count() or 1
    ours_ms = cpu["workers_cpu_ms_per_inquiry"] + cpu["daphne_cpu_ms_per_inquiry"]
    cpu["ceiling_per_s"] = round(cpus * 1000 / ours_ms, 1) if ours_ms else None
    print(f"CPU ceiling on {cpus} cores: {cpu['ceiling_per_s']}/s for workers + daphne alone")
    return cpu


if __name__ == "__main__":
    main()
