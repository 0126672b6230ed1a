"""CSRF: a signed-in browser cannot be made to change anything by another site's form.

Given clients that enforce CSRF checks as a browser would, when they POST without the token,
then every URL pattern refuses (so a new form cannot forget it), every state-changing form
and session endpoint answers 403 and nothing changes; and the same request with the token
goes through, which shows that the 403 was the CSRF check and not the role.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from agents.models import Escalation, Inquiry, Message, MessageAuthor
from agents.simulation.models import SimulationRun, SimulationSuite
from agents.simulation.services import suite_store
from agents.support.conversations.messages import message_store
from agents.support.escalations.claims import escalation_claim
from netshop.knowledge.models import HelpArticle
from netshop.models import ApiToken, PolicyVersion
from netshop.policy import policy_in_force, policy_values
from operators.models import ArticleSuggestion, CannedReply, StaffPreference
from tests.security.conftest import PASSWORD, SIMULATION_CASE, RoutePaths, Shop, url_routes

pytestmark = pytest.mark.usefixtures("quiet_refusals")


@pytest.fixture(autouse=True)
def _mail_server(settings: Any) -> None:
    """Password reset is offered only with a mail server; the test runner's in-memory mail
    backend stands in for it, so the reset form is there to be tried."""
    settings.EMAIL_HOST = "smtp.example.com"


SECRET = "Z" * 32  # a CSRF secret as the csrftoken cookie holds it
CSRF_PAGE = b"CSRF verification failed"

# The API's endpoints check CSRF themselves, after the method and the credentials: what they
# answer instead of a CSRF 403 (its schema and docs pages are plain Django views).
API_NOT_CSRF = {
    "api/v1/inquiries": 401,  # storefront tokens only: a session is no credential here
    "api/v1/inquiries/<inquiry_id>": 405,
    "api/v1/agents": 405,
    "api/v1/escalations": 405,
    "api/v1/escalations/<escalation_id>": 405,
    "api/v1/events": 405,
    "api/v1/inquiries/<inquiry_id>/audit": 405,
    "api/v1/inquiries/<inquiry_id>/receipts/<receipt:number>": 405,
    "api/v1/inquiries/<inquiry_id>/messages": 401,  # posting is the storefront's alone
    "api/v1/inquiries/<inquiry_id>/messages/<message_id>/feedback": 401,  # the storefront's
    "api/v1/conversations": 405,
    "api/v1/conversations/<inquiry_id>": 405,
    "api/v1/audit": 405,
    "api/v1/audit/export.csv": 405,
}


def signer_for(route: str) -> str:
    """Who signs in to post: a customer on their pages, a manager (every staff role) elsewhere."""
    return "customer" if route.startswith(("help/", "accounts/")) else "manager"


def test_every_url_pattern_refuses_a_session_post_without_the_token(shop: Shop) -> None:
    paths = RoutePaths(shop)
    clients = {who: shop.client(who, enforce_csrf=True) for who in ("customer", "manager")}
    expected, actual = {}, {}

    for route in url_routes():
        response = clients[signer_for(route)].post(paths(route, fresh=True), {"x": "1"})
        expected[route] = API_NOT_CSRF.get(route, "csrf")
        actual[route] = refusal(response)

    assert actual == expected


def refusal(response: Any) -> int | str:
    """``csrf`` for a CSRF refusal (Django's page, or the API's ``csrf_failed``), else the code."""
    if response.status_code != 403:
        return response.status_code
    if response.get("Content-Type", "").startswith("application/json"):
        return "csrf" if response.json()["code"] == "csrf_failed" else 403
    return "csrf" if CSRF_PAGE in response.content else 403


# --- Each state-changing form and endpoint, without and with the token -----------------------


@dataclass
class Change:
    """One state-changing request, and how to read the state it changes."""

    path: str
    state: Callable[[], Any]
    data: dict[str, Any] = field(default_factory=dict)
    json: bool = False

    def post(self, client: Client, *, token: bool) -> Any:
        headers = {"X-CSRFToken": SECRET} if token else {}
        if token:
            client.cookies["csrftoken"] = SECRET
        if self.json:
            return client.post(
                self.path, json.dumps(self.data), content_type="application/json", headers=headers
            )
        return client.post(self.path, self.data, headers=headers)


# Who posts, and the change, built for that caller's client (some states are the session's).
Changes = dict[str, tuple[str, Callable[[Client], Change]]]


def claimed_by(escalation: Escalation) -> Callable[[], Any]:
    return lambda: Escalation.objects.get(pk=escalation.pk).claimed_by_id


def decision_of(escalation: Escalation) -> Callable[[], Any]:
    return lambda: Escalation.objects.values_list("status", "decision").get(pk=escalation.pk)


def session_alive(client: Client) -> Callable[[], bool]:
    return lambda: Session.objects.filter(session_key=client.session.session_key).exists()


def operator_answer(shop: Shop) -> Message:
    """An operator's answer in one of Hanako's conversations: what can be suggested."""
    return message_store(
        inquiry=shop.inquiry("hanako"),
        author_kind=MessageAuthor.OPERATOR,
        author=shop.user("operator"),
        text="ギフト包装を承ります。",
        channel="web",
    )


def changes(shop: Shop) -> Changes:
    operator, c0001 = shop.user("operator"), shop.user("customer")
    token = ApiToken.objects.get(name="security-suite")
    decision = {"decision": "reject", "reason": "対象外のご依頼です"}

    def escalation(action: str, *, claimed: bool = False, prefix: str, **kw: Any) -> Any:
        target = shop.escalation()
        if claimed:
            escalation_claim(escalation_id=target.pk, user=operator)
        state = decision_of(target) if action == "decide" else claimed_by(target)
        path = f"{prefix}/escalations/{target.pk}/{action}"
        return ("operator", lambda client: Change(path, state, **kw))

    def form(who: str, path: str, state: Callable[[], Any], **data: Any) -> Any:
        return (who, lambda client: Change(path, state, data=data))

    def simulation_run(client: Client) -> Change:
        suite = suite_store(name="csrf", content=SIMULATION_CASE)
        run = {"configuration": "", "k": "1", "threshold": "0.9"}
        path = f"/audit/simulations/suites/{suite.pk}/run"
        return Change(path, SimulationRun.objects.count, data=run)

    return {
        "console claim": escalation("claim", prefix="/console"),
        "console release": escalation("release", claimed=True, prefix="/console"),
        "console decide": escalation("decide", prefix="/console", data=decision),
        "API claim": escalation("claim", prefix="/api/v1"),
        "API release": escalation("release", claimed=True, prefix="/api/v1"),
        "API decide": escalation("decide", prefix="/api/v1", data=decision, json=True),
        "console preferences": form(
            "operator",
            "/console/preferences",
            lambda: list(StaffPreference.objects.filter(user=operator).values_list()),
            language="ja",
            time_zone="UTC",
        ),
        "policy change": form(
            "manager",
            "/audit/policy/",
            lambda: list(PolicyVersion.objects.values_list("number", flat=True)),
            **{**policy_values(policy_in_force()), "four_eyes_yen": 20000},
            based_on=policy_in_force().version,
            reason="返金の承認を厳しくする",
        ),
        "help inquiry": form(
            "customer",
            "/help/",
            lambda: Inquiry.objects.filter(customer__user=c0001).count(),
            text="ORD-4003について",
            key="8a4f6d5e-1d7f-4a57-a1de-2b7d4d3f0c11",
        ),
        "knowledge canned reply": form(
            "manager",
            "/knowledge/canned-replies/",
            lambda: CannedReply.objects.count(),
            title="お詫び（CSRF）",
            language="ja",
            body="申し訳ございません。",
        ),
        "knowledge new article": form(
            "manager",
            "/knowledge/articles/new",
            lambda: HelpArticle.objects.count(),
            key="csrf-article",
            category="other",
            language="ja",
            title="ギフト包装",
            body="承ります。",
        ),
        "knowledge suggestion": (
            "operator",
            lambda client: Change(
                f"/knowledge/suggestions/{operator_answer(shop).pk}",
                lambda: ArticleSuggestion.objects.count(),
            ),
        ),
        "password change": form(
            "customer",
            "/accounts/password_change/",
            lambda: User.objects.get(pk=c0001.pk).password,
            old_password=PASSWORD,
            new_password1="a-new-password-1",
            new_password2="a-new-password-1",
        ),
        "password reset": form(
            "anonymous", "/accounts/password_reset/", lambda: len(mail.outbox), email=c0001.email
        ),
        # Revoking needs the change permission, which neither role holds: a superuser's action.
        "admin revoke token": form(
            "superuser",
            "/admin/netshop/apitoken/",
            lambda: ApiToken.objects.get(pk=token.pk).revoked_at,
            action="revoke",
            _selected_action=[str(token.pk)],
            index="0",
        ),
        "simulation suite upload": form(
            "manager",
            "/audit/simulations/suites/upload",
            SimulationSuite.objects.count,
            file=SimpleUploadedFile("csrf.jsonl", SIMULATION_CASE.encode()),
        ),
        "simulation run": ("manager", simulation_run),
        "logout": ("operator", lambda c: Change("/accounts/logout/", session_alive(c))),
        "admin logout": ("manager", lambda c: Change("/admin/logout/", session_alive(c))),
        "login": (
            "anonymous",
            lambda c: Change(
                "/accounts/login/",
                lambda: "_auth_user_id" in c.session,
                data={"username": "hanako", "password": PASSWORD},
            ),
        ),
    }


CHANGES = (
    "console claim",
    "console release",
    "console decide",
    "API claim",
    "API release",
    "API decide",
    "console preferences",
    "policy change",
    "knowledge canned reply",
    "knowledge new article",
    "knowledge suggestion",
    "help inquiry",
    "password change",
    "password reset",
    "admin revoke token",
    "simulation suite upload",
    "simulation run",
    "logout",
    "admin logout",
    "login",
)


def test_every_change_built_is_tried(shop: Shop) -> None:
    assert sorted(changes(shop)) == sorted(CHANGES)


def prepared(shop: Shop, name: str) -> tuple[Client, Change]:
    who, build = changes(shop)[name]
    if who == "superuser":
        client = Client(enforce_csrf_checks=True)
        client.force_login(User.objects.create_superuser("root", "root@example.com", "x"))
    else:
        client = shop.client(who, enforce_csrf=True)
    return client, build(client)


@pytest.mark.parametrize("name", CHANGES)
def test_a_state_changing_post_without_the_token_is_refused_and_changes_nothing(
    shop: Shop, name: str
) -> None:
    client, change = prepared(shop, name)
    before = change.state()

    refused = change.post(client, token=False)

    assert refusal(refused) == "csrf"
    assert change.state() == before


@pytest.mark.parametrize("name", CHANGES)
def test_the_same_post_with_the_token_goes_through(shop: Shop, name: str) -> None:
    client, change = prepared(shop, name)
    before = change.state()

    accepted = change.post(client, token=True)

    assert accepted.status_code in (200, 302), accepted.content[:300]
    assert change.state() != before


# --- The forms the pages render carry the token ----------------------------------------------

FORM = re.compile(rb"<form[^>]*method=\"post\"[^>]*>(.*?)</form>", re.S | re.I)


@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("operator", "/console/"),
        ("operator", "/console/escalations/{escalation}/"),
        ("manager", "/audit/policy/"),
        ("customer", "/help/"),
        ("manager", "/knowledge/"),
        ("manager", "/knowledge/canned-replies/"),
        ("anonymous", "/accounts/login/"),
        ("manager", "/audit/simulations/"),
        ("manager", "/audit/simulations/replay/"),
    ],
)
def test_every_post_form_a_page_renders_carries_the_token(shop: Shop, who: str, path: str) -> None:
    escalation = shop.escalation()
    response = shop.client(who).get(path.format(escalation=escalation.pk))

    forms = FORM.findall(response.content)

    assert response.status_code == 200
    assert forms, "the page renders at least one POST form"
    assert all(b'name="csrfmiddlewaretoken"' in form for form in forms)
