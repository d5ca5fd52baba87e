"""Spectators poll: an unchanged pulka costs one small query and no replay."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import engine, live, selectors
from tests.club.factories import assert_not_found
from tests.conftest import HTMX, make_evening, make_pulka, make_user, record
from tests.scoring.factories import SIX_BY_BORIS, assert_unchanged

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
    assert "Vera writes whists on Boris: 8" in html
    assert 'id="deal-form"' not in html


def test_the_page_polls_only_while_the_pulka_runs(as_persona, pulka):
    client = as_persona("player")

    assert 'hx-trigger="every 3s"' in client.get(pulka.get_absolute_url()).content.decode()
    client.logout()
    record(pulka, SIX_BY_BORIS)  # a pulka without deals cannot be finished
    as_persona("secretary").post(pulka.get_absolute_url() + "finish/")
    response = _live(as_persona("player"), pulka, 1)

    html = response.content.decode()
    assert response["HX-Retarget"] == "#pulka"
    assert "Ended early" in html
    assert 'hx-trigger="every 3s"' not in html


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_a_poll_for_a_pulka_one_may_not_see_is_404(as_persona, pulka, persona):
    response = _live(as_persona(persona), pulka, 0)

    assert_not_found(response, "Anna", "Boris", "Vera")


def test_a_poll_for_another_clubs_pulka_is_404(as_persona, club_b):
    other = make_pulka(make_evening(club_b), names=("Ira", "Oleh", "Taras"))

    response = as_persona("player").get(f"/c/sochi/p/{other.pk}/live/?v=1", headers=HTMX)

    assert_not_found(response, "Ira", "Oleh", "Taras")


def test_anyone_may_watch_a_public_pulka(client, public_club):
    pulka = make_pulka(make_evening(public_club))

    assert_unchanged(_live(client, pulka, pulka.version))
    changed = _live(client, pulka, 0)
    assert changed.status_code == 200
    assert all(name in changed.content.decode() for name in ("Anna", "Boris", "Vera"))


def test_the_live_url_without_htmx_leads_to_the_page(as_persona, pulka):
    response = as_persona("player").get(f"{pulka.get_absolute_url()}live/?v=0")

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()


def test_the_session_page_polls_cheaply(as_persona, evening_a, no_replay):
    client = as_persona("player")
    url = f"/c/{evening_a.club.slug}/s/{evening_a.pk}/"

    response = client.get(url + "?v=0-0", headers=HTMX)

    assert_unchanged(response)


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
    from tests.scoring.factories import deal_post

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

    assert_not_found(response, "<svg", "Anna")


def test_the_drawing_url_without_htmx_leads_to_the_page(as_persona, pulka):
    response = as_persona("player").get(pulka.get_absolute_url() + "drawing/")

    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()


# Cheap polls: the query budget and the cache (scoring.live)


def _polls(client, pulka):
    """The three polls a spectator's pages make, each with the token it holds now."""
    evening, club = pulka.evening, pulka.evening.club
    return {
        "pulka": lambda token: _live(client, pulka, token),
        "evening": lambda token: client.get(
            f"{evening.get_absolute_url()}?v={token}", headers=HTMX
        ),
        "club": lambda token: client.get(f"/c/{club.slug}/running/?v={token}", headers=HTMX),
    }


def _tokens(pulka):
    pulka.refresh_from_db()
    return {
        "pulka": str(pulka.version),
        "evening": selectors.evening_live_token(pulka.evening),
        "club": selectors.club_live_token(pulka.evening.club),
    }


@pytest.fixture
def watched(public_club, client):
    """A public club's running table, and a logged-in spectator who is no member."""
    pulka = make_pulka(make_evening(public_club))
    client.force_login(make_user())
    return client, pulka


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
@pytest.mark.parametrize("shared", [False, True])
def test_an_unchanged_poll_of_a_public_club_costs_at_most_two_queries(
    watched, page, shared, settings, django_assert_max_num_queries, no_replay
):
    settings.CACHE_SHARED = shared
    client, pulka = watched
    poll, token = _polls(client, pulka)[page], _tokens(pulka)[page]
    poll(token)  # the first poll of this process stores what it read

    with django_assert_max_num_queries(2):
        response = poll(token)

    assert response.status_code == 204


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_with_a_shared_cache_an_unchanged_public_poll_reads_no_table(
    watched, page, settings, django_assert_num_queries
):
    settings.CACHE_SHARED = True
    client, pulka = watched
    poll, token = _polls(client, pulka)[page], _tokens(pulka)[page]
    poll(token)

    with django_assert_num_queries(0):
        response = poll(token)

    assert response.status_code == 204


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
@pytest.mark.parametrize("shared", [False, True])
def test_an_unchanged_poll_of_a_private_club_costs_the_session_the_user_and_one_query(
    as_persona, pulka, page, shared, settings, django_assert_max_num_queries
):
    settings.CACHE_SHARED = shared
    client = as_persona("player")
    poll, token = _polls(client, pulka)[page], _tokens(pulka)[page]
    poll(token)  # learns that the club is private

    with django_assert_max_num_queries(3):
        response = poll(token)

    assert response.status_code == 204


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
@pytest.mark.parametrize("shared", [False, True])
def test_a_change_is_seen_by_the_next_poll(
    watched, page, shared, settings, django_capture_on_commit_callbacks
):
    settings.CACHE_SHARED = shared
    client, pulka = watched
    poll, token = _polls(client, pulka)[page], _tokens(pulka)[page]
    assert poll(token).status_code == 204
    assert poll(token).status_code == 204

    with django_capture_on_commit_callbacks(execute=True):
        record(pulka, SIX_BY_BORIS)
    response = poll(token)

    assert response.status_code == 200
    assert "Boris" in response.content.decode()
    assert poll(_tokens(pulka)[page]).status_code == 204


def test_a_new_table_is_seen_by_the_evening_and_club_polls(watched, settings):
    settings.CACHE_SHARED = True
    client, pulka = watched
    polls, tokens = _polls(client, pulka), _tokens(pulka)
    assert_unchanged(polls["evening"](tokens["evening"]))
    assert_unchanged(polls["club"](tokens["club"]))

    make_pulka(pulka.evening, names=("Ira", "Oleh", "Taras"))

    for page in ("evening", "club"):
        response = polls[page](tokens[page])
        assert response.status_code == 200
        assert "Ira" in response.content.decode()


def test_a_local_cache_never_vouches_for_an_unchanged_pulka(watched, settings):
    """Another app server's write never reaches this process's local-memory cache."""
    settings.CACHE_SHARED = False
    client, pulka = watched
    old = str(pulka.version)
    assert_unchanged(_live(client, pulka, old))
    # As on another server: the deal is saved, this process's cache hears nothing of it.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(live, "_bump", lambda keys: None)
        record(pulka, SIX_BY_BORIS)

    response = _live(client, pulka, old)
    assert response.status_code == 200
    assert 'id="deal-1"' in response.content.decode()


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_a_cached_poll_of_a_private_club_is_still_404_for_strangers(
    as_persona, client, pulka, player, persona, page, settings
):
    settings.CACHE_SHARED = True
    client.force_login(player)
    token = _tokens(pulka)[page]
    assert _polls(client, pulka)[page](token).status_code == 204  # a member fills the cache
    client.logout()

    response = _polls(as_persona(persona), pulka)[page](token)

    assert_not_found(response, "Anna", "Boris", "Vera")


def test_a_club_made_private_stops_answering_strangers_at_once(client, watched, settings):
    settings.CACHE_SHARED = True
    client, pulka = watched
    token = str(pulka.version)
    assert_unchanged(_live(client, pulka, token))
    club = pulka.evening.club

    club.is_public = False
    club.save()

    assert_not_found(_live(client, pulka, token), "Anna", "Boris", "Vera")


def test_a_failing_cache_falls_back_to_the_database(watched, settings, monkeypatch):
    settings.CACHE_SHARED = True
    client, pulka = watched

    def down(*args, **kwargs):
        raise ConnectionError("cache unreachable")

    monkeypatch.setattr(live.cache, "get_many", down)
    monkeypatch.setattr(live.cache, "set", down)

    assert_unchanged(_live(client, pulka, str(pulka.version)))
    record(pulka, SIX_BY_BORIS)
    response = _live(client, pulka, str(pulka.version - 1))
    assert response.status_code == 200
    assert 'id="deal-1"' in response.content.decode()
