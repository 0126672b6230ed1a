"""Requests the app cannot read or store are refused with its own answers, never a 500 or a
bare status line.

Given the shared shop, when a path or query string holds a NUL (``%00``: PostgreSQL text
cannot store one), a receipt number has any other shape than the shop's, or a POST says
``multipart/form-data`` without a boundary, then the answer is the site's 404 or 400 page
(the API's ``{"code", "message"}`` JSON under ``/api/``, 422 for a query as for any query
it refuses) with the security policy and
``no-store``, and nothing was written. The last is also sent to a real daphne server:
Twisted, under daphne, used to answer it itself with an empty 400 and no headers at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from agents.models import Inquiry
from netshop.http_server import BodyAsSentRequest, leave_bodies_to_django
from tests.security.conftest import Shop
from tests.security.test_headers import POLICY, policy_of
from tests.support.servers import LiveServer, running_server

pytestmark = pytest.mark.usefixtures("quiet_refusals")

CSRF = "F" * 32
NO_BOUNDARY = "multipart/form-data"  # the header alone, no boundary parameter


def answer_of(response: Any) -> tuple[int, str]:
    return response.status_code, response["Content-Type"].split(";")[0]


def carries_the_headers(response: Any) -> bool:
    return policy_of(response) == POLICY and "no-store" in response["Cache-Control"]


def receipt_paths(shop: Shop) -> tuple[Inquiry, str, str]:
    """A receipt-less conversation of Hanako's, submitted by the suite's storefront token (the
    only ones it reaches), as the help page's and the API's prefixes."""
    inquiry = shop.inquiry("hanako", submitted=True)
    return inquiry, f"/help/inquiries/{inquiry.pk}/receipts/", f"/api/v1/inquiries/{inquiry.pk}"


# --- NUL in the path and the query string ---------------------------------------------------


@pytest.mark.parametrize("number", ["R%00X", "R202512-000001%00", "%00"])
def test_a_nul_in_a_receipt_number_on_the_help_page_is_its_404(shop: Shop, number: str) -> None:
    _, help_prefix, _ = receipt_paths(shop)

    response = shop.client("customer").get(f"{help_prefix}{number}.pdf")

    assert answer_of(response) == (404, "text/html")
    assert "<h1>Page not found</h1>" in response.content.decode()
    assert carries_the_headers(response)


@pytest.mark.parametrize("number", ["R%00X", "R202512-000001%00"])
def test_a_nul_in_a_receipt_number_on_the_api_is_a_json_404(shop: Shop, number: str) -> None:
    _, _, api_prefix = receipt_paths(shop)
    path = f"{api_prefix}/receipts/{number}"

    response = shop.client("token").get(path, {"customer_id": shop.customer("hanako").code})

    assert answer_of(response) == (404, "application/json")
    assert response.json()["code"] == "not_found"
    assert carries_the_headers(response)


@pytest.mark.parametrize(
    "path",
    ["/help/%00", "/console/%00/", "/help/inquiries/%00/status", "/accounts/login/%00"],
)
def test_a_nul_anywhere_in_a_page_path_is_the_sites_404(shop: Shop, path: str) -> None:
    response = shop.client("customer").get(path)

    assert answer_of(response) == (404, "text/html")
    assert carries_the_headers(response)


def test_a_nul_in_an_api_path_parameter_is_a_json_404(shop: Shop) -> None:
    response = shop.client("token").get("/api/v1/inquiries/%00/messages?customer_id=C1")

    assert answer_of(response) == (404, "application/json")
    assert response.json()["code"] == "not_found"
    assert carries_the_headers(response)


@pytest.mark.parametrize("query", ["q=%00", "q=a%00b", "%00=1", "q=ok&q=%00"])
def test_a_nul_in_a_page_query_string_is_the_sites_400(shop: Shop, query: str) -> None:
    response = shop.client("operator").get(f"/console/?{query}")

    assert answer_of(response) == (400, "text/html")
    page = response.content.decode()
    assert "<h1>Request not understood</h1>" in page
    assert '<a href="/" id="error-back">Back to the start page</a>' in page
    assert carries_the_headers(response)


def test_the_400_page_is_in_the_readers_language(shop: Shop) -> None:
    response = shop.client("operator").get("/console/?q=%00", headers={"Accept-Language": "ja"})

    assert response.status_code == 400
    assert "<h1>リクエストを処理できません</h1>" in response.content.decode()


def test_a_nul_in_an_api_query_string_is_its_documented_422(shop: Shop) -> None:
    _, _, api_prefix = receipt_paths(shop)

    response = shop.client("token").get(f"{api_prefix}/messages?customer_id=C1%00")

    assert answer_of(response) == (422, "application/json")
    assert response.json() == {
        "code": "invalid_request",
        "message": "The query string holds a character that cannot be stored.",
    }
    assert carries_the_headers(response)


def test_a_nul_in_a_query_string_stores_nothing(shop: Shop) -> None:
    inquiry, _, _ = receipt_paths(shop)
    client = shop.client("customer", enforce_csrf=True)
    client.cookies["csrftoken"] = CSRF
    before = inquiry.messages.count()

    response = client.post(
        f"/help/inquiries/{inquiry.pk}/reply?x=%00",
        {"text": "もう一度", "csrfmiddlewaretoken": CSRF},
    )

    assert response.status_code == 400
    assert inquiry.messages.count() == before


# --- Receipt numbers of another shape ---------------------------------------------------------


@pytest.mark.parametrize("number", ["R2025-1", "abc", "R202512-000001x", "R202512-00001"])
def test_a_receipt_number_of_another_shape_is_not_found_on_both_routes(
    shop: Shop, number: str
) -> None:
    _, help_prefix, api_prefix = receipt_paths(shop)
    customer = shop.customer("hanako").code

    page = shop.client("customer").get(f"{help_prefix}{number}.pdf")
    api = shop.client("token").get(f"{api_prefix}/receipts/{number}", {"customer_id": customer})

    assert answer_of(page) == (404, "text/html")
    assert answer_of(api) == (404, "application/json")


def test_a_receipt_number_of_the_right_shape_reaches_the_view(shop: Shop) -> None:
    _, _, api_prefix = receipt_paths(shop)
    customer = shop.customer("hanako").code

    api = shop.client("token").get(
        f"{api_prefix}/receipts/R202512-000001", {"customer_id": customer}
    )

    assert answer_of(api) == (404, "application/json")
    assert api.json()["code"] == "receipt_not_found"  # the view's answer, not the resolver's


# --- multipart/form-data without a boundary ---------------------------------------------------


@pytest.mark.parametrize("path", ["/help/", "/accounts/login/", "/console/"])
def test_a_form_post_without_a_boundary_is_the_sites_400(shop: Shop, path: str) -> None:
    client = shop.client("customer" if path == "/help/" else "anonymous", enforce_csrf=True)
    client.cookies["csrftoken"] = CSRF

    response = client.generic(
        "POST", path, b"x", headers={"X-CSRFToken": CSRF}, content_type=NO_BOUNDARY
    )

    assert answer_of(response) == (400, "text/html")
    assert "<h1>Request not understood</h1>" in response.content.decode()
    assert carries_the_headers(response)


def test_an_api_post_without_a_boundary_with_a_token_is_a_json_415(shop: Shop) -> None:
    before = Inquiry.objects.count()

    response = shop.client("token").generic(
        "POST", "/api/v1/inquiries", b"x", content_type=NO_BOUNDARY
    )

    assert answer_of(response) == (415, "application/json")
    assert response.json()["code"] == "unsupported_media_type"
    assert carries_the_headers(response)
    assert Inquiry.objects.count() == before


def test_an_api_post_without_a_boundary_in_a_session_is_a_json_400(shop: Shop) -> None:
    escalation = shop.escalation("hanako")
    client = shop.client("manager", enforce_csrf=True)
    client.cookies["csrftoken"] = CSRF
    path = f"/api/v1/escalations/{escalation.pk}/claim"

    response = client.generic(
        "POST", path, b"x", headers={"X-CSRFToken": CSRF}, content_type=NO_BOUNDARY
    )

    assert answer_of(response) == (400, "application/json")
    assert response.json() == {"code": "bad_request", "message": "Bad Request."}
    assert carries_the_headers(response)
    escalation.refresh_from_db()
    assert escalation.owner == "queue:operators"


# --- Through daphne ---------------------------------------------------------------------------


def test_daphne_builds_requests_that_leave_the_body_to_django() -> None:
    from daphne import http_protocol

    leave_bodies_to_django()

    assert http_protocol.WebRequest is BodyAsSentRequest


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, django_db_setup: None) -> Iterator[LiveServer]:
    with running_server(Path(tmp_path_factory.mktemp("daphne")) / "daphne.log") as started:
        yield started


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "status", "media_type"),
    [
        ("/help/", 400, "text/html"),
        ("/accounts/login/", 400, "text/html"),
        ("/api/v1/inquiries", 401, "application/json"),
    ],
)
def test_daphne_answers_a_post_without_a_boundary_with_the_apps_error(
    server: LiveServer, path: str, status: int, media_type: str
) -> None:
    response = httpx.post(
        f"{server.url}{path}",
        content=b"x",
        headers={
            "Content-Type": "multipart/form-data",
            "Cookie": f"csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
        },
    )

    assert (response.status_code, response.headers["Content-Type"].split(";")[0]) == (
        status,
        media_type,
    )
    assert policy_of(response.headers) == POLICY
    assert "no-store" in response.headers["Cache-Control"]


@pytest.mark.slow
def test_daphne_answers_a_nul_in_a_receipt_number_with_the_sites_404(server: LiveServer) -> None:
    response = httpx.get(
        f"{server.url}/api/v1/inquiries/00000000-0000-0000-0000-000000000000/receipts/R%00X"
    )

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert policy_of(response.headers) == POLICY
