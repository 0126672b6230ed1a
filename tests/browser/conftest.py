"""The browser suite's harness: one daphne server, one Chromium and one Celery worker for
this package, the demo shop per test, and signed-in browser contexts on demand.

Screenshots (``screenshots/<test>/``) and the servers' logs go to ``NETSHOP_BROWSER_ARTIFACTS``
when set, otherwise to ``browser*/`` under pytest's temporary directory; never committed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser

from operators.models import StaffPreference
from tests.support.browser import Session, chromium, log_in
from tests.support.demo_snapshot import demo_shop_seed
from tests.support.servers import KEEP_ASYNC_CHECK, LiveServer, running_server
from tests.support.workers import Worker, running_workers, worker_consuming, worker_settled

PASSWORD = "browser-tests-demo"
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"

OpenSession = Callable[..., Session]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Overrides the suite's MD5 hasher, which the server process would not accept."""
    settings.PASSWORD_HASHERS = ["tests.support.servers.FewRoundsPBKDF2PasswordHasher"]


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("NETSHOP_BROWSER_ARTIFACTS")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("browser")
    (path / "screenshots").mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def shots(artifacts: Path, request: pytest.FixtureRequest) -> Path:
    """This test's screenshot folder."""
    path = artifacts / "screenshots" / request.node.name
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="package")
def _django_beside_playwright() -> Iterator[None]:
    """Playwright's sync API keeps an asyncio loop running in this thread, so Django would
    refuse every ORM call here (``SynchronousOnlyOperation``). The tests' own queries are
    sync code in the main thread, so lift the check for this package only; the server and
    worker processes keep it (``KEEP_ASYNC_CHECK``)."""
    previous = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    yield
    if previous is None:
        del os.environ[ASYNC_UNSAFE]
    else:
        os.environ[ASYNC_UNSAFE] = previous


@pytest.fixture(scope="package")
def browser(_django_beside_playwright: None) -> Iterator[Browser]:
    """Package-scoped: once closed, its loop no longer blocks Django in later test packages."""
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="package")
def daphne_server(
    django_db_setup: None, _django_beside_playwright: None, artifacts: Path
) -> Iterator[LiveServer]:
    """Shared by the tests that do not stop it; it only holds connections while serving."""
    with running_server(artifacts / "daphne.log") as server:
        yield server


@pytest.fixture
def shop(transactional_db: None) -> None:
    """The demo shop and its logins, committed so the server and the worker see them."""
    demo_shop_seed(password=PASSWORD)


@pytest.fixture
def staying_after_a_decision(shop: None) -> None:
    """Staff who stay on an escalation's page after deciding it (the "after a decision, open
    the next item" preference off): for tests of what that page shows once decided."""
    for user in User.objects.filter(is_staff=True):
        StaffPreference.objects.update_or_create(user=user, defaults={"open_next": False})


class SharedWorker:
    """The package's Celery worker: started once (a worker's start is seconds of CPU, most of
    a short browser test's). Between tests it takes nothing from the broker, so a test without
    the ``worker`` fixture has none; one that leaves it busy has it replaced."""

    def __init__(self) -> None:
        self.stack = ExitStack()
        self.current: Worker | None = None

    def ready(self) -> Worker:
        """The worker, taking tasks: started now if there is none."""
        if self.current is None:
            [self.current] = self.stack.enter_context(running_workers(1, env=KEEP_ASYNC_CHECK))
        else:
            worker_consuming(self.current, on=True)
        return self.current

    def settle(self) -> None:
        """Wait for the worker to finish what the test started and pause it; stop it if it
        will not finish."""
        if self.current is None:
            return
        worker_consuming(self.current, on=False)
        if not worker_settled(self.current):
            self.stop()

    def stop(self) -> None:
        self.stack.close()
        self.stack, self.current = ExitStack(), None


@pytest.fixture(scope="package")
def _shared_worker(django_db_setup: None) -> Iterator[SharedWorker]:
    shared = SharedWorker()
    yield shared
    shared.stop()


@pytest.fixture
def worker(_shared_worker: SharedWorker, shop: None) -> Iterator[Worker]:
    """The package's worker, idle, taking tasks; before the database is emptied after the
    test, it has finished (or, stopped, dropped) all the test started."""
    yield _shared_worker.ready()
    _shared_worker.settle()


@pytest.fixture
def open_session(
    browser: Browser, daphne_server: LiveServer, transactional_db: None
) -> Iterator[OpenSession]:
    """``open_session("operator")``: a new browser context logged in on the shared server
    (or on ``server=`` another one).

    Contexts close before the test database is flushed, so no page holds a connection then.
    """
    opened: list[Session] = []

    def open_one(username: str, server: LiveServer | None = None) -> Session:
        session = log_in(browser, (server or daphne_server).url, username, PASSWORD)
        opened.append(session)
        return session

    yield open_one
    for session in opened:
        session.context.close()
