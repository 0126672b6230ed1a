"""The managers' list of help articles, and the articles as a file: the export to keep in the
shop's own repository, and its import (the whole file or nothing; what is wrong is listed on
the list page, status 422, nothing changed)."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from netshop.errors import DomainError
from netshop.knowledge.files import articles_export_text, articles_import_text
from netshop.roles import Role
from operators.access import role_required
from operators.knowledge.articles import article_shelf
from operators.knowledge.suggestions import suggestions_by_article

SHELF = "operators/knowledge/articles.html"
IMPORT_MAX_BYTES = 5 * 1024 * 1024


@require_GET
@role_required(Role.MANAGER)
def shelf(request: HttpRequest) -> HttpResponse:
    return _shelf(request)


@require_GET
@role_required(Role.MANAGER)
def export(request: HttpRequest) -> HttpResponse:
    """Every article's live text as the articles file (JSON), to keep in the shop's repository."""
    response = HttpResponse(articles_export_text(), content_type="application/json; charset=utf-8")
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="help-articles-{stamp}.json"'
    return response


@require_POST
@role_required(Role.MANAGER)
def import_file(request: HttpRequest) -> HttpResponse:
    """Import an articles file: the whole file or nothing; what is wrong is listed."""
    upload = request.FILES.get("file")
    if upload is None:
        return _shelf(request, error=gettext("Choose a file to import."), status=422)
    if upload.size is not None and upload.size > IMPORT_MAX_BYTES:
        return _shelf(request, error=gettext("The file is larger than 5 MB."), status=422)
    try:
        text = upload.read().decode("utf-8-sig")
        report = articles_import_text(text, user=_user(request))
    except UnicodeDecodeError:
        return _shelf(request, error=gettext("The file is not UTF-8 text."), status=422)
    except DomainError as error:
        detail = gettext("Nothing was imported: %(problems)s") % {
            "problems": error.params.get("problems", error.localized())
        }
        return _shelf(request, error=detail, status=error.status)
    said = {
        "created": len(report.created),
        "published": len(report.published),
        "unchanged": report.unchanged,
    }
    messages.success(
        request,
        gettext(
            "Imported: %(created)s new articles, %(published)s versions published, "
            "%(unchanged)s unchanged."
        )
        % said,
    )
    return redirect("knowledge:articles")


def _shelf(request: HttpRequest, *, error: str = "", status: int = 200) -> HttpResponse:
    states = article_shelf()
    suggested = suggestions_by_article([s.article.pk for s in states])
    rows = [(state, suggested.get(state.article.pk)) for state in states]
    return render(request, SHELF, {"rows": rows, "error": error}, status=status)


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)
