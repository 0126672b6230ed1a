"""Every simulation page is a manager's: an operator gets 403, an anonymous visitor the login
page, whatever the method (the security suite's role matrix holds the same for every caller)."""

from __future__ import annotations

import pytest
from django.test import Client

from agents.simulation.models import SimulationRun
from agents.simulation.services import run_create
from netshop.roles import Role
from tests.operators.api_helpers import signed_in, staff_user
from tests.operators.simulations.stored_runs import stored_suite

pytestmark = pytest.mark.django_db

PAGES = [
    ("get", "/audit/simulations/"),
    ("post", "/audit/simulations/suites/upload"),
    ("get", "/audit/simulations/suites/{suite}/"),
    ("get", "/audit/simulations/suites/{suite}/download"),
    ("post", "/audit/simulations/suites/{suite}/run"),
    ("get", "/audit/simulations/suites/{suite}/cases/pay-en"),
    ("post", "/audit/simulations/suites/{suite}/cases/pay-en"),
    ("get", "/audit/simulations/runs/{run}/"),
    ("get", "/audit/simulations/runs/{run}/status"),
    ("get", "/audit/simulations/compare/"),
    ("post", "/audit/simulations/replay/"),
]


def paths() -> dict[str, int]:
    suite = stored_suite()
    return {"suite": suite.pk, "run": run_create(suite=suite).pk}


@pytest.mark.parametrize(("method", "url"), PAGES)
def test_an_operator_is_refused_and_nothing_is_started(method: str, url: str) -> None:
    operator = signed_in(staff_user("tantousha", Role.OPERATOR))
    path = url.format(**paths())

    response = getattr(operator, method)(path, {"k": "1", "threshold": "0.9"})

    assert response.status_code == 403
    assert SimulationRun.objects.count() == 1  # the one ``paths`` made: nothing started


@pytest.mark.parametrize(("method", "url"), PAGES)
def test_an_anonymous_visitor_is_sent_to_log_in(method: str, url: str) -> None:
    path = url.format(**paths())

    response = getattr(Client(), method)(path)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/audit/simulations/")
