"""The 400, 403, 404 and 500 pages: the site's layout, in the reader's language, with a way back.

A signed-in reader goes back to the front door (which sends staff to the console and
customers to their help page); a visitor who is not signed in, to the login page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.urls import reverse
from django.utils.translation import gettext


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django or the perimeter could not read (a multipart body without a boundary,
    a NUL in the query string): the site's page, not Django's bare one."""
    return _error_page(request, "errors/400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error_page(request, "errors/403.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error_page(request, "errors/404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without the request's context processors: they may be what failed."""
    return HttpResponse(loader.render_to_string("errors/500.html", _way_back(request)), status=500)


def _error_page(request: HttpRequest, template: str, *, status: int) -> HttpResponse:
    body = loader.render_to_string(template, _way_back(request), request=request)
    return HttpResponse(body, status=status)


def _way_back(request: HttpRequest) -> dict[str, str]:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {"back_url": reverse("root"), "back_label": gettext("Back to the start page")}
    return {"back_url": reverse("login"), "back_label": gettext("Go to the login page")}
