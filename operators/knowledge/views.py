"""Where help articles come from: "Suggest as article" on an operator's answer, and the
knowledge gaps (the questions the AI could not answer, most frequent first)."""

from __future__ import annotations

from typing import cast
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from netshop.errors import DomainError
from netshop.roles import Role, user_has_role
from operators.access import role_required
from operators.knowledge.gaps import GAP_DAYS, knowledge_gaps
from operators.knowledge.redaction import customer_details_stripped
from operators.knowledge.suggestions import article_suggest


@require_POST
@role_required(Role.OPERATOR)
def suggest(request: HttpRequest, message_id: UUID) -> HttpResponse:
    """Draft an article from an operator's answer and the question before it. A manager is
    taken to the draft to edit and publish; an operator back to the conversation."""
    user = cast(User, request.user)
    try:
        suggestion = article_suggest(message_id=message_id, user=user)
    except DomainError as error:
        if error.status == 404:
            raise Http404("no such operator answer") from error
        raise
    if user_has_role(user, Role.MANAGER):
        messages.success(
            request, gettext("Draft written from the conversation: edit it, then publish.")
        )
        return redirect("knowledge:article", article_id=suggestion.article_id)
    messages.success(
        request, gettext("Suggested as an article: a manager will edit and publish it.")
    )
    return redirect("console:conversation", inquiry_id=suggestion.message.inquiry_id)


@require_GET
@role_required(Role.MANAGER)
def gaps(request: HttpRequest) -> HttpResponse:
    """The gaps, each question shown (and offered as an article's title) without the
    customer's details."""
    rows = [
        (gap, customer_details_stripped(gap.question, language=gap.language))
        for gap in knowledge_gaps()
    ]
    return render(request, "operators/knowledge/gaps.html", {"rows": rows, "days": GAP_DAYS})
