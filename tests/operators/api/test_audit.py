"""The audit log over the API: an inquiry's trail for staff, search and export for managers.

Given audit entries as the runs and decisions write them, when staff read them over HTTP with
a session or their own token, then they get the entries as stored (hashes included), filtered
and paged exactly as on the manager's pages, and the export is the page's export.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import uuid
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from agents.models import Inquiry
from netshop.audit import audit_record
from netshop.audit.models import AuditEntry
from netshop.roles import Role
from operators.audit import selectors
from tests.operators.api_helpers import (
    bearer,
    inquiry_for,
    signed_in,
    staff_key,
    staff_user,
    storefront_key,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("mgr", Role.MANAGER))


@pytest.fixture
def operator() -> Client:
    return signed_in(staff_user("op", Role.OPERATOR))


@pytest.fixture
def inquiry() -> Inquiry:
    """An inquiry with its ``inquiry.received`` entry, as the intake writes it."""
    return inquiry_for()


def _entry(action: str, inquiry: Inquiry | None = None, **fields: Any) -> AuditEntry:
    inquiry_id = inquiry.pk if inquiry is not None else None
    return audit_record(
        action=action, actor=fields.pop("actor", "sato"), inquiry_id=inquiry_id, **fields
    )


def _csv(response: Any) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


# --- An inquiry's trail -----------------------------------------------------------------------


def test_an_operator_reads_an_inquirys_trail_oldest_first_as_stored(
    operator: Client, inquiry: Inquiry
) -> None:
    approve = _entry("decision.approve", inquiry, data={"escalation_id": "e1"})
    _entry("decision.reject", inquiry_for())  # another inquiry's

    response = operator.get(f"/api/v1/inquiries/{inquiry.pk}/audit")

    assert response.status_code == 200
    body = response.json()
    assert [e["action"] for e in body["entries"]] == [
        "inquiry.received",
        "message.posted",  # the opening message, content-free
        "decision.approve",
    ]
    last = body["entries"][-1]
    assert (last["seq"], last["actor"], last["data"]) == (
        approve.seq,
        "sato",
        {"escalation_id": "e1"},
    )
    assert (last["hash"], last["prev_hash"]) == (approve.hash, approve.prev_hash)
    first, posted = body["entries"][:2]
    assert (first["hash"], posted["hash"]) == (posted["prev_hash"], last["prev_hash"])  # one chain
    assert (body["inquiry_id"], body["truncated"]) == (str(inquiry.pk), False)


def test_a_long_trail_says_it_is_cut_short(
    operator: Client, inquiry: Inquiry, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(selectors, "TIMELINE_LIMIT", 2)
    for _ in range(3):
        _entry("agent.started", inquiry)

    body = operator.get(f"/api/v1/inquiries/{inquiry.pk}/audit").json()

    assert (len(body["entries"]), body["truncated"]) == (2, True)


@pytest.mark.parametrize(
    ("inquiry_id", "status"), [(str(uuid.UUID(int=7)), 404), ("not-an-id", 422)]
)
def test_an_unknown_or_malformed_inquiry_has_no_trail(
    operator: Client, inquiry_id: str, status: int
) -> None:
    response = operator.get(f"/api/v1/inquiries/{inquiry_id}/audit")

    assert response.status_code == status
    assert set(response.json()) >= {"code", "message"}


# --- Search and export -------------------------------------------------------------------------


def test_a_manager_searches_as_on_the_search_page(manager: Client, inquiry: Inquiry) -> None:
    approve = _entry("decision.approve", inquiry)
    reject = _entry("decision.reject", inquiry_for(), actor="kato")
    _entry("agent.started", inquiry)

    decisions = manager.get("/api/v1/audit?action=decision.").json()
    katos = manager.get("/api/v1/audit?actor=kato").json()

    assert [e["seq"] for e in decisions["entries"]] == [reject.seq, approve.seq]
    assert [e["seq"] for e in katos["entries"]] == [reject.seq]
    assert decisions["next_before"] is None


def test_the_search_pages_newest_first_with_before(
    manager: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(selectors, "PAGE_SIZE", 2)
    seqs = [_entry("agent.started").seq for _ in range(5)]

    pages, before = [], None
    while True:
        query = "action=agent.started" + (f"&before={before}" if before else "")
        body = manager.get(f"/api/v1/audit?{query}").json()
        pages.append([e["seq"] for e in body["entries"]])
        before = body["next_before"]
        if before is None:
            break

    assert pages == [seqs[4:2:-1], seqs[2:0:-1], seqs[:1]]


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ("inquiry=nope", "inquiry: Enter a valid UUID."),
        ("date_from=yesterday", "date_from: Enter a valid date."),
        ("date_from=2026-02-02&date_to=2026-02-01", "The start date is after the end date."),
        ("before=x", "before"),
    ],
)
def test_a_bad_search_is_refused_with_a_message(manager: Client, query: str, problem: str) -> None:
    response = manager.get(f"/api/v1/audit?{query}")

    assert response.status_code == 422
    assert problem in response.json()["message"]


def test_the_api_export_is_the_pages_export(manager: Client, inquiry: Inquiry) -> None:
    _entry("decision.approve", inquiry, actor='=HYPERLINK("http://x")')
    _entry("agent.started", inquiry)
    today = timezone.localdate()
    query = f"inquiry={inquiry.pk}&date_from={today}&date_to={today + dt.timedelta(days=1)}"

    api = manager.get(f"/api/v1/audit/export.csv?{query}")
    page = manager.get(f"/audit/export.csv?{query}")

    assert api.status_code == 200
    assert api["Content-Type"] == "text/csv; charset=utf-8"
    assert api["Content-Disposition"].startswith('attachment; filename="audit-')
    rows = _csv(api)
    assert rows == _csv(page)
    assert [r[3] for r in rows[1:]] == [
        "inquiry.received",
        "message.posted",
        "decision.approve",
        "agent.started",
    ]


def test_a_bad_export_is_refused_before_anything_streams(manager: Client) -> None:
    response = manager.get("/api/v1/audit/export.csv?date_to=someday")

    assert response.status_code == 422
    assert not getattr(response, "streaming", False)


# --- Who may read what ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "trail", "search", "export"),
    [
        (None, 403, 403, 403),
        (Role.OPERATOR, 200, 403, 403),
        (Role.MANAGER, 200, 200, 200),
    ],
)
@pytest.mark.parametrize("credential", ["session", "token"])
def test_operators_read_trails_and_only_managers_search_and_export(
    inquiry: Inquiry, role: Role | None, trail: int, search: int, export: int, credential: str
) -> None:
    user = staff_user("someone", role)
    client = signed_in(user) if credential == "session" else Client(headers=bearer(staff_key(user)))

    answers = [
        client.get(f"/api/v1/inquiries/{inquiry.pk}/audit").status_code,
        client.get("/api/v1/audit").status_code,
        client.get("/api/v1/audit/export.csv").status_code,
    ]

    assert answers == [trail, search, export]


@pytest.mark.parametrize(
    "path", ["/api/v1/inquiries/{id}/audit", "/api/v1/audit", "/api/v1/audit/export.csv"]
)
def test_without_staff_credentials_the_audit_api_is_401(inquiry: Inquiry, path: str) -> None:
    url = path.format(id=inquiry.pk)

    assert Client().get(url).status_code == 401
    assert Client(headers=bearer(storefront_key())).get(url).status_code == 401
