"""A customer's data is theirs: no other customer reads or acts on it, by page, socket or agent.

Given the shared shop (``support_shop``: Hanako's orders and Emily's), when one
customer asks for the other's inquiry on the help page or its socket, or asks the agents to
refund, cancel, track or reschedule the other's orders, then they get "not found": no pending
action, no side effect, and none of the other order's facts (products, tracking number,
payment reference, owner) anywhere in the reply, the run's state, the receipts, the hand-off
package or the audit log.

The storefront token is different by design (SPEC 7): it authenticates a shop, which speaks
for all of its customers, so it reads any customer's inquiry that it submitted, and no other
(another storefront's, or one started on the help page, is "not found" like a bad id). A
customer's own session is no API credential at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from agents.models import Inquiry
from agents.team.runs.outcome import RunOutcome
from netshop.models import Coupon, Order, Product
from tests.operators.api_helpers import storefront_key, token_of
from tests.security.conftest import (
    FORBIDDEN_CLOSE,
    Shop,
    run_record,
    side_effects,
    socket_verdict,
)
from tests.support.sockets import socket_headers

Ask = Callable[..., RunOutcome]


# --- The help page and its socket ------------------------------------------------------------


def test_another_customers_inquiry_status_is_not_found(shop: Shop) -> None:
    mine = shop.inquiry("hanako", "{hanako_delivered}の包丁が欠けていました")
    path = f"/help/inquiries/{mine.pk}/status"

    assert shop.client("other_customer").get(path).status_code == 404
    assert shop.client("customer").get(path).json()["id"] == str(mine.pk)


def test_the_help_page_lists_only_the_customers_own_inquiries(shop: Shop) -> None:
    theirs = shop.inquiry("hanako", "{hanako_delivered}の包丁が欠けていました")
    own = shop.inquiry("emily", "Where is {emily_delivered}?")

    page = shop.client("other_customer").get("/help/").content.decode()

    assert str(own.pk) in page
    assert str(theirs.pk) not in page
    assert "包丁" not in page


def test_a_help_form_names_its_customer_by_the_login_only(shop: Shop) -> None:
    client = shop.client("other_customer")
    text, hanako = shop.fill("refund {hanako_delivered}"), shop.customer("hanako").code
    form = {"text": text, "key": "0d6c8a40-4f8e-4b0e-9d5b-6a3f2f1a7c10"}

    client.post("/help/", {**form, "customer": hanako, "customer_id": hanako})

    assert shop.user("other_customer").customer.inquiries.filter(text=text).exists()
    assert not shop.user("customer").customer.inquiries.filter(text=text).exists()


def test_another_customers_inquiry_socket_is_refused(live_shop: Shop) -> None:
    mine = live_shop.inquiry("hanako")
    path = f"/ws/help/{mine.pk}/"

    other = socket_verdict(path, socket_headers(live_shop.user("other_customer")))
    owner = socket_verdict(path, socket_headers(live_shop.user("customer")))

    assert (other, owner) == (f"closed {FORBIDDEN_CLOSE}", "accepted")


def test_a_customer_session_is_no_api_credential_even_for_their_own_inquiry(shop: Shop) -> None:
    own = shop.inquiry("emily", "Where is {emily_delivered}?")

    response = shop.client("other_customer").get(f"/api/v1/inquiries/{own.pk}")

    assert response.status_code == 403


def test_a_storefront_token_reads_every_customers_inquiry_it_submitted_by_design(
    shop: Shop,
) -> None:
    inquiries = [
        shop.inquiry("hanako", submitted=True),
        shop.inquiry("emily", "Where is {emily_delivered}?", submitted=True),
    ]

    answers = [shop.client("token").get(f"/api/v1/inquiries/{i.pk}") for i in inquiries]

    assert [a.json()["customer_id"] for a in answers] == [
        shop.customer("hanako").code,
        shop.customer("emily").code,
    ]


def test_a_storefront_token_finds_no_inquiry_it_did_not_submit(shop: Shop) -> None:
    on_the_help_page = shop.inquiry("hanako")
    another_shops = shop.inquiry("emily", "Where is {emily_delivered}?")
    Inquiry.objects.filter(pk=another_shops.pk).update(
        storefront_token=token_of(storefront_key("another-shop"))
    )

    answers = [
        shop.client("token").get(f"/api/v1/inquiries/{i.pk}")
        for i in (on_the_help_page, another_shops)
    ]

    assert [(a.status_code, a.json()["code"]) for a in answers] == [
        (404, "inquiry_not_found"),
        (404, "inquiry_not_found"),
    ]


# --- Asking the agents about someone else's order --------------------------------------------

FOREIGN_ASKS = [
    ("emily", "Please refund {hanako_delivered}, the knife arrived chipped.", "{hanako_delivered}"),
    ("emily", "Cancel order {hanako_pending} please.", "{hanako_pending}"),
    ("emily", "Where is my order {hanako_in_transit}? Please track it.", "{hanako_in_transit}"),
    ("emily", "Track parcel {hanako_tracking} for me.", "{hanako_in_transit}"),
    (
        "emily",
        "{hanako_absent_returned} never came. Please arrange a redelivery tomorrow morning.",
        "{hanako_absent_returned}",
    ),
    (
        "emily",
        "Please change the delivery date of {hanako_in_transit} to next Friday.",
        "{hanako_in_transit}",
    ),
    ("hanako", "{emily_delivered}の注文内容と配送状況を教えてください。", "{emily_delivered}"),
    ("hanako", "{emily_pending}をキャンセルしてください。", "{emily_pending}"),
]


def private_facts(number: str, *, asker: str, text: str) -> list[str]:
    """What only the order's owner may learn: its products (unless the asker bought them too),
    its tracking number and payment reference, and who the owner is."""
    order = Order.objects.select_related("customer", "payment", "shipment").get(number=number)
    own = Product.objects.filter(orderline__order__customer__code=asker)
    bought = {name for pair in own.values_list("name", "name_en") for name in pair}
    products = order.lines.values_list("product__name", "product__name_en")
    facts = {name for pair in products for name in pair} - bought
    facts |= {order.customer.name, order.customer.email}
    facts.add(order.payment.gateway_reference)
    if hasattr(order, "shipment"):
        facts.add(order.shipment.tracking_number)
    return sorted(fact for fact in facts if fact and fact not in text)


@pytest.mark.parametrize(("asker", "text", "number"), FOREIGN_ASKS)
def test_asking_the_agents_about_another_customers_order_finds_nothing(
    live_shop: Shop, ask: Ask, asker: str, text: str, number: str
) -> None:
    text, number = live_shop.fill(text), live_shop.fill(number)
    owner = Order.objects.get(number=number).customer
    effects, coupons = side_effects(), list(owner.coupons.values_list("pk", flat=True))
    secrets = private_facts(number, asker=live_shop.customer(asker).code, text=text)
    assert len(secrets) >= 3, secrets

    outcome = ask(text, customer=asker)

    record = run_record(outcome)
    assert outcome.pending_actions == []
    assert side_effects() == effects
    assert list(Coupon.objects.filter(customer=owner).values_list("pk", flat=True)) == coupons
    assert re.search(r'"refused": "(order|shipment)_not_found"', record), "the tools refused"
    assert [fact for fact in secrets if fact in record] == []
