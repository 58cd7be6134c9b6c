"""A scripted stand-in for the Anthropic Messages API, served on 127.0.0.1 for the real Claude Code CLI.

The CLI is pointed at it with ANTHROPIC_BASE_URL. Each request is answered from a *script*, chosen by a marker
found in the conversation's first user message (the main agent's prompt, or the prompt the parent gave a
sub-agent). A script is a list of turns; turn *n* answers the request that already holds *n* assistant
messages (a fork, which inherits its parent's conversation, is scripted by a marker in its directive, and its
turns are counted from there). A turn is a list of content blocks, or a function of the request returning one, so it can use what
the CLI sent (the sub-agent's working directory from its system prompt, an earlier tool result). Requests with
no known marker (titles, topic checks and other side requests) get a short text answer. Every request is
recorded, so a test can read the exact tool_result the CLI sent back to the model.

Streaming replies follow the SSE event order of the Messages API (research/hook-protocols.md §7).
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Block = dict[str, Any]
Turn = list[Block] | Callable[["Request"], list[Block]]

_ids = itertools.count(1)
FORK_MARK = "<fork-boilerplate>"


def text(value: str) -> Block:
    """A text content block."""
    return {"type": "text", "text": value}


def tool_use(name: str, tool_input: dict[str, Any], *, id: str | None = None) -> Block:
    """A tool_use content block with a fresh id (or the given one)."""
    return {"type": "tool_use", "id": id or f"toolu_e2e_{next(_ids):06d}", "name": name, "input": tool_input}


def _text_of(content: Any) -> str:
    """The text of a message's content, whether a string or a list of blocks."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if isinstance(block, dict):
            if block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif block.get("type") == "tool_result":
                parts.append(_text_of(block.get("content")))
    return "\n".join(parts)


@dataclass
class Request:
    """One /v1/messages request as the CLI sent it."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def system(self) -> str:
        return _text_of(self.body.get("system"))

    @property
    def fork_at(self) -> int | None:
        """Where a fork's own conversation starts: the message that holds Claude Code's `<fork-boilerplate>`
        (2.1.332; a fork inherits its parent's messages and gets its directive after them)."""
        for index, message in enumerate(self.messages):
            if message.get("role") == "user" and FORK_MARK in _text_of(message.get("content")):
                return index
        return None

    @property
    def first_user_text(self) -> str:
        """The text that picks the script: the first user message, or a fork's directive message."""
        start = self.fork_at
        if start is not None:
            return _text_of(self.messages[start].get("content")).split(FORK_MARK, 1)[1]
        for message in self.messages:
            if message.get("role") == "user":
                return _text_of(message.get("content"))
        return ""

    @property
    def last_user_text(self) -> str:
        """The text of the last user message (a tool result, or feedback such as a blocked stop's reason)."""
        for message in reversed(self.messages):
            if message.get("role") == "user":
                return _text_of(message.get("content"))
        return ""

    @property
    def assistant_turns(self) -> int:
        """Assistant messages so far (in a fork: since its directive)."""
        start = self.fork_at or 0
        return sum(1 for m in self.messages[start:] if m.get("role") == "assistant")

    @property
    def tool_names(self) -> list[str]:
        return [t.get("name", "") for t in self.body.get("tools") or []]

    def tool_results(self) -> list[Block]:
        """The tool_result blocks of the last user message that holds any (not always the last message)."""
        for message in reversed(self.messages):
            if message.get("role") != "user" or isinstance(message.get("content"), str):
                continue
            results = [b for b in message.get("content") or [] if isinstance(b, dict) and b.get("type") == "tool_result"]
            if results:
                return results
        return []

    def last_result_text(self) -> str:
        results = self.tool_results()
        return _text_of(results[-1].get("content")) if results else ""

    @property
    def working_directory(self) -> str | None:
        """The agent's directory as the CLI tells the model: `Primary working directory: …` (2.1.332, in a
        `system`-role message) or `Working directory: …` (2.1.197, in the system prompt)."""
        texts = [self.system] + [_text_of(m.get("content")) for m in self.messages if m.get("role") != "assistant"]
        for chunk in texts:
            match = re.search(r"(?:Primary w|W)orking directory:\s*(\S+)", chunk)
            if match:
                return match.group(1)
        return None


@dataclass
class FakeAnthropic:
    """The fake API: `scripts` maps a marker to its turns. Use as a context manager; `base_url` goes to the CLI."""

    scripts: dict[str, list[Turn]] = field(default_factory=dict)
    model: str = "claude-sonnet-4-5"
    requests: list[Request] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle -------------------------------------------------------------------------------------

    def __enter__(self) -> FakeAnthropic:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        fake = self

        class Handler(_Handler):
            owner = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-anthropic", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start() the fake API first"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # --- answering -------------------------------------------------------------------------------------

    def script_for(self, request: Request) -> tuple[str, list[Turn]] | None:
        """The (marker, turns) whose marker appears in the first user message; the longest marker wins."""
        first = request.first_user_text
        found = [(m, t) for m, t in self.scripts.items() if m in first]
        return max(found, key=lambda mt: len(mt[0])) if found else None

    def answer(self, request: Request) -> list[Block]:
        """The content blocks for one request. A script that runs out of turns ends with a short text."""
        with self._lock:
            self.requests.append(request)
        chosen = self.script_for(request)
        if chosen is None:
            return [text("ok")]
        marker, turns = chosen
        index = request.assistant_turns
        if index >= len(turns):
            return [text(f"[{marker}] done")]
        turn = turns[index]
        try:
            return turn(request) if callable(turn) else turn
        except Exception as e:  # noqa: BLE001 — a broken script is reported to the test, and the model says so
            self.errors.append(f"{marker} turn {index}: {type(e).__name__}: {e}")
            return [text(f"[{marker}] script error: {e}")]

    # --- what the CLI sent back ------------------------------------------------------------------------

    def scripted(self, marker: str) -> list[Request]:
        """The requests answered from the script of `marker`, in arrival order."""
        with self._lock:
            requests = list(self.requests)
        return [r for r in requests if (c := self.script_for(r)) is not None and c[0] == marker]

    def tool_result(self, tool_use_id: str) -> Block | None:
        """The tool_result block the CLI sent for `tool_use_id`, or None if it never did."""
        with self._lock:
            requests = list(self.requests)
        for request in requests:
            for message in request.messages:
                content = message.get("content")
                if message.get("role") != "user" or not isinstance(content, list):
                    continue
                for block in content:
                    if isinstance(block, dict) and block.get("type") == "tool_result" and block.get("tool_use_id") == tool_use_id:
                        return block
        return None

    def tool_result_text(self, tool_use_id: str) -> str:
        block = self.tool_result(tool_use_id)
        return _text_of(block.get("content")) if block else ""


def sse_events(message_id: str, model: str, blocks: list[Block]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE events of one streamed assistant message, in the API's order."""
    yield "message_start", {
        "type": "message_start",
        "message": {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
            partial = json.dumps(block["input"])
            for chunk in ("", partial[: len(partial) // 2], partial[len(partial) // 2 :]):
                delta = {"type": "input_json_delta", "partial_json": chunk}
                yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        else:
            yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
            delta = {"type": "text_delta", "text": block["text"]}
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    yield "message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 20}}
    yield "message_stop", {"type": "message_stop"}


class _Handler(BaseHTTPRequestHandler):
    owner: FakeAnthropic
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 — silence the per-request log
        pass

    def _send_json(self, status: int, obj: dict[str, Any]) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?", 1)[0]
        if path.endswith("/count_tokens"):
            self._send_json(200, {"input_tokens": 100})
            return
        if not path.endswith("/v1/messages"):
            self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})
            return
        request = Request(path=self.path, body=body, headers={k.lower(): v for k, v in self.headers.items()})
        blocks = self.owner.answer(request)
        message_id = f"msg_e2e_{next(_ids):06d}"
        model = str(body.get("model") or self.owner.model)
        if not body.get("stream"):
            stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
            message = {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": blocks,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 20},
            }
            self._send_json(200, message)
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        for event, data in sse_events(message_id, model, blocks):
            self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()
        self.close_connection = True
