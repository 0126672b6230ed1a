"""A storefront's receiver: where its webhooks go and the secret they are signed with."""

from __future__ import annotations

import secrets
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils.translation import gettext_lazy as _

from netshop.webhooks.destinations import DestinationRefusedError, public_addresses

SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, as Stripe's, not a secret)

_http_url = URLValidator(schemes=["http", "https"])

_NOT_PUBLIC = _(
    "Webhooks may not go to %(host)s: it is not a public address (loopback, private, "
    "link-local or otherwise internal). NETSHOP_WEBHOOK_ALLOW_PRIVATE allows one on a "
    "development machine."
)
_RESOLVES_NOT_PUBLIC = _(
    "Webhooks may not go to %(host)s: it resolves to %(address)s, which is not a public "
    "address (loopback, private, link-local or otherwise internal). "
    "NETSHOP_WEBHOOK_ALLOW_PRIVATE allows one on a development machine."
)


def validate_callback_url(value: str) -> None:
    """A callback URL is an absolute http(s) URL without credentials in it, whose host is a
    public address or a name resolving only to public ones (``destinations``), unless
    ``NETSHOP_WEBHOOK_ALLOW_PRIVATE`` is on."""
    _http_url(value)
    if "@" in value.split("//", 1)[1].split("/", 1)[0]:
        raise ValidationError("A callback URL may not carry a user name or password.")
    if not settings.NETSHOP_WEBHOOK_ALLOW_PRIVATE:
        _refuse_internal_host(urlsplit(value))


def _refuse_internal_host(url: SplitResult) -> None:
    """Refuse a host that is, or resolves to, a non-public address. A name resolving to
    nothing yet passes: nothing would be sent to it, and every attempt checks again."""
    host = url.hostname or ""
    try:
        port = url.port or (443 if url.scheme == "https" else 80)
        public_addresses(host, port)
    except DestinationRefusedError as refused:
        params = {"host": refused.host, "address": refused.address}
        template = _NOT_PUBLIC if refused.host == refused.address else _RESOLVES_NOT_PUBLIC
        raise ValidationError(template, code="callback_url_not_public", params=params) from None
    except ValueError:  # a port out of range
        raise ValidationError(_http_url.message, code=_http_url.code) from None
    except OSError:
        return  # the name resolves to nothing (yet)


def new_signing_secret() -> str:
    """A fresh per-token signing secret (shown once, stored to sign with)."""
    return SECRET_PREFIX + secrets.token_urlsafe(32)
