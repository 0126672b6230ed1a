"""schemathesis against ``/api/v1/openapi.json``: whatever a caller sends, never a 5xx.

Given the schema the API serves, loaded in process through the WSGI application, when
schemathesis generates requests for every operation (valid ones and ones the schema
forbids, a bounded and derandomized set each) with a storefront token or a manager's
session and CSRF token, and sometimes with real escalation and inquiry ids in the path, then
no response is a server error, and every answer is a documented status with a body that
matches its documented schema.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.operators.api_helpers import staff_key
from tests.security.conftest import Shop

pytestmark = pytest.mark.usefixtures("quiet_refusals")

CSRF = "F" * 32
CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = {GenerationMode.POSITIVE: 25, GenerationMode.NEGATIVE: 15}

# Every operation, with the credential it is fuzzed with (both, where both are accepted).
OPERATIONS = [
    ("POST /api/v1/inquiries", "token"),
    ("GET /api/v1/inquiries/{inquiry_id}", "token"),
    ("GET /api/v1/inquiries/{inquiry_id}", "session"),
    ("GET /api/v1/agents", "token"),
    ("GET /api/v1/agents", "session"),
    ("GET /api/v1/escalations", "session"),
    ("GET /api/v1/escalations/{escalation_id}", "session"),
    ("POST /api/v1/escalations/{escalation_id}/claim", "session"),
    ("POST /api/v1/escalations/{escalation_id}/release", "session"),
    ("POST /api/v1/escalations/{escalation_id}/decide", "session"),
    ("POST /api/v1/escalations/{escalation_id}/decide", "staff_token"),
    ("POST /api/v1/escalations/{escalation_id}/preview", "session"),
    ("POST /api/v1/escalations/{escalation_id}/verdict", "session"),
    ("POST /api/v1/escalations/{escalation_id}/send-reply", "session"),
    ("GET /api/v1/events", "session"),
    ("GET /api/v1/inquiries/{inquiry_id}/audit", "staff_token"),
    ("GET /api/v1/audit", "session"),
    ("GET /api/v1/audit", "staff_token"),
    ("GET /api/v1/audit/export.csv", "session"),
    ("POST /api/v1/inquiries/{inquiry_id}/messages", "token"),
    ("GET /api/v1/inquiries/{inquiry_id}/messages", "token"),
    ("GET /api/v1/inquiries/{inquiry_id}/messages", "session"),
    ("GET /api/v1/inquiries/{inquiry_id}/receipts/{number}", "token"),
    ("POST /api/v1/inquiries/{inquiry_id}/messages/{message_id}/feedback", "token"),
    ("GET /api/v1/conversations", "session"),
    ("GET /api/v1/conversations/{inquiry_id}", "staff_token"),
    ("POST /api/v1/conversations/{inquiry_id}/take-over", "session"),
    ("POST /api/v1/conversations/{inquiry_id}/hand-back", "session"),
    ("POST /api/v1/conversations/{inquiry_id}/close", "session"),
    ("POST /api/v1/conversations/{inquiry_id}/messages", "session"),
    ("POST /api/v1/conversations/{inquiry_id}/notes", "staff_token"),
    ("POST /api/v1/conversations/{inquiry_id}/flag", "session"),
    ("POST /api/v1/escalations/{escalation_id}/assign", "session"),
    ("POST /api/v1/conversations/{inquiry_id}/assign", "staff_token"),
]


@pytest.fixture
def in_test_transaction() -> Iterator[None]:
    """Requests through the WSGI handler, like the test client's, keep the test's connection.

    Django closes "old" connections when a request starts and finishes; inside the test's
    transaction that would close it. ``django.test.Client`` disconnects the same receiver.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def loaded_schema() -> Any:
    """The served schema, read once for the module: parsing it is most of a small test's
    time, and it does not change between tests. Its requests go through the application
    each time a test calls an operation."""
    from netshop.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)


@pytest.fixture
def api_schema(loaded_schema: Any, shop: Shop, in_test_transaction: None) -> Any:
    return loaded_schema


def test_every_operation_is_fuzzed(api_schema: Any) -> None:
    labels = {result.ok().label for result in api_schema.get_all_operations()}

    assert labels == {label for label, _ in OPERATIONS}


def credentials(shop: Shop, kind: str) -> dict[str, dict[str, str]]:
    if kind == "token":
        return {"headers": {"Authorization": f"Bearer {shop.storefront_key}"}, "cookies": {}}
    if kind == "staff_token":
        key = staff_key(shop.user("manager"))
        return {"headers": {"Authorization": f"Bearer {key}"}, "cookies": {}}
    session = shop.client("manager").cookies[django_settings.SESSION_COOKIE_NAME].value
    return {
        "headers": {"X-CSRFToken": CSRF},
        "cookies": {django_settings.SESSION_COOKIE_NAME: session, "csrftoken": CSRF},
    }


def real_ids(shop: Shop, operation: Any) -> dict[str, str]:
    """Ids of objects that exist, for the path parameters the operation has."""
    names = {p.name for p in operation.path_parameters}
    real = {}
    if "escalation_id" in names:
        real["escalation_id"] = str(shop.escalation("emily").pk)
    if "inquiry_id" in names:
        real["inquiry_id"] = str(shop.inquiry("emily", "Where is {emily_delivered}?").pk)
    return real


@pytest.mark.parametrize("mode", list(EXAMPLES), ids=str)
@pytest.mark.parametrize(("label", "credential"), OPERATIONS)
def test_no_request_makes_the_api_fail(
    api_schema: Any, shop: Shop, label: str, credential: str, mode: GenerationMode
) -> None:
    operation = api_schema.find_operation_by_label(label)
    auth = credentials(shop, credential)
    real = real_ids(shop, operation)
    cases = operation.as_strategy(generation_mode=mode)
    if real and mode is GenerationMode.POSITIVE:
        cases = st.one_of(cases, operation.as_strategy(generation_mode=mode, path_parameters=real))

    emily = shop.customer("emily").code

    @settings(
        max_examples=EXAMPLES[mode],
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases, known_customer=st.booleans())
    def exchange(case: Any, known_customer: bool) -> None:
        if known_customer and isinstance(case.body, dict) and "customer_id" in case.body:
            case.body["customer_id"] = emily  # so that intake also gets past the lookup
        response = case.call(headers=auth["headers"], cookies=auth["cookies"])
        case.validate_response(response, checks=[not_a_server_error], headers=auth["headers"])
        case.validate_response(response, checks=CONFORMANCE, headers=auth["headers"])

    exchange()


def test_the_schema_documents_a_bad_sequence_number_on_events(api_schema: Any) -> None:
    operation = api_schema.find_operation_by_label("GET /api/v1/events")

    assert "422" in operation.definition.raw["responses"]
