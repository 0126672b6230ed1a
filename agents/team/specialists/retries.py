"""How often a carrier or gateway fault is retried, and how long to wait in between.

Shared by the tool turn (a retryable tool) and the delegation (a crashed specialist), so
both back off on the same setting, ``NETSHOP_RETRY_BACKOFF_S``.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool

from netshop.errors import ExternalServiceError

TOOL_ATTEMPTS = 3


def backoff(attempt: int) -> None:
    base = float(getattr(settings, "NETSHOP_RETRY_BACKOFF_S", 0.2))
    if base > 0:
        time.sleep(base * (2**attempt))


def invoke_retrying(tool: BaseTool, args: dict[str, Any], config: RunnableConfig) -> Any:
    """Run the tool, retrying only carrier or gateway faults; the last one is raised.

    Anything else (a shop rule's refusal, bad arguments) is raised at once: retrying it
    would give the same answer.
    """
    for attempt in range(TOOL_ATTEMPTS):
        try:
            return tool.invoke(args, config)
        except ExternalServiceError:
            if attempt + 1 == TOOL_ATTEMPTS:
                raise
            backoff(attempt)
    raise AssertionError("unreachable: TOOL_ATTEMPTS is at least 1")
