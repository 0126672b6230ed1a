"""The decision form's preview: the exact reply a decision would send, before it is sent.

Called by ``static/js/console/preview.js`` as the operator picks a decision and types; the
answer is JSON the script shows as text (never as HTML: the reply may quote the customer).
"""

from __future__ import annotations

from typing import Any, cast
from uuid import UUID

from django.contrib.auth.models import User
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from agents.support.escalations.claims import claim_touch
from agents.support.escalations.services import escalation_preview
from netshop.errors import DomainError
from netshop.roles import Role
from operators.access import role_required
from operators.console.forms import DecisionForm

LANGUAGE_NAMES = {"ja": _("Japanese"), "en": _("English")}


@require_POST
@role_required(Role.OPERATOR)
def preview(request: HttpRequest, escalation_id: UUID) -> JsonResponse:
    claim_touch(escalation_id=escalation_id, user=cast(User, request.user))
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"ok": False, "message": gettext("The form is not valid.")}, status=422)
    try:
        shown = escalation_preview(
            escalation_id=escalation_id, user=cast(User, request.user), **form.preview_kwargs()
        )
    except DomainError as error:
        return JsonResponse({"ok": False, "message": error.localized()}, status=error.status)
    return JsonResponse({"ok": True, **shown.as_dict(), "warning": _warning(shown.as_dict())})


def _warning(shown: dict[str, Any]) -> str:
    if not shown["language_mismatch"]:
        return ""
    return gettext(
        "This text is in %(text)s, but the customer writes %(customer)s. Confirm to send it "
        "as written, or write it again."
    ) % {
        "text": LANGUAGE_NAMES.get(shown["text_language"], shown["text_language"]),
        "customer": LANGUAGE_NAMES.get(shown["customer_language"], shown["customer_language"]),
    }
