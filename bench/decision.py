"""Benchmark 4: decision latency, from an approve request to the event on a second console.

    python -m bench.decision [--count 30] [--reuse-db]

Production shape (one daphne, two Celery worker processes in the production pool, runs on
threads), offline model. ``--count`` refund inquiries on distinct delivered orders run until they
wait for approval. Then, one at a time, console A (the operator, over HTTP with session and CSRF)
approves: POST /api/v1/escalations/{id}/decide; the clock stops when console B (the manager,
a second WebSocket on /ws/console/) receives ``inquiry.updated`` with status ``resolved`` for
that inquiry, which the worker publishes after the refund is executed and the reply stored
(after commit). Afterwards each order must have exactly one refund. Target: p95 <= 150 ms.
Refunds at or above the policy's four-eyes amount need a manager's second approval and are left out.
"""

from __future__ import annotations

import argparse
import re
import time
import uuid
from collections import Counter
from typing import Any

from bench import harness
from bench.console_client import console_socket, inquiry_settled, staff_http

TARGET_P95_MS = 150.0
WAIT_TIMEOUT_S = 120.0


def refund_asks(count: int) -> list[harness.Ask]:
    """Refund requests on ``count`` distinct orders that still have money to refund, under
    the four-eyes amount: one operator's approval carries them out (a larger one waits for a
    manager's second approval, a second person's time this benchmark does not measure)."""
    from netshop.models import Order
    from netshop.policy import policy_in_force

    orders = (
        Order.objects.filter(
            status="delivered",
            payment__captured_amount__gt=0,
            payment__captured_amount__lt=policy_in_force().four_eyes_yen,
            payment__refunds=None,
        )
        .order_by("number")
        .values_list("number", "customer__code", "customer__language")[:count]
    )
    japanese, english = harness.TEMPLATES["refund"]
    return [
        harness.Ask(customer, (japanese if lang == "ja" else english).format(n=number), "refund")
        for number, customer, lang in orders
    ]


def waiting_escalations(asks: list[harness.Ask]) -> list[tuple[str, str]]:
    """Submit the refund inquiries to the workers; (escalation id, inquiry id) once all wait."""
    from agents.models import Escalation, Inquiry
    from agents.support.conversations.intake import inquiry_create
    from netshop.models import Customer

    inquiries = [
        inquiry_create(customer=Customer.objects.get(code=a.customer), text=a.text) for a in asks
    ]
    ids = [i.pk for i in inquiries]
    deadline = time.monotonic() + WAIT_TIMEOUT_S
    while time.monotonic() < deadline:
        statuses = list(Inquiry.objects.filter(pk__in=ids).values_list("status", flat=True))
        if all(s in ("awaiting_approval", "resolved", "escalated", "failed") for s in statuses):
            break
        time.sleep(0.2)
    rows = Escalation.objects.filter(
        inquiry_id__in=ids, kind="approval", status="open", inquiry__status="awaiting_approval"
    ).values_list("pk", "inquiry_id")
    return [(str(e), str(i)) for e, i in rows]


def decide_all(base_url: str, waiting: list[tuple[str, str]]) -> list[dict[str, Any]]:
    samples = []
    with (
        staff_http(base_url, "operator") as console_a,
        console_socket(base_url, "manager") as console_b,
    ):
        for escalation_id, inquiry_id in waiting:
            wall = time.time()
            started = time.perf_counter()
            response = console_a.post(
                f"/api/v1/escalations/{escalation_id}/decide", json={"decision": "approve"}
            )
            answered = time.perf_counter()
            if response.status_code != 200:
                samples.append({"inquiry_id": inquiry_id, "error": response.status_code})
                continue
            event = console_b.wait_for(inquiry_settled(inquiry_id, "resolved"), WAIT_TIMEOUT_S)
            samples.append(
                {
                    "inquiry_id": inquiry_id,
                    "escalation_id": escalation_id,
                    "sent_at": wall,
                    "http_s": answered - started,
                    "event_s": event.perf - started,
                    "event_at": event.at,
                }
            )
    return samples


def server_breakdown(samples: list[dict[str, Any]]) -> dict[str, list[float]]:
    """From the database's own timestamps: decided -> run finished -> event on the socket."""
    from agents.models import Escalation, Inquiry

    ok = [s for s in samples if "error" not in s]
    decided = dict(
        Escalation.objects.filter(pk__in=[s["escalation_id"] for s in ok]).values_list(
            "pk", "decided_at"
        )
    )
    finished = dict(
        Inquiry.objects.filter(pk__in=[s["inquiry_id"] for s in ok]).values_list("pk", "updated_at")
    )
    parts: dict[str, list[float]] = {"request -> decided": [], "decided -> run finished": [],
                                     "run finished -> event received": []}  # fmt: skip
    for s in ok:
        decided_at = decided[uuid.UUID(s["escalation_id"])].timestamp()
        finished_at = finished[uuid.UUID(s["inquiry_id"])].timestamp()
        parts["request -> decided"].append(decided_at - s["sent_at"])
        parts["decided -> run finished"].append(finished_at - decided_at)
        parts["run finished -> event received"].append(s["event_at"] - finished_at)
    return parts


def refunds_per_order(inquiry_ids: list[str]) -> dict[int, int]:
    """How many approved orders got 0, 1, 2 ... refunds: each must have exactly one."""
    from agents.models import Inquiry
    from netshop.models import Order

    texts = Inquiry.objects.filter(pk__in=inquiry_ids).values_list("text", flat=True)
    orders = Order.objects.filter(number__in=[_order_number(text) for text in texts])
    return dict(Counter(order.payment.refunds.count() for order in orders))


def _order_number(text: str) -> str:
    match = re.search(r"ORD-\d+", text)
    return match.group(0) if match else ""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30, help="decisions (max 100)")
    parser.add_argument("--reuse-db", action="store_true", help="skip recreating the bench DB")
    args = parser.parse_args(argv)

    harness.configure(fresh=not args.reuse_db)
    asks = refund_asks(max(1, min(args.count, 100)) + 1)
    if len(asks) <= args.count:
        harness.log(f"the demo shop has {len(asks)} refundable orders: {len(asks) - 1} timed")
    env = harness.bench_env()
    with (
        harness.celery_workers(2, env=env),
        harness.daphne_servers(1, env) as [server],
    ):
        harness.log(f"running {len(asks)} refund inquiries to the approval point")
        waiting = waiting_escalations(asks)
        harness.log(f"approving {len(waiting)} escalations one at a time (first one warms up)")
        decided = decide_all(server.url, waiting)
    samples = decided[1:]
    approved = [s["inquiry_id"] for s in decided if "error" not in s]
    report(samples, server_breakdown(samples), refunds_per_order(approved))


def report(
    samples: list[dict[str, Any]], parts: dict[str, list[float]], refunds: dict[int, int]
) -> None:
    ok = [s for s in samples if "error" not in s]
    event = harness.summary_ms([s["event_s"] for s in ok])
    http = harness.summary_ms([s["http_s"] for s in ok])
    spans = {"approve -> event on console B": event, "approve -> HTTP 200 on console A": http}
    rows = [(label, v["p50_ms"], v["p95_ms"], v["p99_ms"]) for label, v in spans.items()]
    for label, values in parts.items():
        part = harness.summary_ms(values)
        rows.append((f"  {label}", part["p50_ms"], part["p95_ms"], part["p99_ms"]))
    harness.print_table(
        f"Decision latency over {len(ok)} approvals (offline model, 2 workers)",
        rows,
        ("span", "p50 ms", "p95 ms", "p99 ms"),
    )
    met = harness.verdict(event["p95_ms"], TARGET_P95_MS, at_most=True)
    errors = [s for s in samples if "error" in s]
    print(f"p95 approve -> event = {event['p95_ms']} ms (target <= {TARGET_P95_MS:.0f}: {met})")
    print(f"approved orders by refunds they got (refunds: orders): {refunds}; "
          f"failed decisions: {len(errors)}")  # fmt: skip
    harness.write_results(
        "decision",
        {
            "target": {"p95_ms_at_most": TARGET_P95_MS},
            "approvals": len(ok),
            "verdict": met,
            "approve_to_event": event,
            "approve_to_http": http,
            "breakdown": {label: harness.summary_ms(v) for label, v in parts.items()},
            "refunds_per_order": refunds,
            "failed_decisions": len(errors),
        },
    )


if __name__ == "__main__":
    main()
