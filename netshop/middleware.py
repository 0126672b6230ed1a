"""Response headers every page the app renders carries, and the requests no view ever sees."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import add_never_cache_headers

from netshop.text import unstorable


class NoStoreMiddleware:
    """``Cache-Control: no-store`` on every response a view makes, unless the view chose.

    Every page and API answer is about someone (an operator's queue, a customer's orders), so
    no browser or shared cache may keep one: the back button after logging out, or a proxy,
    would show it to the next person. Static files never reach this (WhiteNoise answers them
    earlier) and keep their long cache lifetimes.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response


UNSTORABLE_QUERY = "The query string holds a character that cannot be stored."


class RefuseUnstorableText:
    """A path or query string PostgreSQL could not store never reaches a view.

    A NUL (``%00``) reaching a lookup makes psycopg raise, and the visitor a 500: found in a
    receipt number, possible in any path parameter or query value. Refused here for every
    route at once: a path is "not found" (no page has such an address), a query string a bad
    request. Raised rather than answered, so the site's 404 and 400 pages (JSON under the
    API) answer, with the headers the middleware around this one adds. The API answers a
    query it cannot store as it answers any query it refuses, 422 ``invalid_request``: the
    status every endpoint documents (``request.unstorable_query`` tells it so).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if unstorable(request.path):
            raise Http404("The path holds a character no address has.")
        if any(unstorable(name + "".join(values)) for name, values in request.GET.lists()):
            request.unstorable_query = True  # type: ignore[attr-defined]  # the API's 422
            raise BadRequest(UNSTORABLE_QUERY)
        return self.get_response(request)
