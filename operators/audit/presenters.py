"""What the manager pages show: links back into the audit search, the dashboard's charts.

Kept apart from the views so the pages stay thin and the chart assembly can be read (and
tested) on its own.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from agents.team.handoffs.receipts import VERDICTS
from netshop.audit import AuditAction
from netshop.audit.models import AuditEntry
from netshop.money import yen
from operators import labels
from operators.audit import quality, selectors, support
from operators.audit.backlog import backlog_now
from operators.audit.charts import Chart, Column, Part, bar_chart, column_chart
from operators.audit.cohorts import Figure
from operators.audit.quality import Autonomy
from operators.audit.rows import readable_rows
from operators.labels import VERDICT_CSS

# VERDICTS come in the classifier's priority order (SPEC 6): the chart's row order.


def search_url(**filters: object) -> str:
    """The audit search with these filters (empty ones left out)."""
    query = {k: str(v) for k, v in filters.items() if v not in (None, "")}
    return reverse("audit:search") + ("?" + urlencode(query) if query else "")


def console_url(escalation_id: uuid.UUID) -> str:
    """The escalation's page in the operator console (``/console/escalations/<id>/``)."""
    return reverse("console:detail", kwargs={"escalation_id": escalation_id})


def entry_rows(entries: list[AuditEntry]) -> list[dict[str, Any]]:
    """Entries as table rows: the readable columns, the group, the data as JSON, console link."""
    return [
        {
            "entry": row.entry,
            "row": row,
            "amount": "" if row.amount is None else yen(row.amount),
            "kind": entry_kind(row.entry.action),
            "action": labels.audit_action_text(row.entry.action),
            "actor": labels.actor_text(row.entry.actor),
            "verdict": labels.label(labels.VERDICT_LABELS, row.verdict),
            "data": json.dumps(row.entry.data, ensure_ascii=False, sort_keys=True),
            "console": _console_link(row.entry.data),
        }
        for row in readable_rows(entries)
    ]


def _console_link(data: object) -> str:
    escalation_id = data.get("escalation_id") if isinstance(data, dict) else None
    try:
        return console_url(uuid.UUID(str(escalation_id))) if escalation_id else ""
    except ValueError:
        return ""


def entry_kind(action: str) -> str:
    """The timeline's grouping of an action: receipt, decision, side effect or run."""
    subject = action.split(".", 1)[0]
    return {
        "handoff": "receipt",
        "decision": "decision",
        "side_effect": "side-effect",
        "wait": "wait",
        "escalation": "decision",
    }.get(subject, "run")


def dashboard(window: selectors.Window) -> dict[str, Any]:
    """Every figure and chart of the dashboard for ``window`` (a fixed number of queries)."""
    dates = {"date_from": window.first, "date_to": window.last}
    days = selectors.inquiries_per_day(window)
    decided = selectors.decision_times(window)
    overdue = selectors.overdue_waits()
    finished = sum(day.finished for day in days)
    by_ai = sum(day.by_ai for day in days)
    return {
        "inquiries": sum(day.total for day in days),
        "finished": finished,
        "by_ai": by_ai,
        "share_by_ai": round(100 * by_ai / finished) if finished else None,
        "per_day": _per_day_chart(days),
        "reasons": _reason_chart(selectors.escalations_by_reason(window), dates),
        "decided": decided,
        "median": labels.elapsed(decided.median),
        "p90": labels.elapsed(decided.p90),
        "decision_chart": _decision_chart(decided, dates),
        "verdicts": _verdict_chart(selectors.verdict_counts(window), dates),
        "overdue_chart": _overdue_chart(overdue.by_reason),
        "overdue_total": sum(n for _, n in overdue.by_reason),
        "overdue_rows": [(e, console_url(e.pk)) for e in overdue.oldest],
        "support": support_figures(window),
        "now": backlog_now(),
    }


def support_figures(window: selectors.Window) -> dict[str, Any]:
    """The figures a support lead is measured on, each with the link to its rows."""
    dates = {"date_from": window.first, "date_to": window.last}
    first, resolved = support.first_response(window), support.resolution(window)
    return {
        "first_response": _spread(
            first, _figure_url(Figure.ANSWERED, AuditAction.REPLY_SENT, dates)
        ),
        "resolution": _spread(resolved, search_url(figure=Figure.RESOLVED, **dates)),
        "ai": support.ai_resolution(window),
        "ai_href": _figure_url(Figure.AI_RESOLVED, AuditAction.REPLY_SENT, dates),
        "reopened_href": _figure_url(Figure.AI_REOPENED, AuditAction.CONVERSATION_REOPENED, dates),
        "flagged_href": _figure_url(Figure.AI_FLAGGED, AuditAction.CONVERSATION_FLAGGED, dates),
        "reviewed_wrong_href": _figure_url(
            Figure.AI_REVIEWED_WRONG, AuditAction.ANSWER_REVIEWED, dates
        ),
        "quality": quality_rows(support.reviewed_quality(window), dates),
        "customers_word": customers_word_rows(support.customers_word(window), dates),
        "not_solved_href": _figure_url(Figure.AI_NOT_SOLVED, AuditAction.ANSWER_FEEDBACK, dates),
        "refund_total": yen(support.refund_total(window)),
        "refunds_href": search_url(action=AuditAction.SIDE_EFFECT_REFUND, **dates),
        "refunds_by_operator": _refund_lines(support.refunds_by(window, "actor"), "actor", dates),
        "refunds_by_reason": _refund_lines(support.refunds_by(window, "reason"), "reason", dates),
        "against": support.decisions_against(window),
        "edited_href": search_url(action=AuditAction.DECISION_EDIT, **dates),
        "rejected_href": search_url(action=AuditAction.DECISION_REJECT, **dates),
        "decisions_href": search_url(action="decision.", **dates),
        "deadlines": support.deadlines_met(window),
        "late_href": _figure_url(Figure.LATE, "decision.", dates),
    }


RECOMMENDATIONS = {
    Autonomy.MORE: gettext_lazy("supports more autonomy"),
    Autonomy.LESS: gettext_lazy("needs less autonomy"),
    Autonomy.KEEP: "",
}


def quality_rows(reviewed: support.ReviewedQuality, dates: dict[str, dt.date]) -> dict[str, Any]:
    """The AI quality table: per intent and overall, the reviews, the accuracy with its 95%
    interval and what it says about autonomy; each row links to its verdicts."""
    return {
        "rows": [accuracy_row(a, dates) for a in reviewed.per_intent],
        "overall": accuracy_row(reviewed.overall, dates),
        "wrong_by_reason": [
            (labels.label(labels.WRONG_ANSWER_LABELS, reason), n)
            for reason, n in reviewed.wrong_by_reason
        ],
    }


def accuracy_row(accuracy: quality.Accuracy, dates: dict[str, dt.date]) -> dict[str, Any]:
    interval = accuracy.interval
    return {
        "intent": accuracy.intent,
        "label": labels.label(labels.SKILL_LABELS, accuracy.intent) if accuracy.intent else "",
        "reviews": accuracy.reviewed,
        "correct": accuracy.correct,
        "wrong": accuracy.wrong,
        "accuracy": _percent(accuracy.share),
        "low": _percent(interval[0] if interval else None),
        "high": _percent(interval[1] if interval else None),
        "recommendation": accuracy.recommendation.value,
        "advice": RECOMMENDATIONS[accuracy.recommendation],
        "href": search_url(action=AuditAction.ANSWER_REVIEWED, **dates),
    }


def customers_word_rows(word: support.CustomersWord, dates: dict[str, dt.date]) -> dict[str, Any]:
    """The customers' word table: per intent and overall, the answers they gave their word
    on, how many they marked solved and not solved, and each as a share of those."""
    href = search_url(action=AuditAction.ANSWER_FEEDBACK, **dates)
    return {
        "rows": [_word_row(w, href) for w in word.per_intent],
        "overall": _word_row(word.overall, href),
    }


def _word_row(word: quality.CustomerWord, href: str) -> dict[str, Any]:
    return {
        "intent": word.intent,
        "label": labels.label(labels.SKILL_LABELS, word.intent) if word.intent else "",
        "answered": word.answered,
        "solved": word.solved,
        "not_solved": word.not_solved,
        "solved_share": _percent(word.solved_share),
        "not_solved_share": _percent(word.not_solved_share),
        "href": href,
    }


def _percent(share: float | None) -> str:
    """A share as the dashboard shows it: "93.5%" (one decimal, so 95% is not rounded up to)."""
    return "–" if share is None else f"{math.floor(share * 1000) / 10:.1f}%"


def _spread(spread: support.Spread, href: str) -> dict[str, Any]:
    return {
        "count": spread.count,
        "p50": labels.elapsed(spread.p50),
        "p90": labels.elapsed(spread.p90),
        "href": href,
    }


def _figure_url(figure: Figure, action: str, dates: dict[str, dt.date]) -> str:
    return search_url(figure=figure, action=action, **dates)


def _refund_lines(
    lines: list[support.RefundLine], by: str, dates: dict[str, dt.date]
) -> list[dict[str, Any]]:
    """Refund table rows; each links to its refunds (the operator's, or those for a reason).
    A reason the specialists word (``damaged item``) is shown in the reader's language."""
    narrowed = "actor" if by == "actor" else "refund_reason"
    shown = labels.CUSTOMER_REASON_LABELS if by == "reason" else {}
    return [
        {
            "key": labels.label(shown, line.key) if shown else line.key,
            "count": line.count,
            "yen": yen(line.yen),
            "href": search_url(
                action=AuditAction.SIDE_EFFECT_REFUND, **{narrowed: line.key}, **dates
            ),
        }
        for line in lines
    ]


def _per_day_chart(days: list[selectors.DayFigures]) -> Chart:
    columns = []
    for day in days:
        href = search_url(action=AuditAction.INQUIRY_RECEIVED, date_from=day.day, date_to=day.day)
        rest = day.total - day.by_ai - day.with_person
        figures = {"day": day.day, "ai": day.by_ai, "person": day.with_person, "rest": rest}
        columns.append(
            Column(
                f"{day.day:%m/%d}",
                [
                    Part(day.by_ai, "ai", _("%(day)s: %(ai)d resolved by AI") % figures, href),
                    Part(
                        day.with_person,
                        "person",
                        _("%(day)s: %(person)d with a person") % figures,
                        href,
                    ),
                    Part(rest, "other", _("%(day)s: %(rest)d open or failed") % figures, href),
                ],
            )
        )
    return column_chart(columns, title=_("Inquiries per day"))


def _reason_chart(reasons: list[tuple[str, int]], dates: dict[str, dt.date]) -> Chart:
    bars = [
        (
            labels.label(labels.REASON_LABELS, reason),
            Part(n, "bad", _count(labels.REASON_LABELS, reason, n), _wait_url(reason, dates)),
        )
        for reason, n in reasons
    ]
    return bar_chart(bars, title=_("Escalations by reason"))


def _decision_chart(decided: selectors.DecisionTimes, dates: dict[str, dt.date]) -> Chart:
    href = search_url(action="decision.", **dates)
    bars = [
        (
            labels.label(labels.DECISION_BUCKET_LABELS, key),
            Part(n, "person", _count(labels.DECISION_BUCKET_LABELS, key, n), href),
        )
        for key, n in decided.buckets
    ]
    return bar_chart(bars, title=_("Time to decision"))


def _verdict_chart(counts: dict[str, int], dates: dict[str, dt.date]) -> Chart:
    names = list(VERDICTS) + sorted(set(counts) - set(VERDICTS))
    bars = [
        (
            labels.label(labels.VERDICT_LABELS, name) or _("(none)"),
            Part(
                counts.get(name, 0),
                VERDICT_CSS.get(name, "bad"),
                _count(labels.VERDICT_LABELS, name, counts.get(name, 0)),
                search_url(action=AuditAction.HANDOFF_VERDICT, verdict=name, **dates),
            ),
        )
        for name in names
    ]
    return bar_chart(bars, title=_("Hand-off verdicts"))


def _overdue_chart(by_reason: list[tuple[str, int]]) -> Chart:
    bars = [
        (
            labels.label(labels.REASON_LABELS, reason),
            Part(
                n,
                "bad",
                _("%(what)s: %(n)d overdue")
                % {"what": labels.label(labels.REASON_LABELS, reason), "n": n},
                _wait_url(reason, {}),
            ),
        )
        for reason, n in by_reason
    ]
    return bar_chart(bars, title=_("Overdue waits by reason"))


def _count(shown: Mapping[str, labels.Label], code: str, n: int) -> str:
    """A bar's tooltip: its label and its count, e.g. "approval required: 3"."""
    return _("%(what)s: %(n)d") % {"what": labels.label(shown, code) or _("(none)"), "n": n}


def _wait_url(reason: str, dates: dict[str, dt.date]) -> str:
    return search_url(action=AuditAction.WAIT_OPENED, reason=reason, **dates)
