"""With the console set to Japanese, no page a manager opens shows a code or an English label.

Issue 26, section 3: the manager walks the console (queue, an escalation of each kind, a
conversation, the inbox) and the manager pages (audit search, an inquiry's timeline, the
dashboard, autonomy) on data that holds every code: escalations of each kind and reason,
an audit entry of each action, each hand-off verdict, each live event, a refund whose reason
the specialists word in English. The page text (what a person reads, tooltips and labels
included) must hold no value of those code sets and no English label of the catalogue
(``operators.labels``) whose Japanese differs. Raw data shown on purpose for engineers (an
entry's JSON, an operation id) is marked ``translate="no"`` and left out.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping
from html.parser import HTMLParser
from typing import Any, cast, get_args

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone, translation

from agents.models import (
    ConsoleEvent,
    Escalation,
    EscalationKind,
    EscalationStatus,
    Inquiry,
    InquiryStatus,
)
from agents.support.escalations.services import escalation_decide, escalation_record_wait
from agents.support.events.names import EventName
from agents.support.shapes import PendingAction
from agents.support.vocabulary import OperatorDecision
from agents.team.handoffs.receipts import VERDICTS
from netshop.audit import AuditAction, audit_record
from netshop.roles import Role
from netshop.services.refunds import refund_create
from operators import labels
from operators.preferences import staff_preference_set
from tests.factories import CustomerFactory, delivered_order
from tests.operators.api_helpers import REFUND_ACTION, inquiry_for, signed_in, staff_user

pytestmark = pytest.mark.django_db

MANAGER = "kanrisha"  # a username no code or label contains
OPERATOR = "tantousha"
AGENT_NAMES = ("supervisor", "order", "shipping", "payment", "faq")


# --- What a person reads ---------------------------------------------------------------------

# Attributes people read (a tooltip, a screen reader's name, a datalist's label).
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "label", "alt")
UNREAD = {"script", "style", "template"}


class _Reader(HTMLParser):
    """The text of a page as a person reads it, leaving out ``translate="no"`` data."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []  # the open elements whose content nobody reads as words

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in self.VOID:
            self._read_attributes(found)
            return
        if self.skipping or tag in UNREAD or found.get("translate") == "no":
            self.skipping.append(tag)
            return
        self._read_attributes(found)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skipping:
            self._read_attributes(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and tag in self.VOID:
            return
        if self.skipping:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)

    def _read_attributes(self, attrs: Mapping[str, str | None]) -> None:
        if self.skipping:
            return
        self.parts.extend(str(attrs[name]) for name in READ_ATTRIBUTES if attrs.get(name))


def read(html: str) -> str:
    reader = _Reader()
    reader.feed(html)
    return re.sub(r"\s+", " ", " ".join(reader.parts))


# --- The codes and the catalogue's English ---------------------------------------------------


def codes() -> set[str]:
    """Every code a page could show raw."""
    return {
        *(str(k) for k in EscalationKind.values),
        *(str(s) for s in EscalationStatus.values),
        *(str(s) for s in InquiryStatus.values),
        *(str(d) for d in OperatorDecision.values),
        *labels.REASON_LABELS,
        *get_args(labels.ReasonCategory),
        *(a.value for a in AuditAction),
        *VERDICTS,
        *get_args(EventName),
        *labels.QUEUE_LABELS,
        *labels.DECISION_BUCKET_LABELS,
    }


def _catalogues() -> Iterator[Mapping[str, labels.Label]]:
    for value in vars(labels).values():
        if (
            isinstance(value, dict)
            and value
            and all(isinstance(k, str) for k in value)
            and all(isinstance(v, str | labels.Promise) for v in value.values())
        ):
            yield value


def english_labels() -> set[str]:
    """The catalogue's labels in English whose Japanese differs (a label the same in both,
    such as "FAQ", says nothing about the page's language)."""
    found = set()
    for catalogue in _catalogues():
        for text in catalogue.values():
            with translation.override("en"):
                english = str(text)
            with translation.override("ja"):
                japanese = str(text)
            if english != japanese and re.search("[A-Za-z]", english):
                found.add(english)
    return found


def seen(words: Iterable[str], text: str, *, within_japanese: bool = True) -> list[str]:
    """The ``words`` standing alone in ``text`` (not inside a longer Latin word or code).

    ``within_japanese=False`` for labels: an English label that begins a Japanese one
    ("FAQ" of 「FAQ担当」) is part of a translated word, not left untranslated.
    """
    return sorted(word for word in words if _where(word, text, within_japanese))


def shown_in(words: Iterable[str], text: str, *, within_japanese: bool = True) -> list[str]:
    """``seen``, each with the text around it: what a failure names."""
    return [
        f"{word}: …{_where(word, text, within_japanese)}…"
        for word in seen(words, text, within_japanese=within_japanese)
    ]


def _where(word: str, text: str, within_japanese: bool) -> str:
    flags = re.ASCII if within_japanese else 0
    found = re.search(rf"(?<![\w.:-]){re.escape(word)}(?![\w-]|[.:]\w)", text, flags=flags)
    return text[max(found.start() - 30, 0) : found.end() + 30] if found else ""


# Durations and figures in English: "0 s", "2 min", "3 h 20 min", "max 4".
ENGLISH_UNITS = re.compile(r"\b\d+ (?:s|min|h|d)\b|\bmax \d", flags=re.ASCII)


# --- The data --------------------------------------------------------------------------------


def _escalation(inquiry: Inquiry, *, kind: str, reason: str) -> Escalation:
    # The reason as the specialists word it, in English: the page shows it in Japanese.
    refund = {**REFUND_ACTION, "params": {**REFUND_ACTION["params"], "reason": "damaged item"}}
    actions = [cast(PendingAction, refund)] if kind == EscalationKind.APPROVAL else []
    return escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:{kind}:{reason}",
        kind=kind,
        reason=reason,
        summary="お客様の依頼",
        package={"inquiry": {"text": inquiry.text, "customer_id": inquiry.customer.code}},
        actions=actions,
    )


@pytest.fixture
def manager() -> Client:
    user = staff_user(MANAGER, Role.MANAGER)
    staff_preference_set(user=user, language="ja", time_zone="Asia/Tokyo")
    client = signed_in(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # the browser says English; the console, ja
    return client


@pytest.fixture
def every_code() -> dict[str, Any]:
    """Escalations of each kind and each reason, an audit entry of each action, each verdict
    and live event, a conversation in each state, a decided escalation, a refund with an
    English-worded reason."""
    operator = staff_user(OPERATOR, Role.OPERATOR)
    customer = CustomerFactory.create()
    delivered_order(number="ORD-4003", customer=customer, captured=12800)
    inquiry = inquiry_for(customer, "注文ORD-4003の返金をお願いします")
    kinds = list(EscalationKind.values)
    escalations = [
        _escalation(inquiry, kind=kinds[i % len(kinds)], reason=reason)
        for i, reason in enumerate(sorted(labels.REASON_LABELS))
    ]
    escalations += [
        _escalation(inquiry, kind=kind, reason="approval_required") for kind in kinds[1:]
    ]
    Inquiry.objects.filter(pk=inquiry.pk).update(
        status=InquiryStatus.AWAITING_APPROVAL,
        intent="process_refund",
        handoffs=[
            {"receiver": AGENT_NAMES[i % len(AGENT_NAMES)], "verdict": v, "handoff_id": f"h{i}"}
            for i, v in enumerate(VERDICTS)
        ],
    )
    for status in InquiryStatus.values:  # the inbox shows a conversation in each state
        Inquiry.objects.filter(pk=inquiry_for(customer, "配送について").pk).update(status=status)
    decided = _escalation(
        inquiry_for(customer, "返金してください"), kind="approval", reason="approval_required"
    )
    escalation_decide(
        escalation_id=decided.pk,
        user=operator,
        decision=OperatorDecision.REJECT,
        reason="出荷済みのため返品で対応",
        confirm_language=True,
    )
    _every_audit_action(inquiry, escalations[0])
    _every_live_event(inquiry, escalations[0])
    _overdue(escalations[1])
    refund_create(
        order=delivered_order(number="ORD-4004", customer=customer, captured=3000),
        amount=3000,
        reason="damaged item",
        operation_id=f"{inquiry.pk}:process_refund:a9",
        actor=OPERATOR,
    )
    return {"inquiry": inquiry, "escalations": escalations, "decided": decided}


def _every_audit_action(inquiry: Inquiry, escalation: Escalation) -> None:
    reasons = sorted(labels.REASON_LABELS)
    actors = [*(f"agent:{name}" for name in AGENT_NAMES), "system", "customer", "channel:web"]
    for i, action in enumerate(AuditAction):
        audit_record(
            action=action.value,
            actor=actors[i % len(actors)],
            inquiry_id=inquiry.pk,
            reason=reasons[i % len(reasons)],
            verdict=VERDICTS[i % len(VERDICTS)],
            data={"escalation_id": str(escalation.pk), "wait_seconds": 30},
        )


def _every_live_event(inquiry: Inquiry, escalation: Escalation) -> None:
    for name in get_args(EventName):
        ConsoleEvent.objects.create(
            type=name,
            payload={
                "id": str(escalation.pk),
                "inquiry_id": str(inquiry.pk),
                "kind": escalation.kind,
                "reason": escalation.reason,
            },
        )


def _overdue(escalation: Escalation) -> None:
    Escalation.objects.filter(pk=escalation.pk).update(
        deadline=timezone.now() - dt.timedelta(minutes=5)
    )


def _pages(data: dict[str, Any]) -> list[str]:
    inquiry = data["inquiry"]
    return [
        "/console/",
        "/console/?kind=approval",
        *(f"/console/escalations/{e.pk}/" for e in data["escalations"]),
        f"/console/escalations/{data['decided'].pk}/",
        "/console/conversations/",
        f"/console/conversations/{inquiry.pk}/",
        "/audit/",
        "/audit/?action=decision.",
        f"/audit/inquiries/{inquiry.pk}/",
        "/audit/dashboard/",
        "/audit/dashboard/?days=7",
        "/audit/autonomy/",
    ]


# --- The walk --------------------------------------------------------------------------------


def test_every_page_a_manager_opens_reads_in_japanese(
    manager: Client, every_code: dict[str, Any]
) -> None:
    raw, english, units = {}, {}, {}
    known_codes, known_english = codes(), english_labels()

    for url in _pages(every_code):
        response = manager.get(url)
        assert response.status_code == 200, url
        assert response["Content-Language"] == "ja", url
        text = read(response.content.decode())
        raw[url] = shown_in(known_codes, text)
        english[url] = shown_in(known_english, text, within_japanese=False)
        units[url] = ENGLISH_UNITS.findall(text)

    assert {url: found for url, found in raw.items() if found} == {}
    assert {url: found for url, found in english.items() if found} == {}
    assert {url: found for url, found in units.items() if found} == {}


def test_the_walk_would_see_a_code_or_an_english_label() -> None:
    # The reader finds what a person reads, and leaves out only data marked translate="no".
    page = (
        '<p title="missing knowledge">承認 <span>HEALTHY</span></p>'
        '<details translate="no"><summary>ROUTE_REJECTED</summary>{"x": 1}</details>'
        '<input placeholder="console.login"><br><b>2 min</b>'
    )

    text = read(page)

    assert seen(codes(), text) == ["HEALTHY", "console.login"]
    assert seen(english_labels(), text, within_japanese=False) == ["missing knowledge"]
    assert ENGLISH_UNITS.findall(text) == ["2 min"]


def test_the_catalogue_names_every_audit_action_and_queue() -> None:
    assert {a.value for a in AuditAction} - set(labels.AUDIT_ACTION_LABELS) == set()
    assert {labels.owner_text("queue:operators"), labels.owner_text(MANAGER)} == {
        "operators' queue",
        MANAGER,
    }


@pytest.mark.parametrize(
    ("seconds", "english", "japanese"),
    [
        (0, "under a second", "1秒未満"),
        (0.4, "under a second", "1秒未満"),
        (40, "40 s", "40秒"),
        (120, "2 min", "2分"),
        (3 * 3600 + 20 * 60, "3 h 20 min", "3時間20分"),
    ],
)
def test_a_measured_span_reads_in_the_readers_language(
    seconds: float, english: str, japanese: str
) -> None:
    span = dt.timedelta(seconds=seconds)

    with translation.override("en"):
        assert labels.elapsed(span) == english
    with translation.override("ja"):
        assert labels.elapsed(span) == japanese
    assert labels.elapsed(None) == "–"


def test_a_staff_user_without_japanese_still_reads_english(every_code: dict[str, Any]) -> None:
    user = User.objects.get(username=OPERATOR)
    staff_preference_set(user=user, language="en", time_zone="UTC")

    response = signed_in(user).get("/console/", HTTP_ACCEPT_LANGUAGE="ja")

    assert response["Content-Language"] == "en"
    assert "Queue" in read(response.content.decode())
