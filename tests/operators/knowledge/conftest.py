"""Fixtures the knowledge tests share: a manager (signed in) and an operator."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from netshop.roles import Role
from tests.operators.api_helpers import signed_in, staff_user


@pytest.fixture
def manager() -> User:
    return staff_user("kanrisha", Role.MANAGER)


@pytest.fixture
def operator() -> User:
    return staff_user("tantousha", Role.OPERATOR)


@pytest.fixture
def client(manager: User) -> Client:
    """The manager's browser."""
    return signed_in(manager)
