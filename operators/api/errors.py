"""Every error answer has the same body, ``{"code", "message"}``, and a fitting status.

A ``DomainError`` is a rule refusing (422), something missing (404) or somebody else having
got there first (409); input the schema refuses is 422 with each field named in the message.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from netshop.errors import DomainError

NOT_FOUND = {"escalation_not_found", "inquiry_not_found", "unknown_customer"}
CONFLICT = {"already_decided", "claimed_by_other"}
HTTP_CODES = {400: "bad_request", 401: "unauthenticated", 403: "forbidden", 404: "not_found"}


def domain_status(code: str) -> int:
    if code in NOT_FOUND:
        return 404
    if code in CONFLICT:
        return 409
    return 422


def _error(
    api: NinjaAPI, request: HttpRequest, status: int, code: str, message: str, **extra: Any
) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


def _domain(request: HttpRequest, exc: DomainError, api: NinjaAPI) -> HttpResponse:
    return _error(api, request, domain_status(exc.code), exc.code, exc.message)


def _unauthenticated(request: HttpRequest, exc: AuthenticationError, api: NinjaAPI) -> HttpResponse:
    message = (
        "Authentication required: a valid storefront token (Authorization: Bearer <key>), or a "
        "staff session or staff token, as the endpoint's documentation says."
    )
    response = _error(api, request, 401, "unauthenticated", message)
    response["WWW-Authenticate"] = 'Bearer realm="netshop"'
    return response


# ninja's own wording for its two refusals, and ours.
REWORDED = {
    "Cannot parse request body": ("invalid_json", "The request body is not valid JSON."),
    "CSRF check Failed": (
        "csrf_failed",
        "CSRF check failed: send the csrftoken cookie's value in the X-CSRFToken header.",
    ),
}


def _http(request: HttpRequest, exc: HttpError, api: NinjaAPI) -> HttpResponse:
    code, message = HTTP_CODES.get(exc.status_code, "error"), str(exc)
    for prefix, reworded in REWORDED.items():
        if message.startswith(prefix):
            code, message = reworded
    return _error(api, request, exc.status_code, code, message)


def _invalid(request: HttpRequest, exc: ValidationError, api: NinjaAPI) -> HttpResponse:
    problems = "; ".join(f"{_field(e['loc'])}: {e['msg']}" for e in exc.errors)
    return _error(api, request, 422, "invalid_request", problems, errors=exc.errors)


def _field(loc: Any) -> str:
    # ("body", "payload", "text") -> "text"; ("query", "limit") -> "limit"; a missing body
    # is ("body", "payload") -> "body".
    parts = [str(p) for p in loc]
    if parts[0] == "body":
        return ".".join(parts[2:]) or "body"
    return ".".join(parts[1:]) or parts[0]


def register_error_handlers(api: NinjaAPI) -> None:
    api.add_exception_handler(DomainError, partial(_domain, api=api))
    api.add_exception_handler(AuthenticationError, partial(_unauthenticated, api=api))
    api.add_exception_handler(HttpError, partial(_http, api=api))
    api.add_exception_handler(ValidationError, partial(_invalid, api=api))
