"""Importing another Pulka site's results file by its address: a live server's export read
over HTTP, private networks refused unless allowed, redirects re-checked and bounded, a
too-big answer and a silent server refused; and the round trip between two sites: site A
(the live server) exports a tournament played over 2 rounds, site B (a second Django process
with its own database) imports it by its address, and B's export of it is A's file."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from django.urls import reverse

from federation import results_file
from federation.models import ImportedResult, Officer, OfficerRole
from federation.results_file import ResultsFileError
from tests.conftest import make_club, make_user
from tests.federation.conftest import join, make_federation, played_cup

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def site_a(transactional_db, live_server, settings):
    """Site A: a federation whose public club played the cup, served by the live server."""
    settings.FEDERATION_IMPORT_ALLOW_PRIVATE = True
    federation = make_federation()
    club = make_club(name="Kyiv Club", slug="kyiv", city="Kyiv", is_public=True)
    join(federation, club)
    cup = played_cup(federation, club)
    address = live_server.url + reverse("federation:results-export", args=["kpf", cup.pk, "json"])
    return federation, cup, address


def test_an_officer_imports_another_sites_file_by_its_address(site_a, client):
    federation, cup, address = site_a
    other = make_federation(name="Lviv Federation", slug="lviv")
    judge = make_user(username="taras")
    Officer.objects.create(federation=other, user=judge, role=OfficerRole.JUDGE)
    client.force_login(judge)

    response = client.post(reverse("federation:results-import", args=["lviv"]), {"url": address})

    imported = ImportedResult.objects.get(federation=other)
    assert response["Location"] == reverse("federation:imported", args=["lviv", imported.pk])
    assert imported.source == address
    assert imported.document == results_file.build(cup, federation) | {
        "exported_at": imported.document["exported_at"]
    }
    assert len(imported.persons) == 7


# --- what an address may not do -----------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "http://127.0.0.1:8000/f/kpf/results/1.json",
        "http://localhost/f/kpf/results/1.json",
        "http://[::1]/x.json",
        "http://10.1.2.3/x.json",
        "https://192.168.0.1/x.json",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/x.json",
    ],
)
def test_private_and_local_addresses_are_refused_by_default(address):
    with pytest.raises(ResultsFileError, match="private or local network"):
        results_file.fetch(address)


@pytest.mark.parametrize("address", ["ftp://example.com/x.json", "file:///etc/passwd", "x.json"])
def test_only_http_and_https_are_read(address):
    with pytest.raises(ResultsFileError, match="starts with http:// or https://"):
        results_file.fetch(address)


@pytest.fixture
def public_dns(monkeypatch):
    """Names of *.example resolve to a public address, others as usual."""
    real = socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        if host.endswith(".example"):
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(results_file.socket, "getaddrinfo", resolve)


def answering(handler) -> httpx.MockTransport:
    return httpx.MockTransport(handler)


def test_a_redirect_to_a_private_address_is_refused(public_dns):
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "http://127.0.0.1/secret"})

    with pytest.raises(ResultsFileError, match="private or local network"):
        results_file.fetch("https://pulka.example/f/x/results/1.json", transport=answering(handler))


def test_redirects_are_bounded(public_dns):
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(301, headers={"Location": f"/hop/{len(seen)}"})

    with pytest.raises(ResultsFileError, match="too many times"):
        results_file.fetch("https://pulka.example/start", transport=answering(handler))

    assert len(seen) == results_file.REDIRECTS_MAX + 1


def test_an_answer_that_is_not_the_file_is_refused(public_dns):
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, text="gone")

    with pytest.raises(ResultsFileError, match="answered 404 instead of the file"):
        results_file.fetch("https://pulka.example/x.json", transport=answering(handler))


def test_a_too_big_answer_is_refused_by_its_length_or_as_it_streams(public_dns):
    big = b" " * (results_file.MAX_BYTES + 1)

    def declared(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Length": str(len(big))}, content=b"{}")

    def streamed(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=iter([big[:1_000_000], big[1_000_000:]]))

    for handler in (declared, streamed):
        with pytest.raises(ResultsFileError, match="at most 2 MB"):
            results_file.fetch("https://pulka.example/x.json", transport=answering(handler))


class _Big(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        chunk = b" " * 65536
        try:
            for _ in range(results_file.MAX_BYTES // len(chunk) + 2):
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


def test_a_real_server_sending_too_much_is_cut_off(settings):
    settings.FEDERATION_IMPORT_ALLOW_PRIVATE = True
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Big)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with pytest.raises(ResultsFileError, match="at most 2 MB"):
            results_file.fetch(f"http://127.0.0.1:{server.server_port}/big.json")
    finally:
        server.shutdown()
        server.server_close()


def test_a_server_that_never_answers_times_out(settings, monkeypatch):
    settings.FEDERATION_IMPORT_ALLOW_PRIVATE = True
    monkeypatch.setattr(results_file, "TIMEOUT_SECONDS", 0.5)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepted by the kernel, never answered
    try:
        with pytest.raises(ResultsFileError, match="took too long"):
            results_file.fetch(f"http://127.0.0.1:{silent.getsockname()[1]}/x.json")
    finally:
        silent.close()


# --- the round trip between two sites ------------------------------------------------------------

SITE_B = """
import json, sys
from django.contrib.auth import get_user_model
from django.test import Client
from federation.models import Federation, ImportedResult, Officer, Person

federation = Federation.objects.create(name="Site B Federation", slug="b")
judge = get_user_model().objects.create_user(username="judge-b", password="x")
Officer.objects.create(federation=federation, user=judge, role="judge")
client = Client(HTTP_HOST="localhost")
client.force_login(judge)
answer = client.post("/f/b/results/import/", {"url": sys.argv[1]})
imported = ImportedResult.objects.get(federation=federation)
exported = client.get(f"/f/b/imported/{imported.pk}.json")
print(json.dumps({
    "status": answer.status_code,
    "location": answer.get("Location", ""),
    "persons": Person.objects.filter(federation=federation).count(),
    "matched": len(imported.persons),
    "file": json.loads(exported.content),
}))
"""


def test_the_file_round_trips_between_two_sites(site_a, tmp_path):
    federation, cup, address = site_a
    a_file = json.loads(httpx.get(address, timeout=10).content)
    environment = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site-b.sqlite3'}",
        "SITE_DOMAIN": "b.example",
        "FEDERATION_IMPORT_ALLOW_PRIVATE": "true",
        "TASKS_BACKEND": "immediate",
    }
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=environment, check=True, cwd=ROOT, timeout=300)

    ran = subprocess.run(
        [*manage, "shell", "-c", f"import sys; sys.argv = ['b', {address!r}]\n{SITE_B}"],
        env=environment,
        check=True,
        cwd=ROOT,
        timeout=300,
        capture_output=True,
        text=True,
    )
    b = json.loads(ran.stdout.strip().splitlines()[-1])

    assert b["status"] == 302
    assert b["location"].startswith("/f/b/imported/")
    assert b["persons"] == b["matched"] == 7  # B knew nobody: every person is new there
    assert a_file["site"] == results_file.this_site()
    assert len(a_file["rounds"]) == 2
    assert {**b["file"], "exported_at": None, "site": None} == {
        **a_file,
        "exported_at": None,
        "site": None,
    }
