"""The HTTP API under ``/api/v1/``: one NinjaAPI, its error answers and its two routers."""

from __future__ import annotations

from ninja import NinjaAPI

from operators.api import audit, conversations, intake, messages, staff
from operators.api.errors import JsonOnlyParser, register_error_handlers

api = NinjaAPI(
    title="NetShop support API",
    version="1",
    description=(
        "Storefronts start conversations (inquiries), post the customer's messages and read "
        "the thread with their bearer token, each in the conversations it submitted (any other "
        "is 404). Staff work the escalation queue and the "
        "conversation inbox, take conversations over and read the audit log with their "
        "session (unsafe methods need the CSRF token) or with a personal token from "
        "`manage.py create_api_token NAME --user USERNAME`, sent as a bearer token. Every "
        'error answers {"code", "message"}. Request bodies are JSON (Content-Type: '
        "application/json); intake and customer messages are rate-limited per storefront "
        "token (429 with Retry-After). Customer messages take an Idempotency-Key header; "
        "internal notes are shown to staff only."
    ),
    urls_namespace="api-v1",
    parser=JsonOnlyParser(),
)
register_error_handlers(api)
api.add_router("", intake.router)
api.add_router("", messages.router)
api.add_router("", staff.router)
api.add_router("", conversations.router)
api.add_router("", audit.router)
