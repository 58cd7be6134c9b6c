"""Scripted stand-ins for the model APIs the other clients speak, served on 127.0.0.1 (like fake_anthropic.py).

- `FakeResponses`: OpenAI's Responses API (`POST …/responses`, SSE) — Codex and Copilot;
- `FakeGemini`: the Gemini API (`:streamGenerateContent?alt=sse`, and `:generateContent` for the router);
- `FakeChat`: OpenAI's Chat Completions API (`POST …/chat/completions`, SSE) — Cline.

A conversation is answered from the script whose marker appears in one of its user messages (the longest
marker wins: a sub-agent's prompt names its own). Turn *n* answers the request that already holds *n* model
turns; a turn is one `call(name, args)`, a `say(text)`, or a function of the request returning one. A
conversation with no marker, or past its script, gets a short text. Every request is recorded, so a test reads
the exact tool output the client sent back to the model (`output_for(call_id)`).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_ids = itertools.count(1)


@dataclass(frozen=True)
class Call:
    """The model calls a tool. `args` is a dict (function tools) or a string (a custom tool's raw input)."""

    name: str
    args: dict[str, Any] | str
    id: str = field(default_factory=lambda: f"call_e2e_{next(_ids):06d}")
    namespace: str | None = None


@dataclass(frozen=True)
class Say:
    text: str


Turn = Call | Say | Callable[["Conversation"], Call | Say]


def call(name: str, args: dict[str, Any] | str, *, id: str | None = None, namespace: str | None = None) -> Call:
    return Call(name, args, id or f"call_e2e_{next(_ids):06d}", namespace)


def say(text: str) -> Say:
    return Say(text)


@dataclass
class Conversation:
    """One request, read the same way whatever the API: its user texts, model turns, and tool outputs by call id."""

    path: str
    body: dict[str, Any]
    user_texts: list[str]
    model_turns: int
    outputs: dict[str, str]


class ScriptedModel:
    """The scripted server. Subclasses read their API's request (`conversation`) and write its reply (`reply`)."""

    def __init__(self) -> None:
        self.scripts: dict[str, list[Turn]] = {}
        self.requests: list[Conversation] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # --- lifecycle -------------------------------------------------------------------------------------

    def __enter__(self) -> ScriptedModel:
        owner = self

        class Handler(_Handler):
            model = owner

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def url(self) -> str:
        assert self._server is not None, "enter the fake first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # --- scripting -------------------------------------------------------------------------------------

    def script(self, marker: str, *turns: Turn) -> str:
        self.scripts[marker] = list(turns)
        return marker

    def marker_of(self, conversation: Conversation) -> str | None:
        found = [m for m in self.scripts if any(m in t for t in conversation.user_texts)]
        return max(found, key=len) if found else None

    def next_turn(self, conversation: Conversation) -> Call | Say:
        with self._lock:
            self.requests.append(conversation)
        marker = self.marker_of(conversation)
        if marker is None:
            return Say("ok")
        turns = self.scripts[marker]
        if conversation.model_turns >= len(turns):
            return Say(f"[{marker}] done")
        turn = turns[conversation.model_turns]
        try:
            return turn(conversation) if callable(turn) else turn
        except Exception as e:  # noqa: BLE001 — a broken script is reported to the test
            self.errors.append(f"{marker} turn {conversation.model_turns}: {type(e).__name__}: {e}")
            return Say(f"[{marker}] script error: {e}")

    def scripted(self, marker: str) -> list[Conversation]:
        with self._lock:
            requests = list(self.requests)
        return [r for r in requests if self.marker_of(r) == marker]

    def output_for(self, call_id: str) -> str | None:
        """The tool output the client sent back for `call_id`, or None if it never did."""
        with self._lock:
            requests = list(self.requests)
        for request in requests:
            if call_id in request.outputs:
                return request.outputs[call_id]
        return None

    # --- the API (subclasses) --------------------------------------------------------------------------

    def conversation(self, path: str, body: dict[str, Any]) -> Conversation | None:
        raise NotImplementedError

    def reply(self, path: str, body: dict[str, Any], turn: Call | Say) -> tuple[str, Any]:
        """("json", object) or ("sse", iterator of data objects or (event, data) pairs)."""
        raise NotImplementedError

    def other(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        return 404, {"error": {"message": f"no such endpoint {path}"}}


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value)
    if isinstance(value, dict):
        for key in ("text", "content", "output"):
            if key in value:
                return _text(value[key])
    return ""


class FakeResponses(ScriptedModel):
    """OpenAI Responses API, as Codex (`wire_api = "responses"`) and Copilot (BYOK, responses) call it."""

    def conversation(self, path: str, body: dict[str, Any]) -> Conversation | None:
        if not path.endswith("/responses"):
            return None
        items = body.get("input") or []
        if isinstance(items, str):
            items = [{"type": "message", "role": "user", "content": items}]
        users = [_text(i.get("content")) for i in items if isinstance(i, dict) and i.get("role") == "user"]
        turns = sum(
            1 for i in items
            if isinstance(i, dict) and (i.get("type") in ("function_call", "custom_tool_call") or (i.get("type", "message") == "message" and i.get("role") == "assistant"))
        )
        outputs = {
            str(i.get("call_id")): _text(i.get("output"))
            for i in items
            if isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output")
        }
        return Conversation(path, body, users, turns, outputs)

    def reply(self, path: str, body: dict[str, Any], turn: Call | Say) -> tuple[str, Any]:
        response_id = f"resp_e2e_{next(_ids):06d}"
        item_id = f"item_e2e_{next(_ids):06d}"
        if isinstance(turn, Say):
            item: dict[str, Any] = {
                "type": "message", "id": item_id, "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        elif isinstance(turn.args, str):
            item = {"type": "custom_tool_call", "id": item_id, "call_id": turn.id, "name": turn.name, "input": turn.args, "status": "completed"}
        else:
            item = {"type": "function_call", "id": item_id, "call_id": turn.id, "name": turn.name, "arguments": json.dumps(turn.args), "status": "completed"}
            if turn.namespace:
                item["namespace"] = turn.namespace
        model = str(body.get("model") or "fake")
        base = {"id": response_id, "object": "response", "created_at": 1796144000, "model": model}
        usage = {
            "input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15,
        }

        def events() -> Iterator[tuple[str, dict[str, Any]]]:
            yield "response.created", {"type": "response.created", "response": {**base, "status": "in_progress", "output": []}}
            yield "response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": {**item, "status": "in_progress"}}
            if item["type"] == "message":
                delta = {"type": "response.output_text.delta", "item_id": item_id, "output_index": 0, "content_index": 0, "delta": turn.text}  # type: ignore[union-attr]
                yield "response.output_text.delta", delta
            yield "response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}
            yield "response.completed", {"type": "response.completed", "response": {**base, "status": "completed", "output": [item], "usage": usage}}

        return "sse", events()

    def other(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if path.endswith("/models"):
            return 200, {"object": "list", "data": [{"id": "gpt-5.5", "object": "model"}, {"id": "claude-sonnet-4.5", "object": "model"}]}
        return super().other(path, body)


class FakeGemini(ScriptedModel):
    """The Gemini API as Gemini CLI calls it with an API key (GOOGLE_GEMINI_BASE_URL)."""

    ROUTER = {"complexity_reasoning": "a scripted test", "complexity_score": 10}

    def conversation(self, path: str, body: dict[str, Any]) -> Conversation | None:
        if ":streamGenerateContent" not in path:
            return None
        contents = body.get("contents") or []
        users, outputs, turns = [], {}, 0
        for content in contents:
            parts = content.get("parts") or [] if isinstance(content, dict) else []
            if content.get("role") == "model":
                turns += 1
                continue
            for part in parts:
                if isinstance(part, dict) and "text" in part:
                    users.append(str(part["text"]))
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if isinstance(response, dict):
                    outputs[str(response.get("id") or response.get("name"))] = json.dumps(response.get("response"))
        return Conversation(path, body, users, turns, outputs)

    def reply(self, path: str, body: dict[str, Any], turn: Call | Say) -> tuple[str, Any]:
        if isinstance(turn, Say):
            part: dict[str, Any] = {"text": turn.text}
        else:
            part = {"functionCall": {"name": turn.name, "args": turn.args, "id": turn.id}}
        chunk = {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": "fake",
        }
        return "sse", iter([chunk])

    def other(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if ":generateContent" in path:  # the router's classifier (JSON mode) and other side requests
            text = json.dumps(self.ROUTER)
            candidate = {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}
            return 200, {"candidates": [candidate], "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2}}
        if ":countTokens" in path:
            return 200, {"totalTokens": 10}
        return super().other(path, body)


class FakeChat(ScriptedModel):
    """OpenAI's Chat Completions API, as Cline's `openai-compatible` provider calls it."""

    def conversation(self, path: str, body: dict[str, Any]) -> Conversation | None:
        if not path.endswith("/chat/completions"):
            return None
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        users = [_text(m.get("content")) for m in messages if m.get("role") == "user"]
        turns = sum(1 for m in messages if m.get("role") == "assistant")
        outputs = {str(m.get("tool_call_id")): _text(m.get("content")) for m in messages if m.get("role") == "tool"}
        return Conversation(path, body, users, turns, outputs)

    def reply(self, path: str, body: dict[str, Any], turn: Call | Say) -> tuple[str, Any]:
        base = {"id": f"chatcmpl-e2e{next(_ids):06d}", "object": "chat.completion.chunk", "created": 1796144000, "model": str(body.get("model") or "fake")}
        if isinstance(turn, Say):
            delta: dict[str, Any] = {"role": "assistant", "content": turn.text}
            finish = "stop"
        else:
            arguments = turn.args if isinstance(turn.args, str) else json.dumps(turn.args)
            delta = {"role": "assistant", "content": None, "tool_calls": [{"index": 0, "id": turn.id, "type": "function", "function": {"name": turn.name, "arguments": arguments}}]}
            finish = "tool_calls"
        chunks = [
            {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}},
        ]
        return "sse", iter([*chunks, "[DONE]"])

    def other(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        if path.endswith("/models"):
            return 200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]}
        return super().other(path, body)


class _Handler(BaseHTTPRequestHandler):
    model: ScriptedModel
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def _json(self, status: int, obj: Any) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        status, obj = self.model.other(self.path.split("?", 1)[0], {})
        self._json(status, obj)

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path
        conversation = self.model.conversation(path, body) if isinstance(body, dict) else None
        if conversation is None:
            status, obj = self.model.other(path, body if isinstance(body, dict) else {})
            self._json(status, obj)
            return
        kind, payload = self.model.reply(path, body, self.model.next_turn(conversation))
        if kind == "json":
            self._json(200, payload)
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        for event in payload:
            if isinstance(event, tuple):
                name, data = event
                self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            else:
                data = event if isinstance(event, str) else json.dumps(event)
                self.wfile.write(f"data: {data}\n\n".encode())
        self.wfile.flush()
        self.close_connection = True
