"""Ten messages fired at one conversation at once, with real workers: nothing lost, nothing
answered twice (issue 12, item 7).

Given a conversation the AI answered and two worker processes, when ten customer messages
arrive concurrently, then all ten are stored, every one is taken by exactly one run, and each
run stores exactly one reply: several quick messages are answered together by one reply.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from agents.models import Inquiry, Message
from agents.support.conversations.intake import inquiry_create
from agents.support.conversations.selectors import waits_for_ai
from agents.support.conversations.services import customer_message_post
from tests.support.scenarios import SupportShop
from tests.support.workers import running_workers, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MESSAGES = 10


def settled(inquiry: Inquiry) -> bool:
    row = Inquiry.objects.get(pk=inquiry.pk)
    return row.status == "resolved" and not waits_for_ai(inquiry_id=inquiry.pk)


def test_ten_concurrent_messages_are_each_stored_and_answered_once(shop: SupportShop) -> None:
    customer, in_transit = shop.hanako.customer, shop.hanako.in_transit.number
    with running_workers(2):
        inquiry = inquiry_create(customer=customer, text=f"{in_transit}はいつ届きますか？")
        wait_until(lambda: settled(inquiry), timeout=60)
        barrier = threading.Barrier(MESSAGES)
        errors: list[Exception] = []

        def write(n: int) -> None:
            barrier.wait()
            try:
                customer_message_post(
                    customer=customer,
                    inquiry_id=inquiry.pk,
                    text=f"{in_transit}の配送状況をもう一度教えてください（{n}回目）",
                    idempotency_key=f"burst-{n}",
                )
            except Exception as exc:  # collected and asserted below
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=write, args=(n,)) for n in range(MESSAGES)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wait_until(lambda: settled(inquiry), timeout=90)

    assert errors == []
    burst = Message.objects.filter(inquiry=inquiry, idempotency_key__startswith="burst-")
    assert burst.count() == MESSAGES
    assert all(m.turn is not None and m.turn >= 2 for m in burst)
    replies = Counter(
        Message.objects.filter(inquiry=inquiry, author_kind="ai").values_list("turn", flat=True)
    )
    taken = {m.turn or 0 for m in burst} | {1}
    assert set(replies) == taken  # every turn that took messages answered them
    assert all(count == 1 for count in replies.values())  # and answered them once
    assert Inquiry.objects.get(pk=inquiry.pk).turns == max(taken)
