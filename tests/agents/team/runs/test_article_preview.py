"""The preview of a help article's draft: how the AI would answer a sample question were the
draft published, with nothing published, written or sent."""

from __future__ import annotations

import pytest

from agents.models import Inquiry, Message
from agents.team.runs import article_preview
from agents.team.runs.article_preview import article_answer_preview
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.knowledge.retrieval import article_search
from netshop.knowledge.selectors import article_get
from netshop.knowledge.services import article_draft_save
from tests.support.scenarios import SupportShop


@pytest.fixture
def draft(shop: SupportShop) -> object:
    return article_draft_save(
        article=article_get(key="shipping-fee"),
        language="en",
        title="How much is shipping?",
        body="Shipping is a flat ¥700 (tax included), and free on orders of ¥8,000 or more.",
    )


def test_the_preview_answers_from_the_draft_and_says_where_it_was_found(draft: object) -> None:
    preview = article_answer_preview(
        question="What does delivery cost?",
        language="en",
        draft=draft,  # type: ignore[arg-type]
    )

    assert "¥700" in preview.reply
    assert "¥550" not in preview.reply
    assert (preview.draft_found, preview.draft_rank) == (True, 1)
    assert (preview.hits[0].key, preview.hits[0].version) == ("shipping-fee", 2)


def test_a_preview_changes_nothing_and_sends_nothing(draft: object) -> None:
    audited = AuditEntry.objects.count()

    article_answer_preview(question="How much is shipping?", language="en", draft=draft)  # type: ignore[arg-type]

    live = article_search(query="How much is shipping?", language="en", limit=1)
    assert (live[0].key, live[0].version) == ("shipping-fee", 1)
    assert not Inquiry.objects.exists()
    assert not Message.objects.exists()
    assert AuditEntry.objects.count() == audited


def test_a_draft_the_question_does_not_reach_is_reported_as_not_found(draft: object) -> None:
    preview = article_answer_preview(
        question="Can I get a receipt?",
        language="en",
        draft=draft,  # type: ignore[arg-type]
    )

    assert (preview.draft_found, preview.draft_rank) == (False, None)
    assert preview.hits[0].key == "receipts-invoices"


def test_a_writer_that_fails_is_said_plainly(
    draft: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(state: object) -> str:
        raise TimeoutError("model timed out")

    monkeypatch.setattr(article_preview, "merge_reply", broken)

    with pytest.raises(DomainError) as refused:
        article_answer_preview(question="Shipping?", language="en", draft=draft)  # type: ignore[arg-type]

    assert refused.value.code == "preview_unavailable"
