"""Every error the API answers is ``{"code", "message"}`` JSON, whoever refused the request.

Given a storefront token, when a request is refused before any endpoint of ours runs (an
unknown path, a wrong method, a body too big or not JSON, too many requests) or an endpoint
crashes, then the answer is the documented JSON body with a fitting status, never an HTML
page, and nothing was stored. Pages outside ``/api/`` keep their HTML error pages.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from pytest_django import Settings

from agents.models import Inquiry
from agents.support import audit_trail
from netshop import transactions
from netshop.audit.models import AuditEntry
from netshop.models import Customer
from tests.factories import CustomerFactory
from tests.operators.api_helpers import bearer, storefront_key

pytestmark = pytest.mark.django_db

URL = "/api/v1/inquiries"
GOOD = {"customer_id": "C0101", "text": "届いていません"}


@pytest.fixture
def key() -> str:
    return storefront_key()


@pytest.fixture
def customer() -> Customer:
    return CustomerFactory.create(code="C0101")


def error_of(response: Any) -> tuple[int, str, dict[str, Any]]:
    return response.status_code, response["Content-Type"].split(";")[0], response.json()


def test_an_unknown_api_path_is_a_json_404(client: Client, key: str) -> None:
    response = client.get("/api/v1/nope", headers=bearer(key))

    assert error_of(response) == (
        404,
        "application/json",
        {"code": "not_found", "message": "No API endpoint at /api/v1/nope; see /api/v1/docs."},
    )


def test_a_page_outside_the_api_keeps_its_html_404(client: Client) -> None:
    response = client.get("/no-such-page")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("method", "path", "allowed"), [("get", URL, "POST"), ("delete", "/api/v1/agents", "GET")]
)
def test_a_wrong_method_is_a_json_405_naming_the_allowed_ones(
    client: Client, key: str, method: str, path: str, allowed: str
) -> None:
    response = getattr(client, method)(path, headers=bearer(key))

    assert error_of(response) == (
        405,
        "application/json",
        {
            "code": "method_not_allowed",
            "message": f"{method.upper()} is not allowed on {path}; allowed: {allowed}.",
        },
    )
    assert response["Allow"] == allowed


def test_a_3_mb_body_is_a_json_413_and_stores_nothing(
    client: Client, key: str, customer: Customer, settings: Settings
) -> None:
    body = json.dumps({**GOOD, "text": "あ" * 1_000_000})  # 3 MB of UTF-8

    response = client.post(URL, body, content_type="application/json", headers=bearer(key))

    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert error_of(response) == (
        413,
        "application/json",
        {
            "code": "payload_too_large",
            "message": f"The request body is larger than the {limit:,} bytes the API accepts.",
        },
    )
    assert Inquiry.objects.count() == 0


@pytest.mark.parametrize(
    ("content_type", "body", "named"),
    [
        ("text/plain", json.dumps(GOOD), "text/plain"),
        ("application/x-www-form-urlencoded", "customer_id=C0101&text=hi", "application/x-www-"),
        ("multipart/form-data; boundary=x", "--x--", "multipart/form-data"),
    ],
    ids=["text", "form", "multipart"],
)
def test_a_body_that_is_not_json_is_a_json_415_and_stores_nothing(
    client: Client, key: str, customer: Customer, content_type: str, body: str, named: str
) -> None:
    response = client.post(URL, body, content_type=content_type, headers=bearer(key))

    status, kind, error = error_of(response)
    assert (status, kind, error["code"]) == (415, "application/json", "unsupported_media_type")
    assert error["message"].startswith(
        "The request body must be JSON (Content-Type: application/json), not "
    )
    assert named in error["message"]
    assert Inquiry.objects.count() == 0


def test_a_json_suffix_media_type_is_json(client: Client, key: str, customer: Customer) -> None:
    response = client.post(
        URL, json.dumps(GOOD), content_type="application/vnd.netshop+json", headers=bearer(key)
    )

    assert response.status_code == 202


def test_a_token_past_its_rate_gets_a_json_429_and_others_do_not(
    client: Client, key: str, customer: Customer, settings: Settings
) -> None:
    settings.NETSHOP_INTAKE_RATE = "2/m"
    other = storefront_key("other-shop")
    body = json.dumps(GOOD)

    answers = [
        client.post(URL, body, content_type="application/json", headers=bearer(key))
        for _ in range(3)
    ]
    elsewhere = client.post(URL, body, content_type="application/json", headers=bearer(other))

    assert [a.status_code for a in answers] == [202, 202, 429]
    assert error_of(answers[2]) == (
        429,
        "application/json",
        {"code": "rate_limited", "message": "Too many requests."},
    )
    assert 1 <= int(answers[2]["Retry-After"]) <= 60
    assert elsewhere.status_code == 202
    assert Inquiry.objects.count() == 3


def test_without_a_rate_nothing_is_throttled(
    client: Client, key: str, customer: Customer, settings: Settings
) -> None:
    settings.NETSHOP_INTAKE_RATE = ""

    statuses = {
        client.post(
            URL, json.dumps(GOOD), content_type="application/json", headers=bearer(key)
        ).status_code
        for _ in range(5)
    }

    assert statuses == {202}


def test_a_throttle_whose_store_is_down_lets_the_inquiry_in(
    client: Client, key: str, customer: Customer, settings: Settings, caplog: Any
) -> None:
    settings.CACHES = {
        **settings.CACHES,
        "throttle": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        },
    }

    with caplog.at_level(logging.WARNING, logger="operators.api.throttling"):
        response = client.post(
            URL, json.dumps(GOOD), content_type="application/json", headers=bearer(key)
        )

    assert response.status_code == 202
    assert Inquiry.objects.count() == 1
    assert "intake throttle unavailable" in caplog.text


def test_a_crash_is_a_json_500(
    key: str, customer: Customer, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    def crash(**kwargs: Any) -> Inquiry:
        raise RuntimeError("a bug")  # stands in for any bug behind an endpoint

    monkeypatch.setattr("operators.api.intake.storefront_inquiry_create", crash)
    client = Client(raise_request_exception=False)

    response = client.post(
        URL, json.dumps(GOOD), content_type="application/json", headers=bearer(key)
    )

    assert error_of(response) == (
        500,
        "application/json",
        {
            "code": "server_error",
            "message": "The server failed to answer this request; it has been logged.",
        },
    )
    assert "a bug" in caplog.text  # Django still logs the traceback


@pytest.mark.django_db(transaction=True)
def test_an_intake_picked_as_a_deadlock_victim_is_retried_and_answers_202(
    key: str, customer: Customer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # PostgreSQL raises the deadlock error where the audit entry is written, once, as when
    # its deadlock detector picks this transaction; the service runs it again.
    real = audit_trail.inquiry_received
    victim = iter([True])

    def first_attempt_deadlocks(**kwargs: Any) -> None:
        if next(victim, False):
            with connection.cursor() as cursor:
                cursor.execute(
                    "DO $$ BEGIN RAISE EXCEPTION 'deadlock detected' "
                    "USING ERRCODE = 'deadlock_detected'; END $$"
                )
        real(**kwargs)

    monkeypatch.setattr(audit_trail, "inquiry_received", first_attempt_deadlocks)
    monkeypatch.setattr(transactions.time, "sleep", lambda seconds: None)

    response = Client(raise_request_exception=False).post(
        URL, json.dumps(GOOD), content_type="application/json", headers=bearer(key)
    )

    assert response.status_code == 202
    inquiry = Inquiry.objects.get()
    assert response.json() == {"id": str(inquiry.pk), "status": "queued"}
    assert list(AuditEntry.objects.values_list("action", "inquiry_id")) == [
        ("inquiry.received", inquiry.pk),
        ("message.posted", inquiry.pk),  # once: the retried attempt left nothing behind
    ]
    assert list(inquiry.messages.values_list("text", flat=True)) == [GOOD["text"]]
