"""Benchmark 6: scale-out, two ASGI servers and two workers on one PostgreSQL and Redis.

    python -m bench.scaleout [--count 60] [--reuse-db]

Two daphne processes (A and B) and two Celery worker processes (the production pool: runs on
threads).
Console A (the manager) is connected to server A's /ws/console/, console B (the operator) to
server B's. ``--count`` mixed inquiries are submitted over the API, alternately to A and B;
the workers run them. When all are settled, every console event the runs recorded (the
``ConsoleEvent`` rows, each published to the staff group after commit) must have reached
BOTH consoles, whichever worker ran the inquiry and whichever server took the request. Each
worker's task count shows that both did work. Live-update latency: the event row's
``created_at`` (inside the worker's transaction) to its arrival on the socket.
Target: no event missing on either console.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import httpx

from bench import harness
from bench.console_client import ConsoleSocket, console_socket

SETTLED = ("resolved", "awaiting_approval", "escalated", "handled_by_human", "failed")
WAIT_TIMEOUT_S = 180.0
GRACE_S = 2.0  # for the last events to cross the channel layer after the last commit


def submit(urls: list[str], key: str, asks: list[harness.Ask]) -> list[str]:
    headers = {"Authorization": f"Bearer {key}"}
    clients = [httpx.Client(base_url=u, headers=headers, timeout=30, trust_env=False) for u in urls]
    ids = []
    try:
        for index, ask in enumerate(asks):
            body = {"customer_id": ask.customer, "text": ask.text,
                    "idempotency_key": f"scaleout-{time.time_ns()}-{index}"}  # fmt: skip
            response = clients[index % len(clients)].post("/api/v1/inquiries", json=body)
            response.raise_for_status()
            ids.append(response.json()["id"])
    finally:
        for client in clients:
            client.close()
    return ids


def wait_settled(ids: list[str]) -> dict[str, int]:
    from collections import Counter

    from agents.models import Inquiry

    deadline = time.monotonic() + WAIT_TIMEOUT_S
    while True:
        statuses = list(Inquiry.objects.filter(pk__in=ids).values_list("status", flat=True))
        if all(s in SETTLED for s in statuses) or time.monotonic() > deadline:
            return dict(Counter(statuses))
        time.sleep(0.2)


def tasks_per_worker() -> dict[str, int]:
    from netshop.celery import app

    stats = app.control.inspect(timeout=2).stats() or {}
    return {name.split("@")[0]: sum(info.get("total", {}).values()) for name, info in stats.items()}


def delivery(socket: ConsoleSocket, expected: dict[int, float]) -> dict[str, Any]:
    arrived = {
        item.message["seq"]: item.at
        for item in list(socket.received)
        if item.message.get("seq") is not None
    }
    missing = sorted(set(expected) - set(arrived))
    latencies = [arrived[seq] - created for seq, created in expected.items() if seq in arrived]
    return {
        "expected": len(expected),
        "received": len(set(expected) & set(arrived)),
        "missing": missing[:20],
        "missing_count": len(missing),
        "latency": harness.summary_ms(latencies),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60, help="inquiries (max 500)")
    parser.add_argument("--reuse-db", action="store_true", help="skip recreating the bench DB")
    args = parser.parse_args(argv)

    harness.configure(fresh=not args.reuse_db)
    from agents.models import ConsoleEvent

    key = harness.api_token()
    asks = harness.mixed_inquiries(max(2, min(args.count, 500)))
    env = harness.bench_env()
    with (
        harness.celery_workers(2, env=env),
        harness.daphne_servers(2, env) as [server_a, server_b],
        console_socket(server_a.url, "manager") as console_a,
        console_socket(server_b.url, "operator") as console_b,
    ):
        before = ConsoleEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
        harness.log(f"submitting {len(asks)} inquiries alternately to servers A and B")
        with harness.measured() as took:
            ids = submit([server_a.url, server_b.url], key, asks)
            outcomes = wait_settled(ids)
        time.sleep(GRACE_S)
        workers = tasks_per_worker()
        expected = dict(ConsoleEvent.objects.filter(id__gt=before).values_list("id", "created_at"))
        created = {seq: at.timestamp() for seq, at in expected.items()}
        results = {"A": delivery(console_a, created), "B": delivery(console_b, created)}
    report(len(ids), outcomes, workers, results, took.wall_s)


def report(
    count: int,
    outcomes: dict[str, int],
    workers: dict[str, int],
    results: dict[str, dict[str, Any]],
    wall_s: float,
) -> None:
    rows = [
        (
            f"console {name} (server {name})",
            *(r[column] for column in ("expected", "received", "missing_count")),
            *(r["latency"].get(pct) for pct in ("p50_ms", "p95_ms")),
        )
        for name, r in results.items()
    ]
    harness.print_table(
        f"Scale-out: {count} inquiries over 2 servers and 2 workers ({wall_s:.1f} s)",
        rows,
        ("socket", "events expected", "received", "missing", "live p50 ms", "live p95 ms"),
    )
    both_worked = len(workers) == 2 and all(n > 0 for n in workers.values())
    nothing_missing = all(r["missing_count"] == 0 for r in results.values())
    met = "met" if both_worked and nothing_missing else "MISSED"
    print(f"tasks per worker: {workers}; outcomes: {outcomes}")
    print(f"every event on both consoles, runs on both workers: {met}")
    harness.write_results(
        "scaleout",
        {
            "target": {"missing_events": 0},
            "inquiries": count,
            "verdict": met,
            "outcomes": outcomes,
            "tasks_per_worker": workers,
            "consoles": results,
        },
    )


if __name__ == "__main__":
    main()
