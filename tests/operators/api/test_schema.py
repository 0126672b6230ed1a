"""The API describes itself: an OpenAPI schema and its docs, readable without signing in."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

STAFF: list[dict[str, list[str]]] = [{"StaffToken": []}, {"StaffSession": []}]
SHOP_OR_STAFF: list[dict[str, list[str]]] = [{"StorefrontToken": []}, *STAFF]
EXPECTED: dict[str, dict[str, list[dict[str, list[str]]]]] = {
    "/api/v1/inquiries": {"post": [{"StorefrontToken": []}]},
    "/api/v1/inquiries/{inquiry_id}": {"get": SHOP_OR_STAFF},
    "/api/v1/inquiries/{inquiry_id}/messages": {
        "post": [{"StorefrontToken": []}],
        "get": SHOP_OR_STAFF,
    },
    "/api/v1/inquiries/{inquiry_id}/messages/{message_id}/feedback": {
        "post": [{"StorefrontToken": []}]
    },
    "/api/v1/inquiries/{inquiry_id}/receipts/{number}": {"get": SHOP_OR_STAFF},
    "/api/v1/agents": {"get": SHOP_OR_STAFF},
    "/api/v1/escalations": {"get": STAFF},
    "/api/v1/escalations/{escalation_id}": {"get": STAFF},
    "/api/v1/escalations/{escalation_id}/claim": {"post": STAFF},
    "/api/v1/escalations/{escalation_id}/release": {"post": STAFF},
    "/api/v1/escalations/{escalation_id}/assign": {"post": STAFF},
    "/api/v1/escalations/{escalation_id}/decide": {"post": STAFF},
    "/api/v1/escalations/{escalation_id}/preview": {"post": STAFF},
    "/api/v1/escalations/{escalation_id}/verdict": {"post": STAFF},
    "/api/v1/escalations/{escalation_id}/send-reply": {"post": STAFF},
    "/api/v1/events": {"get": STAFF},
    "/api/v1/conversations": {"get": STAFF},
    "/api/v1/conversations/{inquiry_id}": {"get": STAFF},
    "/api/v1/conversations/{inquiry_id}/take-over": {"post": STAFF},
    "/api/v1/conversations/{inquiry_id}/assign": {"post": STAFF},
    "/api/v1/conversations/{inquiry_id}/hand-back": {"post": STAFF},
    "/api/v1/conversations/{inquiry_id}/close": {"post": STAFF},
    "/api/v1/conversations/{inquiry_id}/messages": {"post": STAFF},
    "/api/v1/conversations/{inquiry_id}/notes": {"post": STAFF},
    "/api/v1/conversations/{inquiry_id}/flag": {"post": STAFF},
    "/api/v1/inquiries/{inquiry_id}/audit": {"get": STAFF},
    "/api/v1/audit": {"get": STAFF},
    "/api/v1/audit/export.csv": {"get": STAFF},
}


@pytest.fixture
def schema(client: Client) -> dict[str, Any]:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def test_the_schema_lists_every_path_with_who_may_call_it(schema: dict[str, Any]) -> None:
    security = {
        path: {method: operation.get("security") for method, operation in methods.items()}
        for path, methods in schema["paths"].items()
    }

    assert security == EXPECTED


def test_the_schema_names_the_three_ways_to_authenticate(schema: dict[str, Any]) -> None:
    assert schema["components"]["securitySchemes"] == {
        "StorefrontToken": {"type": "http", "scheme": "bearer"},
        "StaffToken": {"type": "http", "scheme": "bearer"},
        "StaffSession": {"type": "apiKey", "in": "cookie", "name": "sessionid"},
    }


def test_intake_documents_its_answers_and_limits(schema: dict[str, Any]) -> None:
    intake = schema["paths"]["/api/v1/inquiries"]["post"]
    body = schema["components"]["schemas"]["InquiryIn"]

    assert set(intake["responses"]) == {
        "202",
        "400",
        "401",
        "404",
        "409",
        "413",
        "415",
        "422",
        "429",
    }
    assert all(
        intake["responses"][status]["content"]["application/json"]["schema"]
        == {"$ref": "#/components/schemas/ErrorOut"}
        for status in ("409", "413", "415", "429")
    )
    assert body["required"] == ["customer_id", "text"]
    assert (body["properties"]["text"]["minLength"], body["properties"]["text"]["maxLength"]) == (
        1,
        4000,
    )
    assert body["properties"]["idempotency_key"]["anyOf"][0]["maxLength"] == 100


def test_decisions_document_their_conflicts(schema: dict[str, Any]) -> None:
    decide = schema["paths"]["/api/v1/escalations/{escalation_id}/decide"]["post"]

    assert set(decide["responses"]) == {
        "200",
        "400",
        "401",
        "403",
        "404",
        "409",
        "413",
        "415",
        "422",
    }
    assert schema["components"]["schemas"]["DecisionIn"]["properties"]["decision"]["enum"] == [
        "approve",
        "edit",
        "reject",
        "take_over",
        "reviewed",
    ]


def test_the_docs_page_is_served(client: Client) -> None:
    response = client.get("/api/v1/docs")

    assert response.status_code == 200
    assert b"/api/v1/openapi.json" in response.content


def test_every_operation_has_a_summary_a_description_and_json_errors(
    schema: dict[str, Any],
) -> None:
    undocumented = [
        (method, path)
        for path, methods in schema["paths"].items()
        if "/conversations" in path or path.endswith("/messages")
        for method, operation in methods.items()
        if not (operation.get("summary") and operation.get("description"))
        or any(
            answer["content"]["application/json"]["schema"]
            != {"$ref": "#/components/schemas/ErrorOut"}
            for status, answer in operation["responses"].items()
            if int(status) >= 400
        )
    ]

    assert undocumented == []
