"""The model providers, and the one place the AI team gets its chat models from.

Two providers, independent of each other (an import contract keeps them so): ``openai`` and
``offline``. Both speak LangChain's chat-model interface and are handed the same prompt
blocks (``agents.contract.blocks``).

``NETSHOP_MODEL_PROVIDER == "openai"`` gives the real ``ChatOpenAI`` (any OpenAI-compatible
endpoint through ``OPENAI_BASE_URL``); anything else gives the built-in offline model, so the
console runs and the tests pass with no API key and no network.

Models are built once per configuration and reused: building a client (and the schemas bound
to it) on every call costs more CPU than the offline model's whole answer.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from django.conf import settings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool

from agents.providers.openai import is_openai, openai_chat_model, openai_structured

ModelRole = Literal["supervisor", "specialist", "writer"]


def chat_model(role: ModelRole) -> BaseChatModel:
    """The chat model for ``role`` under the current settings."""
    return _model(
        role,
        settings.NETSHOP_MODEL_PROVIDER,
        settings.NETSHOP_MODEL_NAMES[role],
        settings.OPENAI_API_KEY,
        settings.OPENAI_BASE_URL,
        settings.NETSHOP_MODEL_TIMEOUT_S,
    )


def model_is_remote() -> bool:
    """Whether a model call leaves this process, and so may wait seconds for its answer: the
    offline model answers in the caller's thread at once, with nothing to wait for."""
    return settings.NETSHOP_MODEL_PROVIDER == "openai"


def router_model_file() -> Path:
    """The offline model's router file in force (for the versions a simulation records)."""
    from agents.providers.offline.understanding.router import model_path

    return model_path()


_bound_cache: dict[tuple[int, object], tuple[BaseChatModel, Runnable[Any, Any]]] = {}


def structured(model: BaseChatModel, schema: type) -> Runnable[Any, Any]:
    """``model.with_structured_output(schema)``, built once per model and schema; each
    provider binds it its own way (``openai_structured`` for the OpenAI one)."""
    if is_openai(model):
        return _bound_once(model, schema, lambda: openai_structured(model, schema))
    return _bound_once(model, schema, lambda: model.with_structured_output(schema))


def with_tools(model: BaseChatModel, tools: tuple[BaseTool, ...]) -> Runnable[Any, AIMessage]:
    """``model.bind_tools(tools)``, built once per model and tool set (turning the tools'
    signatures into JSON schemas costs milliseconds, on every model turn otherwise).

    Bound without ``strict``: OpenAI takes any object schema for them. Strict, every optional
    argument would have to become a required nullable one without a default (the Structured
    Outputs subset), and the tool turn already answers arguments that do not fit.
    """
    names = tuple(tool.name for tool in tools)  # tools are unhashable; their names are unique
    return _bound_once(model, names, lambda: model.bind_tools(list(tools)))


def _bound_once(
    model: BaseChatModel, key: object, bind: Callable[[], Runnable[Any, Any]]
) -> Runnable[Any, Any]:
    cached = _bound_cache.get((id(model), key))
    if cached is None or cached[0] is not model:  # the id of a model since dropped
        cached = (model, bind())
        _bound_cache[(id(model), key)] = cached
    return cached[1]


@lru_cache(maxsize=16)
def _model(
    role: ModelRole, provider: str, name: str, api_key: str, base_url: str, timeout: float
) -> BaseChatModel:
    if provider == "openai":
        return openai_chat_model(name=name, api_key=api_key, base_url=base_url, timeout=timeout)
    # Imported here so this module imports before, and without, the offline model's own deps.
    from agents.providers.offline import OfflineChatModel

    return OfflineChatModel(role=role)
