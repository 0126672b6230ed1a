"""Fixtures of the simulation pages' tests: a manager's client, and the tasks handed to a worker."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from agents.simulation import services
from netshop.roles import Role
from tests.operators.api_helpers import signed_in, staff_user


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("kanrisha", Role.MANAGER))


@pytest.fixture
def submitted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The tasks handed to a worker (none runs: the page's side is what is tested)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(services, "task_submit", lambda *args, **kw: calls.append((args, kw)))
    return calls
