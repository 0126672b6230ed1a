"""The typed shapes (issue 11.2) describe the dicts the code really passes around.

A ``TypedDict`` is only a promise to mypy; these tests hold it to what the producers build:
the pydantic ``Envelope`` dumped into the state, the receipt the delegation opens, the action
a specialist prepares, and the decision the console records.
"""

from __future__ import annotations

import pytest

from agents.contract.schemas import Envelope
from agents.support.shapes import Decision, EnvelopeDict, HandoffReceipt, PendingAction
from agents.support.vocabulary import GATED_SKILLS, OperatorDecision
from agents.team.handoffs.receipts import closed, handoff_receipt, started
from tests.agents.factories import ActionFactory


def all_keys(shape: type) -> set[str]:
    return set(shape.__required_keys__) | set(shape.__optional_keys__)  # type: ignore[attr-defined]


def test_the_envelope_dict_is_the_dumped_envelope_plus_the_step_and_attempt_it_answers() -> None:
    dumped = Envelope(agent="order", status="success").model_dump()

    assert set(dumped) == set(EnvelopeDict.__required_keys__)
    assert all_keys(EnvelopeDict) - set(dumped) == {"step", "attempt"}


@pytest.mark.django_db
def test_a_receipt_as_opened_started_and_closed_has_the_receipt_shape() -> None:
    receipt = handoff_receipt(
        inquiry_id="inq-1",
        receiver="order",
        step=1,
        attempt=1,
        required=("customer_id",),
        context={"customer_id": "C-1"},
    )
    done = closed(started(receipt, node="order"), envelope_status="success")

    assert set(receipt) == set(HandoffReceipt.__required_keys__)
    assert set(done) - set(HandoffReceipt.__required_keys__) == {"envelope_status"}
    assert set(done) <= all_keys(HandoffReceipt)


def test_a_prepared_action_has_the_pending_action_shape() -> None:
    action = ActionFactory.build()

    assert set(PendingAction.__required_keys__) <= set(action) <= all_keys(PendingAction)
    assert action["kind"] in GATED_SKILLS


def test_a_recorded_decision_has_the_decision_shape() -> None:
    # The console's form and the API record these keys (escalation_decide adds the operator,
    # the reply it previewed, who approved a refund or cancellation, and the shop policy
    # the approvals were checked against).
    recorded = {"decision": OperatorDecision.EDIT, "params": {}, "reason": "", "reply": ""}
    added = {"operator", "preview", "approvals", "policy_version", "four_eyes_yen"}

    assert set(recorded) | added == all_keys(Decision)
    assert set(Decision.__required_keys__) == {"decision"}
