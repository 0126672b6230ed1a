"""The sandbox child runs under the shop's policy in force, not the environment's defaults:
its own database has no saved version, so the parent passes the version's limits down, and
a candidate's limits override them (the run then records the version as "N+candidate")."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.simulation.candidates import IN_FORCE, Candidate
from agents.simulation.sandbox.environment import (
    POLICY_VERSION_VARIABLE,
    sandbox_environment,
)
from netshop.policy import policy_change, policy_in_force, policy_values

pytestmark = pytest.mark.django_db
SANDBOX_URL = "postgres://postgres@127.0.0.1:5432/shop_sandbox"


def lower_limits(**limits: int) -> None:
    values = {**policy_values(policy_in_force()), **limits}
    policy_change(user=User.objects.create_user("mgr"), values=values, reason="trial", based_on=0)


def test_the_child_gets_the_shops_saved_policy_and_its_version() -> None:
    lower_limits(four_eyes_yen=9000, return_window_days=30)

    env = sandbox_environment(url=SANDBOX_URL, candidate=IN_FORCE)

    assert (env["NETSHOP_FOUR_EYES_YEN"], env["NETSHOP_RETURN_WINDOW_DAYS"]) == ("9000", "30")
    assert env[POLICY_VERSION_VARIABLE] == "1"


def test_a_candidates_limits_override_the_shops_and_mark_the_version() -> None:
    lower_limits(four_eyes_yen=9000)
    candidate = Candidate(name="strict", policy={"NETSHOP_FOUR_EYES_YEN": "5000"})

    env = sandbox_environment(url=SANDBOX_URL, candidate=candidate)

    assert env["NETSHOP_FOUR_EYES_YEN"] == "5000"
    assert env[POLICY_VERSION_VARIABLE] == "1+candidate"
