"""The decision panel offers what the service allows, computed once for the template.

Given an escalation of each kind, when its panel is shaped, then the forms it shows are
exactly ``decisions_allowed`` (the rule the API enforces), and which form stands open and
whether the controls are locked are plain flags.
"""

from __future__ import annotations

import pytest

from agents.models import Escalation, EscalationKind
from agents.support.escalations.package import RETRY_RUN
from agents.support.escalations.services import decisions_allowed
from operators.console.presenters.decision import DecisionPanel, decision_panel
from tests.operators.api_helpers import REFUND_ACTION


def offered(panel: DecisionPanel) -> set[str]:
    shown = {
        "approve": panel.approve,
        "edit": panel.edit,
        "reject": panel.reject,
        "reviewed": panel.reviewed,
    }
    return {decision for decision, on in shown.items() if on} | {"take_over"}


@pytest.mark.parametrize("kind", list(EscalationKind))
def test_the_panel_offers_what_the_service_allows(kind: EscalationKind) -> None:
    escalation = Escalation(kind=kind, actions=[dict(REFUND_ACTION)])

    panel = decision_panel(escalation, state="unclaimed", user=None)

    assert offered(panel) == decisions_allowed(escalation)
    assert panel.take_over_open is (decisions_allowed(escalation) == {"take_over"})
    assert panel.retry is (kind == EscalationKind.FAILURE)


WITHOUT_REVIEW = [kind for kind in EscalationKind if kind != EscalationKind.REVIEW]


@pytest.mark.parametrize("kind", WITHOUT_REVIEW)
def test_without_actions_only_taking_over_is_offered(kind: EscalationKind) -> None:
    panel = decision_panel(Escalation(kind=kind, actions=[]), state="unclaimed", user=None)

    assert offered(panel) == {"take_over"}
    assert panel.take_over_open is True
    assert panel.retry is False
    assert panel.approve_label == ""


def test_a_flagged_conversation_offers_reviewed_or_taking_over() -> None:
    panel = decision_panel(
        Escalation(kind=EscalationKind.REVIEW, actions=[]), state="unclaimed", user=None
    )

    assert offered(panel) == {"reviewed", "take_over"}
    assert (panel.take_over_open, panel.retry, panel.approve_label) == (False, False, "")


@pytest.mark.parametrize(
    ("state", "locked"),
    [("decided", True), ("claimed_by_other", True), ("claimed_by_me", False), ("unclaimed", False)],
)
def test_the_controls_lock_once_decided_or_held_by_someone_else(state: str, locked: bool) -> None:
    escalation = Escalation(kind=EscalationKind.APPROVAL, actions=[dict(REFUND_ACTION)])

    assert decision_panel(escalation, state=state, user=None).locked is locked


def test_the_form_of_a_refused_decision_stands_open_again() -> None:
    escalation = Escalation(kind=EscalationKind.APPROVAL, actions=[dict(REFUND_ACTION)])

    edit = decision_panel(escalation, state="claimed_by_me", sent="edit", user=None)
    take_over = decision_panel(escalation, state="claimed_by_me", sent="take_over", user=None)
    nothing = decision_panel(escalation, state="claimed_by_me", user=None)

    assert (edit.edit_open, edit.take_over_open) == (True, False)
    assert (take_over.edit_open, take_over.take_over_open) == (False, True)
    assert (nothing.edit_open, nothing.take_over_open) == (False, False)


def test_a_crashed_run_offers_running_it_again_or_taking_over() -> None:
    crashed = Escalation(
        kind=EscalationKind.FAILURE,
        reason="supervisor_failure",
        actions=[],
        package={"errors": [], RETRY_RUN: True},
    )

    panel = decision_panel(crashed, state="unclaimed", user=None)

    assert offered(panel) == {"approve", "take_over"} == decisions_allowed(crashed)
    assert (panel.approve_label, panel.retry) == ("Run it again", False)
