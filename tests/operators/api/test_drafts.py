"""Sending a draft through the API (issue 25, part 2): the console's service and refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from agents.models import Escalation, MessageAuthor
from netshop.roles import Role
from tests.operators.api_helpers import bearer, escalation_for, staff_key, staff_user
from tests.support.drafts import DRAFTED, drafted

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> Client:
    return Client(headers=bearer(staff_key(staff_user("op", Role.OPERATOR))))


def send(client: Client, escalation: Escalation, **body: Any) -> Any:
    return client.post(
        f"/api/v1/escalations/{escalation.pk}/send-reply",
        json.dumps(body),
        content_type="application/json",
    )


def test_the_draft_is_sent_once(api: Client) -> None:
    draft = drafted()

    first, second = send(api, draft), send(api, draft)

    assert first.status_code == 200
    assert first.json()["status"] == "decided"
    assert second.status_code == 409
    assert second.json()["code"] == "already_decided"
    sent = draft.inquiry.messages.exclude(author_kind=MessageAuthor.CUSTOMER)
    assert [(m.author_kind, m.text) for m in sent] == [(MessageAuthor.AI, DRAFTED)]


def test_an_edit_in_japanese_to_an_english_customer_needs_confirming(api: Client) -> None:
    draft = drafted()

    refused = send(api, draft, text="ご連絡ありがとうございます。")
    confirmed = send(api, draft, text="ご連絡ありがとうございます。", confirm_language=True)

    assert (refused.status_code, refused.json()["code"]) == (422, "reason_language_unconfirmed")
    assert confirmed.status_code == 200


def test_only_a_draft_is_sent(api: Client) -> None:
    response = send(api, escalation_for())
    assert (response.status_code, response.json()["code"]) == (422, "not_a_draft")


def test_a_customer_token_cannot_send_a_draft() -> None:
    draft = drafted()
    anonymous = Client().post(
        f"/api/v1/escalations/{draft.pk}/send-reply", "{}", content_type="application/json"
    )
    assert anonymous.status_code == 401
