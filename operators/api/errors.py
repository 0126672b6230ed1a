"""Every error answer has the same body, ``{"code", "message"}``, and a fitting status.

A ``DomainError`` answers with the status its code has in ``netshop.errors.CATALOGUE`` (a
rule refusing 422, something missing 404, somebody else having got there first 409); input
the schema refuses is 422 with each field named in the message.
The refusals Django and ninja make before any endpoint runs (an unknown path, a wrong method,
a body that is too big or not JSON, too many requests, a crash) get the same body: the
handlers here cover what reaches ninja, ``JsonApiErrors`` whatever Django answered with a
page. The catalogue is the one place that maps domain codes to statuses.
"""

from __future__ import annotations

from functools import partial
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.views.csrf import csrf_failure as django_csrf_failure
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.types import DictStrAny

from netshop.errors import DomainError

API_PREFIX = "/api/"
# The code an error body carries for a status that no more specific code explains.
HTTP_CODES = {
    400: "bad_request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "server_error",
}
WWW_AUTHENTICATE = 'Bearer realm="netshop"'
# Headers of Django's or ninja's own answer that a JSON rewrite keeps.
# A rewritten error keeps every header but the body's own (Allow, Retry-After, the security
# policy, no-store ...).
BODY_HEADERS = frozenset({"content-type", "content-length"})


def http_code(status: int) -> str:
    return HTTP_CODES.get(status, "server_error" if status >= 500 else "error")


class UnsupportedMediaTypeError(Exception):
    """A request body that is not JSON (the only kind the API reads)."""


class JsonOnlyParser(Parser):
    """ninja's parser, refusing bodies that do not say they are JSON (415, not a guess)."""

    def parse_body(self, request: HttpRequest) -> DictStrAny:
        media_type = (request.content_type or "").lower()
        if media_type != "application/json" and not media_type.endswith("+json"):
            raise UnsupportedMediaTypeError(media_type or "none")
        return super().parse_body(request)


def _error(
    api: NinjaAPI, request: HttpRequest, status: int, code: str, message: str, **extra: Any
) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


def _domain(request: HttpRequest, exc: DomainError, api: NinjaAPI) -> HttpResponse:
    response = _error(api, request, exc.status, exc.code, exc.message)
    if exc.status == 401:  # as every 401 says how to authenticate
        response["WWW-Authenticate"] = WWW_AUTHENTICATE
    return response


def _unauthenticated(request: HttpRequest, exc: AuthenticationError, api: NinjaAPI) -> HttpResponse:
    message = (
        "Authentication required: a valid storefront token (Authorization: Bearer <key>), or a "
        "staff session or staff token, as the endpoint's documentation says."
    )
    response = _error(api, request, 401, "unauthenticated", message)
    response["WWW-Authenticate"] = WWW_AUTHENTICATE
    return response


CSRF_FAILED = (
    "csrf_failed",
    "CSRF check failed: send the csrftoken cookie's value in the X-CSRFToken header.",
)
# ninja's own wording for its two refusals, and ours.
REWORDED = {
    "Cannot parse request body": ("invalid_json", "The request body is not valid JSON."),
    "CSRF check Failed": CSRF_FAILED,
}


def _http(request: HttpRequest, exc: HttpError, api: NinjaAPI) -> HttpResponse:
    if isinstance(exc.__cause__, UnsupportedMediaTypeError):  # ninja wraps every parser error
        return _error(api, request, 415, http_code(415), _media_message(exc.__cause__))
    code, message = http_code(exc.status_code), str(exc)
    for prefix, reworded in REWORDED.items():
        if message.startswith(prefix):
            code, message = reworded
    return _error(api, request, exc.status_code, code, message)


def _media_message(exc: UnsupportedMediaTypeError) -> str:
    return f"The request body must be JSON (Content-Type: application/json), not {exc}."


def _too_big(request: HttpRequest, exc: RequestDataTooBig, api: NinjaAPI) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = f"The request body is larger than the {limit:,} bytes the API accepts."
    return _error(api, request, 413, http_code(413), message)


def _not_found(request: HttpRequest, exc: Http404, api: NinjaAPI) -> HttpResponse:
    return _error(api, request, 404, http_code(404), _status_message(request, 404, None))


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
    api.add_exception_handler(RequestDataTooBig, partial(_too_big, api=api))
    api.add_exception_handler(Http404, partial(_not_found, api=api))


def _status_message(request: HttpRequest, status: int, response: HttpResponseBase | None) -> str:
    if status == 404:
        return f"No API endpoint at {request.path}; see /api/v1/docs."
    if status == 405:
        allowed = response.get("Allow", "") if response is not None else ""
        return f"{request.method} is not allowed on {request.path}; allowed: {allowed}."
    if status >= 500:
        return "The server failed to answer this request; it has been logged."
    try:
        return f"{HTTPStatus(status).phrase}."
    except ValueError:
        return "The request failed."


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponseBase:
    """``CSRF_FAILURE_VIEW``: Django's CSRF refusal, as the API words it under ``/api/``."""
    if request.path.startswith(API_PREFIX):
        code, message = CSRF_FAILED
        return JsonResponse({"code": code, "message": message}, status=403)
    return django_csrf_failure(request, reason=reason)


class JsonApiErrors(MiddlewareMixin):
    """Middleware: under ``/api/``, an error answered as a page becomes the API's JSON body.

    Django answers an unknown path (404), a suspicious request (400) and a crash (500) with
    HTML, and ninja a wrong method (405) with plain text, before or around any handler of
    ours; a storefront parsing JSON must get JSON. The status and the other headers
    (``Allow``, ``Retry-After``, the security policy) stay; the crash itself is still logged
    by Django. (A CSRF refusal keeps its own code: ``csrf_failure`` answers it before this
    sees it.)
    """

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if (
            response.status_code < 400
            or not request.path.startswith(API_PREFIX)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        status = response.status_code
        body = {"code": http_code(status), "message": _status_message(request, status, response)}
        rewritten = JsonResponse(body, status=status)
        for header, value in response.items():
            if header.lower() not in BODY_HEADERS:
                rewritten[header] = value
        return rewritten
