"""The one rule that names a sandbox database: the shop's own name plus ``SANDBOX_SUFFIX``."""

from __future__ import annotations

from typing import Final

SANDBOX_SUFFIX: Final = "_sandbox"
POSTGRES_NAME_LIMIT: Final = 63


def sandbox_name(database_name: str) -> str:
    """The sandbox database of the shop database ``database_name``."""
    if database_name.endswith(SANDBOX_SUFFIX):
        return database_name
    return database_name[: POSTGRES_NAME_LIMIT - len(SANDBOX_SUFFIX)] + SANDBOX_SUFFIX
