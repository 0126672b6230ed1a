"""The decision form's preview in the console, and the staff API's: the exact reply shown
before sending, the language warning, and a decision that sends what was shown."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from agents.models import Escalation, EscalationStatus, Inquiry
from agents.support.conversations.intake import inquiry_create
from agents.team.runs.driver import inquiry_advance
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, signed_in, staff_user
from tests.support.scenarios import SupportShop, support_shop

pytestmark = pytest.mark.django_db(transaction=True)

ENGLISH_REASON = "Please send us a photo of the damaged item first."


@pytest.fixture
def shop() -> SupportShop:
    return support_shop()


@pytest.fixture
def waiting(shop: SupportShop) -> Escalation:
    """A real run, waiting for approval of the refund of Hanako's delivered order."""
    text = f"届いた商品（{shop.hanako.delivered.number}）が壊れていました。返金をお願いします。"
    inquiry = inquiry_create(customer=shop.hanako.customer, text=text, start=False)
    inquiry_advance(inquiry_id=str(inquiry.pk))
    return Escalation.objects.get(inquiry=inquiry)


@pytest.fixture
def op1() -> User:
    return staff_user("op1", Role.OPERATOR)


def preview(client: Client, escalation: Escalation, **form: Any) -> Any:
    return client.post(f"/console/escalations/{escalation.pk}/preview", form)


def api(client: Client, escalation: Escalation, action: str, **body: Any) -> Any:
    url = f"/api/v1/escalations/{escalation.pk}/{action}"
    return client.post(url, json.dumps(body), content_type="application/json")


def test_the_console_previews_a_rejection_with_the_language_warning(
    op1: User, waiting: Escalation
) -> None:
    response = preview(signed_in(op1), waiting, decision="reject", reason=ENGLISH_REASON)

    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in body if k != "text"} == {
        "ok": True,
        "exact": True,
        "customer_language": "ja",
        "text_language": "en",
        "language_mismatch": True,
        "warning": "This text is in English, but the customer writes Japanese. Confirm to send "
        "it as written, or write it again.",
    }
    assert f"理由: 「{ENGLISH_REASON}」" in body["text"]
    assert Escalation.objects.get(pk=waiting.pk).status == EscalationStatus.OPEN


def test_the_console_sends_the_reply_it_previewed(op1: User, waiting: Escalation) -> None:
    client = signed_in(op1)
    shown = preview(client, waiting, decision="reject", reason=ENGLISH_REASON).json()["text"]

    refused = client.post(
        f"/console/escalations/{waiting.pk}/decide",
        {"decision": "reject", "reason": ENGLISH_REASON, "preview": shown},
    )
    sent = client.post(
        f"/console/escalations/{waiting.pk}/decide",
        {
            "decision": "reject",
            "reason": ENGLISH_REASON,
            "preview": shown,
            "confirm_language": "on",
        },
    )
    inquiry_advance(inquiry_id=str(waiting.inquiry_id))

    assert refused.status_code == 422
    assert "The text is in English but the customer writes Japanese" in refused.content.decode()
    assert sent.status_code == 302
    assert Inquiry.objects.get(pk=waiting.inquiry_id).reply == shown


def test_an_invalid_edit_is_refused_in_the_preview_as_on_sending(
    op1: User, waiting: Escalation
) -> None:
    response = preview(signed_in(op1), waiting, decision="edit", amount="50000")

    assert (response.status_code, response.json()) == (
        422,
        {"ok": False, "message": "At most ¥12,800 can be refunded."},
    )


def test_the_decision_form_carries_the_preview(op1: User, waiting: Escalation) -> None:
    text = signed_in(op1).get(f"/console/escalations/{waiting.pk}/").content.decode()

    assert f'data-preview-url="/console/escalations/{waiting.pk}/preview"' in text
    for prefix in ("approve", "edit", "reject"):
        assert f'id="{prefix}-preview-text"' in text
        assert f'<input type="hidden" name="preview" value="" id="{prefix}-preview-sent">' in text
    assert 'id="reject-confirm-language"' in text
    assert 'src="/static/js/console/preview.js"' in text


def test_a_customer_cannot_preview(waiting: Escalation) -> None:
    customer = staff_user("cust", None)

    response = preview(signed_in(customer), waiting, decision="approve")

    assert response.status_code == 403


def test_the_api_previews_and_decides_with_the_confirmation(
    shop: SupportShop, op1: User, waiting: Escalation
) -> None:
    client = signed_in(op1)

    shown = api(client, waiting, "preview", decision="reject", reason=ENGLISH_REASON)
    text = shown.json()["text"]
    refused = api(client, waiting, "decide", decision="reject", reason=ENGLISH_REASON)
    stale = api(
        client,
        waiting,
        "decide",
        decision="reject",
        reason=ENGLISH_REASON,
        confirm_language=True,
        preview="something else",
    )
    sent = api(
        client,
        waiting,
        "decide",
        decision="reject",
        reason=ENGLISH_REASON,
        confirm_language=True,
        preview=text,
    )
    inquiry_advance(inquiry_id=str(waiting.inquiry_id))

    assert shown.status_code == 200
    assert {k: v for k, v in shown.json().items() if k != "text"} == {
        "exact": True,
        "customer_language": "ja",
        "text_language": "en",
        "language_mismatch": True,
    }
    assert (refused.status_code, refused.json()["code"]) == (422, "reason_language_unconfirmed")
    assert (stale.status_code, stale.json()["code"]) == (409, "preview_outdated")
    assert sent.status_code == 200
    reply = Inquiry.objects.get(pk=waiting.inquiry_id).reply
    assert reply == text
    assert ENGLISH_REASON in reply
    assert shop.hanako.delivered.number in reply


def test_the_api_preview_of_an_escalation_no_run_waits_on_is_not_exact(op1: User) -> None:
    escalation = escalation_for()

    response = api(signed_in(op1), escalation, "preview", decision="approve")

    assert (response.status_code, response.json()) == (
        200,
        {
            "text": "",
            "exact": False,
            "customer_language": "ja",
            "text_language": "",
            "language_mismatch": False,
        },
    )
