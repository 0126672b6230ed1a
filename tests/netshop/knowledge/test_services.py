"""Writing help articles: drafts, publishing, every version kept, every change audited."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.errors import DomainError
from netshop.knowledge.models import ArticleStatus, ArticleVersion, HelpArticle
from netshop.knowledge.selectors import article_live_version, article_versions
from netshop.knowledge.services import (
    article_create,
    article_describe,
    article_draft_save,
    article_publish,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager() -> User:
    return User.objects.create_user("hanako")


@pytest.fixture
def article(manager: User) -> HelpArticle:
    return article_create(key="shipping-fee", category="delivery", tags=["shipping_fee"])


def test_a_draft_changes_nothing_customers_see(article: HelpArticle, manager: User) -> None:
    draft = article_draft_save(
        article=article, language="en", title="Shipping", body="¥550.", user=manager
    )

    assert (draft.number, draft.status, draft.created_by) == (1, ArticleStatus.DRAFT, manager)
    assert article_live_version(article=article, language="en") is None


def test_saving_again_rewrites_the_one_draft(article: HelpArticle, manager: User) -> None:
    first = article_draft_save(article=article, language="en", title="Shipping", body="¥550.")
    second = article_draft_save(
        article=article, language="en", title="Shipping fees", body=" ¥600. ", user=manager
    )

    assert second.pk == first.pk
    assert ArticleVersion.objects.get(pk=first.pk).body == "¥600."


def test_publishing_makes_the_draft_live_and_keeps_every_earlier_version(
    article: HelpArticle, manager: User
) -> None:
    one = article_publish(
        version=article_draft_save(article=article, language="en", title="Shipping", body="¥550.")
    )
    draft = article_draft_save(article=article, language="en", title="Shipping", body="¥600.")
    two = article_publish(version=draft, user=manager)

    assert (two.number, two.status, two.published_by) == (2, ArticleStatus.PUBLISHED, manager)
    assert article_live_version(article=article, language="en") == two
    assert list(article_versions(article=article, language="en")) == [two, one]
    assert ArticleVersion.objects.get(pk=one.pk).body == "¥550."


def test_languages_are_versioned_apart(article: HelpArticle) -> None:
    article_publish(
        version=article_draft_save(article=article, language="en", title="Shipping", body="¥550.")
    )
    ja = article_draft_save(article=article, language="ja", title="送料", body="550円です。")

    assert ja.number == 1
    assert article_live_version(article=article, language="ja") is None


def test_a_published_version_is_never_published_again(article: HelpArticle) -> None:
    version = article_publish(
        version=article_draft_save(article=article, language="en", title="Shipping", body="¥550.")
    )

    with pytest.raises(DomainError) as refused:
        article_publish(version=version)

    assert refused.value.code == "article_not_a_draft"
    assert AuditEntry.objects.filter(action=AuditAction.ARTICLE_PUBLISHED).count() == 1


def test_every_change_is_audited_with_article_language_version_and_who(
    article: HelpArticle, manager: User
) -> None:
    draft = article_draft_save(
        article=article, language="ja", title="送料", body="550円です。", user=manager
    )
    article_publish(version=draft, user=manager)
    article_describe(article=article, category="delivery", tags=["shipping_fee", "islands"])

    entries = AuditEntry.objects.filter(action__startswith="article.").order_by("seq")
    assert [(e.action, e.actor) for e in entries] == [
        (AuditAction.ARTICLE_CREATED, "system"),
        (AuditAction.ARTICLE_DRAFT_SAVED, "hanako"),
        (AuditAction.ARTICLE_PUBLISHED, "hanako"),
        (AuditAction.ARTICLE_DESCRIBED, "system"),
    ]
    assert entries[2].data == {
        "article": "shipping-fee",
        "article_id": article.pk,
        "language": "ja",
        "version": 1,
    }


def test_describing_an_article_the_same_way_writes_nothing(article: HelpArticle) -> None:
    article_describe(article=article, category="delivery", tags=[" Shipping_Fee "])

    assert not AuditEntry.objects.filter(action=AuditAction.ARTICLE_DESCRIBED).exists()


@pytest.mark.parametrize(
    ("language", "title", "code"),
    [
        ("fr", "t", "unknown_language"),
        ("en", "  ", "article_text_blank"),
        ("en", "t" * 301, "article_title_too_long"),
    ],
)
def test_a_bad_draft_is_refused_and_nothing_written(
    article: HelpArticle, language: str, title: str, code: str
) -> None:
    with pytest.raises(DomainError) as refused:
        article_draft_save(article=article, language=language, title=title, body="b")

    assert refused.value.code == code
    assert not ArticleVersion.objects.exists()


def test_a_key_is_one_articles_and_a_category_must_be_known(article: HelpArticle) -> None:
    with pytest.raises(DomainError) as taken:
        article_create(key="shipping-fee", category="delivery")
    with pytest.raises(DomainError) as unknown:
        article_create(key="new", category="weather")

    assert (taken.value.code, unknown.value.code) == (
        "article_key_taken",
        "article_category_unknown",
    )
    assert HelpArticle.objects.count() == 1
