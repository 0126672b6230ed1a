"""Writing help articles: create one, save a draft, publish it.

Every change is audited in the chain (who, which article, language and version). A
published version is never changed: saving again writes the next version's draft, and
publishing it makes it the live one, the older ones kept for the grounds that name them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from netshop.audit import SYSTEM_ACTOR, AuditAction, audit_record
from netshop.errors import DomainError
from netshop.knowledge.models import ArticleCategory, ArticleStatus, ArticleVersion, HelpArticle
from netshop.languages import Language

TITLE_LIMIT = 300


def actor_name(user: User | None) -> str:
    """Who the audit trail names for ``user``: the system for a file's import."""
    return user.get_username() if user is not None else SYSTEM_ACTOR


def article_create(
    *, key: str, category: str, tags: Sequence[str] = (), user: User | None = None
) -> HelpArticle:
    """A new article (no text yet: save a draft per language). ``key`` names it for good."""
    _check_category(category)
    with transaction.atomic():
        try:
            with transaction.atomic():
                article = HelpArticle.objects.create(
                    key=key, category=category, tags=_clean_tags(tags)
                )
        except IntegrityError:
            raise DomainError("article_key_taken", key=key) from None
        audit_record(
            action=AuditAction.ARTICLE_CREATED,
            actor=actor_name(user),
            data={"article": article.key, "article_id": article.pk, "category": category},
        )
    return article


def article_describe(
    *, article: HelpArticle, category: str, tags: Sequence[str], user: User | None = None
) -> HelpArticle:
    """Change what an article is about (its category and topic tags); live at once."""
    _check_category(category)
    cleaned = _clean_tags(tags)
    if (article.category, article.tags) == (category, cleaned):
        return article
    with transaction.atomic():
        article.category, article.tags, article.updated_at = category, cleaned, timezone.now()
        article.save(update_fields=["category", "tags", "updated_at"])
        audit_record(
            action=AuditAction.ARTICLE_DESCRIBED,
            actor=actor_name(user),
            data={"article": article.key, "category": category, "tags": cleaned},
        )
    return article


def article_draft_save(
    *,
    article: HelpArticle,
    language: str,
    title: str,
    body: str,
    questions: Sequence[str] = (),
    user: User | None = None,
) -> ArticleVersion:
    """Save the draft of the next version of ``article`` in ``language`` (the one draft is
    rewritten until it is published). Nothing the customers see changes."""
    fields = _checked_text(language=language, title=title, body=body, questions=questions)
    with transaction.atomic():
        # One writer per article at a time: two managers saving at once would both number a
        # new draft (the unique constraints would refuse the second, as an error).
        HelpArticle.objects.select_for_update().filter(pk=article.pk).first()
        draft = _draft_of(article, language)
        if draft is None:
            draft = ArticleVersion(
                article=article, language=language, number=_next_number(article, language)
            )
        for name, value in fields.items():
            setattr(draft, name, value)
        draft.created_by, draft.created_at = user, timezone.now()
        draft.save()
        audit_record(
            action=AuditAction.ARTICLE_DRAFT_SAVED,
            actor=actor_name(user),
            data=_version_data(draft),
        )
    return draft


def article_publish(*, version: ArticleVersion, user: User | None = None) -> ArticleVersion:
    """Publish a draft: from now on the AI answers from it (every process sees it on its next
    search, ``netshop.knowledge.retrieval``). The earlier versions stay, for the record."""
    with transaction.atomic():
        locked = ArticleVersion.objects.select_for_update().get(pk=version.pk)
        if locked.status != ArticleStatus.DRAFT:
            raise DomainError("article_not_a_draft", version=locked.number)
        now = timezone.now()
        locked.status, locked.published_by, locked.published_at = (
            ArticleStatus.PUBLISHED,
            user,
            now,
        )
        locked.save(update_fields=["status", "published_by", "published_at"])
        HelpArticle.objects.filter(pk=locked.article_id).update(updated_at=now)
        audit_record(
            action=AuditAction.ARTICLE_PUBLISHED,
            actor=actor_name(user),
            data=_version_data(locked),
        )
    return locked


def _version_data(version: ArticleVersion) -> dict[str, object]:
    return {
        "article": version.article.key,
        "article_id": version.article_id,
        "language": version.language,
        "version": version.number,
    }


def _draft_of(article: HelpArticle, language: str) -> ArticleVersion | None:
    return ArticleVersion.objects.filter(
        article=article, language=language, status=ArticleStatus.DRAFT
    ).first()


def _next_number(article: HelpArticle, language: str) -> int:
    last = ArticleVersion.objects.filter(article=article, language=language).aggregate(
        n=Max("number")
    )["n"]
    return (last or 0) + 1


def _checked_text(
    *, language: str, title: str, body: str, questions: Sequence[str]
) -> dict[str, object]:
    if language not in Language.values:
        raise DomainError("unknown_language", language=language)
    title, body = title.strip(), body.strip()
    if not title or not body:
        raise DomainError("article_text_blank")
    if len(title) > TITLE_LIMIT:
        raise DomainError("article_title_too_long", limit=TITLE_LIMIT)
    asked = [q.strip() for q in questions if q.strip()]
    return {"title": title, "body": body, "questions": asked}


def _check_category(category: str) -> None:
    if category not in ArticleCategory.values:
        raise DomainError(
            "article_category_unknown", category=category, allowed=", ".join(ArticleCategory)
        )


def _clean_tags(tags: Sequence[str]) -> list[str]:
    """Tags as the index reads them: lowercase, stripped, each once, in the given order."""
    return list(dict.fromkeys(t.strip().lower() for t in tags if t.strip()))
