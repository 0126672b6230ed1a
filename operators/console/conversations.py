"""The console's conversation pages: the inbox of every conversation, one thread, its composer.

Views parse, check the role, call one service of ``agents.support.conversations.services`` and
redirect back (post/redirect/get); a refusal (a ``DomainError``: 409 when someone else owns
the conversation, 422 for a blank message) re-renders the page with the service's message
and what the operator typed. Who may do what is the services' to decide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from agents.models import Inquiry
from agents.support.conversations import services
from agents.support.conversations.selectors import inquiry_get
from agents.support.escalations.claims import conversation_assign
from agents.support.escalations.review_flags import conversation_flag
from netshop.errors import DomainError
from netshop.roles import Role
from operators.access import role_required
from operators.console import errors
from operators.console.forms import InboxFilterForm
from operators.console.presenters.conversation import conversation_page, thread_views
from operators.console.presenters.inbox import inbox_row
from operators.console.reading import conversation_read_mark
from operators.console.selectors import console_event_seq, conversation_messages, inbox_page


@require_GET
@role_required(Role.OPERATOR)
def inbox(request: HttpRequest) -> HttpResponse:
    """Every conversation, searchable and filtered, a page at a time."""
    form = InboxFilterForm(request.GET)
    page = inbox_page(**form.search(), reader=request.user)
    query = {k: v for k, v in request.GET.items() if k != "page" and v}
    rows = [inbox_row(inquiry) for inquiry in page.object_list]
    context = {"form": form, "page": page, "rows": rows, "filter_query": query}
    return render(request, "operators/console/inbox.html", context)


@require_GET
@role_required(Role.OPERATOR)
def conversation(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    response = _render(request, inquiry_id)
    if response.status_code == 200:
        conversation_read_mark(user=request.user, inquiry_id=inquiry_id)
    return response


@require_GET
@role_required(Role.OPERATOR)
def thread(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    """The thread alone, for a page that (re)connects: everything said so far."""
    inquiry = _inquiry(inquiry_id)
    if inquiry is None:
        return HttpResponse(status=404)
    thread = thread_views(conversation_messages(inquiry=inquiry))
    conversation_read_mark(user=request.user, inquiry_id=inquiry.pk)  # read live, on the page
    return render(request, "operators/console/_thread.html", {"thread": thread})


@require_GET
@role_required(Role.OPERATOR)
def composer(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    """The composer as it now stands (ownership changed: other buttons show)."""
    inquiry = _inquiry(inquiry_id)
    if inquiry is None:
        return HttpResponse(status=404)
    view = conversation_page(inquiry=inquiry, user=request.user)
    return render(request, "operators/console/_composer.html", {"view": view})


@require_POST
@role_required(Role.OPERATOR)
def take_over(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    done = gettext("You own this conversation now: the AI sends nothing until you hand it back.")
    return _act(request, inquiry_id, services.conversation_take_over, done)


@require_POST
@role_required(Role.OPERATOR)
def assign(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    """Give the conversation to the colleague chosen in "Assign to…"."""
    assignee = request.POST.get("assignee", "")
    done = gettext("Assigned to %(who)s: only they write to the customer now.") % {"who": assignee}
    return _act(request, inquiry_id, conversation_assign, done, assignee=assignee)


@require_POST
@role_required(Role.OPERATOR)
def send(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    text = _text(request)
    done = gettext("Sent to the customer.")
    return _act(request, inquiry_id, services.operator_message_send, done, text=text)


@require_POST
@role_required(Role.OPERATOR)
def note(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    done = gettext("Note added: only staff see it.")
    return _act(request, inquiry_id, services.note_add, done, text=_text(request))


@require_POST
@role_required(Role.OPERATOR)
def hand_back(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    done = gettext("Handed back: the AI answers the customer's next message.")
    return _act(request, inquiry_id, services.conversation_hand_back, done)


@require_POST
@role_required(Role.OPERATOR)
def close(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    done = gettext("Conversation closed.")
    return _act(request, inquiry_id, services.conversation_close, done)


@require_POST
@role_required(Role.MANAGER)
def flag(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    reason = request.POST.get("reason", "")
    done = gettext("Flagged for review: it is in the escalation queue.")
    return _act(request, inquiry_id, conversation_flag, done, reason=reason)


def _act(
    request: HttpRequest,
    inquiry_id: UUID,
    service: Callable[..., Any],
    done: str,
    **fields: str,
) -> HttpResponse:
    try:
        service(inquiry_id=inquiry_id, user=cast(User, request.user), **fields)
    except DomainError as error:
        if error.status == 404:
            return _not_found(request)
        action = request.resolver_match.url_name if request.resolver_match else ""
        typed = {"action": action or ""}
        return _render(
            request,
            inquiry_id,
            error=errors.refusal_message(error, None),
            typed=typed | fields,
            status=error.status,
        )
    messages.success(request, done)
    return redirect("console:conversation", inquiry_id=inquiry_id)


def _text(request: HttpRequest) -> str:
    return request.POST.get("text", "")


def _render(
    request: HttpRequest,
    inquiry_id: UUID,
    *,
    error: str = "",
    typed: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    inquiry = _inquiry(inquiry_id)
    if inquiry is None:
        return _not_found(request)
    context = {
        "view": conversation_page(inquiry=inquiry, user=request.user),
        "composer_error": error,
        "typed": typed or {},
        "seq": console_event_seq(),
    }
    return render(request, "operators/console/conversation.html", context, status=status)


def _inquiry(inquiry_id: UUID) -> Inquiry | None:
    try:
        return inquiry_get(inquiry_id=inquiry_id)
    except DomainError:
        return None


def _not_found(request: HttpRequest) -> HttpResponse:
    return render(request, "operators/console/conversation_not_found.html", status=404)
