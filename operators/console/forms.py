"""Parsing what operators send: queue filters, decisions and preferences.

The forms only parse; the shop's rules (amount limits, required reasons) are the services'
to enforce, so the console shows the same refusal the API gives.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from agents.models import AnswerVerdict, EscalationKind, WrongAnswerReason
from agents.support.conversations.search import STATUS_FILTERS
from agents.support.escalations.answer_reviews import Verdict
from agents.support.escalations.selectors import QueueOrder
from agents.support.vocabulary import DECIDE_DECISIONS, OperatorDecision
from operators.labels import INBOX_FILTER_LABELS, REASON_LABELS, REASONS

OVERDUE_CHOICES = [("", _("any")), ("yes", _("overdue")), ("no", _("not overdue"))]
ORDER_CHOICES = [
    ("deadline", _("deadline, soonest first")),
    ("amount", _("amount at risk, largest first")),
]


class QueueFilterForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Kind"),
        required=False,
        choices=[("", _("all kinds")), *EscalationKind.choices],
    )
    reason = forms.ChoiceField(
        label=_("Reason"),
        required=False,
        choices=[("", _("all reasons")), *((r, REASON_LABELS.get(r, r)) for r in REASONS)],
    )
    overdue = forms.ChoiceField(label=_("Overdue"), required=False, choices=OVERDUE_CHOICES)
    mine = forms.BooleanField(label=_("Mine"), required=False)
    unclaimed = forms.BooleanField(label=_("Unclaimed"), required=False)
    managers = forms.BooleanField(label=_("Managers' queue"), required=False)
    order = forms.ChoiceField(label=_("Sort by"), required=False, choices=ORDER_CHOICES)
    cursor = forms.CharField(required=False, max_length=400, widget=forms.HiddenInput)

    def filters(self) -> dict[str, Any]:
        """Keyword arguments for ``escalation_list``; invalid fields count as unset."""
        self.is_valid()  # cleaned_data keeps only the valid fields: invalid ones count as unset
        data = self.cleaned_data
        overdue = {"yes": True, "no": False}.get(data.get("overdue") or "")
        return {
            "kind": data.get("kind") or None,
            "reason": data.get("reason") or None,
            "overdue": overdue,
            "mine": bool(data.get("mine")),
            "unclaimed": bool(data.get("unclaimed")),
            "managers": bool(data.get("managers")),
        }

    def cursor_value(self) -> str | None:
        self.is_valid()
        return self.cleaned_data.get("cursor") or None

    def order_value(self) -> QueueOrder:
        """The queue's order; unknown or unset, by deadline."""
        self.is_valid()
        return "amount" if self.cleaned_data.get("order") == "amount" else "deadline"


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[(d.value, d.label) for d in DECIDE_DECISIONS])
    amount = forms.IntegerField(label=_("Amount (¥)"), required=False)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500)
    reply = forms.CharField(
        label=_("Reply to the customer"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    confirm_language = forms.BooleanField(required=False)
    # The reply the operator was shown (preview.js fills it in): the decision is refused if
    # it is no longer the reply it sends. Left empty (no script), nothing is compared.
    preview = forms.CharField(required=False, max_length=20000, strip=False)
    # Decide this action alone (the per-action forms); empty: every action still waiting.
    action_id = forms.CharField(required=False, max_length=200)

    def service_kwargs(self) -> dict[str, Any]:
        """Arguments for ``escalation_decide`` (an edit carries only what the operator set)."""
        return self.preview_kwargs() | {
            "confirm_language": bool(self.cleaned_data.get("confirm_language")),
            "preview": self.cleaned_data.get("preview") or None,
            "action_id": self.cleaned_data.get("action_id") or None,
        }

    def preview_kwargs(self) -> dict[str, Any]:
        """The decision as the operator has it so far, for ``decision_reply_preview``."""
        data = self.cleaned_data
        params: dict[str, Any] = {}
        if data["decision"] == OperatorDecision.EDIT:
            if data.get("amount") is not None:
                params["amount"] = data["amount"]
            if data.get("reason"):
                params["reason"] = data["reason"]
        decision = data["decision"]
        return {
            "decision": decision,
            "params": params,
            "reason": (data.get("reason") or "") if decision == OperatorDecision.REJECT else "",
            "reply": (data.get("reply") or "")
            if decision in (OperatorDecision.TAKE_OVER, OperatorDecision.EDIT)
            else "",
        }


class VerdictForm(forms.Form):
    """A reviewer's verdict on the AI answer of a review escalation; "save and next" goes on
    to the next answer waiting for review (``then=next``)."""

    verdict = forms.ChoiceField(label=_("Verdict"), choices=AnswerVerdict.choices)
    reason = forms.ChoiceField(
        label=_("What was wrong"),
        required=False,
        choices=[("", _("choose what was wrong")), *WrongAnswerReason.choices],
    )
    note = forms.CharField(label=_("Note (for the team)"), required=False, max_length=2000)
    correction = forms.CharField(
        label=_("Correction to the customer (optional, sent once)"),
        required=False,
        max_length=5000,
    )
    confirm_language = forms.BooleanField(required=False)
    then = forms.ChoiceField(required=False, choices=[("", ""), ("next", "next")])

    def service_kwargs(self) -> dict[str, Any]:
        """Arguments for ``answer_review_record``: the rules (a reason when wrong) are its."""
        data = self.cleaned_data
        return {
            "verdict": Verdict(data["verdict"], data.get("reason") or "", data.get("note") or ""),
            "correction": data.get("correction") or "",
            "confirm_language": bool(data.get("confirm_language")),
        }


class DraftSendForm(forms.Form):
    """The reply a draft holds, as the operator sends it (unchanged, or edited)."""

    text = forms.CharField(label=_("Reply to the customer"), max_length=4000, strip=False)
    confirm_language = forms.BooleanField(required=False)

    def service_kwargs(self) -> dict[str, Any]:
        """Arguments for ``draft_send``: whether the text is an edit is the service's to tell."""
        return {
            "text": self.cleaned_data["text"],
            "confirm_language": bool(self.cleaned_data.get("confirm_language")),
        }


SHOWN = STATUS_FILTERS  # the inbox offers every filter the search knows


class InboxFilterForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=200)
    show = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[("", _("all conversations")), *((f, INBOX_FILTER_LABELS[f]) for f in SHOWN)],
    )
    page = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def search(self) -> dict[str, Any]:
        """Keyword arguments for ``inbox_page``; invalid fields count as unset."""
        self.is_valid()
        data = self.cleaned_data
        return {
            "text": data.get("q") or "",
            "status_filter": data.get("show") or "",
            "page": data.get("page") or 1,
        }


class PreferenceForm(forms.Form):
    """Language and time zone; the triage switch only when the form carries it (``triage``),
    so a post that sends the language alone leaves it as it is."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("browser default")), *settings.LANGUAGES],
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=())
    open_next = forms.BooleanField(label=_("After a decision, open the next item"), required=False)
    triage = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zones = sorted(zoneinfo.available_timezones())
        self.fields["time_zone"].choices = [(z, z) for z in zones]  # type: ignore[attr-defined]

    def preference_kwargs(self) -> dict[str, Any]:
        """Arguments for ``staff_preference_set`` (call after ``is_valid``)."""
        data = self.cleaned_data
        chosen = {"language": data["language"], "time_zone": data["time_zone"]}
        if data.get("triage"):
            chosen["open_next"] = bool(data.get("open_next"))
        return chosen


class NotificationPreferenceForm(forms.Form):
    """The notification switches; sent with the preferences form, marked by ``notifications``
    so a post that carries only the language and time zone leaves them as they are."""

    email_large_approval = forms.BooleanField(
        label=_("Mail me new approvals at or above the notification amount"), required=False
    )
    email_deadline_soon = forms.BooleanField(
        label=_("Mail me waits about to pass their deadline"), required=False
    )
    email_overdue = forms.BooleanField(
        label=_("Mail me approvals past their deadline (managers)"), required=False
    )
    browser_alerts = forms.BooleanField(
        label=_("Desktop notification and sound for new approvals"), required=False
    )
