"""deploy/nginx.conf, rendered as bench/nginx.py renders it and run by Debian's nginx in front
of a stand-in app server: what it keeps, for whom, and what it always asks the app for."""

from __future__ import annotations

import gzip
import http.client
import shutil
import socket
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench.nginx import PLACEHOLDER, TEMPLATE, Proxy, render
from tests.conftest import missing_service

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
PAGE = b"<section id='board'>" + b"a board " * 100 + b"</section>"


def values() -> dict[str, str]:
    return {name: f"<{name}>" for name in set(PLACEHOLDER.findall(TEMPLATE.read_text()))}


def test_the_template_is_rendered_whole_and_refuses_a_missing_or_unknown_value():
    text = render(values())
    assert "{{" not in text
    assert "<app_server_2>" in text
    assert "proxy_cache_lock on;" in text
    partial = values()
    del partial["static_root"]
    with pytest.raises(ValueError, match="static_root"):
        render(partial)
    with pytest.raises(ValueError, match="colour"):
        render({**values(), "colour": "red"})


class App(BaseHTTPRequestHandler):
    """The app's answers, by path: each says how a cache may keep it."""

    protocol_version = "HTTP/1.1"
    seen: Counter = Counter()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        App.seen[path] += 1
        language = self.headers.get("Accept-Language", "")
        cookie = self.headers.get("Cookie", "")
        body = PAGE + f"<p>{path} {App.seen[path]} {language} {cookie}</p>".encode()
        headers = {"Vary": "Cookie, Accept-Language, HX-Request"}
        if path == "/public/":
            headers["Cache-Control"] = "public, max-age=60"
            headers["ETag"] = '"v7"'
        elif path == "/private/":
            headers["Cache-Control"] = "private, no-cache"
        elif path == "/cookie/":
            headers["Cache-Control"] = "public, max-age=60"
            headers["Set-Cookie"] = "csrftoken=new; Path=/"
        if "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    if NGINX is None or shutil.which("openssl") is None:
        missing_service("nginx is not installed (apt-get install nginx-light)")
    root = tmp_path_factory.mktemp("nginx")
    static = root / "static"
    (static / "css").mkdir(parents=True)
    (static / "css" / "site.0123456789ab.css").write_text("body { color: black; }\n" * 100)
    (static / "css" / "site.0123456789ab.css.gz").write_bytes(
        gzip.compress(b"body { color: black; }\n" * 100)
    )
    app = ThreadingHTTPServer(("127.0.0.1", 0), App)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    upstream = f"127.0.0.1:{app.server_address[1]}"
    nginx = Proxy(root / "run", free_port(), free_port(), [upstream, upstream], static)
    nginx.start()
    yield nginx
    nginx.stop()
    app.shutdown()


def get(proxy: Proxy, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_a_public_answer_is_served_to_every_visitor_of_its_language_from_one_app_request(proxy):
    App.seen.clear()
    first = get(proxy, "/public/?v=1", Cookie="csrftoken=a", **{"Accept-Language": "uk"})
    second = get(proxy, "/public/?v=1", Cookie="csrftoken=b", **{"Accept-Language": "uk-UA,uk"})
    assert first[1]["x-cache-status"] == "MISS"
    assert second[1]["x-cache-status"] == "HIT"
    assert second[2] == first[2]
    assert b"csrftoken=a" in second[2]
    assert App.seen["/public/"] == 1
    # Another language, another htmx request kind: their own entries.
    russian = get(proxy, "/public/?v=1", **{"Accept-Language": "de-DE,ru;q=0.8,uk;q=0.5"})
    assert russian[1]["x-cache-status"] == "MISS"
    assert b"de-DE,ru" in russian[2]
    again = get(proxy, "/public/?v=1", **{"Accept-Language": "ru-RU", "Cookie": "a=b"})
    assert again[1]["x-cache-status"] == "HIT"
    fragment = get(proxy, "/public/?v=1", **{"Accept-Language": "uk", "HX-Request": "true"})
    assert fragment[1]["x-cache-status"] == "MISS"
    assert App.seen["/public/"] == 3


def test_a_conditional_get_is_answered_304_by_the_proxy(proxy):
    get(proxy, "/public/?v=2")
    asked = App.seen["/public/"]
    status, headers, body = get(proxy, "/public/?v=2", **{"If-None-Match": '"v7"'})
    assert status == 304
    assert body == b""
    assert headers["etag"] == '"v7"'
    assert App.seen["/public/"] == asked


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        ("/private/", {}),
        ("/cookie/", {}),
        ("/plain/", {}),
        ("/public/?v=3", {"Cookie": "csrftoken=a; sessionid=signed-in"}),
    ],
    ids=["private", "set-cookie", "no-cache-headers", "session"],
)
def test_what_is_private_or_personal_always_reaches_the_app(proxy, path, headers):
    before = App.seen[path.split("?")[0]]
    answers = [get(proxy, path, **headers) for _ in range(3)]
    assert App.seen[path.split("?")[0]] == before + 3
    assert all(a[1]["x-cache-status"] in {"MISS", "BYPASS"} for a in answers)


def test_the_app_s_gzip_is_passed_through_and_unpacked_for_a_client_without_it(proxy):
    _, packed_headers, packed = get(proxy, "/plain/", **{"Accept-Encoding": "gzip"})
    assert packed_headers["content-encoding"] == "gzip"
    assert PAGE in gzip.decompress(packed)
    _, plain_headers, plain = get(proxy, "/plain/")
    assert "content-encoding" not in plain_headers
    assert plain.startswith(PAGE)


def test_static_files_come_from_static_root_precompressed_and_immutable(proxy):
    status, headers, body = get(
        proxy, "/static/css/site.0123456789ab.css", **{"Accept-Encoding": "gzip"}
    )
    assert status == 200
    assert headers["content-encoding"] == "gzip"
    assert b"color: black" in gzip.decompress(body)
    assert "immutable" in headers["cache-control"]
    missing = get(proxy, "/static/css/none.css")
    assert missing[0] == 404
    assert App.seen["/static/css/none.css"] == 0
