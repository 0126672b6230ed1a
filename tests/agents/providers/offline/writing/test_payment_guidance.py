"""A failed card payment's reply says what the customer can do about it, in their language.

Pure: briefs built by hand as the supervisor builds them. Today is Mon 2025-12-01.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.providers.offline.writing import write_reply

# Any of these in the reply is practical guidance for a declined card.
GUIDANCE = {
    "ja": ("カード会社", "有効期限", "セキュリティコード", "3Dセキュア", "別のお支払い方法"),
    "en": ("card issuer", "expiry date", "security code", "3-D Secure", "another payment method"),
}


def brief(lang: str, method: str, status: str) -> dict[str, Any]:
    checked = {
        "payment": {"method": method, "status": status},
        "gateway": {"status": status, "authorized_amount": 0, "captured_amount": 0},
        "order_number": "ORD-4120",
    }
    envelope = {
        "status": "success",
        "data": {"check_payment_status": checked},
        "message": "",
        "error_code": None,
    }
    return {
        "language": lang,
        "today": "2025-12-01",
        "inquiry": "…",
        "intent": "check_payment_status",
        "secondary_intents": [],
        "results": {"payment": envelope},
        "not_checked": [],
        "pending_actions": [],
        "action_results": [],
        "escalation": None,
    }


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_declined_card_comes_with_every_step_the_customer_can_take(lang: str) -> None:
    reply = write_reply(brief(lang, "card", "failed"))

    assert "ORD-4120" in reply
    for words in GUIDANCE[lang]:
        assert words in reply


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(
    ("method", "status"),
    [("konbini", "failed"), ("bank_transfer", "failed"), ("card", "authorized")],
)
def test_no_card_advice_for_another_method_or_a_payment_that_went_through(
    lang: str, method: str, status: str
) -> None:
    reply = write_reply(brief(lang, method, status))

    assert "ORD-4120" in reply
    for words in GUIDANCE[lang]:
        assert words not in reply
