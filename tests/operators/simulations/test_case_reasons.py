"""A failed case's reasons on the run page, in the reader's language: worded from the stored
codes, with the data (statuses, orders, amounts) as it is; a result stored before reasons had
codes keeps its English text."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.simulation.reasons import reason
from netshop.roles import Role
from operators.preferences import staff_preference_set
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.simulations.stored_runs import Outcome, finished_run, stored_suite

pytestmark = pytest.mark.django_db


def failed(*reasons: tuple[str, dict[str, object]]) -> Outcome:
    made = [reason(code, **params) for code, params in reasons]
    return Outcome(False, reasons=[r.text for r in made], reason_codes=[r.as_dict() for r in made])


def test_a_japanese_manager_reads_a_failed_cases_reasons_in_japanese() -> None:
    kanrisha = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=kanrisha, language="ja", time_zone="Asia/Tokyo")
    outcome = failed(
        ("status", {"status": "escalated", "expected": ["resolved"]}),
        ("refund_over", {"amount": 12000, "limit": 5000}),
    )
    run = finished_run(stored_suite(), {"pay-ja": outcome})

    page = signed_in(kanrisha).get(f"/audit/simulations/runs/{run.pk}/").content.decode()

    assert "<li>ステータス escalated は [&#x27;resolved&#x27;] のいずれでもありません</li>" in page
    assert "<li>返金額 12000 が上限 5000 を超えています</li>" in page
    assert "not in" not in page
    assert "refund 12000 over 5000" not in page


def test_an_english_manager_reads_the_reasons_as_the_cli_prints_them(manager: Client) -> None:
    run = finished_run(stored_suite(), {"pay-en": failed(("reply_empty", {}))})

    page = manager.get(f"/audit/simulations/runs/{run.pk}/").content.decode()

    assert "<li>empty reply</li>" in page


def test_a_result_stored_without_codes_shows_its_english_text() -> None:
    kanrisha = staff_user("kanrisha", Role.MANAGER)
    staff_preference_set(user=kanrisha, language="ja", time_zone="Asia/Tokyo")
    old = Outcome(False, reasons=["status escalated not in ['resolved']"])
    run = finished_run(stored_suite(), {"pay-ja": old})

    page = signed_in(kanrisha).get(f"/audit/simulations/runs/{run.pk}/").content.decode()

    assert "<li>status escalated not in [&#x27;resolved&#x27;]</li>" in page
