"""The managers' canned-reply pages: the library per language, a new reply, one reply's edit,
retire and restore.

Views parse, call one service of ``operators.knowledge.canned_replies`` and redirect
(post/redirect/get); a refusal re-renders the form with the service's message and everything
the manager typed (nothing is lost). Managers only: operators use the replies in the composer.
"""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from netshop.errors import DomainError
from netshop.roles import Role
from operators.access import role_required
from operators.knowledge.canned_replies import (
    canned_reply_create,
    canned_reply_library,
    canned_reply_set_active,
    canned_reply_update,
)
from operators.knowledge.forms import CannedReplyForm
from operators.models import CannedReply

LIST = "operators/knowledge/canned_replies.html"
EDIT = "operators/knowledge/canned_reply.html"


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def library(request: HttpRequest) -> HttpResponse:
    """Every reply, per language; the form at the foot adds one (POST)."""
    if request.method == "POST":
        form = CannedReplyForm(request.POST)
        try:
            reply = canned_reply_create(fields=form.fields_typed(), user=_user(request))
        except DomainError as error:
            return _library(request, form, error=error.localized(), status=error.status)
        messages.success(
            request, gettext("Canned reply “%(title)s” added.") % {"title": reply.title}
        )
        return redirect("knowledge:canned_replies")
    language = request.GET.get("language", "")
    return _library(request, CannedReplyForm(initial={"language": language or "ja"}))


@require_http_methods(["GET", "POST"])
@role_required(Role.MANAGER)
def edit(request: HttpRequest, reply_id: int) -> HttpResponse:
    reply = CannedReply.objects.filter(pk=reply_id).first()
    if reply is None:
        raise Http404("no such canned reply")
    if request.method == "GET":
        form = CannedReplyForm(
            initial={"title": reply.title, "language": reply.language, "body": reply.body}
        )
        return render(request, EDIT, {"reply": reply, "form": form})
    form = CannedReplyForm(request.POST)
    try:
        canned_reply_update(reply_id=reply.pk, fields=form.fields_typed(), user=_user(request))
    except DomainError as error:
        context = {"reply": reply, "form": form, "error": error.localized()}
        return render(request, EDIT, context, status=error.status)
    messages.success(request, gettext("Canned reply saved."))
    return redirect("knowledge:canned_replies")


@require_POST
@role_required(Role.MANAGER)
def set_active(request: HttpRequest, reply_id: int) -> HttpResponse:
    """Retire (``active=0``) or restore (``active=1``) one reply."""
    active = request.POST.get("active") == "1"
    try:
        reply = canned_reply_set_active(reply_id=reply_id, active=active, user=_user(request))
    except DomainError as error:
        if error.status == 404:
            raise Http404("no such canned reply") from error
        messages.error(request, error.localized())
        return redirect("knowledge:canned_replies")
    done = (
        gettext("“%(title)s” is offered to operators again.")
        if active
        else gettext("“%(title)s” retired: operators no longer see it.")
    )
    messages.success(request, done % {"title": reply.title})
    return redirect("knowledge:canned_replies")


def _library(
    request: HttpRequest, form: CannedReplyForm, *, error: str = "", status: int = 200
) -> HttpResponse:
    context = {"library": canned_reply_library(), "form": form, "error": error}
    return render(request, LIST, context, status=status)


def _user(request: HttpRequest) -> User:
    return cast(User, request.user)
