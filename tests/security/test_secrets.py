"""Secrets stay secret: never in logs, receipts, audit rows, API answers or pages.

Given a known ``SECRET_KEY``, an OpenAI API key that the real ``ChatOpenAI`` client really
sends (to the local OpenAI-compatible server), a storefront token's key and the login
password, when an inquiry runs through the graph with every logger at DEBUG and staff,
customers and storefronts then read every page, export and API answer about it, then none of
the secrets appears in the captured log, the run's state and receipts, the hand-off package,
the audit rows, the console events, the API's answers, the pages or the CSV export.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from agents.models import ConsoleEvent, Escalation
from agents.team.runs.driver import inquiry_run
from agents.team.runs.outcome import RunOutcome
from netshop.audit.models import AuditEntry
from tests.security.conftest import PASSWORD, Shop, as_text, run_record
from tests.support.fake_openai import FakeOpenAI, Reply

SECRET_KEY = "security-suite-SECRET-KEY-3f9c2a7e5b1d48c6a0e4"
OPENAI_API_KEY = "sk-test-SECRET-123"
LOGGERS = (
    *("", "django", "django.request", "agents", "netshop", "operators"),
    *("openai", "httpx", "httpcore", "langchain", "langgraph", "celery", "channels"),
)


def leaks(text: str, secrets: dict[str, str]) -> list[str]:
    """The names of the secrets found in ``text``."""
    return sorted(name for name, value in secrets.items() if value in text)


@pytest.fixture
def secrets(committed_shop: Shop, settings: Settings) -> dict[str, str]:
    settings.SECRET_KEY = SECRET_KEY
    settings.OPENAI_API_KEY = OPENAI_API_KEY
    return {
        "SECRET_KEY": SECRET_KEY,
        "OPENAI_API_KEY": OPENAI_API_KEY,
        "storefront token": committed_shop.storefront_key,
        "login password": PASSWORD,
    }


@pytest.fixture
def everything_logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    return caplog


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """The records captured while the fixtures ran and the test ran, formatted (their
    arguments filled in, tracebacks included)."""
    records = caplog.get_records("setup") + caplog.get_records("call")
    assert records, "DEBUG logging was captured"
    return "\n".join(caplog.handler.format(record) for record in records)


# --- A run with the real client --------------------------------------------------------------


def shop_model(number: str) -> Callable[[dict[str, Any]], Reply]:
    """A well-behaved model: a refund of order ``number``, prepared for approval, then a reply."""

    def answer(request: dict[str, Any]) -> Reply:
        if "response_format" in request:
            return Reply.structured_output(
                {
                    "agents": ["order", "payment"],
                    "intent": "process_refund",
                    "secondary_intents": [],
                    "entities": {"order_numbers": [number], "amounts": []},
                    "language": "ja",
                    "confidence": 0.9,
                    "injection_suspected": False,
                }
            )
        tools = [tool["function"]["name"] for tool in request.get("tools", [])]
        if tools and request["messages"][-1]["role"] != "tool":
            if "get_order_details" in tools:
                return Reply.tool_call("get_order_details", {"order_number": number})
            if "process_refund" in tools:
                refund = {"order_number": number, "reason": "破損"}
                return Reply.tool_call("process_refund", refund)
        return Reply.text("確認いたしました。担当者が返金を確認します。")

    return answer


@pytest.fixture
def real_client_run(
    live_shop: Shop,
    secrets: dict[str, str],
    settings: Settings,
    fake_openai: FakeOpenAI,
    everything_logged: pytest.LogCaptureFixture,
) -> RunOutcome:
    settings.NETSHOP_MODEL_PROVIDER = "openai"
    settings.OPENAI_BASE_URL = fake_openai.base_url
    settings.NETSHOP_MODEL_TIMEOUT_S = 5.0
    fake_openai.responder = shop_model(live_shop.orders.hanako.delivered.number)
    inquiry = live_shop.inquiry(
        "hanako", "{hanako_delivered}の包丁が欠けていました。返金してください。", submitted=True
    )
    outcome = inquiry_run(inquiry=inquiry)
    keys = {r.headers.get("authorization") for r in fake_openai.requests}
    assert keys == {f"Bearer {OPENAI_API_KEY}"}, "the key was really in use"
    assert outcome.status == "awaiting_approval"
    return outcome


def test_a_run_leaves_no_secret_in_logs_receipts_or_audit_rows(
    real_client_run: RunOutcome, secrets: dict[str, str], everything_logged: Any
) -> None:
    outcome = real_client_run
    events = ConsoleEvent.objects.all()

    assert leaks(logged(everything_logged), secrets) == []
    assert leaks(run_record(outcome), secrets) == []
    assert leaks(as_text(list(events.values_list("payload", flat=True))), secrets) == []
    assert leaks(as_text(list(AuditEntry.objects.values())), secrets) == []


def test_pages_exports_and_api_answers_about_the_run_carry_no_secret(
    real_client_run: RunOutcome,
    live_shop: Shop,
    secrets: dict[str, str],
    everything_logged: Any,
) -> None:
    escalation = Escalation.objects.get(inquiry_id=real_client_run.inquiry_id)
    seen = pages_about(live_shop, real_client_run.inquiry_id, escalation.pk)

    assert {path: status for path, (status, _) in seen.items()} == dict.fromkeys(seen, 200)
    found = {path: leaks(body, secrets) for path, (_, body) in seen.items()}
    assert {path: names for path, names in found.items() if names} == {}
    assert leaks(logged(everything_logged), secrets) == []


def pages_about(shop: Shop, inquiry_id: str, escalation_id: object) -> dict[str, tuple[int, str]]:
    """Every page, export and API answer that shows the inquiry, as (status, body)."""
    readers = {who: shop.client(who) for who in ("token", "customer", "operator", "manager")}
    paths = {
        "operator": [
            "/console/",
            "/console/rows",
            f"/console/escalations/{escalation_id}/",
            f"/console/escalations/{escalation_id}/live",
            "/api/v1/escalations",
            f"/api/v1/escalations/{escalation_id}",
            "/api/v1/events",
            f"/api/v1/inquiries/{inquiry_id}",
        ],
        "manager": [
            "/audit/",
            f"/audit/inquiries/{inquiry_id}/",
            "/audit/dashboard/",
            "/audit/export.csv",
            "/admin/netshop/apitoken/",
            "/healthz",
        ],
        "customer": ["/help/", f"/help/inquiries/{inquiry_id}/status"],
        "token": [f"/api/v1/inquiries/{inquiry_id}", "/api/v1/agents", "/api/v1/openapi.json"],
    }
    return {
        f"{who} {path}": read(readers[who], path) for who, group in paths.items() for path in group
    }


def read(client: Client, path: str) -> tuple[int, str]:
    response: Any = client.get(path)
    # The CSV export streams.
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, body.decode("utf-8", errors="replace")


# --- The API's own answers -------------------------------------------------------------------


def test_api_answers_to_a_storefront_and_to_staff_carry_no_secret(
    shop: Shop, secrets: dict[str, str], everything_logged: Any
) -> None:
    token, operator = shop.client("token"), shop.client("operator")
    emily = shop.orders.emily
    text = f"Where is {emily.delivered.number}?"
    payload = {"customer_id": emily.customer.code, "text": text, "idempotency_key": "k1"}

    answers = [
        token.post("/api/v1/inquiries", json.dumps(payload), content_type="application/json"),
        token.post("/api/v1/inquiries", "{not json", content_type="application/json"),
        Client().get("/api/v1/escalations"),
        Client(headers={"Authorization": "Bearer not-a-key"}).get("/api/v1/agents"),
        operator.post(f"/api/v1/escalations/{shop.escalation().pk}/claim"),
    ]

    assert [a.status_code for a in answers] == [202, 400, 401, 401, 200]
    assert [leaks(a.content.decode(), secrets) for a in answers] == [[]] * len(answers)
    assert leaks(logged(everything_logged), secrets) == []
    assert leaks(as_text(list(AuditEntry.objects.values())), secrets) == []
