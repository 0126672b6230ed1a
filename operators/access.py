"""Who may see what: the one role check every page and socket of the console uses."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from netshop.roles import Role, user_has_role

View = TypeVar("View", bound=Callable[..., HttpResponse])


def role_required(role: Role) -> Callable[[View], View]:
    """Anonymous visitors are sent to log in; signed-in users without the role get 403."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not user_has_role(request.user, role):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
