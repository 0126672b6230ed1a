"""Each customer message starts the next run on the conversation's thread.

Given a conversation the AI answered, when the customer writes again, then the next turn runs
on the same LangGraph thread with the earlier turns as memory, takes the new message exactly
once and stores exactly one reply for it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from agents.models import Inquiry, Message
from agents.support.conversations.services import customer_message_post
from agents.team.run_context import run_config
from agents.team.runs.driver import inquiry_advance, support_graph
from netshop.audit.models import AuditEntry
from netshop.models import Customer
from tests.agents.support.conversations.conftest import fresh, thread
from tests.support.scenarios import SupportShop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def payment(shop: SupportShop) -> str:
    """Hanako asks how her parcel in transit was paid."""
    return f"{shop.hanako.in_transit.number}の支払い状況を教えてください。"


def test_the_first_turn_takes_the_message_and_stores_one_reply(
    where_is_it: str,
    conversation: Callable[[str], Inquiry],
) -> None:
    inquiry = conversation(where_is_it)

    assert (inquiry.status, inquiry.turns) == ("resolved", 1)
    assert thread(inquiry) == [("customer", 1), ("ai", 1)]
    reply = inquiry.messages.get(author_kind="ai")
    assert reply.text == inquiry.reply
    assert "配送中" in reply.text
    assert (reply.language, reply.thread_id) == ("ja", f"{inquiry.pk}:1:reply")


def test_a_second_message_runs_the_next_turn_on_the_same_thread(
    payment: str, where_is_it: str, conversation: Callable[[str], Inquiry], customer: Customer
) -> None:
    inquiry = conversation(where_is_it)

    customer_message_post(customer=customer, inquiry_id=inquiry.pk, text=payment)
    assert fresh(inquiry).status == "queued"  # the closed conversation reopened
    inquiry_advance(inquiry_id=str(inquiry.pk))

    inquiry = fresh(inquiry)
    assert (inquiry.status, inquiry.turns) == ("resolved", 2)
    assert thread(inquiry) == [("customer", 1), ("ai", 1), ("customer", 2), ("ai", 2)]
    second = inquiry.messages.get(author_kind="ai", turn=2)
    assert second.text == inquiry.reply != inquiry.messages.get(author_kind="ai", turn=1).text
    state = support_graph().get_state(
        run_config(inquiry_id=str(inquiry.pk), customer_id=customer.code)
    )
    # The thread holds both turns; the second turn's findings replaced the first's.
    assert [m.type for m in state.values["messages"]] == ["human", "ai", "human", "ai"]
    agents = state.values["classification"]["agents"]
    assert "shipping" not in agents
    assert sorted(state.values["envelopes"]) == sorted(agents)


def test_running_a_turn_again_neither_retakes_nor_re_answers(
    payment: str, where_is_it: str, conversation: Callable[[str], Inquiry], customer: Customer
) -> None:
    inquiry = conversation(where_is_it)
    customer_message_post(customer=customer, inquiry_id=inquiry.pk, text=payment)

    for _ in range(3):
        inquiry_advance(inquiry_id=str(inquiry.pk))

    assert thread(fresh(inquiry)) == [("customer", 1), ("ai", 1), ("customer", 2), ("ai", 2)]


def test_messages_are_audited_content_free(
    where_is_it: str,
    conversation: Callable[[str], Inquiry],
) -> None:
    inquiry = conversation(where_is_it)

    entries = AuditEntry.objects.filter(action="message.posted", inquiry_id=str(inquiry.pk))
    data = [entry.data for entry in entries.order_by("seq")]
    assert [(d["author_kind"], d["language"], d["turn"]) for d in data] == [
        ("customer", "ja", None),
        ("ai", "ja", 1),
    ]
    customer_message = Message.objects.get(inquiry=inquiry, author_kind="customer")
    assert data[0]["length"] == len(where_is_it)
    assert data[0]["message_id"] == str(customer_message.pk)
    assert len(data[0]["digest"]) == 64
    assert all(where_is_it not in str(entry.data) for entry in entries)


def test_a_finished_run_a_dead_worker_never_recorded_is_recorded_on_the_next_advance(
    where_is_it: str,
    conversation: Callable[[str], Inquiry],
) -> None:
    """The worker died after the last checkpoint, before the row and the reply were stored."""
    inquiry = conversation(where_is_it)
    Inquiry.objects.filter(pk=inquiry.pk).update(status="running", reply="")
    Message.objects.filter(inquiry=inquiry, author_kind="ai").delete()

    inquiry_advance(inquiry_id=str(inquiry.pk))

    recorded = fresh(inquiry)
    assert (recorded.status, recorded.turns) == ("resolved", 1)
    assert thread(recorded) == [("customer", 1), ("ai", 1)]
    assert recorded.reply == recorded.messages.get(author_kind="ai").text
