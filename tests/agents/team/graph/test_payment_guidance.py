"""A declined card and a receipt for a company, through the whole graph with the offline model.

Given Hanako (Japanese) and Emily (English) of ``support_shop``, when a card payment of theirs
failed and they ask what to do, then the reply says what the shop's help says they can do
(card details, 3-D Secure, the card issuer, another method); when they ask for a receipt made
out to a company, then the receipt is issued to that company, not to their own name.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.models import InquiryStatus
from agents.team.runs.outcome import RunOutcome
from netshop.models import Order, PaymentStatus, ReceiptIssue
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]

GUIDANCE = {
    "ja": ("カード会社", "有効期限", "セキュリティコード", "3Dセキュア", "別のお支払い方法"),
    "en": ("card issuer", "expiry date", "security code", "3-D Secure", "another payment method"),
}


def declined(order: Order) -> None:
    """The card was refused at checkout: nothing authorized, nothing captured."""
    order.payment.status = PaymentStatus.FAILED
    order.payment.authorized_amount = 0
    order.payment.save(update_fields=["status", "authorized_amount"])


@pytest.mark.parametrize(
    ("customer", "text"),
    [
        ("hanako", "{pending}のカード決済がエラーで通りませんでした。どうしたらいいでしょうか"),
        ("hanako", "{pending}の支払いでカードが使えないと表示されました"),
        ("hanako", "注文{pending}、クレジットカードの決済に失敗したみたいです"),
        ("emily", "The card payment for {pending} was declined. What can I do?"),
        ("emily", "checkout error when paying for {pending}, payment failed"),
        ("emily", "Why did my payment for order {pending} fail?"),
    ],
)
def test_a_declined_card_is_answered_with_what_the_customer_can_do(
    shop: SupportShop, ask: Ask, customer: str, text: str
) -> None:
    shopper = shop.shopper(customer)
    declined(shopper.pending)
    lang = shopper.customer.language

    outcome = ask(text.format(**shopper.numbers()), customer=shopper.customer)

    reply = outcome.state["reply"]
    assert outcome.status == InquiryStatus.RESOLVED
    assert shopper.pending.number in reply
    assert [words for words in GUIDANCE[lang] if words in reply] == list(GUIDANCE[lang])
    assert outcome.pending_actions == []


def test_a_payment_that_went_through_gets_no_card_advice(shop: SupportShop, ask: Ask) -> None:
    outcome = ask(
        f"Did the payment for {shop.emily.delivered.number} go through?",
        customer=shop.emily.customer,
    )

    assert not any(words in outcome.state["reply"] for words in GUIDANCE["en"])


@pytest.mark.parametrize(
    ("customer", "text", "addressee"),
    [
        (
            "hanako",
            "{bank_transfer}の領収書をお願いします。宛名は東雲精機株式会社様で",
            "東雲精機株式会社",
        ),
        (
            "hanako",
            "{bank_transfer}の領収書を有限会社かもめ宛てで発行してください",
            "有限会社かもめ",
        ),
        (
            "hanako",
            "領収書（宛名 合同会社ほたる）を{bank_transfer}の分でください",
            "合同会社ほたる",
        ),
        (
            "emily",
            "Could I have a receipt for {bank_transfer}? Addressed to Quillon Labs LLC, please.",
            "Quillon Labs LLC",
        ),
        (
            "emily",
            "Please make the receipt for {bank_transfer} out to Westbrook Partners.",
            "Westbrook Partners",
        ),
        (
            "emily",
            "Receipt for {bank_transfer} please, company name: Fennel & Vine Co., Ltd.",
            "Fennel & Vine Co., Ltd.",
        ),
    ],
)
def test_a_receipt_for_a_company_is_made_out_to_the_company(
    shop: SupportShop, ask: Ask, customer: str, text: str, addressee: str
) -> None:
    shopper = shop.shopper(customer)

    outcome = ask(text.format(**shopper.numbers()), customer=shopper.customer)

    issued = ReceiptIssue.objects.get()
    assert outcome.status == InquiryStatus.RESOLVED
    assert issued.addressee == addressee
    assert addressee in outcome.state["reply"]
    assert shopper.customer.name not in outcome.state["reply"]
