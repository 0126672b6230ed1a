"""The HTTP API under ``/api/v1/``: one NinjaAPI, its error answers and its two routers."""

from __future__ import annotations

from ninja import NinjaAPI

from operators.api import intake, staff
from operators.api.errors import register_error_handlers

api = NinjaAPI(
    title="NetShop support API",
    version="1",
    description=(
        "Storefronts submit and follow inquiries with a bearer token; staff work the "
        "escalation queue with their session (unsafe methods need the CSRF token). Every "
        'error answers {"code", "message"}.'
    ),
    urls_namespace="api-v1",
)
register_error_handlers(api)
api.add_router("", intake.router)
api.add_router("", staff.router)
