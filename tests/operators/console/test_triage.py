"""Triage in the console (issue 26, section 2): sorted, moved on, and told what happened.

Given open escalations, when an operator sorts the queue, decides one and takes over another,
then the queue sorts by amount at risk or deadline, a decision opens the next item of the
queue they viewed (or the queue once none is left, or the same page with the setting off),
a decided item's headline and status line say what was decided, once, and the change list
names only the fields that changed, in words.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from agents.models import Escalation
from agents.support.escalations.claims import escalation_claim
from operators.models import StaffPreference
from tests.operators.api_helpers import (
    escalation_for,
    refund_escalation,
    signed_in,
    staff_key,
)

pytestmark = pytest.mark.django_db


def waiting(amount: int, minutes: int) -> Escalation:
    escalation = refund_escalation(amount)
    escalation.deadline = timezone.now() + timedelta(minutes=minutes)
    escalation.save(update_fields=["deadline"])
    return escalation


def text_of(response: Any) -> str:
    return response.content.decode()


def told(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def detail(escalation: Escalation) -> str:
    return f"/console/escalations/{escalation.pk}/"


def approve(client: Client, escalation: Escalation) -> Any:
    return client.post(f"{detail(escalation)}decide", {"decision": "approve"})


@pytest.fixture
def three() -> list[Escalation]:
    """By deadline: small, large, middle; by amount: large, middle, small."""
    return [waiting(1000, 10), waiting(20000, 20), waiting(5000, 30)]


# --- Sorting --------------------------------------------------------------------------------


def test_the_queue_sorts_by_amount_at_risk_with_its_own_control(
    op1: User, three: list[Escalation]
) -> None:
    small, large, middle = three

    response = signed_in(op1).get("/console/", {"order": "amount"})

    rows = response.context["rows"]
    assert [r.escalation.pk for r in rows] == [large.pk, middle.pk, small.pk]
    assert [r.sort_key for r in rows] == sorted(r.sort_key for r in rows)  # live rows agree
    assert '<option value="amount" selected>amount at risk, largest first</option>' in text_of(
        response
    )


def test_the_queue_sorts_by_deadline_unless_told_otherwise(
    op1: User, three: list[Escalation]
) -> None:
    small, large, middle = three

    response = signed_in(op1).get("/console/")

    assert [r.escalation.pk for r in response.context["rows"]] == [small.pk, large.pk, middle.pk]
    assert '<option value="deadline" selected>deadline, soonest first</option>' in text_of(response)


def test_a_live_row_carries_the_sort_key_of_the_order_in_use(
    op1: User, three: list[Escalation]
) -> None:
    small, large, _ = three
    client = signed_in(op1)

    def key(escalation: Escalation) -> str:
        row = text_of(client.get("/console/rows", {"id": str(escalation.pk), "order": "amount"}))
        found = re.search(r'data-sort-key="([^"]+)"', row)
        assert found is not None
        return found.group(1)

    assert key(large) < key(small)


def test_the_api_lists_by_amount_and_refuses_an_unknown_order(
    op1: User, three: list[Escalation]
) -> None:
    small, large, middle = three
    client = Client(HTTP_AUTHORIZATION=f"Bearer {staff_key(op1)}")

    by_amount = client.get("/api/v1/escalations", {"order": "amount"})
    unknown = client.get("/api/v1/escalations", {"order": "loudest"})

    assert [e["id"] for e in by_amount.json()["items"]] == [
        str(large.pk),
        str(middle.pk),
        str(small.pk),
    ]
    assert unknown.status_code == 422


# --- Moving on ------------------------------------------------------------------------------


def test_a_decision_opens_the_next_item_of_the_queue_as_viewed(
    op1: User, three: list[Escalation]
) -> None:
    _, large, middle = three
    client = signed_in(op1)
    client.get("/console/", {"order": "amount"})

    response = approve(client, large)

    assert response.status_code == 302
    assert response["Location"] == detail(middle)  # by amount, not by deadline (small)
    number = large.actions[0]["params"]["order_number"]
    assert told(response) == [
        f"Refund ¥20,000 on {number} — Decision recorded: approved. The action runs now and "
        "the customer is told the outcome."
    ]


def test_the_next_item_is_none_someone_else_holds(
    op1: User, op2: User, three: list[Escalation]
) -> None:
    small, large, middle = three
    escalation_claim(escalation_id=large.pk, user=op2)
    client = signed_in(op1)
    client.get("/console/")

    response = approve(client, small)

    assert response["Location"] == detail(middle)


def test_the_last_decision_lands_on_the_queue_as_viewed(op1: User) -> None:
    only = waiting(1000, 10)
    client = signed_in(op1)
    client.get("/console/", {"order": "amount", "cursor": ""})

    response = approve(client, only)

    assert response["Location"] == "/console/?order=amount"
    assert told(response)[-1] == "No other escalation waits in this queue."


def test_with_the_setting_off_a_decision_stays_on_its_page(
    op1: User, three: list[Escalation]
) -> None:
    small, _, _ = three
    StaffPreference.objects.create(user=op1, time_zone="Asia/Tokyo", open_next=False)

    response = approve(signed_in(op1), small)

    assert response["Location"] == detail(small)


def test_the_next_item_link_skips_this_one_without_deciding_it(
    op1: User, three: list[Escalation]
) -> None:
    small, large, _ = three
    client = signed_in(op1)

    page = text_of(client.get(detail(small)))
    response = client.get(f"{detail(small)}next")

    assert f'<a href="{detail(small)}next" id="next-item">Next item →</a>' in page
    assert "<dt><kbd>n</kbd></dt>" in page
    assert response["Location"] == detail(large)
    small.refresh_from_db()
    assert small.status == "open"


def test_the_setting_is_on_the_preferences_form_and_kept_by_a_language_post(
    op1: User,
) -> None:
    client = signed_in(op1)
    form = text_of(client.get("/console/"))

    client.post(
        "/console/preferences", {"language": "en", "time_zone": "Asia/Tokyo", "triage": "1"}
    )
    off = StaffPreference.objects.get(user=op1).open_next
    client.post("/console/preferences", {"language": "ja", "time_zone": "Asia/Tokyo"})
    kept = StaffPreference.objects.get(user=op1).open_next
    client.post(
        "/console/preferences",
        {"language": "en", "time_zone": "Asia/Tokyo", "triage": "1", "open_next": "on"},
    )
    on = StaffPreference.objects.get(user=op1).open_next

    assert (
        '<input type="checkbox" name="open_next" id="open-next" checked> '
        "After a decision, open the next item</label>"
    ) in form
    assert (off, kept, on) == (False, False, True)


# --- What a decided item says ---------------------------------------------------------------


def test_a_decided_items_headline_says_what_was_decided(op1: User) -> None:
    escalation = refund_escalation(12800)
    number = escalation.actions[0]["params"]["order_number"]
    client = signed_in(op1)
    before = text_of(client.get(detail(escalation)))

    client.post(f"{detail(escalation)}decide", {"decision": "edit", "amount": "4300"})
    after = text_of(client.get(detail(escalation)))

    assert f'<h1 id="headline">Refund ¥12,800 on {number}</h1>' in before
    assert '<span class="badge risk">at risk ¥12,800</span>' in before
    assert f'<h1 id="headline">Approved with changes by op1: Refund ¥4,300 on {number}</h1>' in (
        after
    )
    assert '<span class="badge ok decided" id="decided-badge">approved with changes</span>' in (
        after
    )
    assert "at risk ¥12,800" not in after
    assert "approval needed" not in after


def test_the_change_list_names_only_what_changed_in_words(op1: User) -> None:
    escalation = refund_escalation(12800)
    client = signed_in(op1)

    client.post(
        f"{detail(escalation)}decide",
        {"decision": "edit", "amount": "4300", "reason": "damaged"},  # the reason as it was
    )
    live = text_of(client.get(f"{detail(escalation)}live"))

    changes = re.search(r'<ul id="decision-changes" class="changes">(.*?)</ul>', live)
    assert changes is not None
    assert changes.group(1) == (
        '<li data-field="amount">Amount: <del>¥12,800</del> → <ins>¥4,300</ins></li>'
    )


def test_a_take_over_says_the_ai_stays_silent_and_the_status_says_it_once(op1: User) -> None:
    escalation = escalation_for(kind="failure", reason="tool_failure")
    client = signed_in(op1)

    response = client.post(
        f"{detail(escalation)}decide",
        {"decision": "take_over", "reply": "I will call you today."},
    )
    main = text_of(client.get(f"{detail(escalation)}main"))

    assert told(response)[0] == (
        "Tool failure — Taken over: your reply goes to the customer and the AI stays silent."
    )
    status = re.search(r'<p class="meta" id="main-status">(.*?)</p>', main)
    assert status is not None
    assert status.group(1).count("taken over by op1") == 1
