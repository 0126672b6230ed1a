"""A local OpenAI-compatible server, so the real ``ChatOpenAI`` is tested without a network.

Real HTTP on 127.0.0.1 (stdlib only) serving ``POST /v1/chat/completions`` (JSON, or an SSE
stream when the request says ``"stream": true``) and ``GET /v1/models``. Each chat request
takes the next ``Reply`` from a FIFO script, else asks ``responder``; every request is recorded::

    with FakeOpenAI() as server:
        server.script(
            Reply.tool_call("order_lookup", {"order_number": "ORD-4003"}),
            Reply.text("Your order ships tomorrow.").after(0.2),
        )
        ...  # ChatOpenAI(base_url=server.base_url, ...)
        assert server.chat_requests[0]["tools"][0]["function"]["name"] == "order_lookup"

A request OpenAI would refuse gets its 400 instead (``openai_rules``: Structured Outputs
schemas, ``tool_choice`` and ``parallel_tool_calls`` without tools, tool results out of
order); ``server.rejected`` lists the rules broken so far.

Standalone, for benchmarks, answering with ``default_responder``::

    python -m tests.support.fake_openai --port 8765 --latency 0.2 --echo
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import logging
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from pydantic import BaseModel

from tests.support.openai_rules import Problem, request_problems

logger = logging.getLogger(__name__)

Json = dict[str, Any]
Arguments = Mapping[str, Any] | str
StructuredValue = BaseModel | Json | list[Any] | str
Responder = Callable[[Json], "Reply"]
MALFORMED_JSON = '{"answer": "cut off mid'

# status -> (message, type, code), as the real API words them.
_ERRORS: dict[int, tuple[str, str, str | None]] = {
    400: ("Invalid request.", "invalid_request_error", None),
    401: ("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
    404: ("Not found.", "invalid_request_error", "not_found"),
    429: ("Rate limit reached for requests.", "requests", "rate_limit_exceeded"),
    500: ("The server had an error while processing your request.", "server_error", None),
    503: ("The engine is currently overloaded, please try again later.", "server_error", None),
}


@dataclass(frozen=True)
class ToolCall:
    """One tool call; string ``arguments`` are sent verbatim, valid JSON or not."""

    name: str
    arguments: Arguments = field(default_factory=dict)

    def arguments_text(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)


@dataclass(frozen=True)
class HttpError:
    status: int
    body: Json
    headers: Mapping[str, str] = field(default_factory=dict)


def openai_error(
    status: int,
    message: str | None = None,
    *,
    error_type: str | None = None,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> HttpError:
    """An error response with the body shape the ``openai`` SDK reads."""
    default_message, default_type, default_code = _ERRORS.get(
        status, ("Error.", "server_error", None)
    )
    error = {
        "message": message or default_message,
        "type": error_type or default_type,
        "param": None,
        "code": code or default_code,
    }
    return HttpError(status, {"error": error}, headers or {})


@dataclass(frozen=True)
class Reply:
    """The answer to one chat request. Build it with the classmethods; ``.after()`` delays it."""

    content: str | None = None
    calls: tuple[ToolCall, ...] = ()
    structured: StructuredValue | None = None
    error: HttpError | None = None
    delay_s: float = 0.0
    finish_reason: str | None = None

    @classmethod
    def text(cls, content: str) -> Reply:
        return cls(content=content)

    @classmethod
    def tool_call(cls, name: str, arguments: Arguments | None = None) -> Reply:
        return cls(calls=(ToolCall(name, {} if arguments is None else arguments),))

    @classmethod
    def tool_calls(cls, *calls: tuple[str, Arguments]) -> Reply:
        return cls(calls=tuple(ToolCall(name, arguments) for name, arguments in calls))

    @classmethod
    def structured_output(cls, value: StructuredValue) -> Reply:
        """JSON put where the request expects it: the content when it asks for a JSON
        ``response_format``, else the arguments of its forced (or first) tool. A str is sent
        verbatim, so it may be malformed."""
        return cls(structured=value)

    @classmethod
    def malformed_json(cls, raw: str = MALFORMED_JSON) -> Reply:
        """Invalid JSON where structured output is expected (see ``structured_output``)."""
        return cls(structured=raw)

    @classmethod
    def http_error(
        cls,
        status: int,
        message: str | None = None,
        *,
        error_type: str | None = None,
        code: str | None = None,
        retry_after_s: float | None = None,
    ) -> Reply:
        """An OpenAI error body; message, type and code default to the real API's for 400,
        401, 404, 429, 500 and 503."""
        headers = {} if retry_after_s is None else {"retry-after": str(retry_after_s)}
        error = openai_error(status, message, error_type=error_type, code=code, headers=headers)
        return cls(error=error)

    def after(self, delay_s: float) -> Reply:
        """This reply, sent ``delay_s`` seconds late (on top of the server's ``latency_s``)."""
        return replace(self, delay_s=delay_s)

    def resolve(self, request: Json) -> tuple[str | None, tuple[ToolCall, ...]]:
        """The message content and tool calls to send for ``request``."""
        if self.structured is None:
            return self.content, self.calls
        value = self.structured
        if isinstance(value, BaseModel):
            value = value.model_dump_json()
        text = value if isinstance(value, str) else json.dumps(value)
        wants_json = (request.get("response_format") or {}).get("type") not in (None, "text")
        tool = _forced_or_first_tool(request)
        if tool is None or wants_json:
            return text, ()
        return None, (ToolCall(tool["name"], text),)


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received; header names lower-cased, ``json`` None when not JSON."""

    method: str
    path: str
    headers: Mapping[str, str]
    json: Any


def placeholder(schema: Json, root: Json | None = None) -> Any:
    """The emptiest value a JSON schema allows, near enough: required keys only, null when
    nullable, then "", 0, false, the fewest array items, the first enum value."""
    root = schema if root is None else root
    if ref := schema.get("$ref"):
        schema = root
        for part in ref.removeprefix("#/").split("/"):
            schema = schema[part]
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if "enum" in schema:
        return schema["enum"][0]
    options = schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf")
    if options:
        nullable = any(option.get("type") == "null" for option in options)
        return None if nullable else placeholder(options[0], root)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = "null" if "null" in kind else kind[0]
    if kind == "object":
        properties = schema.get("properties", {})
        return {name: placeholder(properties[name], root) for name in schema.get("required", [])}
    if kind == "array":
        items = schema.get("prefixItems") or [schema.get("items", {})] * schema.get("minItems", 0)
        return [placeholder(item, root) for item in items]
    return {"string": "", "integer": 0, "number": 0, "boolean": False}.get(kind)


def default_responder(request: Json, *, echo: bool = False) -> Reply:
    """Standalone mode's answer: just enough to drive an agent loop in a benchmark.

    A ``json_schema`` response_format gets ``placeholder`` JSON for the schema. Offered tools
    get one call to the forced tool (else the first) with ``placeholder`` arguments, unless
    the last message is a tool result. Anything else gets a short text, so agent loops end:
    "ok", or with ``echo`` the last user message repeated back.
    """
    response_format = request.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        return Reply.structured_output(placeholder(response_format["json_schema"]["schema"]))
    messages = request.get("messages") or [{}]
    tool = _forced_or_first_tool(request)
    if tool is not None and messages[-1].get("role") != "tool":
        return Reply.tool_call(tool["name"], placeholder(tool.get("parameters", {})))
    if not echo:
        return Reply.text("ok")
    user_texts = [str(m.get("content")) for m in messages if m.get("role") == "user"]
    return Reply.text(f"echo: {user_texts[-1] if user_texts else ''}")


def _forced_or_first_tool(request: Json) -> Json | None:
    functions = [t["function"] for t in request.get("tools") or [] if t.get("type") == "function"]
    choice = request.get("tool_choice")
    if isinstance(choice, dict):
        forced = choice.get("function", {}).get("name")
        return next((f for f in functions if f["name"] == forced), None)
    return functions[0] if functions else None


class _HTTPServer(ThreadingHTTPServer):
    request_queue_size = 256  # the stdlib's 5 resets connections when a benchmark fans out


class FakeOpenAI:
    """The server: ``with FakeOpenAI() as server:`` or ``start()``/``stop()``. Thread-safe."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        latency_s: float = 0.0,
        responder: Responder | None = None,
        models: tuple[str, ...] = ("gpt-4o-mini",),
    ) -> None:
        self.latency_s = latency_s
        self.responder = responder
        self.models = models
        self._address = (host, port)
        self._lock = threading.Lock()
        self._script: deque[Reply | Responder] = deque()
        self._requests: list[RecordedRequest] = []
        self._rejected: list[Problem] = []
        self._connections: set[socket.socket] = set()
        self._stopping = threading.Event()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("FakeOpenAI is not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> Self:
        self._stopping.clear()
        self._httpd = _HTTPServer(self._address, _handler_for(self))
        # A short poll keeps stop() (once per test) fast.
        serve = functools.partial(self._httpd.serve_forever, poll_interval=0.02)
        self._thread = threading.Thread(target=serve, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop now: delayed answers are dropped and kept-alive connections closed."""
        if self._httpd is None or self._thread is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):  # the client closed it first
                connection.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=5)
        self._httpd = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def script(self, *replies: Reply | Responder) -> None:
        """Queue answers for the coming chat requests, in order; a callable answers one."""
        with self._lock:
            self._script.extend(replies)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._script)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[Json]:
        """The parsed bodies of the chat completion requests so far, oldest first."""
        return [r.json for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def rejected(self) -> list[Problem]:
        """The rule each refused chat request broke (answered 400, nothing scripted used)."""
        with self._lock:
            return list(self._rejected)

    def reset(self) -> None:
        with self._lock:
            self._script.clear()
            self._requests.clear()
            self._rejected.clear()

    def _reject(self, problems: list[Problem]) -> None:
        with self._lock:
            self._rejected.append(problems[0])

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_reply(self, request: Json) -> Reply:
        with self._lock:
            scripted = self._script.popleft() if self._script else self.responder
        if scripted is None:
            message = "fake_openai: nothing scripted for this request"
            return Reply.http_error(500, message, error_type="fake_openai_unscripted")
        return scripted if isinstance(scripted, Reply) else scripted(request)

    def _track(self, connection: socket.socket, *, is_open: bool) -> None:
        with self._lock:
            if is_open:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)


def _refusal(problem: Problem) -> HttpError:
    """The 400 OpenAI answers a request that breaks one of its rules with (``openai_rules``)."""
    error = {
        "message": problem.message,
        "type": "invalid_request_error",
        "param": problem.param,
        "code": problem.code,
    }
    return HttpError(400, {"error": error})


def _completion(request: Json, reply: Reply) -> Json:
    content, calls = reply.resolve(request)
    tool_calls = [
        {"id": f"call_{uuid.uuid4().hex[:24]}", "type": "function",
         "function": {"name": call.name, "arguments": call.arguments_text()}}
        for call in calls
    ]  # fmt: skip
    message: Json = {"role": "assistant", "content": content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = tool_calls
    finish_reason = reply.finish_reason or ("tool_calls" if calls else "stop")
    # Rough counts (4 characters a token), enough for usage accounting to see numbers.
    prompt_tokens = 1 + len(json.dumps(request.get("messages"))) // 4
    completion_tokens = 1 + len(json.dumps(message)) // 4
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", ""),
        "system_fingerprint": "fp_fake_openai",
        "choices": [
            {"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _chunks(completion: Json, *, include_usage: bool, size: int = 16) -> Iterator[Json]:
    """The completion cut into the ``chat.completion.chunk`` events OpenAI streams."""
    choice = completion["choices"][0]
    content = choice["message"]["content"] or ""
    deltas: list[Json] = [{"role": "assistant", "content": ""}]
    deltas += [{"content": content[i : i + size]} for i in range(0, len(content), size)]
    for index, call in enumerate(choice["message"].get("tool_calls", [])):
        name, arguments = call["function"]["name"], call["function"]["arguments"]
        head = {"index": index, "id": call["id"], "type": "function"}
        deltas.append({"tool_calls": [{**head, "function": {"name": name, "arguments": ""}}]})
        deltas += [
            {"tool_calls": [{"index": index, "function": {"arguments": arguments[i : i + size]}}]}
            for i in range(0, len(arguments), size)
        ]
    base = {key: completion[key] for key in ("id", "created", "model", "system_fingerprint")}
    base["object"] = "chat.completion.chunk"
    for delta in deltas:
        yield {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]}
    if include_usage:
        yield {**base, "choices": [], "usage": completion["usage"]}


def _json_object(body: bytes) -> Json | None:
    try:
        parsed = json.loads(body)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def _handler_for(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the SDK expects, for honest latencies
        # Headers and body go out in separate writes: without TCP_NODELAY the body waits
        # ~40 ms for the client's delayed ACK, which would pollute every latency measured.
        disable_nagle_algorithm = True

        def setup(self) -> None:
            super().setup()
            server._track(self.connection, is_open=True)

        def finish(self) -> None:
            server._track(self.connection, is_open=False)
            super().finish()

        def do_GET(self) -> None:
            self._record(None)
            if self.path.rstrip("/") != "/v1/models":
                self._send_error(openai_error(404, f"No route {self.path}"))
                return
            data = [{"id": m, "object": "model", "owned_by": "fake_openai"} for m in server.models]
            self._send_json(200, {"object": "list", "data": data})

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            request = _json_object(body)
            self._record(request)
            if self.path.removeprefix("/v1") != "/chat/completions":
                self._send_error(openai_error(404, f"No route {self.path}"))
            elif request is None:
                self._send_error(openai_error(400, "We could not parse the JSON body."))
            elif problems := request_problems(request):
                server._reject(problems)
                self._send_error(_refusal(problems[0]))
            else:
                reply = server._next_reply(request)
                if server._stopping.wait(server.latency_s + reply.delay_s):
                    self.close_connection = True
                elif reply.error is not None:
                    self._send_error(reply.error)
                else:
                    self._send_completion(request, _completion(request, reply))

        def _record(self, body: Json | None) -> None:
            headers = {name.lower(): value for name, value in self.headers.items()}
            server._record(RecordedRequest(self.command, self.path, headers, body))

        def _send_completion(self, request: Json, completion: Json) -> None:
            if not request.get("stream"):
                self._send_json(200, completion)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
            for chunk in _chunks(completion, include_usage=include_usage):
                self._write_chunk(f"data: {json.dumps(chunk)}\n\n".encode())
            self._write_chunk(b"data: [DONE]\n\n")
            self._write_chunk(b"")

        def _write_chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def _send_error(self, error: HttpError) -> None:
            self._send_json(error.status, error.body, error.headers)

        def _send_json(self, status: int, body: Json, headers: Mapping[str, str] = {}) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def handle_one_request(self) -> None:
            try:
                super().handle_one_request()
            except OSError:  # the client gave up first, as in a timeout test
                self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:
            logger.debug("fake_openai: " + format, *args)

    return Handler


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a fake OpenAI chat API until Ctrl-C.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--echo", action="store_true", help="text answers repeat the user")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    server = FakeOpenAI(
        host=args.host,
        port=args.port,
        latency_s=args.latency,
        responder=lambda request: default_responder(request, echo=args.echo),
    )
    with server, contextlib.suppress(KeyboardInterrupt):
        logger.info("fake OpenAI at %s, latency %.3f s", server.base_url, args.latency)
        threading.Event().wait()


if __name__ == "__main__":
    main()
