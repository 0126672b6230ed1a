"""The OpenAI-compatible model provider: ``ChatOpenAI`` against OpenAI or any compatible server
(``OPENAI_BASE_URL``), tuned for the graph's calls. Knows nothing of the offline provider."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from pydantic import SecretStr


def openai_chat_model(*, name: str, api_key: str, base_url: str, timeout: float) -> BaseChatModel:
    """The client for one model name; built once per configuration by the caller."""
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


def is_openai(model: BaseChatModel) -> bool:
    """Whether ``model`` is this provider's (it binds structured output its own way)."""
    return isinstance(model, ChatOpenAI)


def openai_structured(model: BaseChatModel, schema: type) -> Runnable[Any, Any]:
    """OpenAI gets the schema as a strict ``json_schema`` response format (Structured Outputs:
    the answer always fits it, and the API refuses a schema outside the supported subset),
    said outright rather than left to langchain-openai's default of the day."""
    return model.with_structured_output(
        strict_response_format(schema), method="json_schema", strict=True
    )


def strict_response_format(schema: type) -> dict[str, Any]:
    """``schema`` as OpenAI's strict ``json_schema`` response format, converted once.

    Given the model class, the SDK converts it again on every call (pydantic's JSON schema
    generation, then the strict rewrite: half a classification's CPU); given this, it sends
    it as it is, and the answer comes back as JSON for the caller to validate.
    """
    from openai.lib._pydantic import to_strict_json_schema  # the SDK's own strict rewrite

    return {"name": schema.__name__, "schema": to_strict_json_schema(schema), "strict": True}


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
