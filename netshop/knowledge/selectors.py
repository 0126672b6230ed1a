"""Reading help articles: the live versions, an article's history, one article by key."""

from __future__ import annotations

from django.db.models import Count, Max, OuterRef, QuerySet, Subquery

from netshop.errors import DomainError
from netshop.knowledge.models import ArticleStatus, ArticleVersion, HelpArticle


def article_get(*, key: str) -> HelpArticle:
    try:
        return HelpArticle.objects.get(key=key)
    except HelpArticle.DoesNotExist:
        raise DomainError("article_not_found", key=key) from None


def articles_published(*, language: str | None = None) -> list[ArticleVersion]:
    """The live version of every article (its latest published one), per language, with
    their articles; ``language`` keeps one language's."""
    latest = (
        ArticleVersion.objects.filter(
            article=OuterRef("article"),
            language=OuterRef("language"),
            status=ArticleStatus.PUBLISHED,
        )
        .order_by("-number")
        .values("pk")[:1]
    )
    live = ArticleVersion.objects.filter(pk=Subquery(latest)).select_related("article")
    if language is not None:
        live = live.filter(language=language)
    return list(live.order_by("article__category", "article__key", "language"))


def article_live_version(*, article: HelpArticle, language: str) -> ArticleVersion | None:
    """The version of ``article`` the AI answers from in ``language``; None if none is
    published."""
    return (
        ArticleVersion.objects.filter(
            article=article, language=language, status=ArticleStatus.PUBLISHED
        )
        .order_by("-number")
        .first()
    )


def article_versions(*, article: HelpArticle, language: str) -> QuerySet[ArticleVersion]:
    """Every version of ``article`` in ``language``, newest first (a draft on top)."""
    return ArticleVersion.objects.filter(article=article, language=language).order_by("-number")


def knowledge_stamp() -> tuple[object, ...]:
    """What changes whenever anything the AI answers from changes (a publish, an article's
    tags or category, an article removed): one cheap query, read before every search."""
    stamp = HelpArticle.objects.aggregate(
        articles=Count("pk"), updated=Max("updated_at"), last_id=Max("pk")
    )
    return (stamp["articles"], stamp["updated"], stamp["last_id"])
