"""The manager pages: audit search, an inquiry's timeline, the CSV export and the dashboard."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.db import connection
from django.http import HttpRequest, StreamingHttpResponse
from django.test import AsyncClient, Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from agents.models import Escalation, EscalationStatus, Inquiry, InquiryStatus
from netshop.audit import AuditAction, audit_record
from netshop.audit.models import AuditEntry
from netshop.roles import Role
from operators import labels
from operators.audit import export
from tests.operators.api_helpers import escalation_for, inquiry_for, signed_in, staff_user
from tests.operators.audit.scenes import decide_with_a_note

pytestmark = pytest.mark.django_db

INQUIRY = uuid.UUID("3f1c2a9e-7d4b-4c1e-9a61-0b5e2f8d7c10")
OTHER = uuid.UUID("9b0e4d2c-1a3f-4e5d-8c7b-6a5f4e3d2c1b")


@pytest.fixture
def manager() -> Client:
    return signed_in(staff_user("mgr", Role.MANAGER))


@pytest.fixture
def operator() -> Client:
    return signed_in(staff_user("op", Role.OPERATOR))


def _entry(action: str, actor: str = "agent:order", **fields: Any) -> AuditEntry:
    return audit_record(action=action, actor=actor, **fields)


def _seqs(response: Any) -> list[int]:
    return [entry.seq for entry in response.context["page"].entries]


def _csv(response: Any) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


# --- Who may see them ------------------------------------------------------------------------

PAGES = [
    "/audit/",
    "/audit/?action=decision.",
    "/audit/dashboard/",
    f"/audit/inquiries/{INQUIRY}/",
    "/audit/export.csv",
]


@pytest.mark.parametrize("url", PAGES)
def test_a_manager_sees_every_audit_page(manager: Client, url: str) -> None:
    _entry("inquiry.received", inquiry_id=INQUIRY)

    assert manager.get(url).status_code == 200


@pytest.mark.parametrize("url", PAGES)
def test_an_operator_is_refused_every_audit_page(operator: Client, url: str) -> None:
    _entry("inquiry.received", inquiry_id=INQUIRY)

    response = operator.get(url)

    assert response.status_code == 403
    assert not getattr(response, "streaming", False)


@pytest.mark.parametrize("url", PAGES)
def test_an_anonymous_visitor_is_sent_to_log_in(url: str) -> None:
    response = Client().get(url)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/audit/")


def test_a_signed_in_non_staff_user_is_refused() -> None:
    client = signed_in(staff_user("shopper", None))

    assert client.get("/audit/").status_code == 403


# --- Search ----------------------------------------------------------------------------------


@pytest.fixture
def log() -> dict[str, AuditEntry]:
    """A small log of one inquiry's life, plus an entry about another inquiry."""
    return {
        "received": _entry("inquiry.received", "channel:web", inquiry_id=INQUIRY),
        "verdict": _entry(
            "handoff.verdict", "agent:supervisor", inquiry_id=INQUIRY, verdict="HEALTHY"
        ),
        "stale": _entry(
            "handoff.verdict", "agent:supervisor", inquiry_id=OTHER, verdict="STALE_CONTROL"
        ),
        "wait": _entry(
            "wait.opened", "agent:supervisor", inquiry_id=INQUIRY, reason="refund_approval"
        ),
        "approve": _entry(
            "decision.approve",
            "sato",
            inquiry_id=INQUIRY,
            operation_id=f"{INQUIRY}:process_refund:abc",
            data={"escalation_id": "0c8f4e2a-5b6d-4e7f-8a9b-1c2d3e4f5a6b"},
        ),
        "refund": _entry(
            "side_effect.refund",
            "sato",
            inquiry_id=INQUIRY,
            operation_id=f"{INQUIRY}:process_refund:abc",
            data={"order": "ORD-4003", "amount": 12800},
        ),
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("action=decision.", ["approve"]),
        ("action=handoff.verdict", ["stale", "verdict"]),
        ("action=handoff.", ["stale", "verdict"]),
        (f"inquiry={OTHER}", ["stale"]),
        ("actor=sato", ["refund", "approve"]),
        ("actor=agent:", ["wait"]),  # the AI's own steps stay out unless asked for
        ("actor=agent:&ai_steps=on", ["wait", "stale", "verdict"]),
        ("verdict=STALE_CONTROL", ["stale"]),
        ("reason=refund_approval", ["wait"]),
        ("q=process_refund", ["refund", "approve"]),
        ("q=ORD-4003", ["refund"]),
        (f"q={OTHER}", ["stale"]),
        ("q=0c8f4e2a-5b6d-4e7f-8a9b-1c2d3e4f5a6b", ["approve"]),
        (f"inquiry={INQUIRY}&actor=sato&action=side_effect.", ["refund"]),
    ],
)
def test_search_filters(
    manager: Client, log: dict[str, AuditEntry], query: str, expected: list[str]
) -> None:
    response = manager.get(f"/audit/?{query}")

    assert response.status_code == 200
    assert _seqs(response) == [log[name].seq for name in expected]


def test_the_export_leaves_out_the_ai_steps_the_page_leaves_out(
    manager: Client, log: dict[str, AuditEntry]
) -> None:
    shown = [row[3] for row in _csv(manager.get("/audit/export.csv"))[1:]]
    asked = [row[3] for row in _csv(manager.get("/audit/export.csv?ai_steps=on"))[1:]]

    assert "handoff.verdict" not in shown
    assert sorted(set(asked) - set(shown)) == ["handoff.verdict"]
    assert len(asked) - len(shown) == 2  # the two verdicts of the log


def test_search_by_date_range_in_shop_days(manager: Client, log: dict[str, AuditEntry]) -> None:
    today = timezone.localdate()
    tomorrow = today + dt.timedelta(days=1)

    in_range = manager.get(f"/audit/?action=decision.&date_from={today}&date_to={today}")
    after = manager.get(f"/audit/?date_from={tomorrow}")
    before = manager.get(f"/audit/?date_to={today - dt.timedelta(days=1)}")

    assert _seqs(in_range) == [log["approve"].seq]
    assert (_seqs(after), _seqs(before)) == ([], [])


@pytest.mark.parametrize(
    "query",
    ["inquiry=not-a-uuid", "date_from=2026-13-01", "date_from=2026-12-02&date_to=2026-12-01"],
)
def test_invalid_filters_are_a_400_with_the_form(manager: Client, query: str) -> None:
    response = manager.get(f"/audit/?{query}")

    assert response.status_code == 400
    assert "page" not in response.context
    assert response.context["form"].errors


def test_search_shows_entries_inert(manager: Client) -> None:
    _entry("agent.envelope", actor="<script>alert(1)</script>")

    response = manager.get("/audit/?action=agent.envelope")

    assert b"<script>alert(1)</script>" not in response.content
    assert b"&lt;script&gt;alert(1)&lt;/script&gt;" in response.content


def test_search_pages_newest_first_by_seq(manager: Client) -> None:
    entries = [_entry("agent.started") for _ in range(105)]

    first = manager.get("/audit/?action=agent.started")
    older = first.context["page"].older_than
    second = manager.get(f"/audit/?action=agent.started&before={older}")

    assert _seqs(first) == [e.seq for e in reversed(entries[5:])]
    assert _seqs(second) == [e.seq for e in reversed(entries[:5])]
    assert second.context["page"].older_than is None
    assert f"before={older}".encode() in first.content


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_search_makes_the_same_few_queries_however_long_the_log(manager: Client) -> None:
    _entry("agent.started", inquiry_id=INQUIRY)
    few = _queries(manager, "/audit/?ai_steps=on")
    for _ in range(150):
        _entry("agent.started", inquiry_id=INQUIRY)

    # the session, its user, their saved language, the user's role groups, one page of
    # entries, their inquiries
    assert _queries(manager, "/audit/?ai_steps=on") == few == 6


def test_readable_columns_cost_the_same_few_queries_however_many_rows(manager: Client) -> None:
    sato = staff_user("sato", Role.OPERATOR)
    decide_with_a_note(sato)
    few = _queries(manager, "/audit/")
    for _ in range(5):
        decide_with_a_note(sato)

    # ... plus the rows' escalations, staff texts and notes: one query each
    assert _queries(manager, "/audit/") == few == 9


# --- CSV export ------------------------------------------------------------------------------


def test_export_streams_exactly_the_filtered_rows(
    manager: Client, log: dict[str, AuditEntry], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "CHUNK_ROWS", 2)  # several chunks even for a small log
    _entry("side_effect.refund", "佐藤", inquiry_id=INQUIRY, data={"order": "ORD-4004"})
    expected = list(
        AuditEntry.objects.filter(inquiry_id=INQUIRY, action__startswith="side_effect.")
        .order_by("seq")
        .values_list("seq", "actor", "data")
    )

    response = manager.get(f"/audit/export.csv?inquiry={INQUIRY}&action=side_effect.")

    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="audit-')
    header, *rows = _csv(response)
    assert header == list(export.COLUMNS)
    assert [(int(r[0]), r[2], r[13]) for r in rows] == [
        (seq, actor, _json(data)) for seq, actor, data in expected
    ]
    assert [r[2] for r in rows] == ["sato", "佐藤"]


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def test_export_rows_carry_every_column(manager: Client, log: dict[str, AuditEntry]) -> None:
    refund = log["refund"]

    _, *rows = _csv(manager.get("/audit/export.csv?action=side_effect.refund"))

    assert rows == [
        [
            str(refund.seq),
            timezone.localtime(refund.created_at).isoformat(),
            "sato",
            "side_effect.refund",
            "",  # no customer: the inquiry is no longer stored
            "ORD-4003",
            "12800",
            "",
            "",
            "",
            "",
            str(INQUIRY),
            f"{INQUIRY}:process_refund:abc",
            '{"amount": 12800, "order": "ORD-4003"}',
            refund.prev_hash,
            refund.hash,
        ]
    ]


def test_export_leaves_out_rows_appended_while_it_streams(manager: Client) -> None:
    first = _entry("agent.started")
    response = cast(StreamingHttpResponse, manager.get("/audit/export.csv?action=agent.started"))
    chunks = iter(cast(Iterator[bytes], response.streaming_content))
    header = next(chunks)
    rows_so_far = next(chunks)  # the head was fixed before this chunk was read
    _entry("agent.started")

    body = (header + rows_so_far + b"".join(chunks)).decode("utf-8")[1:]

    assert [int(r[0]) for r in list(csv.reader(io.StringIO(body)))[1:]] == [first.seq]


def test_export_quotes_cells_a_spreadsheet_would_run(manager: Client) -> None:
    _entry("agent.started", actor='=HYPERLINK("http://x")')

    _, *rows = _csv(manager.get("/audit/export.csv?action=agent.started"))

    assert rows[0][2] == '\'=HYPERLINK("http://x")'


def test_an_invalid_export_filter_is_a_400(manager: Client) -> None:
    response = manager.get("/audit/export.csv?inquiry=nope")

    assert response.status_code == 400
    assert not getattr(response, "streaming", False)


def test_export_streams_asynchronously_under_asgi(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export, "CHUNK_ROWS", 3)
    user = staff_user("mgr-async", Role.MANAGER)
    entries = [_entry("agent.started") for _ in range(7)]

    async def fetch() -> tuple[bool, bytes]:
        client = AsyncClient()
        await client.aforce_login(user)
        response = cast(
            StreamingHttpResponse, await client.get("/audit/export.csv?action=agent.started")
        )
        body = b"".join(
            [chunk async for chunk in cast(AsyncIterator[bytes], response.streaming_content)]
        )
        return response.is_async, body

    is_async, body = async_to_sync(fetch)()

    rows = list(csv.reader(io.StringIO(body.decode("utf-8")[1:])))[1:]
    assert is_async
    assert [int(r[0]) for r in rows] == [e.seq for e in entries]


# --- Timeline --------------------------------------------------------------------------------


def test_the_timeline_shows_one_inquiry_with_links_to_the_console(manager: Client) -> None:
    marker = f"MARKER-{uuid.uuid4().hex}"
    inquiry = inquiry_for(text=f"返金してください {marker}")
    escalation = escalation_for(inquiry)
    mine = [
        _entry("handoff.receipt", "agent:supervisor", inquiry_id=inquiry.pk),
        _entry(
            "decision.approve",
            "sato",
            inquiry_id=inquiry.pk,
            data={"escalation_id": str(escalation.pk)},
        ),
        _entry("side_effect.refund", "sato", inquiry_id=inquiry.pk, data={"amount": 12800}),
    ]
    _entry("handoff.receipt", "agent:supervisor", inquiry_id=OTHER)

    response = manager.get(f"/audit/inquiries/{inquiry.pk}/")

    assert response.status_code == 200
    shown = [row["entry"].seq for row in response.context["rows"]]
    expected = AuditEntry.objects.filter(inquiry_id=inquiry.pk).order_by("seq")
    assert shown == list(expected.values_list("seq", flat=True))
    assert {e.seq for e in mine} <= set(shown)
    assert [row["kind"] for row in response.context["rows"] if row["entry"] in mine] == [
        "receipt",
        "decision",
        "side-effect",
    ]
    console = f'href="/console/escalations/{escalation.pk}/"'.encode()
    naming_it = expected.filter(data__escalation_id=str(escalation.pk)).count()
    assert naming_it >= 1  # the decision (and the wait, once the agents audit it)
    assert response.content.count(console) == 1 + naming_it  # plus the escalation list
    assert marker.encode() not in response.content


def test_the_timeline_of_an_unknown_inquiry_is_404(manager: Client) -> None:
    assert manager.get(f"/audit/inquiries/{uuid.uuid4()}/").status_code == 404


def test_the_timeline_of_a_deleted_inquiry_still_shows_its_entries(manager: Client) -> None:
    _entry("inquiry.received", inquiry_id=OTHER)

    response = manager.get(f"/audit/inquiries/{OTHER}/")

    assert response.status_code == 200
    assert response.context["timeline"].inquiry is None
    assert len(response.context["rows"]) == 1


# --- Dashboard -------------------------------------------------------------------------------


def _inquiry(status: str, *, escalated: bool = False) -> Inquiry:
    inquiry = inquiry_for()
    Inquiry.objects.filter(pk=inquiry.pk).update(status=status)
    if escalated:
        escalation_for(inquiry)
    return inquiry


def _decided(minutes: int) -> Escalation:
    escalation = escalation_for(reason="refund_approval")
    now = timezone.now()
    Escalation.objects.filter(pk=escalation.pk).update(
        status=EscalationStatus.DECIDED,
        created_at=now - dt.timedelta(minutes=minutes),
        decided_at=now,
    )
    return escalation


@pytest.fixture
def activity() -> dict[str, Any]:
    """Five inquiries today, five decided escalations and one overdue wait, some verdicts."""
    for status, escalated in [
        (InquiryStatus.RESOLVED, False),
        (InquiryStatus.RESOLVED, False),
        (InquiryStatus.RESOLVED, True),
        (InquiryStatus.HANDLED_BY_HUMAN, False),
        (InquiryStatus.QUEUED, False),
    ]:
        _inquiry(status, escalated=escalated)
    decided = [_decided(m) for m in (2, 10, 30, 90, 300)]
    overdue = escalation_for(reason="carrier_failure", kind="failure")
    Escalation.objects.filter(pk=overdue.pk).update(deadline=timezone.now() - dt.timedelta(hours=1))
    for verdict in ("HEALTHY", "HEALTHY", "FALSE_COMPLETE"):
        _entry(AuditAction.HANDOFF_VERDICT, "agent:supervisor", verdict=verdict)
    return {"decided": decided, "overdue": overdue}


def test_the_dashboard_figures(manager: Client, activity: dict[str, Any]) -> None:
    response = manager.get("/audit/dashboard/?days=7")

    ctx = response.context
    today = timezone.localdate()
    assert response.status_code == 200
    # 5 + 5 + 1 inquiries were made today (escalation_for makes one per escalation).
    assert ctx["inquiries"] == 11
    per_day = ctx["per_day"]
    assert len(per_day.labels) >= 1
    assert (ctx["by_ai"], ctx["median"], ctx["p90"]) == (2, "30 min", "5 h 0 min")
    assert ctx["decided"].buckets == [
        ("under_5_min", 1),
        ("5_to_15_min", 1),
        ("15_to_60_min", 1),
        ("1_to_4_h", 1),
        ("over_4_h", 1),
    ]
    assert ctx["overdue_total"] == 1
    assert [e.pk for e, _ in ctx["overdue_rows"]] == [activity["overdue"].pk]
    verdict_bars = {r.title: r.href for r in ctx["verdicts"].rects}
    assert verdict_bars == {
        "reported done, not verified: 1": (
            f"/audit/?action=handoff.verdict&verdict=FALSE_COMPLETE"
            f"&date_from={today - dt.timedelta(days=6)}&date_to={today}"
        ),
        "healthy: 2": (
            f"/audit/?action=handoff.verdict&verdict=HEALTHY"
            f"&date_from={today - dt.timedelta(days=6)}&date_to={today}"
        ),
    }


def test_the_share_resolved_without_a_person(manager: Client) -> None:
    for status, escalated in [
        (InquiryStatus.RESOLVED, False),
        (InquiryStatus.RESOLVED, False),
        (InquiryStatus.RESOLVED, False),
        (InquiryStatus.RESOLVED, True),
        (InquiryStatus.RUNNING, False),
    ]:
        _inquiry(status, escalated=escalated)

    ctx = manager.get("/audit/dashboard/").context

    assert (ctx["inquiries"], ctx["finished"], ctx["by_ai"], ctx["share_by_ai"]) == (5, 4, 3, 75)


def test_dashboard_charts_are_inline_svg_linking_to_the_search(
    manager: Client, activity: dict[str, Any]
) -> None:
    response = manager.get("/audit/dashboard/")
    html = response.content.decode()
    today = timezone.localdate()

    assert html.count("<svg") == 5
    # Nothing fetched from elsewhere: no script or stylesheet of another host (a CSRF token's
    # random letters may spell "cdn", so look at the addresses, not the whole page).
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html)
    assert (
        f'href="/audit/?action=inquiry.received&amp;date_from={today}&amp;date_to={today}"' in html
    )
    assert 'href="/audit/?action=wait.opened&amp;reason=carrier_failure"' in html
    reasons = {r.title for r in response.context["reasons"].rects}
    # Named in words; a code the catalogue does not know is shown as itself.
    assert reasons == {"approval required: 1", "refund_approval: 5", "carrier_failure: 1"}


def test_the_dashboard_makes_the_same_few_queries_however_much_happened(
    manager: Client, activity: dict[str, Any]
) -> None:
    busy = _queries(manager, "/audit/dashboard/?days=90")
    for _ in range(3):
        _decided(45)
        _inquiry(InquiryStatus.RESOLVED)
        _entry(AuditAction.HANDOFF_VERDICT, "agent:supervisor", verdict="UNCERTAIN_WAIT")

    # the session, its user, their saved language and role groups, eight aggregates for the
    # engineering figures and ten for the support figures, the reviewed accuracy and the
    # customers' word two of them, one for the drafts' outcomes (the percentiles' reads
    # only where there is something), and four for the work waiting now (its counts, the
    # oldest wait, the escalations held and the conversations owned per person)
    assert _queries(manager, "/audit/dashboard/?days=90") == busy == 27


def test_an_empty_dashboard(manager: Client) -> None:
    ctx = manager.get("/audit/dashboard/").context

    assert (ctx["inquiries"], ctx["share_by_ai"], ctx["median"], ctx["overdue_total"]) == (
        0,
        None,
        "–",
        0,
    )


# --- Console logins --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "recorded"), [(Role.OPERATOR, "operator"), (Role.MANAGER, "manager")]
)
def test_a_staff_login_is_audited(role: Role, recorded: str) -> None:
    user = staff_user("yamada", role)
    user.set_password("pw-123456")
    user.save()

    # django-axes counts every attempt against its client, so authenticate() needs the request.
    assert Client().login(request=HttpRequest(), username="yamada", password="pw-123456")

    entry = AuditEntry.objects.get(action="console.login")
    assert (entry.actor, entry.data) == ("yamada", {"user_id": user.pk, "role": recorded})


def test_a_customer_login_is_not_audited() -> None:
    User.objects.create_user("customer", password="pw-123456")

    assert Client().login(request=HttpRequest(), username="customer", password="pw-123456")

    assert not AuditEntry.objects.filter(action="console.login").exists()


def test_the_dashboard_says_what_waits_now_and_who_holds_it(manager: Client) -> None:
    op1 = staff_user("op7", Role.OPERATOR)
    oldest = escalation_for()
    Escalation.objects.filter(pk=oldest.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=95),
        deadline=timezone.now() - dt.timedelta(minutes=5),
    )
    held = escalation_for()
    Escalation.objects.filter(pk=held.pk).update(claimed_by=op1)
    owned = inquiry_for(text="まだですか")
    Inquiry.objects.filter(pk=owned.pk).update(human_owner=op1, status=InquiryStatus.ESCALATED)
    decided = escalation_for()
    Escalation.objects.filter(pk=decided.pk).update(status=EscalationStatus.DECIDED)

    now = manager.get("/audit/dashboard/").context["now"]

    assert (now.waiting, now.overdue, now.unclaimed) == (2, 1, 1)
    assert now.oldest.pk == oldest.pk
    assert labels.elapsed(now.oldest_for) == "1 h 35 min"
    assert [(r.username, r.escalations, r.conversations) for r in now.load] == [("op7", 1, 1)]
