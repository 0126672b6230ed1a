"""The slow model for the fan-out benchmark: the local OpenAI-compatible server, answering
every role correctly after ``--latency`` seconds.

    python -m bench.fake_model --port 8766 --latency 0.2 [--jitter 0.3]

Run as its own process so that serving it takes no CPU or GIL from the graph being timed.

* classification (a ``json_schema`` response format): the specialists the inquiry needs,
  order + shipping + payment, plus faq when it asks about returns;
* a specialist (tools offered): one call to its look-up tool, then, after the tool result,
  a one-line text answer (two model turns);
* the writer (no tools): a short reply.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import threading
from typing import Any

from tests.support import fake_openai
from tests.support.fake_openai import FakeOpenAI, Reply

ORDER_NUMBER = re.compile(r"ORD-\d{4}")
# The look-up each specialist makes, by a tool only that specialist has.
LOOKUPS = ("get_order_details", "track_shipment", "check_payment_status", "search_faq")


def _texts(request: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in request.get("messages", []))


def _inquiry(request: dict[str, Any]) -> str:
    text = _texts(request)
    match = re.search(r"<inquiry>\n(.*?)\n</inquiry>", text, re.S)
    return match.group(1) if match else text


def classification(inquiry: str) -> dict[str, Any]:
    wants_faq = "返品" in inquiry or "return" in inquiry.lower()
    japanese = any(ord(c) > 0x3000 for c in inquiry)
    return {
        "agents": ["order", "shipping", "payment", *(["faq"] if wants_faq else [])],
        "intent": "track_shipment",
        "secondary_intents": ["check_payment_status", "get_order_details"]
        + (["search_faq"] if wants_faq else []),
        "entities": {"order_numbers": ORDER_NUMBER.findall(inquiry)[:1]},
        "language": "ja" if japanese else "en",
        "confidence": 0.95,
        "injection_suspected": False,
    }


def respond(request: dict[str, Any]) -> Reply:
    if request.get("response_format"):
        return Reply.structured_output(classification(_inquiry(request)))
    tools = [t["function"]["name"] for t in request.get("tools") or []]
    if not tools:
        return Reply.text("ご確認ありがとうございます。状況は以下のとおりです。")
    if request["messages"][-1].get("role") == "tool":
        return Reply.text("確認しました。")
    lookup = next(name for name in LOOKUPS if name in tools)
    numbers = ORDER_NUMBER.findall(_texts(request))
    if lookup == "search_faq":
        return Reply.tool_call(lookup, {"query": "返品 期限", "language": "ja"})
    return Reply.tool_call(lookup, {"order_number": numbers[0] if numbers else ""})


def jittered(responder: fake_openai.Responder, jitter_s: float) -> fake_openai.Responder:
    """``responder`` with each answer late by a further 0 to ``jitter_s`` seconds, uniformly:
    a hosted model's latency varies from call to call."""
    if jitter_s <= 0:
        return responder
    return lambda request: responder(request).after(random.uniform(0.0, jitter_s))  # noqa: S311


def _handler_without_nagle(server: FakeOpenAI) -> type:
    """The server's handler with TCP_NODELAY: it writes headers and body separately, and with
    Nagle's algorithm against the client's delayed ACK every answer waits ~40 ms more, which a
    real endpoint would not add to the critical path."""
    handler = _original_handler_for(server)
    return type("NoDelayHandler", (handler,), {"disable_nagle_algorithm": True})


_original_handler_for = fake_openai._handler_for


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--jitter", type=float, default=0.0, help="up to this much more, s")
    args = parser.parse_args(argv)
    fake_openai._handler_for = _handler_without_nagle  # type: ignore[assignment]
    server = FakeOpenAI(
        host="127.0.0.1",
        port=args.port,
        latency_s=args.latency,
        responder=jittered(respond, args.jitter),
    )
    with server, contextlib.suppress(KeyboardInterrupt):
        threading.Event().wait()


if __name__ == "__main__":
    main()
