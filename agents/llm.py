"""The one place the agent graph gets its chat models from.

``NETSHOP_MODEL_PROVIDER == "openai"`` gives the real ``ChatOpenAI`` (any OpenAI-compatible
endpoint through ``OPENAI_BASE_URL``); anything else gives the built-in offline model, so the
console runs and the tests pass with no API key and no network.
"""

from __future__ import annotations

from typing import Literal

from django.conf import settings
from langchain_core.language_models import BaseChatModel
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

ModelRole = Literal["supervisor", "specialist", "writer"]


def chat_model(role: ModelRole) -> BaseChatModel:
    """Return a fresh chat model for ``role``, read from settings at call time."""
    if settings.NETSHOP_MODEL_PROVIDER == "openai":
        return ChatOpenAI(
            model=settings.NETSHOP_MODEL_NAMES[role],
            api_key=SecretStr(settings.OPENAI_API_KEY),
            base_url=settings.OPENAI_BASE_URL or None,
            timeout=settings.NETSHOP_MODEL_TIMEOUT_S,
            # Our escalation policy decides what to retry; SDK retries would hide failures
            # from it and multiply the latency.
            max_retries=0,
            temperature=0,
        )
    # Imported here so this module imports before, and without, the offline model's own deps.
    from agents.offline import OfflineChatModel

    return OfflineChatModel(role=role)
