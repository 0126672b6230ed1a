"""A real SMTP server for the notification tests, and workers that run in the test itself."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from netshop.roles import Role
from operators.notifications import dispatch, services
from tests.operators.api_helpers import staff_user
from tests.support.smtp_server import SmtpServer


@pytest.fixture
def smtp(settings: Any) -> Iterator[SmtpServer]:
    """Mail goes out over SMTP to a local aiosmtpd server (pytest-django swaps in locmem)."""
    server = SmtpServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS, settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = False, "", ""
    settings.NETSHOP_CONSOLE_URL = "https://console.example.test"
    yield server
    server.stop()


@pytest.fixture
def inline_worker(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Tasks handed to a worker run at once, in the caller's thread; returns what was handed."""
    handed: list[tuple[str, tuple[Any, ...]]] = []
    run: dict[str, Callable[..., object]] = {
        dispatch.SEND_TASK: lambda i: services.notification_send(notification_id=i),
        dispatch.NOTIFY_TASK: lambda e, k: services.notify_escalation(escalation_id=e, kind=k),
    }

    def submit(task_name: str, *args: Any) -> None:
        handed.append((task_name, args))
        run[task_name](*args)

    monkeypatch.setattr(dispatch, "submit", submit)
    return handed


def with_email(user: User) -> User:
    user.email = f"{user.username}@netshop.example"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def manager() -> User:
    return with_email(staff_user("lead", Role.MANAGER))


@pytest.fixture
def operator() -> User:
    return with_email(staff_user("op1", Role.OPERATOR))
