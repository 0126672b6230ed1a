"""The staff API: the escalation queue, claims and decisions, and the console's resync.

Given escalations recorded as runs would record them, when operators list, claim and decide
them over HTTP, then each change is attributed, conflicts name who got there first, and a
refused decision changes nothing.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from agents.models import ConsoleEvent, Escalation, Inquiry
from agents.support.escalations.approvals import effective_params
from agents.support.escalations.services import escalation_record_wait
from agents.support.shapes import Decision, PendingAction
from netshop.audit.models import AuditEntry
from netshop.models import Order, Refund
from netshop.roles import Role
from tests.factories import delivered_order
from tests.operators.api_helpers import (
    REFUND_ACTION,
    bearer,
    escalation_for,
    inquiry_for,
    signed_in,
    staff_key,
    staff_user,
    storefront_key,
)
from tests.support.events import escalation_event, last_seq, published_after

pytestmark = pytest.mark.django_db

BASE = "/api/v1/escalations"
NO_SUCH = "00000000-0000-0000-0000-000000000000"


def post(client: Client, url: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def decide(client: Client, escalation: Escalation, **body: Any) -> Any:
    return post(client, f"{BASE}/{escalation.pk}/decide", body)


def decided_at(escalation: Escalation) -> str:
    assert escalation.decided_at is not None
    return escalation.decided_at.isoformat()


def ids(response: Any) -> list[str]:
    return [item["id"] for item in response.json()["items"]]


# --- Who may call what ----------------------------------------------------------------------

STAFF_CALLS = [
    ("get", "/api/v1/escalations"),
    ("get", "/api/v1/escalations/{id}"),
    ("post", "/api/v1/escalations/{id}/claim"),
    ("post", "/api/v1/escalations/{id}/release"),
    ("post", "/api/v1/escalations/{id}/decide"),
    ("get", "/api/v1/events"),
]


@pytest.mark.parametrize(
    ("caller", "status"),
    [
        ("anonymous", 401),
        ("revoked_token", 401),
        ("storefront_token", 401),
        ("signed_in_customer", 403),
        ("operator", 200),
        ("manager", 200),
        ("operator_token", 200),
        ("manager_token", 200),
        ("roleless_user_token", 403),
        ("revoked_operator_token", 401),
        ("deactivated_operator_token", 401),
    ],
)
@pytest.mark.parametrize(("method", "path"), STAFF_CALLS)
def test_staff_endpoints_admit_operators_and_managers_only(
    caller: str, status: int, method: str, path: str, escalation: Escalation
) -> None:
    client = caller_client(caller)
    url = path.format(id=escalation.pk)
    body = {"decision": "approve"} if url.endswith("/decide") else {}

    if method == "get":
        response = client.get(url)
    else:
        response = client.post(url, json.dumps(body), content_type="application/json")

    assert response.status_code == status
    if status == 403:
        assert response.json() == {"code": "forbidden", "message": "This needs the operator role."}
    if status != 200:
        escalation.refresh_from_db()
        assert (escalation.status, escalation.claimed_by) == ("open", None)


STAFF_TOKENS = {
    "operator_token": Role.OPERATOR,
    "manager_token": Role.MANAGER,
    "roleless_user_token": None,
    "revoked_operator_token": Role.OPERATOR,
    "deactivated_operator_token": Role.OPERATOR,
}


def caller_client(caller: str) -> Client:
    """A client for each kind of caller; tokens go without a session and without CSRF."""
    if caller in STAFF_TOKENS:
        user = staff_user(caller, STAFF_TOKENS[caller])
        if caller.startswith("deactivated"):
            User.objects.filter(pk=user.pk).update(is_active=False)
        key = staff_key(user, revoked=caller.startswith("revoked"))
        return Client(enforce_csrf_checks=True, headers=bearer(key))
    if caller.endswith("_token"):
        key = storefront_key(caller, revoked=caller == "revoked_token")
        return Client(headers=bearer(key))
    roles = {"signed_in_customer": None, "operator": Role.OPERATOR, "manager": Role.MANAGER}
    if caller in roles:
        return signed_in(staff_user(caller, roles[caller]))
    return Client()


def test_a_decision_made_with_a_staff_token_is_that_persons(escalation: Escalation) -> None:
    client = caller_client("operator_token")

    response = decide(
        client, escalation, decision="reject", reason="not eligible", confirm_language=True
    )

    assert response.status_code == 200
    escalation.refresh_from_db()
    assert escalation.decided_by == User.objects.get(username="operator_token")
    decided = AuditEntry.objects.get(action="decision.reject")
    assert decided.actor == "operator_token"


def test_a_staff_token_loses_what_its_owner_loses(op1: User, escalation: Escalation) -> None:
    client = Client(headers=bearer(staff_key(op1)))
    assert client.get(BASE).status_code == 200

    op1.groups.clear()

    assert client.get(BASE).status_code == 403


def test_a_session_post_without_the_csrf_token_is_refused(
    op1: User, escalation: Escalation
) -> None:
    strict = signed_in(op1, enforce_csrf=True)

    response = post(strict, f"{BASE}/{escalation.pk}/claim")

    assert response.status_code == 403
    assert response.json()["code"] == "csrf_failed"
    assert "X-CSRFToken header" in response.json()["message"]
    escalation.refresh_from_db()
    assert escalation.claimed_by is None


def test_a_session_post_with_the_csrf_token_is_accepted(op1: User, escalation: Escalation) -> None:
    strict = signed_in(op1, enforce_csrf=True)
    token = "t" * 32  # an unmasked secret is a valid token when cookie and header agree
    strict.cookies["csrftoken"] = token

    response = strict.post(
        f"{BASE}/{escalation.pk}/claim", "{}", "application/json", headers={"X-CSRFToken": token}
    )

    assert response.status_code == 200
    assert response.json()["claimed_by"] == "op1"


# --- The queue ------------------------------------------------------------------------------


def test_an_escalation_is_listed_as_its_live_event_shows_it(
    op1: User, escalation: Escalation
) -> None:
    response = signed_in(op1).get(BASE)

    assert response.status_code == 200
    assert response.json() == {
        "items": [
            {
                "id": str(escalation.pk),
                "inquiry_id": str(escalation.inquiry_id),
                "kind": "approval",
                "reason": "approval_required",
                "summary": escalation.summary,
                "status": "open",
                "amount_at_risk": 12800,
                "deadline": escalation.deadline.isoformat(),
                "created_at": escalation.created_at.isoformat(),
                "claimed_by": None,
                "decided_by": None,
                "decision": None,
                "awaits_second_approval": False,
                "overdue": False,
            }
        ],
        "next_cursor": None,
    }


def test_the_list_filters_by_status_kind_reason_overdue_and_claims(op1: User, op2: User) -> None:
    approval = escalation_for()
    failure = escalation_for(kind="failure", reason="tool_failure")
    late = escalation_for(kind="failure", reason="supervisor_failure")
    Escalation.objects.filter(pk=late.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    mine = escalation_for()
    theirs = escalation_for()
    decided = escalation_for()
    client = signed_in(op1)
    post(client, f"{BASE}/{mine.pk}/claim")
    post(signed_in(op2), f"{BASE}/{theirs.pk}/claim")
    decide(client, decided, decision="reject", reason="not eligible", confirm_language=True)
    open_ids = {str(e.pk) for e in (approval, failure, late, mine, theirs)}

    def listed(query: str) -> set[str]:
        response = client.get(f"{BASE}?{query}")
        assert response.status_code == 200
        return set(ids(response))

    assert listed("") == open_ids
    assert listed("status=decided") == {str(decided.pk)}
    assert listed("status=all") == open_ids | {str(decided.pk)}
    assert listed("kind=failure") == {str(failure.pk), str(late.pk)}
    assert listed("reason=tool_failure") == {str(failure.pk)}
    assert listed("overdue=true") == {str(late.pk)}
    assert listed("overdue=false") == open_ids - {str(late.pk)}
    assert listed("mine=true") == {str(mine.pk)}
    assert listed("unclaimed=true") == {str(approval.pk), str(failure.pk), str(late.pk)}
    assert listed("kind=failure&overdue=true&unclaimed=true") == {str(late.pk)}


def test_an_overdue_escalation_says_so(op1: User, escalation: Escalation) -> None:
    Escalation.objects.filter(pk=escalation.pk).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )

    item = signed_in(op1).get(BASE).json()["items"][0]

    assert item["overdue"] is True


def test_the_list_pages_by_deadline_with_a_cursor_in_four_queries_a_page(
    op1: User, op2: User, django_assert_num_queries: Any
) -> None:
    escalations = [escalation_for() for _ in range(30)]
    for index, escalation in enumerate(escalations[:20]):
        post(signed_in(op1 if index % 2 else op2), f"{BASE}/{escalation.pk}/claim")
    # Ties on deadline (and on created_at) must neither repeat nor skip a row between pages.
    same_deadline = timezone.now() + timedelta(minutes=5)
    Escalation.objects.filter(pk__in=[e.pk for e in escalations[10:20]]).update(
        deadline=same_deadline, created_at=same_deadline
    )
    expected = [
        str(pk)
        for pk in Escalation.objects.order_by("deadline", "created_at", "id").values_list(
            "pk", flat=True
        )
    ]
    client = signed_in(op1)
    client.get(f"{BASE}?limit=1")  # the session and its user are loaded the same every time

    pages, cursor = [], ""
    for _ in range(3):
        # the session, its user, the user's role groups, and one page of escalations
        with django_assert_num_queries(4):
            response = client.get(f"{BASE}?limit=12&cursor={cursor}")
        pages.append(ids(response))
        cursor = response.json()["next_cursor"]

    assert [len(page) for page in pages] == [12, 12, 6]
    assert [pk for page in pages for pk in page] == expected
    assert cursor is None


@pytest.mark.parametrize(
    ("query", "code", "message_part"),
    [
        ("cursor=not-a-cursor", "invalid_cursor", "not one this API gave out"),
        ("cursor=WzEsMiwzXQ", "invalid_cursor", "not one this API gave out"),
        ("limit=0", "invalid_request", "limit: Input should be greater than or equal to 1"),
        ("limit=201", "invalid_request", "limit: Input should be less than or equal to 200"),
        ("status=closed", "invalid_request", "status: Input should be 'open', 'decided' or 'all'"),
        ("kind=urgent", "invalid_request", "kind: Input should be"),
        ("overdue=maybe", "invalid_request", "overdue: Input should be a valid boolean"),
    ],
)
def test_a_bad_list_query_is_refused_with_a_message(
    op1: User, escalation: Escalation, query: str, code: str, message_part: str
) -> None:
    response = signed_in(op1).get(f"{BASE}?{query}")

    assert response.status_code == 422
    assert response.json()["code"] == code
    assert message_part in response.json()["message"]


def test_one_escalation_comes_with_its_actions_and_package(
    op1: User, escalation: Escalation
) -> None:
    Inquiry.objects.filter(pk=escalation.inquiry_id).update(
        handoffs=[{"receiver": "payment", "verdict": "WAITING_ON_APPROVAL", "handoff_id": "x"}]
    )

    response = signed_in(op1).get(f"{BASE}/{escalation.pk}")

    body = response.json()
    assert response.status_code == 200
    assert body["id"] == str(escalation.pk)
    assert body["actions"] == escalation.actions
    assert body["package"] == escalation.package
    assert body["owner"] == "queue:operators"
    assert body["resume_token_id"] == str(escalation.resume_token_id)
    assert (body["claimed_at"], body["decided_at"], body["decision_record"]) == (None, None, None)
    assert body["handoffs"] == [{"agent": "payment", "verdict": "WAITING_ON_APPROVAL"}]


@pytest.mark.parametrize("escalation_id", ["not-a-uuid", NO_SUCH])
@pytest.mark.parametrize("action", ["", "/claim", "/release", "/decide"])
def test_an_unknown_or_malformed_escalation_id_is_not_found(
    op1: User, escalation_id: str, action: str
) -> None:
    client = signed_in(op1)
    url = f"{BASE}/{escalation_id}{action}"

    response = post(client, url, {"decision": "approve"}) if action else client.get(url)

    assert response.status_code == 404
    assert response.json()["code"] == "escalation_not_found"


# --- Waits ----------------------------------------------------------------------------------


def test_recording_a_wait_tells_the_consoles_once() -> None:
    inquiry = inquiry_for()
    seq = last_seq()

    first = escalation_for(inquiry, wait_key=f"{inquiry.pk}:w1")
    again = escalation_for(inquiry, wait_key=f"{inquiry.pk}:w1")  # a resumed node records it again

    assert again.pk == first.pk
    assert published_after(seq) == [
        (
            "escalation.created",
            {
                "id": str(first.pk),
                "inquiry_id": str(inquiry.pk),
                "kind": "approval",
                "reason": "approval_required",
                "summary": f"approval for {inquiry.customer.code}",
                "status": "open",
                "amount_at_risk": 12800,
                "deadline": first.deadline.isoformat(),
                "created_at": first.created_at.isoformat(),
                "claimed_by": None,
                "decided_by": None,
                "decision": None,
                "awaits_second_approval": False,
            },
        )
    ]


# --- Claims ---------------------------------------------------------------------------------


def test_a_claim_is_attributed_and_blocks_other_operators(
    op1: User, op2: User, escalation: Escalation
) -> None:
    seq = last_seq()

    first = post(signed_in(op1), f"{BASE}/{escalation.pk}/claim")
    again = post(signed_in(op1), f"{BASE}/{escalation.pk}/claim")
    other = post(signed_in(op2), f"{BASE}/{escalation.pk}/claim")
    other_release = post(signed_in(op2), f"{BASE}/{escalation.pk}/release")
    other_decision = decide(signed_in(op2), escalation, decision="approve")

    assert (first.status_code, again.status_code) == (200, 200)
    assert first.json()["claimed_by"] == "op1"
    for refused in (other, other_release, other_decision):
        assert refused.status_code == 409
        assert refused.json() == {"code": "claimed_by_other", "message": "Claimed by op1."}
    escalation.refresh_from_db()
    assert (escalation.claimed_by, escalation.owner, escalation.status) == (op1, "op1", "open")
    # one event, for the claim that changed something; none for the repeat or the refusals
    assert published_after(seq) == [
        ("escalation.claimed", escalation_event(escalation, claimed_by="op1"))
    ]


def test_a_release_puts_the_escalation_back_in_the_queue(
    op1: User, op2: User, escalation: Escalation
) -> None:
    post(signed_in(op1), f"{BASE}/{escalation.pk}/claim")
    seq = last_seq()

    released = post(signed_in(op1), f"{BASE}/{escalation.pk}/release")
    taken = post(signed_in(op2), f"{BASE}/{escalation.pk}/claim")

    assert released.status_code == 200
    assert released.json()["claimed_by"] is None
    assert taken.json()["claimed_by"] == "op2"
    assert published_after(seq) == [
        ("escalation.released", escalation_event(escalation)),
        ("escalation.claimed", escalation_event(escalation, claimed_by="op2")),
    ]


# --- Decisions ------------------------------------------------------------------------------


def test_an_approval_is_recorded_once_and_the_run_resumes_after_commit(
    op1: User, escalation: Escalation, django_capture_on_commit_callbacks: Any
) -> None:
    seq = last_seq()

    with django_capture_on_commit_callbacks() as after_commit:
        response = decide(signed_in(op1), escalation, decision="approve")

    assert response.status_code == 200
    assert response.json()["status"] == "decided"
    assert (response.json()["decided_by"], response.json()["decision"]) == ("op1", "approve")
    escalation.refresh_from_db()
    assert escalation.decision == {
        "decision": "approve",
        "params": {},
        "reason": "",
        "reply": "",
        "operator": "op1",
    }
    assert escalation.decided_by == op1
    assert published_after(seq) == [
        (
            "escalation.decided",
            escalation_event(escalation, status="decided", decided_by="op1", decision="approve"),
        )
    ]
    # the decided event's send, and the resume hand-off to a worker
    assert len(after_commit) == 2


def test_a_second_decision_is_a_conflict_naming_who_decided(
    op1: User, op2: User, escalation: Escalation
) -> None:
    decide(signed_in(op1), escalation, decision="approve")
    seq = last_seq()

    late = decide(signed_in(op2), escalation, decision="reject", reason="too late")
    claim = post(signed_in(op2), f"{BASE}/{escalation.pk}/claim")

    escalation.refresh_from_db()
    assert late.status_code == 409
    assert late.json() == {
        "code": "already_decided",
        "message": f"Already approved by op1 at {decided_at(escalation)}.",
    }
    assert claim.status_code == 409
    assert (escalation.decision or {}).get("decision") == "approve"
    assert published_after(seq) == []  # neither the late decision nor the claim published


def test_an_edit_within_the_rules_is_recorded_with_its_changes(
    op1: User, escalation: Escalation
) -> None:
    response = decide(
        signed_in(op1), escalation, decision="edit", params={"amount": 6400, "reason": "half"}
    )

    assert response.status_code == 200
    escalation.refresh_from_db()
    assert (escalation.decision or {}).get("params") == {"amount": 6400, "reason": "half"}


def test_an_edit_may_change_the_reply_alone(op1: User, escalation: Escalation) -> None:
    response = decide(
        signed_in(op1), escalation, decision="edit", reply="We refunded you.", confirm_language=True
    )

    assert response.status_code == 200
    escalation.refresh_from_db()
    assert (escalation.decision or {})["reply"] == "We refunded you."


def test_an_edit_of_a_refund_decided_with_a_cancellation_changes_the_refund_only(
    op1: User,
) -> None:
    inquiry = inquiry_for()
    delivered_order(number="ORD-4003", customer=inquiry.customer, captured=12800)
    cancel = {
        "action_id": "a2",
        "kind": "cancel_order",
        "params": {"order_number": "ORD-4001", "reason": "ordered twice"},
        "amount_at_risk": 3980,
        "facts": {"payment": {"refundable": 0}},
    }
    both = escalation_record_wait(
        inquiry=inquiry,
        wait_key=f"{inquiry.pk}:both",
        kind="approval",
        reason="approval_required",
        summary="refund and cancel",
        package={},
        actions=[cast(PendingAction, dict(REFUND_ACTION)), cast(PendingAction, cancel)],
    )

    response = decide(signed_in(op1), both, decision="edit", params={"amount": 6400})

    assert response.status_code == 200
    both.refresh_from_db()
    decision = cast(Decision, both.decision)
    refund, cancellation = (effective_params(a, decision) for a in both.actions)
    assert refund == {**REFUND_ACTION["params"], "amount": 6400}
    assert cancellation == cancel["params"]


def test_taking_over_a_failure_hands_the_inquiry_to_the_operator(op1: User) -> None:
    failure = escalation_for(kind="failure", reason="tool_failure")
    seq = last_seq()

    response = decide(signed_in(op1), failure, decision="take_over", reply="I'll refund you.")

    assert response.status_code == 200
    inquiry = Inquiry.objects.get(pk=failure.inquiry_id)
    assert (inquiry.status, inquiry.reply) == ("handled_by_human", "I'll refund you.")
    decided = escalation_event(failure, status="decided", decided_by="op1", decision="take_over")
    reply = inquiry.messages.get(author_kind="operator")
    assert (reply.text, reply.author) == ("I'll refund you.", op1)
    assert [event for event, _ in published_after(seq)] == [
        "escalation.decided",
        "conversation.message",
        "inquiry.updated",
        "escalation.resolved",
    ]
    assert published_after(seq)[0] == ("escalation.decided", decided)
    assert published_after(seq)[2] == (
        "inquiry.updated",
        {
            "id": str(inquiry.pk),
            "status": "handled_by_human",
            "reply": "I'll refund you.",
            "human_owned": True,
            "updated_at": inquiry.updated_at.isoformat(),
        },
    )
    assert published_after(seq)[3] == (
        "escalation.resolved",
        decided | {"inquiry_status": "handled_by_human"},
    )


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ({"decision": "reject"}, "reason_required", "A rejection needs a reason"),
        ({"decision": "reject", "reason": "  "}, "reason_required", "A rejection needs a reason"),
        ({"decision": "take_over"}, "reply_required", "Taking over needs the reply"),
        ({"decision": "edit"}, "params_required", "An edit needs the parameters or the reply"),
        ({"decision": "edit", "reply": " "}, "params_required", "the parameters or the reply"),
        (
            {"decision": "edit", "params": {"reason": " "}},
            "reason_required",
            "needs a reason",
        ),
        ({"decision": "edit", "params": {"reason": 5}}, "reason_required", "a reason in words"),
        (
            {"decision": "edit", "params": {"order_number": "ORD-1"}},
            "param_not_editable",
            "Cannot change order_number.",
        ),
        ({"decision": "edit", "params": {"amount": 0}}, "invalid_amount", "positive whole"),
        ({"decision": "edit", "params": {"amount": -5}}, "invalid_amount", "positive whole"),
        (
            {"decision": "edit", "params": {"amount": 12801}},
            "refund_exceeds_captured",
            "At most ¥12,800 can be refunded.",
        ),
        ({"decision": "maybe"}, "invalid_request", "decision: Input should be 'approve'"),
        ({}, "invalid_request", "decision: Field required"),
        (
            {"decision": "edit", "params": {"amount": True}},
            "invalid_request",
            "params.amount.int: Input should be a valid integer",
        ),
        (
            {"decision": "edit", "params": {"amount": 12.5}},
            "invalid_request",
            "params.amount.int: Input should be a valid integer",
        ),
        (
            {"decision": "reject", "reason": "x" * 1001},
            "invalid_request",
            "reason: String should have at most 1000",
        ),
    ],
)
def test_a_refused_decision_is_422_and_changes_nothing(
    op1: User, escalation: Escalation, body: dict[str, Any], code: str, message: str
) -> None:
    seq = last_seq()

    response = decide(signed_in(op1), escalation, **body)

    assert response.status_code == 422
    assert response.json()["code"] == code
    assert message in response.json()["message"]
    escalation.refresh_from_db()
    assert (escalation.status, escalation.decision, escalation.decided_by) == ("open", None, None)
    assert published_after(seq) == []


def test_a_failed_refund_may_be_retried_or_given_up_but_not_edited(
    op1: User, django_capture_on_commit_callbacks: Any
) -> None:
    failed, given_up = (escalation_for(kind="failure", reason="action_failed") for _ in "ab")

    edit = decide(signed_in(op1), failed, decision="edit", params={"amount": 100})
    with django_capture_on_commit_callbacks() as after_retry:
        retry = decide(signed_in(op1), failed, decision="approve")
    give_up = decide(
        signed_in(op1),
        given_up,
        decision="reject",
        reason="paid by transfer",
        confirm_language=True,
    )

    assert edit.status_code == 422
    assert edit.json()["message"].endswith("use one of ['approve', 'reject', 'take_over'].")
    assert (retry.status_code, give_up.status_code) == (200, 200)
    # as an approval does: the decided event's send, and the resume hand-off to a worker
    assert len(after_retry) == 2
    assert Inquiry.objects.get(pk=failed.inquiry_id).status != "handled_by_human"


def test_only_take_over_is_possible_on_a_failure(op1: User) -> None:
    failure = escalation_for(kind="failure", reason="tool_failure")

    response = decide(signed_in(op1), failure, decision="approve")

    assert response.status_code == 422
    assert response.json() == {
        "code": "invalid_decision",
        "message": "'approve' is not possible here; use one of ['take_over'].",
    }


# --- Resync ---------------------------------------------------------------------------------


def test_a_console_fetches_the_events_it_missed(op1: User) -> None:
    first = escalation_for()
    second = escalation_for()
    client = signed_in(op1)
    ConsoleEvent.objects.exclude(type="escalation.created").delete()  # the intakes' own events
    events = list(ConsoleEvent.objects.order_by("pk"))

    everything = client.get("/api/v1/events").json()
    missed = client.get(f"/api/v1/events?after={events[0].pk}").json()
    nothing = client.get(f"/api/v1/events?after={events[-1].pk}").json()

    assert [e["payload"]["id"] for e in everything["events"]] == [str(first.pk), str(second.pk)]
    assert everything["events"][0] == {
        "seq": events[0].pk,
        "type": "escalation.created",
        "payload": events[0].payload,
        "created_at": events[0].created_at.isoformat(),
    }
    assert (everything["last_seq"], everything["has_more"]) == (events[-1].pk, False)
    assert [e["seq"] for e in missed["events"]] == [events[1].pk]
    assert nothing == {"events": [], "last_seq": events[-1].pk, "has_more": False}


def test_the_events_come_at_most_200_at_a_time(op1: User) -> None:
    ConsoleEvent.objects.bulk_create(
        ConsoleEvent(type="inquiry.updated", payload={"id": str(n)}) for n in range(201)
    )

    page = signed_in(op1).get("/api/v1/events").json()

    assert (len(page["events"]), page["has_more"]) == (200, True)
    assert page["last_seq"] == page["events"][-1]["seq"]


def test_a_negative_sequence_is_refused(op1: User) -> None:
    response = signed_in(op1).get("/api/v1/events?after=-1")

    assert response.status_code == 422
    assert "after: Input should be greater than or equal to 0" in response.json()["message"]


def test_an_edit_is_checked_against_the_payment_as_it_is_now_not_as_the_run_saw_it(
    op1: User, escalation: Escalation
) -> None:
    # Given: the run proposed the whole ¥12,800, then ¥5,000 was refunded elsewhere.
    order = Order.objects.get(number="ORD-4003")
    Refund.objects.create(
        payment=order.payment,
        amount=5000,
        reason="earlier",
        operation_id="elsewhere-1",
        gateway_refund_id="re_elsewhere",
        actor="op2",
    )

    # When: an operator edits the refund to ¥10,000 (within the run's stale ¥12,800).
    response = decide(signed_in(op1), escalation, decision="edit", params={"amount": 10000})

    # Then: refused with what is refundable now, and nothing was decided.
    assert (response.status_code, response.json()) == (
        422,
        {"code": "refund_exceeds_captured", "message": "At most ¥7,800 can be refunded."},
    )
    escalation.refresh_from_db()
    assert (escalation.status, escalation.decision) == ("open", None)
