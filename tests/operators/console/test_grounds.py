"""The conversation page shows each AI answer's grounds beside it, in the operator's language:
the reading (intent, confidence), the records used and the self-check's verdict."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import Inquiry, MessageAuthor
from agents.support.conversations.messages import message_store
from agents.support.grounds import GroundsDict
from operators.models import StaffPreference
from tests.operators.api_helpers import inquiry_for, signed_in
from tests.operators.console.test_views import HOSTILE, HOSTILE_ESCAPED, page_text

pytestmark = pytest.mark.django_db


def grounds(*, problems: list[dict[str, str]] | None = None, faq: str = "送料は？") -> GroundsDict:
    return {
        "reading": {
            "intents": ["track_shipment", "search_faq"],
            "confidence": 0.934,
            "language": "ja",
            "injection_suspected": False,
            "complaint": False,
        },
        "records": {
            "orders": ["ORD-4002"],
            "tracking": ["6100-0000-0003"],
            "faq": [{"id": 10, "question": faq, "quoted": True}],
        },
        "check": {"passed": not problems, "problems": problems or []},  # type: ignore[typeddict-item]
    }


def answered(inquiry: Inquiry, shown: GroundsDict) -> Inquiry:
    message_store(
        inquiry=inquiry,
        author_kind=MessageAuthor.AI,
        text="ORD-4002は配送中です。",
        channel="web",
        grounds=shown,
    )
    return inquiry


def conversation_page(user: User, inquiry: Inquiry) -> str:
    return page_text(signed_in(user).get(f"/console/conversations/{inquiry.pk}/"))


def test_an_answer_that_passed_shows_its_reading_records_and_check_mark(op1: User) -> None:
    inquiry = answered(inquiry_for(text="荷物はどこ？"), grounds())

    text = conversation_page(op1, inquiry)

    assert '<span class="grounds-intent">shipment tracking</span>, FAQ search' in text
    assert '<span class="grounds-confidence">93% confident</span>' in text
    assert '<span class="grounds-orders">orders: ORD-4002</span>' in text
    assert '<span class="grounds-tracking">tracking: 6100-0000-0003</span>' in text
    assert '<span class="grounds-faq">Help articles used: 送料は？</span>' in text
    assert "Checked: every request answered, every fact in the records" in text
    assert "grounds-failed" not in text


def test_the_grounds_name_the_article_and_the_version_the_answer_used(op1: User) -> None:
    shown = grounds()
    shown["records"]["faq"] = [
        {"id": 10, "question": "送料は？", "quoted": True, "article": "shipping-fee", "version": 3}
    ]
    inquiry = answered(inquiry_for(text="送料は？"), shown)

    text = conversation_page(op1, inquiry)

    assert (
        '<span class="grounds-faq">Help articles used: 送料は？ (shipping-fee, version 3)</span>'
        in text
    )


def test_an_answer_that_failed_lists_its_problems_in_japanese(op1: User) -> None:
    StaffPreference.objects.create(user=op1, language="ja")
    problems = [
        {"kind": "unanswered", "subject": "search_faq"},
        {"kind": "order", "subject": "ORD-1234"},
        {"kind": "amount", "subject": "¥3,980"},
    ]
    inquiry = answered(inquiry_for(text="荷物はどこ？"), grounds(problems=problems))

    text = conversation_page(op1, inquiry)

    assert "自己チェックで問題あり" in text
    assert "<li>回答していない依頼: FAQ検索</li>" in text
    assert "<li>参照した記録にない注文番号: ORD-1234</li>" in text
    assert "<li>参照した記録にない金額: ¥3,980</li>" in text
    assert '<span class="grounds-confidence">確信度 93%</span>' in text
    assert "参照した記録" in text
    assert "grounds-passed" not in text


def test_the_grounds_keep_customer_text_inert(op1: User) -> None:
    inquiry = answered(
        inquiry_for(text="荷物はどこ？"),
        grounds(faq=HOSTILE, problems=[{"kind": "order", "subject": HOSTILE}]),
    )

    text = conversation_page(op1, inquiry)

    assert HOSTILE not in text
    assert text.count(HOSTILE_ESCAPED) == 2


def test_a_message_without_grounds_shows_none(op1: User) -> None:
    inquiry = inquiry_for(text="荷物はどこ？")
    message_store(inquiry=inquiry, author_kind=MessageAuthor.AI, text="配送中です。", channel="web")

    assert 'class="grounds"' not in conversation_page(op1, inquiry)
