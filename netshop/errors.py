"""The one error type the shop's rules raise."""

from __future__ import annotations


class DomainError(Exception):
    """A shop rule refused an action; ``code`` is stable, ``message`` is for people.

    Nothing has changed when this is raised: services validate before they write.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class ExternalServiceError(Exception):
    """A carrier or gateway call failed (timeout, 5xx); the caller decides whether to retry."""

    def __init__(self, service: str, kind: str, message: str) -> None:
        super().__init__(f"{service} {kind}: {message}")
        self.service = service
        self.kind = kind
        self.message = message
