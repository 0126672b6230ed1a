"""Response headers every page the app renders carries."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import add_never_cache_headers


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
