"""The spectators' polls at scale: one render per version, only the changed deal rows, and
answers a reverse proxy may share (ETag, 304, Cache-Control), gzipped.

The shared cache is a real Redis (database 12), as in production.
"""

import gzip
import re
import uuid

import pytest
import redis
from django.core.cache import cache
from django.test import Client
from django.test.signals import template_rendered

from scoring import selectors, services
from tests.conftest import HTMX, make_evening, make_member, make_pulka, missing_service, record
from tests.scoring.factories import SIX_BY_BORIS, six

REDIS = "redis://127.0.0.1:6379/12"
PUBLIC_POLL = "public, max-age=1, stale-while-revalidate=2"


@pytest.fixture
def redis_cache(settings):
    """Django's cache in Redis, shared as by every app server (CACHE_SHARED); each test
    has its own keys, removed after it (other test runs may share the database)."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS,
            "KEY_PREFIX": prefix,
        }
    }
    settings.CACHE_SHARED = True
    try:
        cache.get("ping")
    except Exception as exc:  # noqa: BLE001 - whatever the client raises
        missing_service(f"Redis is not running at {REDIS}: {exc}")
    yield cache
    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


@pytest.fixture
def renders():
    """The names of the templates rendered while the test runs."""
    names: list[str] = []

    def heard(sender, template, context, **kwargs):
        names.append(str(template.name))

    template_rendered.connect(heard)
    yield names
    template_rendered.disconnect(heard)


@pytest.fixture
def table(public_club):
    """A running table of a public club with one deal."""
    pulka = make_pulka(make_evening(public_club))
    record(pulka, SIX_BY_BORIS)
    pulka.refresh_from_db()
    return pulka


def _urls(pulka) -> dict[str, str]:
    club = pulka.evening.club
    return {
        "pulka": f"{pulka.get_absolute_url()}live/",
        "evening": pulka.evening.get_absolute_url(),
        "club": f"/c/{club.slug}/running/",
    }


def _tokens(pulka) -> dict[str, str]:
    pulka.refresh_from_db()
    return {
        "pulka": str(pulka.version),
        "evening": selectors.evening_live_token(pulka.evening),
        "club": selectors.club_live_token(pulka.evening.club),
    }


def _poll(client, pulka, page: str, token: str, **headers):
    return client.get(_urls(pulka)[page], {"v": token}, headers={**HTMX, **headers})


def _deal(pulka, data, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        record(pulka, data)


# One render per version


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_every_spectator_of_a_new_version_gets_one_render(
    table, page, redis_cache, renders, django_capture_on_commit_callbacks
):
    held = _tokens(table)[page]
    spectators = [Client() for _ in range(5)]
    assert _poll(spectators[0], table, page, held).status_code == 204
    _deal(table, six("Vera", "Anna", "Boris"), django_capture_on_commit_callbacks)

    first = _poll(spectators[0], table, page, held)
    rendered = len(renders)
    others = [_poll(client, table, page, held) for client in spectators[1:]]

    assert first.status_code == 200
    assert rendered > 0
    assert len(renders) == rendered  # the other four got the kept answer
    assert {answer.content for answer in others} == {first.content}


def test_members_of_one_role_share_a_render_and_a_secretary_gets_her_own(
    club_a, redis_cache, renders, django_capture_on_commit_callbacks
):
    pulka = make_pulka(make_evening(club_a))
    record(pulka, SIX_BY_BORIS)
    held = _tokens(pulka)["pulka"]
    players = [Client() for _ in range(3)]
    for client in players:
        client.force_login(make_member(club_a, "player").user)
    secretary = Client()
    secretary_user = make_member(club_a, "secretary").user
    secretary.force_login(secretary_user)
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(
            pulka=pulka, data=six("Vera", "Anna", "Boris"), entered_by=secretary_user
        )

    _poll(players[0], pulka, "pulka", held)
    rendered = len(renders)
    answers = [_poll(client, pulka, "pulka", held) for client in players[1:]]
    assert len(renders) == rendered
    mine = _poll(secretary, pulka, "pulka", held)

    assert len(renders) > rendered  # her controls carry her CSRF token: never shared
    assert "entered by" in answers[0].content.decode()  # members see who entered
    assert 'name="csrfmiddlewaretoken"' not in answers[0].content.decode()
    assert 'name="csrfmiddlewaretoken"' in mine.content.decode()


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_the_kept_answer_of_a_change_costs_no_query(
    table, page, redis_cache, django_capture_on_commit_callbacks, django_assert_num_queries
):
    held = _tokens(table)[page]
    _deal(table, six("Vera", "Anna", "Boris"), django_capture_on_commit_callbacks)
    first = _poll(Client(), table, page, held)
    spectator = Client()

    with django_assert_num_queries(0):
        again = _poll(spectator, table, page, held)

    assert first.status_code == again.status_code == 200
    assert again.content == first.content


# HTTP caching: ETag, 304, Cache-Control


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_a_conditional_public_poll_gets_304_without_a_query(
    table, page, redis_cache, django_assert_num_queries
):
    client, held = Client(), _tokens(table)[page]
    first = _poll(client, table, page, held)
    etag = first["ETag"]

    with django_assert_num_queries(0):
        again = _poll(client, table, page, held, **{"If-None-Match": etag})

    assert first.status_code == 204
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert again["Cache-Control"] == PUBLIC_POLL


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_a_conditional_poll_after_a_change_gets_the_change(
    table, page, redis_cache, django_capture_on_commit_callbacks
):
    client = Client()
    held = _tokens(table)[page]
    etag = _poll(client, table, page, held)["ETag"]
    _deal(table, six("Vera", "Anna", "Boris"), django_capture_on_commit_callbacks)

    answer = _poll(client, table, page, held, **{"If-None-Match": etag})

    assert answer.status_code == 200
    assert answer["ETag"] != etag
    assert _tokens(table)[page] in answer.content.decode()  # the next poll's token


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_a_public_poll_without_a_session_may_be_shared_by_a_proxy(
    table, page, redis_cache, django_capture_on_commit_callbacks
):
    held = _tokens(table)[page]
    unchanged = _poll(Client(), table, page, held)
    _deal(table, six("Vera", "Anna", "Boris"), django_capture_on_commit_callbacks)
    changed = _poll(Client(), table, page, held)

    for answer in (unchanged, changed):
        assert answer["Cache-Control"] == PUBLIC_POLL
        assert answer["ETag"].startswith('"')
        vary = {word.strip() for word in answer["Vary"].split(",")}
        assert {"HX-Request", "Accept-Language"} <= vary
        assert "Cookie" not in vary  # every spectator without a session shares it
        assert "sessionid" not in answer.cookies
    assert changed.status_code == 200


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_a_private_clubs_poll_is_private(pulka, page, as_persona, redis_cache):
    client = as_persona("player")

    answer = _poll(client, pulka, page, _tokens(pulka)[page])

    assert answer.status_code == 204
    assert "private" in answer["Cache-Control"]
    assert "public" not in answer["Cache-Control"]
    assert "Cookie" in answer["Vary"]
    assert not answer.has_header("ETag")


def test_a_logged_in_spectator_of_a_public_club_gets_a_private_answer(table, client, redis_cache):
    client.force_login(make_member(table.evening.club, "player").user)

    answer = _poll(client, table, "pulka", "0")

    assert answer.status_code == 200
    assert "private" in answer["Cache-Control"]
    assert "entered by" not in answer.content.decode()  # the first deal was an import's
    assert 'id="board"' in answer.content.decode()


def test_a_conditional_poll_of_a_private_club_never_gets_304_from_the_gate(
    pulka, client, redis_cache
):
    """A stranger with a copied ETag learns nothing: no 304, the club's own verdict."""
    member = Client()
    member.force_login(make_member(pulka.evening.club, "player").user)
    _poll(member, pulka, "pulka", _tokens(pulka)["pulka"])

    answer = _poll(client, pulka, "pulka", _tokens(pulka)["pulka"], **{"If-None-Match": "*"})

    assert answer.status_code != 304
    assert answer.status_code == 404 or "HX-Redirect" in answer  # to the login page


@pytest.mark.parametrize("page", ["pulka", "evening", "club"])
def test_a_changed_poll_is_gzipped(table, page, redis_cache, django_capture_on_commit_callbacks):
    held = _tokens(table)[page]
    _deal(table, six("Vera", "Anna", "Boris"), django_capture_on_commit_callbacks)

    answer = _poll(Client(), table, page, held, **{"Accept-Encoding": "gzip"})

    assert answer["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in answer["Vary"]
    assert "<html" not in gzip.decompress(answer.content).decode()
    assert _tokens(table)[page] in gzip.decompress(answer.content).decode()


def test_the_page_with_its_csrf_token_is_not_gzipped(table, client):
    """BREACH: a compressed page that holds a secret leaks it; only the polls are gzipped."""
    answer = client.get(table.get_absolute_url(), headers={"Accept-Encoding": "gzip"})

    assert answer.status_code == 200
    assert not answer.has_header("Content-Encoding")
    assert b"X-CSRFToken" in answer.content


# Only what changed


def _rows(html: str) -> dict[int, str]:
    """The deal rows of an answer or a page, by number, without htmx's swap attribute."""
    html = html.replace(' hx-swap-oob="true"', "")
    starts = [m.start() for m in re.finditer(r'<li id="deal-\d+"', html)]
    rows = {}
    for start, end in zip(starts, [*starts[1:], len(html)], strict=True):
        chunk = html[start:end]
        # The row ends where its entries' list does.
        chunk = chunk[: chunk.index("</ul>\n</li>") + len("</ul>\n</li>")]
        rows[int(re.match(r'<li id="deal-(\d+)"', chunk).group(1))] = chunk
    return rows


def _board(html: str) -> str:
    return html[html.index('<section id="board"') : html.index("</section>") + 10]


class Spectator:
    """A public spectator's page as htmx keeps it: the board and the deal log, changed by
    each poll's answer (the board, the changed rows, or the whole log)."""

    def __init__(self, pulka) -> None:
        self.pulka, self.client = pulka, Client()
        page = self.client.get(pulka.get_absolute_url()).content.decode()
        self.board, self.rows = _board(page), _rows(page)
        self.version = re.search(r"\?v=(\d+)", self.board).group(1)

    def poll(self):
        answer = _poll(self.client, self.pulka, "pulka", self.version)
        if answer.status_code == 204:
            return answer
        html = answer.content.decode()
        self.board = _board(html)
        self.version = re.search(r"\?v=(\d+)", self.board).group(1)
        if 'id="log"' in html:
            self.rows = _rows(html)
        else:
            self.rows.update(_rows(html))
        return answer


def _page_rows(pulka) -> dict[int, str]:
    return _rows(Client().get(pulka.get_absolute_url()).content.decode())


def test_a_new_deal_sends_the_board_and_only_its_row(
    table, redis_cache, django_capture_on_commit_callbacks
):
    _deal(table, six("Vera", "Anna", "Boris"), django_capture_on_commit_callbacks)
    spectator = Spectator(table)
    _deal(table, six("Anna", "Boris", "Vera"), django_capture_on_commit_callbacks)
    spectator.poll()  # the first change after the page: the whole log, and the rows' prints
    _deal(table, six("Boris", "Vera", "Anna"), django_capture_on_commit_callbacks)

    html = spectator.poll().content.decode()

    assert 'id="board"' in html
    assert 'hx-swap-oob="afterbegin:#deal-log"' in html
    assert set(_rows(html)) == {4}
    assert 'id="log"' not in html
    assert spectator.rows == _page_rows(table)


def test_a_correction_sends_the_rows_it_changed(
    table, redis_cache, django_capture_on_commit_callbacks
):
    for data in (six("Vera", "Anna", "Boris"), six("Anna", "Boris", "Vera")) * 3:
        _deal(table, data, django_capture_on_commit_callbacks)
    spectator = Spectator(table)
    _deal(table, six("Boris", "Vera", "Anna"), django_capture_on_commit_callbacks)
    spectator.poll()
    deal = table.deals.get(number=8)

    with django_capture_on_commit_callbacks(execute=True):
        services.deal_update(
            pulka=table,
            number=8,
            data=six("Boris", "Anna", "Vera", tricks=7),
            expected_version=deal.version,
            changed_by=None,
        )
    html = spectator.poll().content.decode()

    assert 8 in _rows(html)
    assert not {1, 2, 3} & set(_rows(html))
    assert 'id="log"' not in html
    assert spectator.rows == _page_rows(table)


@pytest.mark.parametrize("change", ["delete", "insert", "update"])
def test_after_a_correction_in_the_middle_the_spectator_sees_the_log_of_the_page(
    table, change, redis_cache, django_capture_on_commit_callbacks
):
    for data in (six("Vera", "Anna", "Boris"), six("Anna", "Boris", "Vera")) * 2:
        _deal(table, data, django_capture_on_commit_callbacks)
    spectator = Spectator(table)
    _deal(table, six("Boris", "Vera", "Anna"), django_capture_on_commit_callbacks)
    spectator.poll()
    deal = table.deals.get(number=3)
    common = {"pulka": table, "expected_version": deal.version}

    with django_capture_on_commit_callbacks(execute=True):
        if change == "delete":
            services.deal_delete(number=3, deleted_by=None, **common)
        elif change == "insert":
            services.deal_insert(
                before=3, data=six("Vera", "Boris", "Anna"), inserted_by=None, **common
            )
        else:
            services.deal_update(
                number=3, data=six("Vera", "Boris", "Anna", tricks=7), changed_by=None, **common
            )
    assert spectator.poll().status_code == 200

    assert spectator.rows == _page_rows(table)
    page = Client().get(table.get_absolute_url()).content.decode()
    assert spectator.board == _board(page)


def test_a_secretarys_poll_gets_only_the_new_row_with_her_controls(
    pulka, as_persona, redis_cache, django_capture_on_commit_callbacks
):
    client = as_persona("secretary")
    for data in (SIX_BY_BORIS, six("Vera", "Anna", "Boris")):
        _deal(pulka, data, django_capture_on_commit_callbacks)
    held = _tokens(pulka)["pulka"]
    _poll(client, pulka, "pulka", str(int(held) - 1))  # keeps the rows of this version
    _deal(pulka, six("Anna", "Boris", "Vera"), django_capture_on_commit_callbacks)

    html = _poll(client, pulka, "pulka", held).content.decode()

    assert set(_rows(html)) == {3}
    assert ">edit</a>" in html  # the row's controls
    assert 'id="log"' not in html
    assert "private" in _poll(client, pulka, "pulka", held)["Cache-Control"]
