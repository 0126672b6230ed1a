"""Intake under concurrency, against the real server and real PostgreSQL.

Given one customer, when a storefront submits 50 inquiries to the running server (daphne) while
workers issue 50 apology coupons for the same customer, eight at a time, then every submission
is answered 202 with JSON and stored exactly once, every coupon is issued or refused by a
shop rule (never by a database error), and the audit chain stays whole.

The issue this guards against: the coupon's customer lock and the intake's audit lock were
taken in opposite orders, and PostgreSQL's deadlock detector killed one side (5 of 30 lost).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from django.db import connection

from agents.models import Inquiry
from netshop.audit import audit_verify
from netshop.errors import DomainError
from netshop.models import Coupon, Customer
from netshop.services.coupons import coupon_issue
from tests.factories import CustomerFactory
from tests.operators.api_helpers import bearer, storefront_key
from tests.support.servers import LiveServer, running_server

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]

INTAKES = 50  # and as many coupons
AT_A_TIME = 8


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(tmp_path / "daphne.log") as live:
        yield live


def test_concurrent_intakes_and_coupons_for_one_customer_lose_nothing(
    server: LiveServer,
) -> None:
    customer = CustomerFactory.create(code="C0500")
    headers = bearer(storefront_key())

    def submit(i: int) -> tuple[int, str, str]:
        body = {"customer_id": "C0500", "text": f"荷物が届きません {i}", "idempotency_key": f"k{i}"}
        response = httpx.post(
            f"{server.url}/api/v1/inquiries", json=body, headers=headers, timeout=60
        )
        kind = response.headers.get("content-type", "").split(";")[0]
        return response.status_code, kind, response.text

    def issue(i: int) -> Coupon | DomainError:
        try:
            return coupon_issue(
                customer=Customer.objects.get(pk=customer.pk),
                value=500,
                inquiry_ref=f"inquiry-{i}",
                operation_id=f"coupon-{i}",
                actor="agent:payment",
            )
        except DomainError as refused:  # a shop rule may say no; a database error may not
            return refused
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=AT_A_TIME) as pool:
        # Interleaved, so intakes and coupons for the customer are in flight together.
        jobs = [(pool.submit(submit, i), pool.submit(issue, i)) for i in range(INTAKES)]
        answers = [intake.result() for intake, _ in jobs]
        coupons = [coupon.result() for _, coupon in jobs]

    assert [(status, kind) for status, kind, _ in answers] == [(202, "application/json")] * INTAKES
    stored = Inquiry.objects.filter(customer=customer)
    assert sorted(str(pk) for pk in stored.values_list("pk", flat=True)) == sorted(
        json.loads(body)["id"] for _, _, body in answers
    )
    assert sorted(str(key) for key in stored.values_list("idempotency_key", flat=True)) == sorted(
        f"k{i}" for i in range(INTAKES)
    )
    made = [c for c in coupons if isinstance(c, Coupon)]
    assert Coupon.objects.filter(customer=customer).count() == len(made)
    assert all(isinstance(c, Coupon | DomainError) for c in coupons)
    report = audit_verify()
    # each intake: inquiry.received and its opening message.posted
    assert (report.ok, report.entries) == (True, 2 * INTAKES + len(made))


def test_the_real_server_answers_refusals_as_json(server: LiveServer) -> None:
    CustomerFactory.create(code="C0501")
    headers = bearer(storefront_key())
    url = f"{server.url}/api/v1/inquiries"
    big = json.dumps({"customer_id": "C0501", "text": "x" * 3_000_000})

    answers = {
        "unknown path": httpx.get(f"{server.url}/api/v1/nope", headers=headers),
        "wrong method": httpx.get(url, headers=headers),
        "3 MB body": httpx.post(
            url, content=big, headers={**headers, "Content-Type": "application/json"}, timeout=60
        ),
        "not JSON": httpx.post(url, data={"customer_id": "C0501", "text": "hi"}, headers=headers),
    }

    assert {name: (a.status_code, a.json()["code"]) for name, a in answers.items()} == {
        "unknown path": (404, "not_found"),
        "wrong method": (405, "method_not_allowed"),
        "3 MB body": (413, "payload_too_large"),
        "not JSON": (415, "unsupported_media_type"),
    }
    assert Inquiry.objects.count() == 0
