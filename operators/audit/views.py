"""The manager pages: audit search, an inquiry's timeline, the CSV export, the dashboard,
AI autonomy and the shop's policy.

Managers only (``role_required``): operators get 403, anonymous visitors the login page.
Views parse, call a selector or presenter, and render.
"""

from __future__ import annotations

from typing import cast
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotAllowed,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from agents.models import AutonomyLevel
from agents.support.autonomy.levels import autonomy_set
from netshop.errors import DomainError
from netshop.policy import policy_change, policy_in_force
from netshop.roles import Role
from operators import labels
from operators.access import role_required
from operators.audit import presenters, selectors
from operators.audit.autonomy import AUTONOMY_DAYS, autonomy_rows, draft_table
from operators.audit.export import export_response
from operators.audit.forms import ACTION_SUGGESTIONS, AuditSearchForm
from operators.audit.policy import PolicyForm, policy_history, policy_rows

DASHBOARD_DAYS = (7, 30, 90)


@require_GET
@role_required(Role.MANAGER)
def search(request: HttpRequest) -> HttpResponse:
    form = AuditSearchForm(request.GET)
    context = {
        "form": form,
        "actions": [(a, labels.audit_action_text(a)) for a in ACTION_SUGGESTIONS],
        "verdicts": presenters.VERDICTS,
        "filtered": _without(request, "before"),
    }
    if not form.is_valid():
        return render(request, "operators/audit/search.html", context, status=400)
    entries = selectors.audit_search(form.filters(ai_steps_unless_asked=False))
    page = selectors.audit_page(entries, before=_int(request.GET.get("before")))
    context.update(page=page, rows=presenters.entry_rows(page.entries))
    return render(request, "operators/audit/search.html", context)


@require_GET
@role_required(Role.MANAGER)
def export(request: HttpRequest) -> HttpResponse:
    form = AuditSearchForm(request.GET)
    if not form.is_valid():
        return HttpResponseBadRequest(form.errors.as_text(), content_type="text/plain")
    chosen = form.filters(ai_steps_unless_asked=False)  # the rows the page shows
    response = export_response(request, selectors.audit_search(chosen))
    # ``role_required`` is typed for HttpResponse views; Django serves a streaming one the same.
    return cast(HttpResponse, response)


@require_GET
@role_required(Role.MANAGER)
def timeline(request: HttpRequest, inquiry_id: UUID) -> HttpResponse:
    found = selectors.inquiry_timeline(inquiry_id)
    if found.inquiry is None and not found.entries:
        raise Http404("no such inquiry in the audit log")
    context = {
        "inquiry_id": inquiry_id,
        "timeline": found,
        "rows": presenters.entry_rows(found.entries),
        "escalations": [(e, presenters.console_url(e.pk)) for e in found.escalations],
        "search": presenters.search_url(inquiry=inquiry_id),
        "entry_kinds": list(labels.ENTRY_KIND_LABELS),
    }
    return render(request, "operators/audit/timeline.html", context)


@require_GET
@role_required(Role.MANAGER)
def dashboard(request: HttpRequest) -> HttpResponse:
    days = _int(request.GET.get("days"))
    days = days if days in DASHBOARD_DAYS else 30
    window = selectors.Window.ending_today(days)
    context = {"window": window, "days": days, "choices": DASHBOARD_DAYS}
    context.update(presenters.dashboard(window), drafts=draft_table(window))
    return render(request, "operators/audit/dashboard.html", context)


@role_required(Role.MANAGER)
def autonomy(request: HttpRequest) -> HttpResponse:
    """Each intent's autonomy beside its measured accuracy and drafts; a manager changes one
    level at a time (POST), effective on the next message."""
    if request.method == "POST":
        return _autonomy_change(request)
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET", "POST"])
    window = selectors.Window.ending_today(AUTONOMY_DAYS)
    context = {
        "window": window,
        "rows": autonomy_rows(window),
        "levels": AutonomyLevel.choices,
    }
    return render(request, "operators/audit/autonomy.html", context)


def _autonomy_change(request: HttpRequest) -> HttpResponse:
    intent, level = request.POST.get("intent", ""), request.POST.get("level", "")
    try:
        autonomy_set(intent=intent, level=level, user=cast(User, request.user))
    except DomainError as error:
        messages.error(request, error.localized())
        return redirect("audit:autonomy")
    shown = labels.label(labels.SKILL_LABELS, intent)
    level_label = dict(AutonomyLevel.choices)[level]
    messages.success(
        request, gettext("%(intent)s: now %(level)s.") % {"intent": shown, "level": level_label}
    )
    return redirect("audit:autonomy")


@role_required(Role.MANAGER)
def policy(request: HttpRequest) -> HttpResponse:
    """The shop's limits in force with their version, the form that saves a new version
    (effective at once, everywhere), and the history of versions. Bad input saves nothing
    and shows the form again with what was wrong."""
    if request.method not in ("GET", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    form = PolicyForm(request.POST) if request.method == "POST" else None
    if form is not None and form.is_valid():
        try:
            version = policy_change(
                user=cast(User, request.user),
                values=form.limits(),
                reason=form.cleaned_data["reason"],
                based_on=form.cleaned_data["based_on"],
            )
        except DomainError as error:
            form.add_error(None, error.localized())
        else:
            messages.success(
                request,
                gettext("Policy version %(number)s is in force.") % {"number": version.number},
            )
            return redirect("audit:policy")
    in_force = policy_in_force()
    shown = form or PolicyForm.for_policy(in_force)
    context = {
        "policy": in_force,
        "rows": policy_rows(in_force, shown),
        "form": shown,
        "history": policy_history(),
    }
    return render(request, "operators/audit/policy.html", context, status=400 if form else 200)


def _without(request: HttpRequest, key: str) -> str:
    query = request.GET.copy()
    query.pop(key, None)
    return query.urlencode()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None
