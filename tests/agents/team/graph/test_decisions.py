"""Approvals resume the run and act exactly once; rejections and take-overs close it (SPEC 5)."""

from __future__ import annotations

import json
from collections.abc import Callable

from langchain_core.messages import AIMessage, ToolMessage, messages_from_dict

from agents.models import Inquiry
from agents.team.run_context import run_config
from agents.team.runs.driver import support_graph
from agents.team.runs.outcome import RunOutcome
from netshop.models import Cancellation, GatewayTransaction, Order, Payment, Refund
from netshop.services.refunds import refund_create
from tests.support.scenarios import SupportShop

Ask = Callable[..., RunOutcome]
Decide = Callable[..., RunOutcome]


def refund_request(order: Order) -> str:
    """Hanako asks for her money back on a delivered order that arrived broken."""
    return f"{order.number}の商品が壊れていました。返金してください。"


def test_approving_the_refund_pays_it_once_and_tells_the_customer(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))

    resolved = decide(waiting, "approve")

    assert resolved.status == "resolved"
    refund = Refund.objects.get(payment__order=delivered)
    assert (refund.amount, refund.actor, refund.operation_id) == (
        12800,
        "op1",
        waiting.pending_actions[0]["action_id"],
    )
    assert Payment.objects.get(order=delivered).status == "refunded"
    assert "12,800" in resolved.state["reply"]


def test_resuming_twice_does_not_refund_twice(shop: SupportShop, ask: Ask, decide: Decide) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    decide(waiting, "approve")

    again = decide(waiting, "approve")

    assert again.status == "resolved"
    assert Refund.objects.filter(payment__order=delivered).count() == 1
    assert (
        GatewayTransaction.objects.filter(
            kind="refund", idempotency_key=waiting.pending_actions[0]["action_id"]
        ).count()
        == 1
    )


def test_an_edit_refunds_the_edited_amount(shop: SupportShop, ask: Ask, decide: Decide) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))

    decide(waiting, "edit", params={"amount": 5000, "reason": "partial: one item damaged"})

    refund = Refund.objects.get(payment__order=delivered)
    assert (refund.amount, refund.reason) == (5000, "partial: one item damaged")
    assert Payment.objects.get(order=delivered).status == "partially_refunded"


def test_an_edit_may_rewrite_the_reply_which_is_then_sent_as_written(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    written = "5,000円をご返金しました。残りの商品は無事とのこと、安心いたしました。"

    outcome = decide(waiting, "edit", params={"amount": 5000}, reply=f"  {written}\n")

    assert (outcome.status, outcome.state["reply"]) == ("resolved", written)
    assert Refund.objects.get(payment__order=delivered).amount == 5000


def test_an_edited_reply_is_not_sent_when_the_refund_is_refused_at_execution(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    refund_create(
        order=delivered, amount=12000, reason="refunded by phone", operation_id="x", actor="op2"
    )

    outcome = decide(waiting, "edit", params={"amount": 5000}, reply="¥5,000 refunded.")

    [result] = outcome.state["action_results"]
    assert (result["outcome"], result["code"]) == ("refused", "refund_exceeds_captured")
    assert outcome.state["reply"] != "¥5,000 refunded."
    assert Refund.objects.filter(payment__order=delivered).count() == 1  # the phone refund only


def test_an_edited_reply_is_not_sent_when_the_action_failed(
    shop: SupportShop, ask: Ask, decide: Decide, faults
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]})

    outcome = decide(waiting, "edit", params={"amount": 5000}, reply="Refunded ¥5,000.")

    assert outcome.status == "awaiting_approval"  # the failed refund is back with a person
    assert outcome.state["reply"] != "Refunded ¥5,000."


def test_an_edit_above_the_captured_amount_is_refused_and_nothing_is_paid(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))

    outcome = decide(waiting, "edit", params={"amount": 20000})

    [result] = outcome.state["action_results"]
    assert (result["outcome"], result["code"]) == ("refused", "refund_exceeds_captured")
    assert not Refund.objects.filter(payment__order=delivered).exists()


def test_rejecting_closes_the_tool_call_and_tells_the_customer(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))

    outcome = decide(waiting, "reject", reason="damage caused by the customer")

    assert outcome.status == "resolved"
    assert not Refund.objects.filter(payment__order=delivered).exists()
    assert outcome.state["action_results"][0]["outcome"] == "declined"
    assert_every_tool_call_closed(outcome)


def test_taking_over_ends_the_run_with_the_operators_reply(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))

    outcome = decide(waiting, "take_over", reply="お電話でご説明いたします。")

    assert outcome.status == "handled_by_human"
    assert outcome.state["reply"] == "お電話でご説明いたします。"
    assert not Refund.objects.filter(payment__order=delivered).exists()


def test_approving_a_cancellation_after_the_order_shipped_is_refused(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    pending = shop.hanako.pending
    waiting = ask(f"{pending.number}をキャンセルしてください。")
    Order.objects.filter(pk=pending.pk).update(status="shipped")

    outcome = decide(waiting, "approve")

    [result] = outcome.state["action_results"]
    assert (result["outcome"], result["code"]) == ("refused", "order_not_cancellable")
    assert not Cancellation.objects.filter(order=pending).exists()


def test_approving_a_cancellation_releases_the_authorization(
    shop: SupportShop, ask: Ask, decide: Decide
) -> None:
    emily = shop.emily
    text = f"Please cancel my order {emily.pending.number}, I ordered the wrong color."
    waiting = ask(text, customer=emily.customer)

    outcome = decide(waiting, "approve")

    assert outcome.status == "resolved"
    cancellation = Cancellation.objects.get(order=emily.pending)
    assert (cancellation.order.number, cancellation.authorization_released) == (
        emily.pending.number,
        True,
    )
    assert Order.objects.get(pk=emily.pending.pk).status == "cancelled"


def test_a_gateway_error_on_the_refund_is_not_retried_but_goes_back_to_a_person(
    shop: SupportShop, ask: Ask, decide: Decide, faults
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]})

    outcome = decide(waiting, "edit", params={"amount": 5000})

    [result] = outcome.state["action_results"]
    assert result["outcome"] == "failed"
    assert outcome.status == "awaiting_approval"
    assert outcome.state["escalation"]["reason"] == "action_failed"
    assert outcome.state["reply"]  # the customer is told of the delay
    [retry] = outcome.pending_actions
    assert retry["action_id"] == waiting.pending_actions[0]["action_id"]
    assert retry["params"]["amount"] == 5000  # as approved, not as first recommended
    assert not Refund.objects.filter(payment__order=delivered).exists()


def test_a_person_retries_the_failed_refund_and_it_is_paid_once(
    shop: SupportShop, ask: Ask, decide: Decide, faults
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]})
    failed = decide(waiting, "edit", params={"amount": 5000})
    faults.clear()

    retried = decide(failed, "approve")
    again = decide(failed, "approve")  # a second resume of the same wait changes nothing

    assert (retried.status, again.status) == ("resolved", "resolved")
    [result] = retried.state["action_results"]
    assert (result["outcome"], result["refund_amount"]) == ("executed", 5000)
    assert retried.state["escalation"] is None
    assert Refund.objects.filter(payment__order=delivered).count() == 1
    assert_every_tool_call_closed(retried)


def test_a_person_may_give_a_failed_refund_up(
    shop: SupportShop, ask: Ask, decide: Decide, faults
) -> None:
    delivered = shop.hanako.delivered  # ¥12,800 captured
    waiting = ask(refund_request(delivered))
    faults.set(gateway={"fault_rate": 1, "kinds": ["server_error"], "operations": ["refund"]})
    failed = decide(waiting, "approve")

    given_up = decide(failed, "reject", reason="refunded by bank transfer instead")

    assert given_up.status == "resolved"
    [result] = given_up.state["action_results"]
    assert result["outcome"] == "declined"
    assert not Refund.objects.filter(payment__order=delivered).exists()


def customer_code(outcome: RunOutcome) -> str:
    return Inquiry.objects.select_related("customer").get(pk=outcome.inquiry_id).customer.code


def assert_every_tool_call_closed(outcome: RunOutcome) -> None:
    state = (
        support_graph()
        .get_state(run_config(inquiry_id=outcome.inquiry_id, customer_id=customer_code(outcome)))
        .values
    )
    for transcript in state["transcripts"].values():
        messages = messages_from_dict(transcript)
        called = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
        answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
        assert called == set(answered), json.dumps(transcript, default=str)[:500]
        assert len(answered) == len(set(answered)), "a tool call answered twice"
