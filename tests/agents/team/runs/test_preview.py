"""The reply a decision sends, previewed before it is sent (issue 12, item 4).

Over real PostgreSQL with the offline model: a real run waits on a real escalation, the
preview is read from its checkpoint, the decision goes through the service, and a worker's
``inquiry_advance`` resumes the run. What the customer finally gets is compared with what
the operator was shown, character for character.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation, EscalationStatus, Inquiry, MessageAuthor
from agents.support.conversations.intake import inquiry_create
from agents.support.escalations.services import escalation_decide
from agents.team.runs.driver import inquiry_advance
from agents.team.runs.preview import decision_reply_preview
from netshop.errors import DomainError
from netshop.models import Order, Refund
from netshop.roles import Role, role_assign
from netshop.services.refunds import refund_create
from tests.support.scenarios import Shopper, SupportShop, support_shop

pytestmark = pytest.mark.django_db(transaction=True)

REFUND_DELIVERED = "届いた商品（{delivered}）が壊れていました。返金をお願いします。"
CANCEL_PENDING = "{pending}をキャンセルしてください。"
ENGLISH_REASON = "Please send us a photo of the damaged item first."


@pytest.fixture(autouse=True)
def shop(settings: object) -> SupportShop:
    settings.NETSHOP_RETRY_BACKOFF_S = 0  # type: ignore[attr-defined]
    return support_shop()


@pytest.fixture
def op1() -> User:
    user = User.objects.create_user("op1", password="x")
    role_assign(user=user, role=Role.OPERATOR)
    return user


def waiting_on(text: str, shopper: Shopper) -> Escalation:
    """A real run of ``text`` (filled with the shopper's order numbers), taken as far as it
    goes: it waits on the escalation returned."""
    inquiry = inquiry_create(
        customer=shopper.customer, text=text.format(**shopper.numbers()), start=False
    )
    inquiry_advance(inquiry_id=str(inquiry.pk))
    return Escalation.objects.select_related("inquiry__customer").get(
        inquiry=inquiry, status=EscalationStatus.OPEN
    )


def decided_and_resumed(escalation: Escalation, user: User, **decision: object) -> Inquiry:
    escalation_decide(escalation_id=escalation.pk, user=user, **decision)  # type: ignore[arg-type]
    inquiry_advance(inquiry_id=str(escalation.inquiry_id))  # what the worker given it does
    return Inquiry.objects.get(pk=escalation.inquiry_id)


def last_ai_message(inquiry: Inquiry) -> str:
    return inquiry.messages.filter(author_kind=MessageAuthor.AI).latest("created_at").text


def test_an_approval_sends_exactly_the_previewed_reply(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)

    shown = decision_reply_preview(escalation=escalation, decision="approve", operator="op1")
    inquiry = decided_and_resumed(escalation, op1, decision="approve", preview=shown.text)

    assert (shown.exact, shown.language_mismatch) == (True, False)
    assert (
        f"ご注文 {shop.hanako.delivered.number}について、12,800円の返金手続きが完了いたしました。"
        in shown.text
    )
    assert inquiry.status == "resolved"
    assert inquiry.reply == shown.text
    assert last_ai_message(inquiry) == shown.text


def test_the_preview_runs_nothing_and_writes_nothing(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    before = Inquiry.objects.get(pk=escalation.inquiry_id)

    decision_reply_preview(escalation=escalation, decision="approve", operator="op1")

    after = Inquiry.objects.get(pk=escalation.inquiry_id)
    assert not Refund.objects.filter(payment__order__number=shop.hanako.delivered.number).exists()
    assert (after.status, after.reply, after.messages.count()) == (
        before.status,
        before.reply,
        before.messages.count(),
    )
    assert Escalation.objects.get(pk=escalation.pk).status == EscalationStatus.OPEN


def test_an_edited_amount_is_previewed_and_sent_as_shown(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    edit = {"decision": "edit", "params": {"amount": 5000}}

    shown = decision_reply_preview(escalation=escalation, operator="op1", **edit)  # type: ignore[arg-type]
    inquiry = decided_and_resumed(escalation, op1, preview=shown.text, **edit)

    assert (
        f"ご注文 {shop.hanako.delivered.number}について、5,000円の返金手続きが完了いたしました。"
        in shown.text
    )
    assert inquiry.reply == shown.text
    assert Refund.objects.get(payment__order__number=shop.hanako.delivered.number).amount == 5000


def test_an_edited_reply_is_the_preview(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    written = f"ご注文 {shop.hanako.delivered.number}の返金5,000円を承りました。"

    shown = decision_reply_preview(
        escalation=escalation, decision="edit", params={"amount": 5000}, reply=written
    )
    inquiry = decided_and_resumed(
        escalation, op1, decision="edit", params={"amount": 5000}, reply=written, preview=written
    )

    assert (shown.text, inquiry.reply) == (written, written)


def test_a_cancellation_is_previewed_as_sent(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(CANCEL_PENDING, shop.hanako)

    shown = decision_reply_preview(escalation=escalation, decision="approve")
    inquiry = decided_and_resumed(escalation, op1, decision="approve", preview=shown.text)

    assert f"ご注文 {shop.hanako.pending.number}のキャンセルが完了いたしました。" in shown.text
    assert inquiry.reply == shown.text


def test_an_english_reason_to_a_japanese_customer_is_flagged(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)

    shown = decision_reply_preview(escalation=escalation, decision="reject", reason=ENGLISH_REASON)

    assert shown.as_dict() | {"text": ""} == {
        "text": "",
        "exact": True,
        "customer_language": "ja",
        "text_language": "en",
        "language_mismatch": True,
    }
    assert (
        f"ご注文 {shop.hanako.delivered.number}の返金はお受けすることができませんでした。"
        f"理由: 「{ENGLISH_REASON}」" in (shown.text)
    )


def test_an_unconfirmed_english_reason_to_a_japanese_customer_is_refused(
    shop: SupportShop, op1: User
) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)

    with pytest.raises(DomainError) as refused:
        escalation_decide(
            escalation_id=escalation.pk, user=op1, decision="reject", reason=ENGLISH_REASON
        )

    assert (refused.value.code, refused.value.status) == ("reason_language_unconfirmed", 422)
    assert refused.value.message == (
        "The text is in English but the customer writes Japanese: "
        "confirm it is to be sent as written, or write it again."
    )
    unchanged = Escalation.objects.get(pk=escalation.pk)
    assert (unchanged.status, unchanged.decision) == (EscalationStatus.OPEN, None)


def test_a_confirmed_english_reason_reaches_the_customer_with_the_order(
    shop: SupportShop, op1: User
) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    shown = decision_reply_preview(escalation=escalation, decision="reject", reason=ENGLISH_REASON)

    inquiry = decided_and_resumed(
        escalation,
        op1,
        decision="reject",
        reason=ENGLISH_REASON,
        confirm_language=True,
        preview=shown.text,
    )

    assert inquiry.reply == shown.text
    assert ENGLISH_REASON in inquiry.reply
    assert shop.hanako.delivered.number in inquiry.reply
    assert not Refund.objects.filter(payment__order__number=shop.hanako.delivered.number).exists()


def test_a_japanese_reason_needs_no_confirmation(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    reason = "破損箇所のお写真をお送りください"

    inquiry = decided_and_resumed(escalation, op1, decision="reject", reason=reason)

    assert f"理由: 「{reason}」" in inquiry.reply


def test_a_decision_on_a_text_the_operator_was_not_shown_is_refused(
    shop: SupportShop, op1: User
) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    shown = decision_reply_preview(escalation=escalation, decision="approve")

    with pytest.raises(DomainError) as refused:
        escalation_decide(
            escalation_id=escalation.pk,
            user=op1,
            decision="edit",
            params={"amount": 5000},
            preview=shown.text,  # the approval's text, not the edit's
        )

    assert refused.value.code == "preview_outdated"
    assert Escalation.objects.get(pk=escalation.pk).status == EscalationStatus.OPEN


def test_a_refusal_at_execution_is_never_sent_as_the_previewed_success(
    shop: SupportShop, op1: User
) -> None:
    escalation = waiting_on(REFUND_DELIVERED, shop.hanako)
    shown = decision_reply_preview(escalation=escalation, decision="approve")
    order = Order.objects.get(number=shop.hanako.delivered.number)
    refund_create(order=order, amount=12000, reason="by phone", operation_id="x", actor="op2")

    inquiry = decided_and_resumed(escalation, op1, decision="approve", preview=shown.text)

    assert inquiry.reply != shown.text
    assert "返金手続きが完了いたしました" not in inquiry.reply
    assert Refund.objects.filter(payment__order=order).count() == 1  # the phone refund only


def test_a_retry_of_a_failed_refund_sends_its_previewed_reply(
    shop: SupportShop, op1: User, faults
) -> None:
    approval = waiting_on(REFUND_DELIVERED, shop.hanako)
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]})
    decided_and_resumed(approval, op1, decision="approve")
    faults.clear()
    retry = Escalation.objects.select_related("inquiry__customer").get(
        inquiry_id=approval.inquiry_id, reason="action_failed"
    )

    shown = decision_reply_preview(escalation=retry, decision="approve")
    inquiry = decided_and_resumed(retry, op1, decision="approve", preview=shown.text)

    assert "12,800円の返金手続きが完了いたしました" in shown.text
    assert (inquiry.status, inquiry.reply) == ("resolved", shown.text)
    assert Refund.objects.filter(payment__order__number=shop.hanako.delivered.number).count() == 1


def test_an_english_customer_is_previewed_in_english(shop: SupportShop, op1: User) -> None:
    escalation = waiting_on("Please refund {delivered}, it arrived broken.", shop.emily)

    shown = decision_reply_preview(escalation=escalation, decision="reject", reason="返品期限切れ")
    inquiry = decided_and_resumed(
        escalation, op1, decision="reject", reason="返品期限切れ", confirm_language=True
    )

    assert (shown.language.customer, shown.language.text) == ("en", "ja")
    assert f"the refund for order {shop.emily.delivered.number}" in shown.text
    assert inquiry.reply == shown.text


def test_the_domain_reaches_this_writer_through_its_port() -> None:
    # agents.apps names it by path, so a process that previews nothing never loads the graph.
    from agents.support.escalations.reply_previews import reply_previewer

    assert reply_previewer() is decision_reply_preview
