"""Apology coupons end to end on a shop of two customers, with the offline model (issue 10).

Given Hanako and Emily (``support_shop``), when they ask for an apology coupon, then a coupon
is issued only for trouble the shop's records show (Hanako's donabe went back to the depot),
at most the
per-customer limit however often they ask, never as a reissue of an expired one; the reply
tells the customer why not in their language, and the code reaches only that reply: not the
staff's live events, not the event history, not the logs.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from agents.models import ConsoleEvent, Escalation, Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.support.events.names import STAFF_GROUP, inquiry_group
from agents.support.events.transport import channel_events
from agents.team.runs.driver import inquiry_run
from agents.team.runs.outcome import RunOutcome
from netshop.models import Coupon, Customer
from netshop.roles import Role
from tests.operators.api_helpers import staff_user
from tests.support.channel_layers import heard, listener
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]

ASK_JA = "{absent_returned}が届きませんでした。お詫びのクーポンをください。"
ASK_EN = "I want an apology coupon please."

NO_CAUSE_EN = "We could not find anything like that on your orders"
LIMIT_JA = "すでにその枚数をお送りしているため、今回はクーポンを発行いたしかねます。"
EXPIRED_EN = "coupons that have expired cannot be reissued"


def coupons_of(customer: Customer) -> list[Coupon]:
    return list(Coupon.objects.filter(customer=customer, inquiry_ref__isnull=False))


def test_trouble_on_record_earns_one_coupon_and_its_code_is_in_the_reply(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(ASK_JA.format(**shop.hanako.numbers()))

    [coupon] = coupons_of(shop.hanako.customer)
    assert outcome.status == "resolved"
    assert (coupon.value, coupon.inquiry_ref) == (1000, outcome.inquiry_id)
    assert f"クーポンコード: {coupon.code}" in outcome.state["reply"]
    assert Inquiry.objects.get(pk=outcome.inquiry_id).reply == outcome.state["reply"]


def test_asking_again_and_again_yields_one_coupon_and_says_why_not(
    shop: SupportShop, ask: Ask
) -> None:
    outcomes = [ask(ASK_JA.format(**shop.hanako.numbers())) for _ in range(5)]

    [coupon] = coupons_of(shop.hanako.customer)
    assert coupon.inquiry_ref == outcomes[0].inquiry_id
    for later in outcomes[1:]:
        assert later.status == "resolved"
        assert later.state["envelopes"]["payment"]["data"]["apply_coupon"]["refused"] == (
            "coupon_limit_reached"
        )
        assert LIMIT_JA in later.state["reply"]
        assert "SORRY-" not in later.state["reply"]


def test_no_trouble_on_record_no_coupon_whatever_the_customer_says(
    shop: SupportShop, ask: Ask
) -> None:
    outcome = ask(ASK_EN, customer=shop.emily.customer)  # delivered on time, or pending

    assert coupons_of(shop.emily.customer) == []
    assert outcome.state["envelopes"]["payment"]["data"]["apply_coupon"]["refused"] == (
        "coupon_no_cause"
    )
    assert NO_CAUSE_EN in outcome.state["reply"]
    for internal in ("coupon_no_cause", "records", "delivery_late", "absent_returned"):
        assert internal not in outcome.state["reply"]


def test_an_expired_coupon_is_not_reissued(shop: SupportShop, ask: Ask) -> None:
    customer = shop.emily.customer
    issued = timezone.now() - dt.timedelta(days=100)
    Coupon.objects.create(
        code="SORRY-EXPIRED01",
        customer=customer,
        value=500,
        operation_id="test-expired",
        expires_at=issued + dt.timedelta(days=90),
        created_at=issued,
    )

    outcome = ask("My coupon expired, please reissue it.", customer=shop.emily.customer)

    assert coupons_of(shop.emily.customer) == []
    assert outcome.state["envelopes"]["payment"]["data"]["apply_coupon"]["refused"] == (
        "coupon_expired_not_reissued"
    )
    assert EXPIRED_EN in outcome.state["reply"]


# --- The code is the customer's alone -------------------------------------------------------


def events_heard(channel: str) -> list[dict[str, Any]]:
    return [event for message in heard(channel) for event in channel_events(message)]


def test_the_code_reaches_the_customer_only(
    shop: SupportShop, redis_channel_layer: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    inquiry = inquiry_create(
        customer=shop.hanako.customer, text=ASK_JA.format(**shop.hanako.numbers()), start=False
    )
    staff, customer = listener(STAFF_GROUP), listener(inquiry_group(inquiry.pk))

    outcome = inquiry_run(inquiry=inquiry)

    [coupon] = coupons_of(shop.hanako.customer)
    assert coupon.code in outcome.state["reply"]
    heard_by_staff, heard_by_customer = events_heard(staff), events_heard(customer)
    final = [m for m in heard_by_customer if m["payload"].get("status") == "resolved"]
    assert [m["payload"]["reply"] for m in final] == [outcome.state["reply"]]
    staff_replies = [m["payload"]["reply"] for m in heard_by_staff if "reply" in m["payload"]]
    assert outcome.state["reply"].replace(coupon.code, "SORRY-••••") in staff_replies
    assert coupon.code not in json.dumps(heard_by_staff, ensure_ascii=False)
    history = list(ConsoleEvent.objects.values_list("payload", flat=True))
    assert coupon.code not in json.dumps(history, ensure_ascii=False)
    assert coupon.code not in caplog.text


def test_the_console_withholds_the_code_of_an_earlier_reply(
    shop: SupportShop, ask: Ask, client: Client
) -> None:
    first = ask(ASK_JA.format(**shop.hanako.numbers()))
    [coupon] = coupons_of(shop.hanako.customer)
    later = ask(
        f"届いた商品（{shop.hanako.delivered.number}）が壊れていました。返金をお願いします。"
    )
    escalation = Escalation.objects.get(inquiry_id=later.inquiry_id)
    client.force_login(staff_user("op1", Role.OPERATOR))

    page = client.get(f"/console/escalations/{escalation.pk}/").content.decode()

    assert coupon.code in first.state["reply"]
    assert 'id="earlier-inquiries"' in page
    assert "SORRY-••••" in page
    assert coupon.code not in page
