"""Fixtures the operators' tests share: two operators and an escalation to act on."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from agents.models import Escalation
from netshop.roles import Role
from tests.operators.api_helpers import escalation_for, staff_user


@pytest.fixture
def op1() -> User:
    return staff_user("op1", Role.OPERATOR)


@pytest.fixture
def op2() -> User:
    return staff_user("op2", Role.OPERATOR)


@pytest.fixture
def escalation() -> Escalation:
    return escalation_for()
