"""The content guard: audit data keeps ids and figures, never what people or models wrote.

Callers are expected to pass content-free data; this is the belt to their braces. Keys that
name content are dropped wherever they appear, and so is any long string, since ids, names
and digests are short. Dropped key paths are listed under ``_redacted`` (names only), so a
reader can tell something was withheld.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

CONTENT_KEYS = frozenset(
    {
        "args",
        "arguments",
        "body",
        "content",
        "message",
        "messages",
        "notes",
        "prompt",
        "prompts",
        "reply",
        "text",
        "tool_args",
        "tool_result",
    }
)
MAX_STRING = 120
REDACTED_KEY = "_redacted"


def content_free(data: dict[str, Any] | None) -> dict[str, Any]:
    """``data`` as plain JSON values with content keys and long strings removed.

    The result round-trips through JSON unchanged, so the row's hash (computed on it before
    the insert) matches what the database gives back later.
    """
    plain = json.loads(json.dumps(data or {}, cls=DjangoJSONEncoder))
    redacted: list[str] = []
    cleaned: dict[str, Any] = _clean(plain, "", redacted)
    if redacted:
        cleaned[REDACTED_KEY] = sorted(set(redacted))
    return cleaned


def _clean(value: Any, path: str, redacted: list[str]) -> Any:
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if key.lower() in CONTENT_KEYS or _too_long(item):
                redacted.append(where)
            else:
                kept[key] = _clean(item, where, redacted)
        return kept
    if isinstance(value, list):
        items = [_clean(item, f"{path}[]", redacted) for item in value if not _too_long(item)]
        if len(items) != len(value):
            redacted.append(f"{path}[]")
        return items
    if isinstance(value, float):
        return _plain_number(value)
    if isinstance(value, str):
        return value.replace("\x00", "")  # jsonb refuses NUL; an audit write must not fail
    return value


def _too_long(value: Any) -> bool:
    return isinstance(value, str) and len(value) > MAX_STRING


def _plain_number(value: float) -> int | float | None:
    # PostgreSQL's jsonb gives 1e20 back as an integer and refuses NaN: store what it returns.
    if not math.isfinite(value):
        return None
    return int(value) if value.is_integer() else value
