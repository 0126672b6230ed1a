"""The one place the agent graph gets its chat models from.

``NETSHOP_MODEL_PROVIDER == "openai"`` gives the real ``ChatOpenAI`` (any OpenAI-compatible
endpoint through ``OPENAI_BASE_URL``); anything else gives the built-in offline model, so the
console runs and the tests pass with no API key and no network.

Models are built once per configuration and reused: building a client (and the schemas bound
to it) on every call costs more CPU than the offline model's whole answer.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

from django.conf import settings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from agents.events import announce_held_steps
from agents.graph.db_connections import release_db_connection

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


def invoke(model: Runnable[Any, Any], messages: list[Any]) -> Any:
    """Every model call of the graph goes through here. The call may wait seconds, so the
    run first announces the steps it finished meanwhile (the consoles see them now), and the
    thread gives its database connection back: a worker has dozens of runs in flight on a few
    connections."""
    announce_held_steps()
    release_db_connection()
    return model.invoke(messages)


_bound_cache: dict[tuple[int, object], tuple[BaseChatModel, Runnable[Any, Any]]] = {}


def structured(model: BaseChatModel, schema: type) -> Runnable[Any, Any]:
    """``model.with_structured_output(schema)``, built once per model and schema.

    OpenAI gets the schema as a strict ``json_schema`` response format (Structured Outputs:
    the answer always fits it, and the API refuses a schema outside the supported subset),
    said outright rather than left to langchain-openai's default of the day.
    """
    if isinstance(model, ChatOpenAI):
        return _bound_once(
            model,
            schema,
            lambda: model.with_structured_output(
                strict_response_format(schema), method="json_schema", strict=True
            ),
        )
    return _bound_once(model, schema, lambda: model.with_structured_output(schema))


def strict_response_format(schema: type) -> dict[str, Any]:
    """``schema`` as OpenAI's strict ``json_schema`` response format, converted once.

    Given the model class, the SDK converts it again on every call (pydantic's JSON schema
    generation, then the strict rewrite: half a classification's CPU); given this, it sends
    it as it is, and the answer comes back as JSON for the caller to validate.
    """
    from openai.lib._pydantic import to_strict_json_schema  # the SDK's own strict rewrite

    return {"name": schema.__name__, "schema": to_strict_json_schema(schema), "strict": True}


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


class ChatOpenAIWirePayload(ChatOpenAI):
    """``ChatOpenAI`` whose messages, tools and response format reach the SDK as the JSON they
    already are.

    The OpenAI SDK walks every request body against its parameter types before sending it
    (openai-python's ``_transform_recursive``), with the GIL held: on a specialist's turn that
    cost more CPU than the rest of the call, for a body it sends unchanged. The SDK merges
    ``extra_body`` into the JSON after that walk, so the bulk fields travel there instead.
    """

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        if "messages" not in payload:  # the Responses API's payload: left as it is
            return payload
        wire = {key: payload.pop(key) for key in ("messages", "tools") if key in payload}
        if isinstance(payload.get("response_format"), dict):  # already JSON: see structured()
            wire["response_format"] = payload.pop("response_format")
        payload["messages"] = []  # a required argument of the SDK; the JSON gets the real ones
        payload["extra_body"] = {**(payload.get("extra_body") or {}), **wire}
        return payload


@lru_cache(maxsize=16)
def _model(
    role: ModelRole, provider: str, name: str, api_key: str, base_url: str, timeout: float
) -> BaseChatModel:
    if provider == "openai":
        return ChatOpenAIWirePayload(
            model=name,
            api_key=SecretStr(api_key),
            base_url=base_url or None,
            timeout=timeout,
            # Our escalation policy decides what to retry; SDK retries would hide failures
            # from it and multiply the latency.
            max_retries=0,
            temperature=0,
        )
    # Imported here so this module imports before, and without, the offline model's own deps.
    from agents.offline import OfflineChatModel

    return OfflineChatModel(role=role)
