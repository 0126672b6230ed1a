"""Template filters for the console: yen, spans of time, labels for codes, ISO timestamps."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.utils.html import format_html_join

from agents.support.vocabulary import OperatorDecision
from netshop import money
from netshop.services.coupons import coupon_codes_withheld
from operators import labels, navigation
from operators.models import DEFAULT_TIME_ZONE
from operators.notifications.preferences import notification_preference_get
from operators.preferences import COMMON_TIME_ZONES

register = template.Library()


@register.filter
def yen(amount: Any) -> str:
    """An amount as the console shows it: "¥12,800" (the shop's one formatter)."""
    return money.yen(amount)


@register.simple_tag
def decision_values() -> type[OperatorDecision]:
    """The decisions by name, for forms: ``{% decision_values as D %}`` then ``{{ D.APPROVE }}``
    (the values are defined once, in ``agents.support.vocabulary``)."""
    return OperatorDecision


@register.filter
def codes_withheld(text: Any) -> str:
    """A customer's reply as staff see it: a coupon code is the customer's to redeem."""
    return coupon_codes_withheld(str(text or ""))


@register.filter
def duration(minutes: Any) -> str:
    try:
        return labels.duration(int(minutes))
    except (TypeError, ValueError):
        return ""


@register.filter
def elapsed(span: timedelta | None) -> str:
    """A measured wait in the reader's words ("under a second", 「2分」)."""
    return labels.elapsed(span)


@register.filter
def shown_as(code: Any, term: str) -> str:
    """A stored code in the reader's words: ``{{ step.status|shown_as:"plan_step" }}``."""
    return labels.label(labels.TERMS[term], None if code is None else str(code))


@register.filter
def kind_label(code: str) -> str:
    return labels.label(labels.KIND_LABELS, code)


@register.filter
def reason_label(code: str) -> str:
    return labels.label(labels.REASON_LABELS, code)


@register.filter
def status_label(code: str) -> str:
    return labels.label(labels.INQUIRY_STATUS_LABELS, code)


@register.filter
def decision_label(code: str) -> str:
    return labels.label(labels.DECISION_LABELS, code)


@register.filter
def iso_datetime(value: Any) -> datetime | None:
    """An ISO timestamp from a package as a datetime, so ``|date`` shows it in the user's zone."""
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


@register.filter
def pretty_json(value: Any) -> str:
    """Structured data as indented JSON text (auto-escaped like any other text)."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True, default=str)


@register.inclusion_tag("operators/console/_preferences.html", takes_context=True)
def preference_form(context: template.Context) -> dict[str, Any]:
    """The language, time-zone, triage and notification switches, showing the user's current
    choice."""
    request = context["request"]
    preference = getattr(request, "staff_preference", None)
    current_zone = preference.time_zone if preference else DEFAULT_TIME_ZONE
    zones = list(COMMON_TIME_ZONES)
    if current_zone not in zones:
        zones.append(current_zone)
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "language": preference.language if preference else "",
        "time_zone": current_zone,
        "zones": zones,
        "notify": notification_preference_get(user=request.user),
        "open_next": preference.open_next if preference else True,
    }


@register.filter
def subtask_result(task: Any) -> str:
    return labels.subtask_result(task or {})


@register.filter
def check_text(check: Any) -> str:
    return labels.check_text(check or {})


@register.filter
def error_text(code: Any) -> str:
    return labels.error_text(str(code or ""))


@register.simple_tag
def term_words(term: str) -> str:
    """``data-<term>-<code>="word"`` for every code of a term, for a script that shows codes
    arriving live (``static/js/console/thread.js``)."""
    return format_html_join(
        " ",
        'data-{}-{}="{}"',
        ((term, code, str(word)) for code, word in labels.TERMS[term].items()),
    )


@register.inclusion_tag("operators/_nav.html", takes_context=True)
def staff_nav(context: template.Context) -> dict[str, Any]:
    """The staff menu (console and manager pages): the pages the signed-in user may open."""
    request = context["request"]
    return {"links": navigation.staff_links(user=request.user, path=request.path)}
