"""Open escalations for the demo: real inquiries, run through the graph, that wait for a person.

A fresh console should look like the README's screenshots: a queue with one escalation of each
kind. Each inquiry is written by a demo customer and run in this process with the configured
model (offline unless an API key is set), so the hand-off package, the plan and the audit
trail are what a live run leaves. The ones the graph cannot produce on demand take the path the
product takes: a run that crashed (``inquiry_record_crash``) and a lead's flag on an answered
conversation (``conversation_flag``).

Each inquiry carries a fixed idempotency key: a second seeding finds it and runs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from agents.models import Inquiry, InquiryStatus
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.review_flags import conversation_flag
from agents.team.runs.driver import inquiry_run
from agents.team.runs.recording import inquiry_record_crash
from netshop.errors import ExternalServiceError
from netshop.models import Customer

KEY_PREFIX = "demo-open:"
DEMO_CHANNEL = "demo"
DEMO_LEAD = "manager"  # the demo login that flags a conversation (netshop.demo.DEMO_STAFF)


@dataclass(frozen=True)
class DemoInquiry:
    """One demo inquiry and how it comes to wait: ``run`` (the graph decides), ``crash``
    (the run fails before it answers) or ``flag`` (answered, then flagged by a lead)."""

    key: str
    customer: str
    text: str
    how: str = "run"
    flag_reason: str = ""


DEMO_INQUIRIES: tuple[DemoInquiry, ...] = (
    # approvals: a five-figure refund, a cancellation, a four-figure refund (in English)
    DemoInquiry(
        "refund-ord-1003", "C0001", "ORD-1003の包丁が欠けて届きました。全額返金してください。"
    ),
    DemoInquiry("cancel-ord-1001", "C0001", "ORD-1001の注文をキャンセルしてください。"),
    DemoInquiry(
        "refund-ord-2001",
        "C0002",
        "ORD-2001: I was charged twice for the towels. Please refund the extra ¥8,600.",
    ),
    # follow-up: the customer's claim contradicts the carrier's records
    DemoInquiry(
        "not-arrived-ord-2001", "C0002", "ORD-2001 never arrived, but tracking says delivered."
    ),
    # customer request: a person, please
    DemoInquiry("person-c0002", "C0002", "I would like to talk to a person, please."),
    # failure: the run could not finish (the model service did not answer)
    DemoInquiry(
        "failed-c0001", "C0001", "ORD-1002の配達日を12月10日に変更できますか？", how="crash"
    ),
    # review: an AI-answered conversation a lead wants looked at
    DemoInquiry(
        "review-c0002",
        "C0002",
        "What is your return policy?",
        how="flag",
        flag_reason="Check that the return window quoted is the current one.",
    ),
)


def demo_escalations_open() -> dict[str, int]:
    """Create the demo inquiries that do not exist yet; counts of ``created`` and ``existing``."""
    counts = {"created": 0, "existing": 0}
    for demo in DEMO_INQUIRIES:
        if Inquiry.objects.filter(idempotency_key=KEY_PREFIX + demo.key).exists():
            counts["existing"] += 1
            continue
        _open(demo)
        counts["created"] += 1
    return counts


def _open(demo: DemoInquiry) -> None:
    inquiry = inquiry_create(
        customer=Customer.objects.get(code=demo.customer),
        text=demo.text,
        channel=DEMO_CHANNEL,
        idempotency_key=KEY_PREFIX + demo.key,
        start=False,
    )
    if demo.how == "crash":
        inquiry_record_crash(
            inquiry=inquiry, exc=ExternalServiceError("model", "timeout", "no answer in time")
        )
        return
    inquiry_run(inquiry=inquiry)
    if demo.how == "flag":
        inquiry.refresh_from_db()
        if inquiry.status == InquiryStatus.RESOLVED:
            lead = User.objects.get(username=DEMO_LEAD)
            conversation_flag(inquiry_id=inquiry.pk, user=lead, reason=demo.flag_reason)
