"""Fixtures shared by the run driver's tests."""

from __future__ import annotations

import pytest

from agents.support import run_requests


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The runs handed to a worker, by inquiry id; the test advances them itself with
    ``driver.inquiry_advance``, in this process."""
    calls: list[str] = []
    monkeypatch.setattr(run_requests, "_submit", lambda task, inquiry_id: calls.append(inquiry_id))
    return calls
