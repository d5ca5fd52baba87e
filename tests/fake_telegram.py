"""A fake Telegram Bot API on 127.0.0.1 for the tests and the bench: nothing leaves the machine.

`FakeTelegram()` starts an http.server on a free port in a thread; point
settings.TELEGRAM_API_URL at `fake.url`. It answers POST /bot<token>/<method> like the Bot
API ({"ok": true, "result": ...}), records every call (`calls`, `messages`), and fails on
demand: `fail_next(3, status=502)` answers the next three calls with that status (429 and
5xx are worth retrying, 403 is a bot the user blocked).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Call:
    token: str
    method: str
    payload: dict[str, Any]


class FakeTelegram:
    def __init__(self) -> None:
        self.calls: list[Call] = []  # the calls answered ok
        self.refused = 0  # the calls answered with a failure asked for
        self._failures: list[int] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                parts = self.path.strip("/").split("/")
                if len(parts) != 2 or not parts[0].startswith("bot"):
                    self._answer(404, {"ok": False, "description": "Not Found"})
                    return
                try:
                    payload = json.loads(body or b"{}")
                except ValueError:
                    self._answer(400, {"ok": False, "description": "Bad Request: no JSON"})
                    return
                status = fake._record(Call(parts[0][3:], parts[1], payload))
                if status != 200:
                    self._answer(status, {"ok": False, "error_code": status, "description": "fake"})
                    return
                self._answer(200, {"ok": True, "result": {"message_id": len(fake.calls)}})

            def _answer(self, status: int, data: dict) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass  # quiet

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def _record(self, call: Call) -> int:
        """Keep the call; the status to answer it with (a failure asked for, or 200)."""
        with self._lock:
            if self._failures:
                self.refused += 1
                return self._failures.pop(0)
            self.calls.append(call)
            return 200

    def fail_next(self, count: int, *, status: int = 502) -> None:
        with self._lock:
            self._failures.extend([status] * count)

    def messages(self) -> list[dict[str, Any]]:
        """The sendMessage payloads that were answered ok, in order."""
        with self._lock:
            return [call.payload for call in self.calls if call.method == "sendMessage"]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeTelegram:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BOT_TOKEN = "123456:fake-token"
BOT_USERNAME = "pulka_test_bot"
WEBHOOK_SECRET = "fake-secret_0123456789"


@contextlib.contextmanager
def bot_site(settings) -> Iterator[FakeTelegram]:
    """A site with a bot whose Bot API is a fake server (pytest-django's `settings`)."""
    with FakeTelegram() as fake:
        settings.TELEGRAM_BOT_TOKEN = BOT_TOKEN
        settings.TELEGRAM_BOT_USERNAME = BOT_USERNAME
        settings.TELEGRAM_WEBHOOK_SECRET = WEBHOOK_SECRET
        settings.TELEGRAM_API_URL = fake.url
        yield fake
