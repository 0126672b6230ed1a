"""The policy page: managers see the limits in force and their history, and change them with
a reason; operators are refused; bad input saves nothing and says what was wrong."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from netshop.models import PolicyVersion
from netshop.policy import policy_in_force, policy_values
from netshop.roles import Role, role_assign

pytestmark = pytest.mark.django_db


def client_for(role: Role, name: str) -> Client:
    user = User.objects.create_user(name)
    role_assign(user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


def form(**changes: Any) -> dict[str, Any]:
    policy = policy_in_force()
    return {**policy_values(policy), "based_on": policy.version, "reason": "a bad week"} | changes


def test_a_manager_changes_the_four_eyes_amount_and_sees_the_new_version_and_its_history() -> None:
    manager = client_for(Role.MANAGER, "mgr")

    saved = manager.post("/audit/policy/", form(four_eyes_yen=10000))
    page = manager.get("/audit/policy/")

    assert saved.status_code == 302
    assert policy_in_force().four_eyes_yen == 10000
    html = page.content.decode()
    assert 'data-version="1"' in html
    assert "30000 → 10000" in html
    assert "a bad week" in html


@pytest.mark.parametrize(
    "bad",
    [{"four_eyes_yen": "ten thousand"}, {"review_sample": "2"}, {"reason": ""}],
)
def test_bad_input_shows_the_form_again_and_saves_nothing(bad: dict[str, Any]) -> None:
    manager = client_for(Role.MANAGER, "mgr")

    response = manager.post("/audit/policy/", form(four_eyes_yen=10000) | bad)

    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert PolicyVersion.objects.count() == 0


def test_an_operator_may_neither_see_nor_change_the_policy() -> None:
    operator = client_for(Role.OPERATOR, "op")

    assert operator.get("/audit/policy/").status_code == 403
    assert operator.post("/audit/policy/", form(four_eyes_yen=1)).status_code == 403
    assert PolicyVersion.objects.count() == 0


def test_the_page_reads_in_japanese() -> None:
    manager = client_for(Role.MANAGER, "mgr")

    page = manager.get("/audit/policy/", HTTP_ACCEPT_LANGUAGE="ja")

    assert "ショップのポリシー" in page.content.decode()
    assert "二重承認の金額" in page.content.decode()
