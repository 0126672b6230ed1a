"""A run that finished but whose refund the gateway could not confirm (issue 15, section 4).

Given an approved refund of a delivered order, when the gateway's transaction read fails now and
then, the verifier reads again and the verdict is HEALTHY; when it keeps failing, the verdict is
FALSE_COMPLETE and a follow-up opens for a person, once, instead of only an audit row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agents.models import Escalation, EscalationKind, Inquiry, InquiryStatus
from agents.team.runs.outcome import RunOutcome
from netshop.models import Refund
from tests.support.scenarios import SCENARIO_PREFIX, SupportShop

REFUND_TEXT = "{delivered}が壊れていました。返金してください。"
READS_FAIL = {"kinds": ["timeout"], "operations": ["find_transaction"]}

Ask = Callable[..., RunOutcome]
Decide = Callable[..., RunOutcome]


@pytest.fixture(autouse=True)
def _quick_retries(settings: Any) -> None:
    settings.NETSHOP_VERIFY_ATTEMPTS, settings.NETSHOP_VERIFY_BACKOFF_S = 4, 0


def payment_verdicts(inquiry_id: str) -> list[str]:
    handoffs = Inquiry.objects.get(pk=inquiry_id).handoffs
    return [r["verdict"] for r in handoffs if r["receiver"] == "payment"]


def follow_ups(inquiry_id: str) -> list[Escalation]:
    return list(Escalation.objects.filter(inquiry_id=inquiry_id, kind=EscalationKind.FOLLOW_UP))


def test_a_failed_verification_read_is_tried_again_before_the_verdict(
    shop: SupportShop, ask: Ask, decide: Decide, faults: Any
) -> None:
    waiting = ask(REFUND_TEXT.format(**shop.hanako.numbers()))
    # Seed 1 at a rate of one half: the first two reads fail, the third answers.
    faults.set(gateway={**READS_FAIL, "fault_rate": 0.5, "seed": 1})

    done = decide(waiting)

    assert done.status == InquiryStatus.RESOLVED
    assert payment_verdicts(done.inquiry_id) == ["HEALTHY"]
    assert follow_ups(done.inquiry_id) == []


def test_a_verdict_that_stays_unconfirmed_opens_one_follow_up_for_a_person(
    shop: SupportShop, ask: Ask, decide: Decide, faults: Any
) -> None:
    waiting = ask(REFUND_TEXT.format(**shop.hanako.numbers()))
    faults.set(gateway={**READS_FAIL, "fault_rate": 1})

    done = decide(waiting)
    decide(waiting)  # the run recorded again (a redelivered task): still one follow-up

    assert done.status == InquiryStatus.RESOLVED
    assert (
        Refund.objects.filter(payment__order__number=shop.hanako.delivered.number)
        .exclude(operation_id__startswith=SCENARIO_PREFIX)
        .count()
        == 1
    )  # the refund happened; only its confirmation is missing
    assert payment_verdicts(done.inquiry_id) == ["FALSE_COMPLETE"]
    [follow_up] = follow_ups(done.inquiry_id)
    assert follow_up.reason == "outcome_unconfirmed"
    assert follow_up.status == "open"
    assert (
        follow_up.summary == "finished, but the records did not confirm what payment did: check it"
    )
