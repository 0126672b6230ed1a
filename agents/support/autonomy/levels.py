"""Each intent's autonomy: the manager's setting, or the default.

Read from the database on every turn (one small query), so a manager's change applies to the
next message in every worker without a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from agents.models import AutonomyLevel, IntentAutonomy
from agents.support import audit_trail
from agents.support.vocabulary import Skill
from netshop.errors import DomainError

# The intents a customer's request can have (the cards' skills less the supervisor's own).
AUTONOMY_INTENTS: Final[tuple[str, ...]] = tuple(
    skill.value
    for skill in Skill
    if skill not in (Skill.CLASSIFY_AND_ROUTE, Skill.AGGREGATE_RESPONSES)
)

# The defaults: look-ups and the shop's help are sent, a general question outside the help
# (small talk, an off-topic message, a greeting) waits for a person. Refunds, cancellations and
# the other gated actions wait for an approval whatever their level says of the reply.
DEFAULT_LEVELS: Final[Mapping[str, AutonomyLevel]] = {
    intent: (AutonomyLevel.DRAFT if intent == Skill.ANSWER_GENERAL_QUESTION else AutonomyLevel.SEND)
    for intent in AUTONOMY_INTENTS
}


def autonomy_levels() -> dict[str, AutonomyLevel]:
    """Every intent's level now: the managers' settings over the defaults."""
    levels = dict(DEFAULT_LEVELS)
    for intent, level in IntentAutonomy.objects.values_list("intent", "level"):
        if intent in levels:
            levels[intent] = AutonomyLevel(level)
    return levels


def autonomy_level(intent: str) -> AutonomyLevel:
    """The level of ``intent`` now; an intent no card knows (an empty reading) is a draft."""
    if intent not in DEFAULT_LEVELS:
        return AutonomyLevel.DRAFT
    level = IntentAutonomy.objects.filter(intent=intent).values_list("level", flat=True).first()
    return AutonomyLevel(level) if level else DEFAULT_LEVELS[intent]


@transaction.atomic
def autonomy_set(*, intent: str, level: str, user: User) -> IntentAutonomy:
    """A manager sets ``intent``'s level (the role is the caller's to check); audited with
    who, and the level before and after."""
    if intent not in DEFAULT_LEVELS:
        raise DomainError("unknown_intent", intent=repr(intent))
    if level not in AutonomyLevel.values:
        raise DomainError(
            "invalid_autonomy_level", level=repr(level), allowed=", ".join(AutonomyLevel.values)
        )
    row = IntentAutonomy.objects.select_for_update().filter(intent=intent).first()
    before = row.level if row else DEFAULT_LEVELS[intent]
    row = row or IntentAutonomy(intent=intent)
    row.level, row.changed_by, row.changed_at = level, user, timezone.now()
    row.save()
    audit_trail.autonomy_changed(
        intent=intent, before=str(before), after=level, actor=user.username
    )
    return row
