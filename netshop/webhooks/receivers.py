"""A storefront's receiver: where its webhooks go and the secret they are signed with."""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator

SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, as Stripe's, not a secret)

_http_url = URLValidator(schemes=["http", "https"])


def validate_callback_url(value: str) -> None:
    """A callback URL is an absolute http(s) URL without credentials in it."""
    _http_url(value)
    if "@" in value.split("//", 1)[1].split("/", 1)[0]:
        raise ValidationError("A callback URL may not carry a user name or password.")


def new_signing_secret() -> str:
    """A fresh per-token signing secret (shown once, stored to sign with)."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)
