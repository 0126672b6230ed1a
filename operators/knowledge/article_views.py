"""The managers' help-article pages: a new article, one article's ja and en side by side
(save a draft, preview the AI's answer with it, publish), a language's history with a diff.

Views parse, call one service and redirect (post/redirect/get). A refusal re-renders the page
with the service's message and everything the manager typed, with status 422 (nothing is
saved: the services write both languages or neither). Managers only.
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from agents.team.runs.article_preview import article_answer_preview
from netshop.errors import DomainError
from netshop.knowledge.models import ArticleCategory, ArticleStatus, ArticleVersion, HelpArticle
from netshop.knowledge.services import article_publish
from netshop.knowledge.tags import TOPIC_TAGS
from netshop.roles import Role
from operators import labels
from operators.access import role_required
from operators.knowledge.articles import (
    LANGUAGES,
    ArticleState,
    article_edit_save,
    article_state,
    article_write,
)
from operators.knowledge.diff import text_diff
from operators.knowledge.forms import article_fields, article_text_typed, tags_typed
from operators.knowledge.suggestions import suggestions_by_article

EDIT = "operators/knowledge/article.html"
NEW = "operators/knowledge/article_new.html"


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def new(request: HttpRequest) -> HttpResponse:
    """A new article and its first draft in one language; ``?question=`` and ``?language=``
    fill it in from a knowledge gap."""
    if request.method == "GET":
        question = request.GET.get("question", "")
        values = {"language": request.GET.get("language") or "ja", "title": question}
        values["category"] = ArticleCategory.OTHER
        return _new(request, values)
    data = request.POST
    try:
        article = article_write(
            key=data.get("key", ""),
            category=data.get("category", ""),
            tags=tags_typed(data),
            language=data.get("language", ""),
            text=article_text_typed(data),
            user=_user(request),
        )
    except DomainError as error:
        return _new(request, data.dict(), error=error.localized(), status=error.status)
    messages.success(request, gettext("Article created: its draft waits to be published."))
    return redirect("knowledge:article", article_id=article.pk)


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def edit(request: HttpRequest, article_id: int) -> HttpResponse:
    article = _article(article_id)
    if request.method == "GET":
        return _edit(request, article, article_fields(article_state(article)))
    data = request.POST
    try:
        saved = article_edit_save(
            article=article,
            category=data.get("category", ""),
            tags=tags_typed(data),
            texts={lang: article_text_typed(data, lang) for lang in LANGUAGES},
            user=_user(request),
        )
    except DomainError as error:
        article.refresh_from_db()
        return _edit(request, article, data.dict(), error=error.localized(), status=error.status)
    done = [f"{labels.label(labels.LANGUAGE_LABELS, v.language)} v{v.number}" for v in saved]
    if done:
        messages.success(
            request,
            gettext("Draft saved: %(versions)s. Publish it when it is ready.")
            % {"versions": ", ".join(done)},
        )
    else:
        messages.success(request, gettext("Saved."))
    return redirect("knowledge:article", article_id=article.pk)


@require_POST
@role_required(Role.MANAGER)
def preview(request: HttpRequest, article_id: int) -> HttpResponse:
    """How the AI would answer the sample question were the text as typed published in the
    language asked; nothing is saved, and the page keeps what was typed."""
    article = _article(article_id)
    data = request.POST
    language, question = data.get("preview_language", ""), data.get("question", "").strip()
    if language not in LANGUAGES or not question:
        error = gettext("Write a sample question, in the language to preview.")
        return _edit(request, article, data.dict(), error=error, status=422)
    unsaved = _unsaved_version(article, data, language)
    try:
        result = article_answer_preview(question=question, language=language, draft=unsaved)
    except DomainError as error:  # the writer (a real model) failed: say so, keep the text
        return _edit(request, article, data.dict(), error=error.localized(), status=error.status)
    shown = {"language": language, "question": question, "result": result}
    return _edit(request, article, data.dict(), preview=shown)


@require_POST
@role_required(Role.MANAGER)
def publish(request: HttpRequest, article_id: int) -> HttpResponse:
    """Publish one language's saved draft: the AI answers from it from the next question on."""
    article = _article(article_id)
    language = request.POST.get("language", "")
    draft = ArticleVersion.objects.filter(
        article=article, language=language, status=ArticleStatus.DRAFT
    ).first()
    if draft is None:
        messages.error(request, gettext("There is no saved draft to publish in that language."))
        return redirect("knowledge:article", article_id=article.pk)
    try:
        published = article_publish(version=draft, user=_user(request))
    except DomainError as error:
        messages.error(request, error.localized())
        return redirect("knowledge:article", article_id=article.pk)
    said = {"language": labels.label(labels.LANGUAGE_LABELS, language), "number": published.number}
    messages.success(request, gettext("Published: %(language)s version %(number)s is live.") % said)
    return redirect("knowledge:article", article_id=article.pk)


@require_GET
@role_required(Role.MANAGER)
def history(request: HttpRequest, article_id: int, language: str) -> HttpResponse:
    """Every version in ``language`` with who wrote and published it when, and what changed
    between two of them (``?old=N&new=M``; by default the latest and the one before)."""
    article = _article(article_id)
    if language not in LANGUAGES:
        raise Http404("no such language")
    versions = article_state(article).languages[language].versions
    numbers = [v.number for v in versions]
    new_n = _int(request.GET.get("new"), numbers[0] if numbers else None)
    old_n = _int(request.GET.get("old"), numbers[1] if len(numbers) > 1 else None)
    by_number = {v.number: v for v in versions}
    old, new_v = by_number.get(old_n or -1), by_number.get(new_n or -1)
    context: dict[str, Any] = {"article": article, "language": language, "versions": versions}
    if old is not None and new_v is not None:
        context["compare"] = {
            "old": old,
            "new": new_v,
            "title": text_diff(old.title, new_v.title),
            "body": text_diff(old.body, new_v.body),
        }
    return render(request, "operators/knowledge/history.html", context)


# --- Rendering -------------------------------------------------------------------------------


def _new(
    request: HttpRequest, values: dict[str, Any], *, error: str = "", status: int = 200
) -> HttpResponse:
    context = {"values": values, "error": error, **_choices()}
    return render(request, NEW, context, status=status)


def _edit(
    request: HttpRequest,
    article: HelpArticle,
    values: dict[str, Any],
    *,
    error: str = "",
    status: int = 200,
    preview: dict[str, Any] | None = None,
) -> HttpResponse:
    state = article_state(article)
    context = {
        "article": article,
        "state": state,
        "columns": _columns(state, values),
        "values": values,
        "error": error,
        "preview": preview,
        "suggestion": suggestions_by_article([article.pk]).get(article.pk),
        **_choices(),
    }
    return render(request, EDIT, context, status=status)


def _columns(state: ArticleState, values: dict[str, Any]) -> list[dict[str, Any]]:
    """Each language's column: its state and the values its fields show."""
    return [
        {
            "language": language,
            "state": state.languages[language],
            "title": values.get(f"title_{language}", ""),
            "body": values.get(f"body_{language}", ""),
            "questions": values.get(f"questions_{language}", ""),
        }
        for language in LANGUAGES
    ]


def _choices() -> dict[str, Any]:
    return {
        "categories": [
            (c, labels.label(labels.ARTICLE_CATEGORY_LABELS, c)) for c in ArticleCategory.values
        ],
        "languages": [(lang, labels.label(labels.LANGUAGE_LABELS, lang)) for lang in LANGUAGES],
        "known_tags": sorted(TOPIC_TAGS),
    }


def _unsaved_version(article: HelpArticle, data: Any, language: str) -> ArticleVersion:
    """The text as typed, as a version nobody saves: what the preview searches with (the
    typed category and tags too, since retrieval reads them)."""
    typed = article_text_typed(data, language)
    described = HelpArticle(
        pk=article.pk,
        key=article.key,
        category=data.get("category") or article.category,
        tags=tags_typed(data),
    )
    return ArticleVersion(
        article=described,
        language=language,
        number=0,
        title=typed.title.strip(),
        body=typed.body.strip(),
        questions=[q for q in typed.questions if q],
    )


def _article(article_id: int) -> HelpArticle:
    article = HelpArticle.objects.filter(pk=article_id).first()
    if article is None:
        raise Http404("no such help article")
    return article


def _int(value: str | None, default: int | None) -> int | None:
    try:
        return int(value) if value else default
    except ValueError:
        return default


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)
