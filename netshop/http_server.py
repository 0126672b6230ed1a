"""Daphne's requests, built without Twisted's form parsing: every body reaches Django as sent.

Twisted's ``http.Request`` parses each POST declared ``multipart/form-data`` into
``request.args`` before daphne sees it. Daphne never reads ``args`` (it hands Django the raw
body), so that parse only costs a second copy of every upload in memory; and a body Twisted
cannot parse (the header without a boundary) is answered by Twisted itself with a bare
``400`` and a closed connection: no body, no security headers, Django never runs. Without the
parse, Django reads the body, refuses it as a bad request (``MultiPartParserError``), and the
site's 400 page or the API's JSON error answers, with every header the middleware adds.
"""

from __future__ import annotations

import inspect
from typing import Any

from daphne import http_protocol
from django.core.exceptions import ImproperlyConfigured
from twisted.web import http

OPTION = "parsePOSTFormSubmission"  # Twisted's switch for the parse


class BodyAsSentRequest(http_protocol.WebRequest):
    """daphne's request, telling Twisted to leave the body unparsed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, OPTION: False})


def leave_bodies_to_django() -> None:
    """Make daphne build ``BodyAsSentRequest``: its factory reads the module's ``WebRequest``
    for each new connection. Refuses to start on a Twisted without the switch, rather than
    serve the bare 400 again unnoticed."""
    if OPTION not in inspect.signature(http.Request.__init__).parameters:
        raise ImproperlyConfigured(f"Twisted's http.Request has no {OPTION}; upgrade Twisted")
    http_protocol.WebRequest = BodyAsSentRequest
