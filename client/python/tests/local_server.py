"""A real HTTP server on 127.0.0.1 for the unit tests: it answers a script of responses, in order,
and records every request it received."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class Answer:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (a slow server, for timeouts)."""


@dataclass
class Received:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: Message
    """Case-insensitive, as HTTP header names are."""
    body: bytes


def success(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Answer:
    return Answer(status, {"status": "success", "data": data}, headers or {})


def failure(status: int, code: str, message: str = "refused", request_id: str = "req_test", **extra: Any) -> Answer:
    error = {"code": code, "message": message, "request_id": request_id, **extra}
    return Answer(status, {"status": "error", "error": error}, {"X-Request-Id": request_id})


class LocalServer:
    """Use as a context manager; ``url`` is its base URL (``http://127.0.0.1:<port>/v1``)."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.received: list[Received] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                with server._lock:
                    server.received.append(
                        Received(self.command, parts.path, parse_qs(parts.query), self.headers, body)
                    )
                    answer = server.answers.pop(0) if server.answers else Answer(500, {"unexpected": self.path})
                if answer.delay:
                    time.sleep(answer.delay)
                payload = answer.body if isinstance(answer.body, bytes) else json.dumps(answer.body).encode()
                try:
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    if "Content-Type" not in answer.headers:
                        self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            do_GET = do_POST = do_PUT = do_DELETE = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def __enter__(self) -> LocalServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens: connections are refused."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
