"""The audit search's filters, parsed once for the search page, the export and chart links."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from netshop.audit import AuditAction
from operators.audit.cohorts import Figure

# Offered in the action field's list: whole subjects (``decision.``) and single actions.
ACTION_SUGGESTIONS = sorted(
    {action.value.split(".")[0] + "." for action in AuditAction} | {a.value for a in AuditAction}
)


# The AI's own bookkeeping of a run: hundreds a day, and not what a lead reviews first.
AI_STEPS: tuple[str, ...] = (
    AuditAction.INQUIRY_ROUTED,
    AuditAction.HANDOFF_VERDICT,
    AuditAction.AGENT_STARTED,
    AuditAction.AGENT_ENVELOPE,
    AuditAction.HANDOFF_RECEIPT,
)


@dataclasses.dataclass(frozen=True)
class AuditFilters:
    """Cleaned filters; empty values mean "any". ``action`` ending in a dot is a prefix."""

    inquiry: uuid.UUID | None = None
    actor: str = ""
    action: str = ""
    verdict: str = ""
    reason: str = ""
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    q: str = ""
    figure: str = ""  # a dashboard figure's conversations (``cohorts.Figure``)
    refund_reason: str = ""
    hide_ai_steps: bool = False  # leave out the AI's own steps (``AI_STEPS``)


class AuditSearchForm(forms.Form):
    inquiry = forms.UUIDField(required=False, label=_("Inquiry id"))
    actor = forms.CharField(required=False, max_length=150, label=_("Actor / operator"))
    action = forms.CharField(required=False, max_length=60, label=_("Action"))
    verdict = forms.CharField(required=False, max_length=40, label=_("Verdict"))
    reason = forms.CharField(required=False, max_length=60, label=_("Reason"))
    date_from = forms.DateField(required=False, label=_("From"))
    date_to = forms.DateField(required=False, label=_("To"))
    q = forms.CharField(required=False, max_length=120, label=_("Ids or order number"))
    figure = forms.ChoiceField(
        required=False,
        label=_("Dashboard figure"),
        choices=[("", "–"), *Figure.choices],
    )
    refund_reason = forms.CharField(required=False, max_length=120, label=_("Refund reason"))
    ai_steps = forms.BooleanField(
        required=False, label=_("Show the AI's own steps (routing, hand-offs)")
    )

    def clean(self) -> dict[str, object]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("date_from"), cleaned.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The start date is after the end date."))
        return cleaned

    def filters(self, *, ai_steps_unless_asked: bool = True) -> AuditFilters:
        """The filters of a valid form (call ``is_valid`` first). The audit page passes
        ``ai_steps_unless_asked=False``: its rows are decisions and side effects unless the
        manager ticks the AI's steps or searches by action, verdict, conversation or id."""
        data = self.cleaned_data
        named = any(data.get(key) for key in ("action", "verdict", "inquiry", "q"))
        return AuditFilters(
            hide_ai_steps=not (ai_steps_unless_asked or data.get("ai_steps") or named),
            inquiry=data.get("inquiry"),
            actor=(data.get("actor") or "").strip(),
            action=(data.get("action") or "").strip(),
            verdict=(data.get("verdict") or "").strip(),
            reason=(data.get("reason") or "").strip(),
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            q=(data.get("q") or "").strip(),
            figure=data.get("figure") or "",
            refund_reason=(data.get("refund_reason") or "").strip(),
        )
