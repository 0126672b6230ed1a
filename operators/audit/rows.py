"""Audit entries as a support lead reads them: customer, order, amount, decision, reason.

The chain rows stay as they are; the readable columns are derived from an entry's data and
the inquiry it belongs to. ``readable_rows`` reads what a batch of entries needs in a fixed
number of queries (customers, escalations, staff texts, notes), whatever the batch's size.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterable
from typing import Any

from django.utils import timezone

from agents.models import Escalation, Inquiry, Message, MessageAuthor, StaffText
from agents.team.handoffs.receipts import VERDICTS
from netshop.audit.models import AuditEntry
from operators.labels import DECISION_LABELS, REASON_LABELS, label


@dataclasses.dataclass(frozen=True)
class ReadableRow:
    entry: AuditEntry
    customer: str
    order: str
    amount: int | None
    decision: str
    reason_category: str
    verdict: str
    staff_text: str  # the operator's reason or note (managers read it; the chain has its digest)

    @property
    def time(self) -> str:
        return f"{timezone.localtime(self.entry.created_at):%Y-%m-%d %H:%M:%S}"


@dataclasses.dataclass(frozen=True)
class _Lookups:
    inquiries: dict[uuid.UUID, tuple[str, str]]  # id -> (customer code, worst verdict)
    escalations: dict[str, list[dict[str, Any]]]  # id -> its actions
    texts: dict[tuple[uuid.UUID, str], str]  # (inquiry, digest) -> staff text
    notes: dict[str, str]  # message id -> note text


def readable_rows(entries: list[AuditEntry]) -> list[ReadableRow]:
    """``entries`` with their readable columns (four queries, none per entry)."""
    found = _lookups(entries)
    return [_row(entry, found) for entry in entries]


def _lookups(entries: list[AuditEntry]) -> _Lookups:
    inquiry_ids = {e.inquiry_id for e in entries if e.inquiry_id}
    escalation_ids = {_uuid(_data(e).get("escalation_id")) for e in entries} - {None}
    digests = {str(_data(e)["reason_digest"]) for e in entries if _data(e).get("reason_digest")}
    note_ids = {
        _uuid(_data(e).get("message_id"))
        for e in entries
        if _data(e).get("author_kind") == MessageAuthor.NOTE
    } - {None}
    return _Lookups(
        inquiries={
            pk: (code, _worst_verdict(handoffs))
            for pk, code, handoffs in Inquiry.objects.filter(pk__in=inquiry_ids).values_list(
                "pk", "customer__code", "handoffs"
            )
        }
        if inquiry_ids
        else {},
        escalations={
            str(pk): actions
            for pk, actions in Escalation.objects.filter(pk__in=escalation_ids).values_list(
                "pk", "actions"
            )
        }
        if escalation_ids
        else {},
        texts={
            (inquiry, digest): text
            for inquiry, digest, text in StaffText.objects.filter(
                inquiry_id__in=inquiry_ids, digest__in=digests
            ).values_list("inquiry_id", "digest", "text")
        }
        if digests
        else {},
        notes={
            str(pk): text
            for pk, text in Message.objects.filter(
                pk__in=note_ids, author_kind=MessageAuthor.NOTE
            ).values_list("pk", "text")
        }
        if note_ids
        else {},
    )


def _row(entry: AuditEntry, found: _Lookups) -> ReadableRow:
    data = _data(entry)
    customer, inquiry_verdict = found.inquiries.get(entry.inquiry_id or uuid.UUID(int=0), ("", ""))
    actions = data.get("recommended") or found.escalations.get(str(data.get("escalation_id")), [])
    return ReadableRow(
        entry=entry,
        customer=customer or str(data.get("customer_id") or ""),
        order=_order(data, actions),
        amount=_amount(entry, data, actions),
        decision=_decision(entry.action),
        reason_category=label(REASON_LABELS, entry.reason),
        verdict=entry.verdict or str(data.get("verdict") or "") or inquiry_verdict,
        staff_text=_staff_text(entry, data, found),
    )


def _order(data: dict[str, Any], actions: list[dict[str, Any]]) -> str:
    if isinstance(data.get("order"), str):
        return str(data["order"])
    numbers = [_params(a).get("order_number") for a in actions]
    return ", ".join(dict.fromkeys(str(n) for n in numbers if n))


def _amount(entry: AuditEntry, data: dict[str, Any], actions: list[dict[str, Any]]) -> int | None:
    """The yen at stake: a side effect's amount, a wait's amount at risk, a decision's total
    (the decided figure where the operator changed it)."""
    if isinstance(data.get("amount"), int):
        return int(data["amount"])
    if entry.action.startswith("decision."):
        decided = {
            c["action_id"]: c["decided"]
            for c in data.get("changes") or []
            if c.get("param") == "amount" and "decided" in c
        }
        amounts = [decided.get(a.get("action_id"), _params(a).get("amount")) for a in actions]
        figures = [a for a in amounts if isinstance(a, int)]
        return sum(figures) if figures else None
    at_risk = data.get("amount_at_risk")
    return at_risk if isinstance(at_risk, int) and at_risk else None


def _decision(action: str) -> str:
    subject, _, event = action.partition(".")
    return label(DECISION_LABELS, event) if subject == "decision" else ""


def _staff_text(entry: AuditEntry, data: dict[str, Any], found: _Lookups) -> str:
    digest = data.get("reason_digest")
    if digest and entry.inquiry_id:
        return found.texts.get((entry.inquiry_id, str(digest)), "")
    if data.get("author_kind") == MessageAuthor.NOTE:
        return found.notes.get(str(data.get("message_id")), "")
    return ""


def _worst_verdict(handoffs: Iterable[dict[str, Any]] | None) -> str:
    """The inquiry's most telling hand-off verdict (VERDICTS come worst first)."""
    seen = {r.get("verdict") for r in handoffs or [] if isinstance(r, dict)}
    return next((v for v in VERDICTS if v in seen), "")


def _params(action: dict[str, Any]) -> dict[str, Any]:
    """An action's parameters: the escalation's (``params``) or a decision entry's figures."""
    params = action.get("params")
    return params if isinstance(params, dict) else action


def _data(entry: AuditEntry) -> dict[str, Any]:
    return entry.data if isinstance(entry.data, dict) else {}


def _uuid(value: object) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value)) if value else None
    except ValueError:
        return None
