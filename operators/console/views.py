"""The operator console's pages: the live queue, one escalation's hand-off package, decisions.

Views parse, check the role, call one selector or service and render. Every change goes
through ``agents.support.escalations.services`` (the same services as the API), which serialise
concurrent
claims and decisions and publish them to every open console.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from agents.models import ActionState, Escalation, EscalationKind, EscalationStatus
from agents.support.escalations.action_states import action_decisions_shown
from agents.support.escalations.answer_reviews import answer_review_record
from agents.support.escalations.claims import (
    claim_touch,
    escalation_assign,
    escalation_claim,
    escalation_release,
)
from agents.support.escalations.drafts import draft_send
from agents.support.escalations.selectors import (
    escalation_get,
    escalation_in_queue,
    escalation_list,
    escalation_next,
    review_next,
)
from agents.support.escalations.services import escalation_decide
from agents.support.vocabulary import OperatorDecision
from netshop.errors import DomainError
from netshop.roles import Role, user_has_role
from operators import labels
from operators.access import role_required
from operators.console import errors
from operators.console.forms import (
    DecisionForm,
    DraftSendForm,
    NotificationPreferenceForm,
    PreferenceForm,
    QueueFilterForm,
    VerdictForm,
)
from operators.console.presenters.detail import detail_page
from operators.console.presenters.queue import queue_rows
from operators.console.selectors import console_event_seq, open_escalation_count
from operators.headlines import escalation_headline
from operators.notifications.preferences import notification_preference_set
from operators.preferences import staff_preference_set

PAGE_SIZE = 50
# The queue as the operator last viewed it (filters and order, without the page): the one
# "the next item" is taken from.
QUEUE_VIEW_KEY = "console_queue_view"


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Where a login lands: staff in the console, demo customers on the help page."""
    if user_has_role(request.user, Role.OPERATOR):
        return redirect("console:queue")
    if hasattr(request.user, "customer"):
        return redirect("help:index")
    raise PermissionDenied


@require_GET
@role_required(Role.OPERATOR)
def queue(request: HttpRequest) -> HttpResponse:
    context = _queue_context(request)
    _remember_queue_view(request)
    status = 400 if "error" in context else 200
    return render(request, "operators/console/queue.html", context, status=status)


@require_GET
@role_required(Role.OPERATOR)
def rows(request: HttpRequest) -> HttpResponse:
    """The queue's table body (``?id=`` for one row, empty when it no longer belongs)."""
    if request.GET.get("id"):
        response = _one_row(request, request.GET["id"])
    else:
        context = _queue_context(request)
        response = render(request, "operators/console/_rows.html", context)
        response["X-Console-Seq"] = str(context["seq"])
        response["X-Next-Cursor"] = context.get("next_cursor") or ""
    response["X-Open-Count"] = str(open_escalation_count())  # the tab title's number
    return response


def _queue_context(request: HttpRequest) -> dict[str, Any]:
    form = QueueFilterForm(request.GET)
    seq = console_event_seq()  # read first: anything later arrives on the socket
    context: dict[str, Any] = {
        "form": form,
        "seq": seq,
        "rows": [],
        "next_cursor": None,
        "open_count": open_escalation_count(),
    }
    order = form.order_value()
    context["order"] = order
    try:
        page = escalation_list(
            user=request.user,
            order=order,
            limit=PAGE_SIZE,
            cursor=form.cursor_value(),
            **form.filters(),
        )
    except DomainError as error:
        return {**context, "error": error.message}
    now = timezone.now()
    filters = {k: v for k, v in request.GET.items() if k != "cursor"}
    return {
        **context,
        "rows": queue_rows(page.items, user=request.user, now=now, order=order),
        "next_cursor": page.next_cursor,
        "filter_query": filters,
        "on_later_page": bool(form.cursor_value()),
    }


def _one_row(request: HttpRequest, escalation_id: str) -> HttpResponse:
    form = QueueFilterForm(request.GET)
    escalation = escalation_in_queue(
        escalation_id=escalation_id, user=request.user, **form.filters()
    )
    if escalation is None:  # decided, unknown, or filtered out: the row leaves the page
        return HttpResponse("")
    order = form.order_value()
    row = queue_rows([escalation], user=request.user, now=timezone.now(), order=order)[0]
    return render(request, "operators/console/_row.html", {"row": row})


@require_GET
@role_required(Role.OPERATOR)
def detail(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    return _render_detail(request, escalation_id)


@require_GET
@role_required(Role.OPERATOR)
def live(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    """The detail page's live panel: claim and decision state, and the timeline."""
    try:
        page = detail_page(escalation_id=escalation_id, user=request.user)
    except DomainError:
        return HttpResponse(status=404)
    return render(request, "operators/console/_live.html", {"page": page})


@require_GET
@role_required(Role.OPERATOR)
def main(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    """The detail page's main column without its forms: the facts as they stand now, the
    conversation's status and the latest reply, re-read after every decision."""
    try:
        page = detail_page(escalation_id=escalation_id, user=request.user)
    except DomainError:
        return HttpResponse(status=404)
    context = {"page": page, "main_only": True}
    return render(request, "operators/console/_main.html", context)


@require_POST
@role_required(Role.OPERATOR)
def claim(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    return _change(request, escalation_id, escalation_claim, gettext("Claimed."))


@require_POST
@role_required(Role.OPERATOR)
def release(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    return _change(request, escalation_id, escalation_release, gettext("Released."))


@require_POST
@role_required(Role.OPERATOR)
def assign(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    """Give the escalation to the colleague chosen in "Assign to…"."""
    assignee = request.POST.get("assignee", "")
    done = gettext("Assigned to %(who)s.") % {"who": assignee}
    return _change(request, escalation_id, partial(escalation_assign, assignee=assignee), done)


@require_POST
@role_required(Role.OPERATOR)
def decide(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    claim_touch(escalation_id=escalation_id, user=_staff(request))  # activity, even if refused
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, escalation_id, form=form, status=422)
    try:
        escalation = escalation_decide(
            escalation_id=escalation_id, user=_staff(request), **form.service_kwargs()
        )
    except DomainError as error:
        return _refused(request, escalation_id, error, form=form)
    if _done_with(escalation) and request.staff_preference.open_next:  # type: ignore[attr-defined]
        # The message shows on another item's page: it names the one decided.
        said = gettext("%(headline)s — %(message)s") % {
            "headline": escalation_headline(escalation),
            "message": _decided_message(escalation),
        }
        messages.success(request, said)
        return _to_next(request, escalation)
    messages.success(request, _decided_message(escalation))
    return redirect("console:detail", escalation_id=escalation_id)


@require_GET
@role_required(Role.OPERATOR)
def next_item(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    """The item after this one in the operator's queue (the "n" key), or the queue."""
    try:
        escalation = escalation_get(escalation_id=escalation_id)
    except DomainError:
        return render(request, "operators/console/not_found.html", status=404)
    return _to_next(request, escalation)


@require_POST
@role_required(Role.OPERATOR)
def verdict(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    """A reviewer's verdict on the AI answer; "save and next" opens the next one to review."""
    claim_touch(escalation_id=escalation_id, user=_staff(request))
    form = VerdictForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, escalation_id, verdict_form=form, status=422)
    try:
        review = answer_review_record(
            escalation_id=escalation_id, user=_staff(request), **form.service_kwargs()
        )
    except DomainError as error:
        return _refused(request, escalation_id, error, verdict_form=form)
    shown = labels.label(labels.ANSWER_VERDICT_LABELS, review.verdict)
    messages.success(request, gettext("Verdict recorded: %(verdict)s.") % {"verdict": shown})
    if form.cleaned_data.get("then") != "next":
        return redirect("console:detail", escalation_id=escalation_id)
    following = review_next(user=_staff(request), after=escalation_id)
    if following is None:
        messages.info(request, gettext("No other answer waits for review."))
        return redirect(reverse("console:queue") + f"?kind={EscalationKind.REVIEW}")
    return redirect("console:detail", escalation_id=following.pk)


@require_POST
@role_required(Role.OPERATOR)
def send_draft(request: HttpRequest, escalation_id: UUID) -> HttpResponse:
    """Send the reply the AI drafted, as drafted or as the operator edited it; then the next
    draft waiting, or the queue."""
    claim_touch(escalation_id=escalation_id, user=_staff(request))
    form = DraftSendForm(request.POST)
    if not form.is_valid():
        return _render_detail(request, escalation_id, draft_form=form, status=422)
    try:
        draft_send(escalation_id=escalation_id, user=_staff(request), **form.service_kwargs())
    except DomainError as error:
        return _refused(request, escalation_id, error, draft_form=form)
    messages.success(request, gettext("Reply sent."))
    return redirect("console:detail", escalation_id=escalation_id)


@require_POST
@role_required(Role.OPERATOR)
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferenceForm(request.POST)
    if form.is_valid():
        staff_preference_set(user=request.user, **form.preference_kwargs())
    else:
        messages.error(request, gettext("Unknown language or time zone."))
    notifications = NotificationPreferenceForm(request.POST)
    if "notifications" in request.POST and notifications.is_valid():
        notification_preference_set(user=request.user, **notifications.cleaned_data)
    return redirect(_safe_next(request, reverse("console:queue")))


def _change(request: HttpRequest, escalation_id: UUID, service: Any, done: str) -> HttpResponse:
    try:
        service(escalation_id=escalation_id, user=_staff(request))
    except DomainError as error:
        if _wants_json(request):
            message = errors.refusal_message(error, _current(escalation_id))
            return JsonResponse({"ok": False, "message": message}, status=error.status)
        return _refused(request, escalation_id, error)
    if _wants_json(request):
        return JsonResponse({"ok": True, "message": done})
    messages.success(request, done)
    fallback = reverse("console:detail", kwargs={"escalation_id": escalation_id})
    return redirect(_safe_next(request, fallback))


def _refused(
    request: HttpRequest,
    escalation_id: UUID,
    error: DomainError,
    form: DecisionForm | None = None,
    verdict_form: VerdictForm | None = None,
    draft_form: DraftSendForm | None = None,
) -> HttpResponse:
    status = error.status
    if status == 404:
        return HttpResponse(status=404)
    message = errors.refusal_message(error, _current(escalation_id))
    return _render_detail(
        request,
        escalation_id,
        form=form,
        verdict_form=verdict_form,
        draft_form=draft_form,
        error=message,
        status=status,
    )


def _render_detail(
    request: HttpRequest,
    escalation_id: UUID,
    *,
    form: DecisionForm | None = None,
    verdict_form: VerdictForm | None = None,
    draft_form: DraftSendForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    sent = str(form.data.get("decision") or "") if form else ""
    try:
        page = detail_page(escalation_id=escalation_id, user=request.user, sent_decision=sent)
    except DomainError:
        return render(request, "operators/console/not_found.html", status=404)
    context = {
        "page": page,
        "form": form or DecisionForm(),
        "verdict_form": verdict_form or VerdictForm(),
        "draft_form_text": draft_form.data.get("text", "") if draft_form else "",
        "decision_error": error,
        "seq": console_event_seq(),
        "focus": request.GET.get("focus", ""),
    }
    return render(request, "operators/console/detail.html", context, status=status)


def _staff(request: HttpRequest) -> User:
    """The signed-in staff member (``role_required`` has turned everyone else away)."""
    return cast(User, request.user)


def _current(escalation_id: UUID) -> Any:
    try:
        return escalation_get(escalation_id=escalation_id)
    except DomainError:
        return None


def _remember_queue_view(request: HttpRequest) -> None:
    """Keep the queue's filters and order (not its page) for "the next item"; written only
    when they change, so a re-read of the same queue writes nothing."""
    view = request.GET.copy()
    view.pop("cursor", None)
    encoded = view.urlencode()
    if request.session.get(QUEUE_VIEW_KEY) != encoded:
        request.session[QUEUE_VIEW_KEY] = encoded


def _done_with(escalation: Escalation) -> bool:
    """The decision closed the escalation. One still open (other actions wait, or a manager's
    second approval) keeps the operator on its page, which says what it now waits for."""
    return escalation.status == EscalationStatus.DECIDED


def _to_next(request: HttpRequest, escalation: Escalation) -> HttpResponse:
    """On to the next open escalation of the operator's queue nobody else holds; the queue
    (as they viewed it) when none is left."""
    encoded = str(request.session.get(QUEUE_VIEW_KEY) or "")
    view = QueueFilterForm(QueryDict(encoded))
    following = escalation_next(
        user=request.user, after=escalation, order=view.order_value(), **view.filters()
    )
    if following is not None:
        return redirect("console:detail", escalation_id=following.pk)
    messages.info(request, gettext("No other escalation waits in this queue."))
    return redirect(reverse("console:queue") + (f"?{encoded}" if encoded else ""))


def _decided_message(escalation: Escalation) -> str:
    if escalation.status == EscalationStatus.OPEN:  # other actions, or four eyes, still wait
        states = {d["state"] for d in action_decisions_shown(escalation)}
        if ActionState.AWAITING_SECOND_APPROVAL in states:
            return gettext("Approval recorded: it needs a second approval by a manager.")
        return gettext("Decision recorded. The other actions still wait for a decision.")
    decision = (escalation.decision or {}).get("decision")
    if decision == OperatorDecision.TAKE_OVER:  # the AI stops: nothing resumes
        return gettext("Taken over: your reply goes to the customer and the AI stays silent.")
    what = labels.label(labels.DECISION_LABELS, decision)
    if decision == OperatorDecision.REJECT:
        return gettext("Decision recorded: %(decision)s. The customer is told the reason.") % {
            "decision": what
        }
    if decision in (OperatorDecision.APPROVE, OperatorDecision.EDIT):
        return gettext(
            "Decision recorded: %(decision)s. The action runs now and the customer is told "
            "the outcome."
        ) % {"decision": what}
    return gettext("Decision recorded: %(decision)s.") % {"decision": what}


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("Accept", "").startswith("application/json")


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else fallback
