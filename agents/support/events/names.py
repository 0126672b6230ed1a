"""The live events' names and the channel-layer groups that hear them, declared once."""

from __future__ import annotations

from typing import Literal

EventName = Literal[
    "escalation.created",
    "escalation.claimed",
    "escalation.released",
    "escalation.assigned",
    "escalation.claim_timed_out",
    "escalation.overdue",
    "conversation.assigned",
    "escalation.action_decided",  # one action decided (or first-approved); others still wait
    "escalation.decided",
    "escalation.resolved",
    "inquiry.updated",
    "conversation.message",
    "answer.feedback",  # a customer said whether an AI answer solved their problem
    "run.step",
]


STAFF_GROUP = "console.staff"


CHANNEL_MESSAGE_TYPE = "console.event"  # the consumer method: console_event


# Several events for one group, in order (``events_batch``); the consumer method:
# console_events, which handles each as ``console_event`` would.
CHANNEL_BATCH_TYPE = "console.events"


def inquiry_group(inquiry_id: object) -> str:
    """The group of one inquiry's watchers (the customer page, a detail page)."""
    return f"inquiry.{inquiry_id}"


# Access may have been revoked: sent to one login's open sockets, which re-check and close.
# Unnumbered and never recorded: it is no history, and no other console may read it.
ACCESS_REVOKED_EVENT = "access.revoked"


ACCESS_MESSAGE_TYPE = "access.revoked"  # the consumer method: access_revoked


def user_group(user_id: object) -> str:
    """The group of one login's open sockets (console and help page alike)."""
    return f"user.{user_id}"
