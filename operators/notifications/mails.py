"""The words of a notification mail, in the recipient's language, with a link to the escalation."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from agents.models import Escalation
from netshop.money import yen
from operators.headlines import escalation_headline
from operators.models import NotificationKind
from operators.preferences import staff_preference_get


@dataclass(frozen=True)
class Mail:
    subject: str
    body: str
    language: str


def escalation_link(escalation: Escalation) -> str:
    """The escalation's console page, absolute (``NETSHOP_CONSOLE_URL``)."""
    path = reverse("console:detail", kwargs={"escalation_id": escalation.pk})
    return f"{settings.NETSHOP_CONSOLE_URL}{path}"


def notification_mail(*, escalation: Escalation, kind: str, recipient: Any) -> Mail:
    """In their console language if they chose one (else the site's), times in their zone."""
    preference = staff_preference_get(user=recipient)
    language = preference.language or settings.LANGUAGE_CODE
    deadline = _local(escalation, preference.time_zone)
    with translation.override(language):
        subject = _subject(escalation, kind, language)
        body = "\n\n".join(
            [
                subject,
                gettext("Summary: %(summary)s") % {"summary": escalation_headline(escalation)},
                gettext("Amount at risk: %(amount)s")
                % {"amount": yen(escalation.amount_at_risk, language=language)},
                gettext("Deadline: %(deadline)s") % {"deadline": deadline},
                gettext("Open it in the console: %(link)s") % {"link": escalation_link(escalation)},
            ]
        )
    return Mail(subject=f"[NetShop] {subject}", body=body + "\n", language=language)


def _subject(escalation: Escalation, kind: str, language: str) -> str:
    """What to do, in people's words ("Refund ¥12,800 on ORD-1003"), not the run's note."""
    amount = yen(escalation.amount_at_risk, language=language)
    summary = escalation_headline(escalation)
    if kind == NotificationKind.LARGE_APPROVAL:
        return gettext("New approval of %(amount)s: %(summary)s") % {
            "amount": amount,
            "summary": summary,
        }
    if kind == NotificationKind.DEADLINE_SOON:
        return gettext("Deadline near: %(summary)s") % {"summary": summary}
    if kind == NotificationKind.SECOND_APPROVAL:
        return gettext("Second approval needed for %(amount)s: %(summary)s") % {
            "amount": amount,
            "summary": summary,
        }
    return gettext("Approval overdue: %(summary)s") % {"summary": summary}


def _local(escalation: Escalation, zone_name: str) -> str:
    try:
        zone = zoneinfo.ZoneInfo(zone_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = timezone.get_default_timezone()
    return escalation.deadline.astimezone(zone).strftime("%Y-%m-%d %H:%M %Z")
