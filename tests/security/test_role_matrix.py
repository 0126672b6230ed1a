"""Who may open what: every URL pattern and every socket, for every kind of caller.

Given the shared shop and its logins, when an anonymous visitor, a storefront (bearer token),
a customer (Hanako), an operator and a manager each call every URL pattern the root URLconf
declares (walked recursively, so a new page cannot be forgotten) and open every socket, then
each gets exactly the answer in the matrix below.

Outcomes: a status code; ``login`` / ``admin-login`` for a redirect to that login page;
``302 <path>`` for any other redirect (object ids shown as ``<uuid>`` and ``<pk>``).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib import admin
from django.http import HttpResponse
from django.test import Client

from agents.models import Escalation
from agents.support.escalations.action_states import action_decisions_shown
from netshop.roles import Role
from tests.operators.api_helpers import (
    bearer,
    refund_escalation,
    signed_in,
    staff_key,
    staff_user,
)
from tests.security.conftest import (
    CALLERS,
    FORBIDDEN_CLOSE,
    PARAMETER,
    SIGNED_OUT_CLOSE,
    RoutePaths,
    Shop,
    socket_verdict,
    url_routes,
    websocket_routes,
)
from tests.support.sockets import socket_headers

Outcome = int | str
LOGIN, ADMIN_LOGIN = "login", "admin-login"
TO_DETAIL = "302 /console/escalations/<uuid>/"
TO_CONVERSATION = "302 /console/conversations/<uuid>/"
TO_ARTICLE = "302 /knowledge/articles/<pk>/"
REFUSED, ACCEPTED = f"closed {FORBIDDEN_CLOSE}", "accepted"
UNSIGNED = f"closed {SIGNED_OUT_CLOSE}"  # no session: anonymous, or a token (no socket login)
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
PK = re.compile(r"/\d+/")


@dataclass(frozen=True)
class Row:
    """Expected outcomes for (anonymous, token, customer, operator, manager)."""

    expect: tuple[Outcome, Outcome, Outcome, Outcome, Outcome]
    method: str = "get"
    body: dict[str, Any] = field(default_factory=dict)
    json: bool = False

    def expected(self, caller: str) -> Outcome:
        return self.expect[CALLERS.index(caller)]


def everyone(outcome: Outcome, **kwargs: Any) -> Row:
    return Row((outcome, outcome, outcome, outcome, outcome), **kwargs)


def page(customer: Outcome, operator: Outcome, manager: Outcome, **kwargs: Any) -> Row:
    """A login-protected page: anonymous visitors and storefronts are sent to log in."""
    return Row((LOGIN, LOGIN, customer, operator, manager), **kwargs)


def staff_api(ok: Outcome = 200, **kwargs: Any) -> Row:
    """A staff endpoint: no session 401 (a token is no session), a customer's session 403."""
    return Row((401, 401, 403, ok, ok), **kwargs)


def admin_page(operator: Outcome, manager: Outcome | None = None, **kwargs: Any) -> Row:
    """Non-staff are sent to the admin's login; staff see what their role's permissions allow."""
    staff = (operator, operator if manager is None else manager)
    return Row((ADMIN_LOGIN, ADMIN_LOGIN, ADMIN_LOGIN, *staff), **kwargs)


DECISION = {"decision": "reject", "reason": "対象外のご依頼です"}
VERDICT = {"verdict": "correct"}
INQUIRY = {"customer_id": "{hanako_code}", "text": "{hanako_delivered}が欠けて届きました。"}

EXPECTED: dict[str, Row] = {
    "healthz": everyone(200),
    # Django's auth views: the login page is public, password pages need a login.
    "accounts/login/": everyone(200),
    "accounts/logout/": everyone(LOGIN, method="post"),
    "accounts/password_change/": page(200, 200, 200),
    "accounts/password_change/done/": page(200, 200, 200),
    # Password reset is off while no mail server is configured (EMAIL_HOST).
    "accounts/password_reset/": everyone(404),
    "accounts/password_reset/done/": everyone(404),
    "accounts/reset/<uidb64>/<token>/": everyone(404),
    "accounts/reset/done/": everyone(404),
    # The API: the schema and docs are public; the rest answers 401/403 in JSON.
    "api/v1/openapi.json": everyone(200),
    "api/v1/docs": everyone(200),
    "api/v1/": everyone(404),  # ninja's root: nothing is served there
    "api/v1/inquiries": Row((401, 202, 401, 401, 401), method="post", body=INQUIRY, json=True),
    # A storefront token speaks for every customer (SPEC: it authenticates a shop), in the
    # conversations it submitted (the matrix's is; another's is 404: test_customer_scoping).
    "api/v1/inquiries/<inquiry_id>": Row((401, 200, 403, 200, 200)),
    "api/v1/agents": Row((401, 200, 403, 200, 200)),
    "api/v1/escalations": staff_api(),
    "api/v1/escalations/<escalation_id>": staff_api(),
    "api/v1/escalations/<escalation_id>/claim": staff_api(method="post"),
    "api/v1/escalations/<escalation_id>/release": staff_api(method="post"),
    "api/v1/escalations/<escalation_id>/assign": staff_api(
        method="post", body={"assignee": "operator"}, json=True
    ),
    "api/v1/escalations/<escalation_id>/decide": staff_api(method="post", body=DECISION, json=True),
    "api/v1/escalations/<escalation_id>/preview": staff_api(
        method="post", body=DECISION, json=True
    ),
    # The matrix's escalation is an approval: a verdict is for reviews (422 not_a_review).
    "api/v1/escalations/<escalation_id>/verdict": staff_api(
        422, method="post", body=VERDICT, json=True
    ),
    # ... and sending a reply is for drafts (422 not_a_draft).
    "api/v1/escalations/<escalation_id>/send-reply": staff_api(
        422, method="post", body={}, json=True
    ),
    "api/v1/events": staff_api(),
    # A receipt issued in a conversation: read like its thread (a storefront names the
    # customer, so without ``customer_id`` it is refused).
    "api/v1/inquiries/<inquiry_id>/receipts/<receipt:number>": Row((401, 422, 403, 200, 200)),
    # The audit log: an inquiry's trail for staff; search and export for managers.
    "api/v1/inquiries/<inquiry_id>/audit": staff_api(),
    # A customer's message: the storefront's alone, like intake.
    "api/v1/inquiries/<inquiry_id>/messages": Row(
        (401, 202, 401, 401, 401), method="post", body=INQUIRY, json=True
    ),
    # The customer's word on an AI answer: the storefront's (for its customer), like messages.
    "api/v1/inquiries/<inquiry_id>/messages/<message_id>/feedback": Row(
        (401, 201, 401, 401, 401),
        method="post",
        body={"customer_id": "{hanako_code}", "solved": True},
        json=True,
    ),
    # Conversations: staff only; flagging for managers. The routes run in this order on one
    # conversation, so an operator's or manager's 409/422 is the rule refusing, past access.
    "api/v1/conversations": staff_api(),
    "api/v1/conversations/<inquiry_id>": staff_api(),
    # An assignee who is no colleague: refused by the rule (422), so the conversation's
    # owner stays as the routes after it expect.
    "api/v1/conversations/<inquiry_id>/assign": staff_api(
        422, method="post", body={"assignee": "nobody"}, json=True
    ),
    "api/v1/conversations/<inquiry_id>/close": staff_api(409, method="post"),
    "api/v1/conversations/<inquiry_id>/flag": Row(
        (401, 401, 403, 403, 422), method="post", body={"reason": "matrix"}, json=True
    ),
    "api/v1/conversations/<inquiry_id>/hand-back": staff_api(409, method="post"),
    "api/v1/conversations/<inquiry_id>/messages": staff_api(
        409, method="post", body={"text": "matrix"}, json=True
    ),
    "api/v1/conversations/<inquiry_id>/notes": staff_api(
        201, method="post", body={"text": "matrix"}, json=True
    ),
    "api/v1/conversations/<inquiry_id>/take-over": staff_api(method="post"),
    "api/v1/audit": Row((401, 401, 403, 403, 200)),
    "api/v1/audit/export.csv": Row((401, 401, 403, 403, 200)),
    # The console: operators and managers.
    "": everyone("302 /console/start/"),
    "console/": page(403, 200, 200),
    "console/start/": page("302 /help/", "302 /console/", "302 /console/"),
    "console/rows": page(403, 200, 200),
    "console/preferences": page(
        403,
        "302 /console/",
        "302 /console/",
        method="post",
        body={"language": "en", "time_zone": "Asia/Tokyo"},
    ),
    "console/escalations/<uuid:escalation_id>/": page(403, 200, 200),
    "console/escalations/<uuid:escalation_id>/live": page(403, 200, 200),
    "console/escalations/<uuid:escalation_id>/claim": page(
        403, TO_DETAIL, TO_DETAIL, method="post"
    ),
    "console/escalations/<uuid:escalation_id>/release": page(
        403, TO_DETAIL, TO_DETAIL, method="post"
    ),
    "console/escalations/<uuid:escalation_id>/assign": page(
        403, TO_DETAIL, TO_DETAIL, method="post", body={"assignee": "operator"}
    ),
    "console/escalations/<uuid:escalation_id>/decide": page(
        403, TO_DETAIL, TO_DETAIL, method="post", body=DECISION
    ),
    "console/escalations/<uuid:escalation_id>/preview": page(
        403, 200, 200, method="post", body=DECISION
    ),
    "console/escalations/<uuid:escalation_id>/verdict": page(
        403, 422, 422, method="post", body=VERDICT
    ),
    "console/escalations/<uuid:escalation_id>/send-reply": page(
        403, 422, 422, method="post", body={"text": "Thank you for writing."}
    ),
    "console/escalations/<uuid:escalation_id>/main": page(403, 200, 200),
    "console/escalations/<uuid:escalation_id>/next": page(403, TO_DETAIL, TO_DETAIL),
    # Conversations. The routes run in this order on one conversation, after the API's
    # (whose take-over made the caller its owner): close succeeds, and the owner-only
    # actions after it are refused by the rule (409), past access, until the take-over.
    "console/conversations/": page(403, 200, 200),
    "console/conversations/<uuid:inquiry_id>/": page(403, 200, 200),
    "console/conversations/<uuid:inquiry_id>/thread": page(403, 200, 200),
    "console/conversations/<uuid:inquiry_id>/composer": page(403, 200, 200),
    "console/conversations/<uuid:inquiry_id>/assign": page(
        403, 422, 422, method="post", body={"assignee": "nobody"}
    ),
    "console/conversations/<uuid:inquiry_id>/close": page(
        403, TO_CONVERSATION, TO_CONVERSATION, method="post"
    ),
    "console/conversations/<uuid:inquiry_id>/flag": page(
        403, 403, TO_CONVERSATION, method="post", body={"reason": "matrix"}
    ),
    "console/conversations/<uuid:inquiry_id>/hand-back": page(403, 409, 409, method="post"),
    "console/conversations/<uuid:inquiry_id>/note": page(
        403, TO_CONVERSATION, TO_CONVERSATION, method="post", body={"text": "matrix"}
    ),
    "console/conversations/<uuid:inquiry_id>/send": page(
        403, 409, 409, method="post", body={"text": "matrix"}
    ),
    "console/conversations/<uuid:inquiry_id>/take-over": page(
        403, TO_CONVERSATION, TO_CONVERSATION, method="post"
    ),
    # The audit pages: managers only.
    "audit/": page(403, 403, 200),
    "audit/export.csv": page(403, 403, 200),
    "audit/inquiries/<uuid:inquiry_id>/": page(403, 403, 200),
    "audit/dashboard/": page(403, 403, 200),
    "audit/autonomy/": page(403, 403, 200),
    "audit/policy/": page(403, 403, 200),
    # The simulation pages: managers only. Starting a run queues it (its task leaves after
    # commit, which a test's transaction never reaches).
    "audit/simulations/": page(403, 403, 200),
    "audit/simulations/suites/upload": page(403, 403, "302 /audit/simulations/"),
    "audit/simulations/suites/<int:suite_id>/": page(403, 403, 200),
    "audit/simulations/suites/<int:suite_id>/download": page(403, 403, 200),
    "audit/simulations/suites/<int:suite_id>/run": page(
        403,
        403,
        "302 /audit/simulations/runs/<pk>/",
        method="post",
        body={"configuration": "", "k": "1", "threshold": "0.9"},
    ),
    "audit/simulations/suites/<int:suite_id>/cases/<path:case_id>": page(403, 403, 200),
    "audit/simulations/runs/<int:run_id>/": page(403, 403, 200),
    "audit/simulations/runs/<int:run_id>/status": page(403, 403, 200),
    "audit/simulations/compare/": page(403, 403, 200),
    "audit/simulations/replay/": page(403, 403, 200),
    # The knowledge pages: managers keep the articles and canned replies; any member of
    # staff may suggest an operator's answer as an article (a manager lands on the draft).
    "knowledge/": page(403, 403, 200),
    "knowledge/articles/new": page(403, 403, 200),
    "knowledge/articles/export.json": page(403, 403, 200),
    "knowledge/articles/import": page(403, 403, 422, method="post"),  # no file chosen
    "knowledge/articles/<int:article_id>/": page(403, 403, 200),
    "knowledge/articles/<int:article_id>/preview": page(403, 403, 422, method="post"),
    "knowledge/articles/<int:article_id>/publish": page(
        403, 403, TO_ARTICLE, method="post", body={"language": "ja"}
    ),
    "knowledge/articles/<int:article_id>/history/<str:language>": page(403, 403, 200),
    "knowledge/gaps/": page(403, 403, 200),
    "knowledge/suggestions/<uuid:message_id>": page(
        403, TO_CONVERSATION, TO_ARTICLE, method="post"
    ),
    "knowledge/canned-replies/": page(403, 403, 200),
    "knowledge/canned-replies/<int:reply_id>/": page(403, 403, 200),
    "knowledge/canned-replies/<int:reply_id>/active": page(
        403, 403, "302 /knowledge/canned-replies/", method="post", body={"active": "0"}
    ),
    # The help page: customers only (the inquiry is the customer's own).
    "help/": page(200, 403, 403),
    "help/inquiries/<uuid:inquiry_id>/status": page(200, 403, 403),
    "help/inquiries/<uuid:inquiry_id>/messages": page(200, 403, 403),
    "help/inquiries/<uuid:inquiry_id>/receipts": page(200, 403, 403),
    "help/inquiries/<uuid:inquiry_id>/receipts/<receipt:number>.pdf": page(200, 403, 403),
    # Hanako's own answer, already given through the storefront above: the same word again.
    "help/inquiries/<uuid:inquiry_id>/messages/<uuid:message_id>/feedback": page(
        "302 /help/", 403, 403, method="post", body={"solved": "yes"}
    ),
    "help/inquiries/<uuid:inquiry_id>/reply": page(
        "302 /help/", 403, 403, method="post", body={"text": "matrix", "key": str(uuid.uuid4())}
    ),
    # The admin site itself.
    "admin/": admin_page(200),
    "admin/login/": Row((200, 200, 200, "302 /admin/", "302 /admin/")),
    # Logging out of the admin sends staff where every logout goes (LOGOUT_REDIRECT_URL).
    "admin/logout/": Row(
        ("302 /admin/", "302 /admin/", "302 /admin/", LOGIN, LOGIN), method="post"
    ),
    "admin/password_change/": admin_page(200),
    "admin/password_change/done/": admin_page(200),
    "admin/autocomplete/": admin_page(403),
    "admin/jsi18n/": admin_page(200),
    "admin/r/<path:content_type_id>/<path:object_id>/": admin_page(404),  # no public URLs
    "admin/^(?P<app_label>auth|axes|netshop|operators)/$": admin_page(200),
    "admin/(?P<url>.*)$": admin_page(404),
    "admin/auth/user/<id>/password/": admin_page(403),
}


def admin_model_rows() -> dict[str, Row]:
    """Each registered model's admin pages, by what the roles' view permissions allow.

    Both roles only hold ``view_*`` permissions on the shop's models (managers also on API
    tokens and the integrations' ledgers, ``MANAGERS_ONLY``) and none on ``auth``: lists and
    objects are readable, nothing can be added, changed or deleted, and a bare object URL
    redirects to its (read-only) change page.
    """
    rows: dict[str, Row] = {}
    # The registry is what the admin builds its URLs from; AdminSite has no public accessor.
    for model in admin.site._registry:
        meta = model._meta
        prefix = f"admin/{meta.app_label}/{meta.model_name}/"
        seen = tuple(
            200 if _role_may_view(role, meta.app_label, meta.model_name) else 403
            for role in (Role.OPERATOR, Role.MANAGER)
        )
        obj = "<path:object_id>/"
        pk = "<uuid>" if meta.pk.get_internal_type() == "UUIDField" else "<pk>"
        change = f"302 /admin/{meta.app_label}/{meta.model_name}/{pk}/change/"
        written = (403, 200) if meta.model_name in KEPT_BY_MANAGERS else (403, 403)
        rows |= {
            prefix: admin_page(*seen),
            f"{prefix}add/": admin_page(*written),
            f"{prefix}{obj}history/": admin_page(*seen),
            f"{prefix}{obj}delete/": admin_page(*written),
            f"{prefix}{obj}change/": admin_page(*seen),
            f"{prefix}{obj}": admin_page(change),
        }
    return rows


# Admin models the managers keep (add, change, delete) and operators only read.
KEPT_BY_MANAGERS = frozenset({"cannedreply"})


# The integrations' books: managers audit them; operators, who answer customers, have no
# need for them (least privilege: no link, 403).
MANAGERS_ONLY = frozenset({"apitoken", "gatewaytransaction", "carrierbooking", "webhookdelivery"})


def _role_may_view(role: Role, app_label: str, model_name: str | None) -> bool:
    if (app_label, model_name) == ("operators", "cannedreply"):
        return True  # the library is every operator's to read (the leads keep it)
    if app_label != "netshop":
        return False
    return not (role == Role.OPERATOR and model_name in MANAGERS_ONLY)


def all_expected() -> dict[str, Row]:
    return EXPECTED | admin_model_rows()


TWO_METHODS = {"api/v1/inquiries/<inquiry_id>/messages"}  # GET (shop or staff), POST (shop)


def test_every_url_pattern_has_exactly_one_row() -> None:
    routes = list(url_routes())

    # ninja yields a pattern per operation, so a path with two methods is listed twice
    assert {route for route in routes if routes.count(route) > 1} <= TWO_METHODS
    assert sorted(set(routes) - set(all_expected())) == [], "patterns without an expected row"
    assert sorted(set(all_expected()) - set(routes)) == [], "rows for patterns that are gone"


# --- Calling every pattern -------------------------------------------------------------------


def outcome(response: HttpResponse) -> Outcome:
    if response.status_code not in (301, 302, 303):
        return response.status_code
    target = urlsplit(response["Location"]).path
    if target == "/accounts/login/":
        return LOGIN
    if target == "/admin/login/":
        return ADMIN_LOGIN
    target = UUID.sub("<uuid>", target)
    return f"{response.status_code} {PK.sub('/<pk>/', target)}"


def call(client: Client, path: str, row: Row, shop: Shop) -> Any:
    """The row's request; its body's placeholders (``{hanako_code}``) filled from ``shop``."""
    if row.method == "get":
        return client.get(path)
    body = {k: shop.fill(v) if isinstance(v, str) else v for k, v in (row.body or {}).items()}
    if row.json:
        return client.post(path, json.dumps(body), content_type="application/json")
    return client.post(path, body)


@pytest.mark.usefixtures("quiet_refusals")
@pytest.mark.parametrize("caller", CALLERS)
def test_every_url_answers_each_caller_as_the_matrix_says(shop: Shop, caller: str) -> None:
    paths = RoutePaths(shop)
    reader = shop.client(caller)
    expected, actual = {}, {}

    for route, row in sorted(all_expected().items()):
        path = paths(route, fresh=row.method == "post")
        # A POST may log the caller out or change their session: it gets a client of its own.
        client = shop.client(caller) if row.method == "post" else reader
        expected[route] = row.expected(caller)
        actual[route] = outcome(call(client, path, row, shop))

    assert actual == expected


@pytest.mark.usefixtures("quiet_refusals")
@pytest.mark.parametrize("role", ["operator", "manager"])
def test_a_staff_token_opens_the_api_its_owner_may_and_no_page(shop: Shop, role: str) -> None:
    """A personal token is an API credential: under ``api/`` it answers as its owner's
    session does; everywhere else it is no login at all."""
    paths = RoutePaths(shop)
    key = staff_key(shop.user(role))
    expected, actual = {}, {}

    for route, row in sorted(all_expected().items()):
        path = paths(route, fresh=row.method == "post")
        expected[route] = row.expected(role if route.startswith("api/") else "anonymous")
        actual[route] = outcome(call(Client(headers=bearer(key)), path, row, shop))

    assert actual == expected


def test_the_matrix_successes_for_staff_are_the_actions_themselves(shop: Shop) -> None:
    claimed, decided = shop.escalation(), shop.escalation()

    api = shop.client("operator").post(f"/api/v1/escalations/{claimed.pk}/claim")
    page = shop.client("manager").post(f"/console/escalations/{decided.pk}/decide", DECISION)

    assert (api.status_code, page.status_code) == (200, 302)
    claimed.refresh_from_db()
    decided.refresh_from_db()
    assert claimed.claimed_by == shop.user("operator")
    assert decided.decided_by == shop.user("manager")
    assert (decided.decision or {})["decision"] == "reject"


# --- Four eyes: who may approve a refund of how much ---------------------------------------

# By amount and the first approver's role: the first approval's status and the action's state
# after it, then a second approval's status by the first approver again, by another operator
# and by another manager (None: no second approval is asked for).
FOUR_EYES: dict[tuple[int, str], tuple[int, str, int | None, int | None, int | None]] = {
    (29999, "operator"): (200, "decided", None, None, None),
    (29999, "manager"): (200, "decided", None, None, None),
    (30000, "operator"): (200, "awaiting_second_approval", 409, 403, 200),
    (30000, "manager"): (200, "awaiting_second_approval", 409, 403, 200),
    (100000, "operator"): (200, "awaiting_second_approval", 409, 403, 200),
    (100001, "operator"): (403, "pending", None, None, None),
    (100001, "manager"): (200, "awaiting_second_approval", 409, 403, 200),
}


@pytest.mark.usefixtures("quiet_refusals")
@pytest.mark.parametrize(("amount", "first"), sorted(FOUR_EYES))
def test_four_eyes_answers_each_role_as_the_matrix_says(
    shop: Shop, amount: int, first: str
) -> None:
    others = {
        "operator": staff_user("op-b", Role.OPERATOR),
        "manager": staff_user("mgr-b", Role.MANAGER),
    }
    approval = {"decision": "approve"}
    expected = FOUR_EYES[amount, first]
    seconds: list[int | None] = []

    def decide(client: Client, escalation: Escalation) -> Any:
        path = f"/api/v1/escalations/{escalation.pk}/decide"
        return client.post(path, json.dumps(approval), content_type="application/json")

    escalation = refund_escalation(amount)
    answer = decide(shop.client(first), escalation)
    state = action_decisions_shown(Escalation.objects.get(pk=escalation.pk))[0]["state"]
    for second in (shop.client(first), signed_in(others["operator"]), signed_in(others["manager"])):
        waiting = state == "awaiting_second_approval"
        seconds.append(decide(second, escalation).status_code if waiting else None)

    assert (answer.status_code, state, *seconds) == expected


# --- Sockets ---------------------------------------------------------------------------------

STAFF_SOCKET = (UNSIGNED, UNSIGNED, REFUSED, ACCEPTED, ACCEPTED)
SOCKETS: dict[str, tuple[str, str, str, str, str]] = {
    "ws/console/": STAFF_SOCKET,
    "ws/console/escalations/<uuid:escalation_id>/": STAFF_SOCKET,
    # The customer is Hanako, who owns the inquiry; staff are no customers.
    "ws/help/<uuid:inquiry_id>/": (UNSIGNED, UNSIGNED, ACCEPTED, REFUSED, REFUSED),
    # Every path no route declares (the catch-all; tried at "/"): refused at the handshake.
    "": ("rejected",) * 5,
}


def test_every_socket_has_exactly_one_row() -> None:
    assert sorted(websocket_routes()) == sorted(SOCKETS)


def test_every_socket_answers_each_caller_as_the_matrix_says(live_shop: Shop) -> None:
    escalation = live_shop.escalation("hanako")
    inquiry = live_shop.inquiry("hanako")
    values = {"escalation_id": str(escalation.pk), "inquiry_id": str(inquiry.pk)}
    headers = {
        caller: socket_headers(None if caller in ("anonymous", "token") else live_shop.user(caller))
        for caller in CALLERS
    }
    headers["token"] = [*headers["token"], (b"authorization", _bearer(live_shop))]
    expected, actual = {}, {}

    for route, row in SOCKETS.items():
        path = "/" + PARAMETER.sub(lambda found: values[found[1]], route)
        for caller, wanted in zip(CALLERS, row, strict=True):
            expected[route, caller] = wanted
            actual[route, caller] = socket_verdict(path, headers[caller])

    assert actual == expected


def test_a_staff_token_opens_no_socket(live_shop: Shop) -> None:
    token = (b"authorization", f"Bearer {staff_key(live_shop.user('manager'))}".encode())

    assert socket_verdict("/ws/console/", [*socket_headers(None), token]) == UNSIGNED


def test_a_socket_from_a_foreign_origin_is_rejected_at_the_handshake(live_shop: Shop) -> None:
    headers = socket_headers(live_shop.user("manager"))
    foreign = [(b"origin", b"https://evil.example"), *headers[1:]]

    assert socket_verdict("/ws/console/", foreign) == "rejected"
    assert socket_verdict("/ws/console/", [h for h in headers if h[0] != b"origin"]) == "rejected"


def _bearer(shop: Shop) -> bytes:
    return f"Bearer {shop.storefront_key}".encode()
