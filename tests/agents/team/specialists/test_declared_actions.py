"""The specialists act on exactly the vocabulary's action skills.

The vocabulary names what needs a person (``GATED_SKILLS``) and what runs on the customer's
word (``DIRECT_ACTION_SKILLS``); the supervisor asks before acting on an unsure reading of any
of them, and the offline model reads them. Each specialist declares which of its tools are
which: the two must agree, or an action would slip past the check or be asked about wrongly.
"""

from __future__ import annotations

from agents.support.vocabulary import ACTION_SKILLS, DIRECT_ACTION_SKILLS, GATED_SKILLS
from agents.team.specialists import SPECIALISTS


def test_what_the_specialists_hold_for_approval_is_the_gated_skills() -> None:
    held = set().union(*(spec.approval_required for spec in SPECIALISTS.values()))

    assert held == set(GATED_SKILLS)


def test_what_they_do_on_the_customers_word_is_the_direct_action_skills() -> None:
    direct = set().union(*(spec.side_effects for spec in SPECIALISTS.values()))

    assert direct == set(DIRECT_ACTION_SKILLS)
    assert ACTION_SKILLS == GATED_SKILLS | DIRECT_ACTION_SKILLS
