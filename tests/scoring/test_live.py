"""Spectators poll: an unchanged pulka costs one small query and no replay."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import engine
from tests.conftest import HTMX, make_evening, make_pulka, record
from tests.scoring.conftest import SIX_BY_BORIS

pytestmark = pytest.mark.django_db


def _live(client, pulka, version):
    return client.get(f"{pulka.get_absolute_url()}live/?v={version}", headers=HTMX)


@pytest.fixture
def no_replay(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the sheet was replayed")

    monkeypatch.setattr(engine, "compute_sheet", refuse)


def test_an_unchanged_pulka_answers_204_without_replaying(as_persona, pulka, no_replay):
    client = as_persona("player")
    client.get("/")  # the evening and the user are loaded once, like on any page

    with CaptureQueriesContext(connection) as queries:
        response = _live(client, pulka, pulka.version)

    assert response.status_code == 204
    assert response.content == b""
    # evening, user, club with the role, the pulka's version
    assert len(queries) <= 4


def test_a_new_deal_sends_the_new_sheet_and_log(as_persona, pulka):
    client = as_persona("player")
    old = pulka.version
    record(pulka, SIX_BY_BORIS)

    response = _live(client, pulka, old)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<section id="board"')
    assert f"live/?v={old + 1}" in html
    assert '<section id="log" class="card log" hx-swap-oob="true"' in html
    assert "Vera writes 8 whists on Boris" in html
    assert 'id="deal-form"' not in html


def test_the_page_polls_only_while_the_pulka_runs(as_persona, pulka):
    client = as_persona("player")

    assert 'hx-trigger="every 4s"' in client.get(pulka.get_absolute_url()).content.decode()
    client.logout()
    record(pulka, SIX_BY_BORIS)  # a pulka without deals cannot be finished
    as_persona("secretary").post(pulka.get_absolute_url() + "finish/")
    response = _live(as_persona("player"), pulka, 1)

    html = response.content.decode()
    assert response["HX-Retarget"] == "#pulka"
    assert "Ended early" in html
    assert 'hx-trigger="every 4s"' not in html


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_a_poll_for_a_pulka_one_may_not_see_is_404(as_persona, pulka, persona):
    response = _live(as_persona(persona), pulka, 0)

    assert response.status_code == 404


def test_a_poll_for_another_clubs_pulka_is_404(as_persona, club_b):
    other = make_pulka(make_evening(club_b), names=("Ira", "Oleh", "Taras"))

    response = as_persona("player").get(f"/c/sochi/p/{other.pk}/live/?v=1", headers=HTMX)

    assert response.status_code == 404


def test_anyone_may_watch_a_public_pulka(client, public_club):
    pulka = make_pulka(make_evening(public_club))

    assert _live(client, pulka, pulka.version).status_code == 204
    assert _live(client, pulka, 0).status_code == 200


def test_the_live_url_without_htmx_leads_to_the_page(as_persona, pulka):
    response = as_persona("player").get(f"{pulka.get_absolute_url()}live/?v=0")

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()


def test_the_session_page_polls_cheaply(as_persona, evening_a, no_replay):
    client = as_persona("player")
    url = f"/c/{evening_a.club.slug}/s/{evening_a.pk}/"

    response = client.get(url + "?v=0-0", headers=HTMX)

    assert response.status_code == 204


def test_the_session_page_sends_the_tables_when_something_changed(as_persona, evening_a):
    pulka = make_pulka(evening_a)
    client = as_persona("player")
    url = f"/c/{evening_a.club.slug}/s/{evening_a.pk}/"
    token = f"1-{pulka.version}"
    record(pulka, SIX_BY_BORIS)

    response = client.get(f"{url}?v={token}", headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="tables"' in html
    pulka.refresh_from_db()
    assert f"?v=1-{pulka.version}" in html
    assert "<html" not in html


def test_the_page_shows_the_drawn_pulka_inline(as_persona, pulka):
    record(pulka, SIX_BY_BORIS)

    html = as_persona("player").get(pulka.get_absolute_url()).content.decode()

    assert '<figure class="drawing" id="drawing">' in html
    assert 'data-player="Boris"' in html
    assert "drawing-slot" not in html


def test_after_an_entry_the_drawing_is_loaded_separately(as_persona, pulka):
    from tests.scoring.conftest import deal_post

    client = as_persona("secretary")
    html = client.post(
        pulka.get_absolute_url() + "deals/", deal_post(), headers=HTMX
    ).content.decode()

    assert 'class="drawing-slot"' in html
    assert 'hx-trigger="load"' in html
    drawing = client.get(pulka.get_absolute_url() + "drawing/?v=2", headers=HTMX).content.decode()
    assert '<figure class="drawing" id="drawing">' in drawing
    assert "<html" not in drawing


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_cannot_load_the_drawing(as_persona, pulka, persona):
    response = as_persona(persona).get(pulka.get_absolute_url() + "drawing/", headers=HTMX)

    assert response.status_code == 404


def test_the_drawing_url_without_htmx_leads_to_the_page(as_persona, pulka):
    response = as_persona("player").get(pulka.get_absolute_url() + "drawing/")

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()
