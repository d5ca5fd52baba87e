"""A player reads the league and a profile with both charts; then a secretary corrects a
deal of an old finished pulka, and the league and the ratings follow, in Chromium: at once with
the immediate task backend, after the worker has run with the database one (#17)."""

import re

import pytest
from django.core.cache import cache
from django.utils.formats import date_format
from django_tasks_db.management.commands import db_worker

from club.models import Role
from competition.models import League, RatingRefresh, RatingSnapshot, WorkerHeartbeat
from competition.profile import charts
from competition.rating import ratings
from scoring.models import PulkaResultCache
from tests.browser.factories import NEW, OLD, log_in, six_and_no_plays
from tests.competition.factories import DATABASE, work
from tests.conftest import make_club, make_member

pytestmark = pytest.mark.django_db(transaction=True)


def _cell(page, name: str, column: str) -> str:
    headers = page.locator("#ranked thead th a").evaluate_all(
        "links => links.map(a => a.dataset.sort)"
    )
    row = page.locator("#ranked tbody tr", has=page.locator("td", has_text=name))
    return row.locator("td").nth(headers.index(column)).inner_text().strip()


def test_a_correction_of_an_old_pulka_moves_the_league_and_the_ratings(
    live_server, browser, artifacts
):
    cache.clear()  # the computed rankings of an earlier test
    club = make_club(name="Сочинка", slug="sochi", is_public=False)
    player = make_member(club, Role.PLAYER, username="petro").user
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    old = six_and_no_plays(club, OLD, boris_tricks=6)
    six_and_no_plays(club, NEW, boris_tricks=6)
    league = League.objects.create(
        club=club, name="Осінь", start=OLD, end=NEW, rule="sum", min_pulkas=1
    )
    boris = old.seats.get(player__name="Boris").player

    reader = browser.new_context().new_page()
    log_in(reader, live_server, player)
    reader.goto(live_server.url + league.get_absolute_url())
    total_before = _cell(reader, "Boris", "total")
    rating_before = _cell(reader, "Boris", "rating")
    reader.click("#ranked td.player a:has-text('Boris')")
    reader.wait_for_url(re.compile(rf"/players/{boris.pk}/$"))
    assert reader.locator("#whists-chart svg polyline.line").count() == 1
    assert reader.locator("#rating-chart svg polyline.line").count() == 1
    points = reader.locator("#rating-chart polyline.line").get_attribute("points")
    assert len(points.split()) == 2  # one point per rated pulka
    reader.screenshot(path=str(artifacts / "profile.png"), full_page=True)

    desk = browser.new_context().new_page()
    log_in(desk, live_server, secretary)
    desk.goto(live_server.url + old.get_absolute_url())
    desk.locator("#deal-1 .deal-actions a", has_text="edit").click()
    desk.wait_for_selector("text=Correct deal 1")
    # Boris made only five: set by one, and Vera's whists grow.
    desk.fill("#deal-form input[name='tricks_1']", "5")
    desk.fill("#deal-form input[name='tricks_2']", "3")
    desk.fill("#deal-form input[name='tricks_0']", "2")
    desk.locator("#deal-form button[type='submit']").click()
    desk.wait_for_selector("#deal-1 >> text=5–3–2")

    expected = sum(
        PulkaResultCache.objects.filter(player=boris).values_list("result_rounded", flat=True)
    )
    reader.goto(live_server.url + league.get_absolute_url())
    assert int(_cell(reader, "Boris", "total").replace("−", "-")) == expected
    assert _cell(reader, "Boris", "total") != total_before
    assert _cell(reader, "Boris", "rating") != rating_before
    latest = RatingSnapshot.objects.filter(player=boris).order_by("-seq").first()
    assert _cell(reader, "Boris", "rating") == f"{latest.rating:.1f}"


def test_with_a_worker_the_pages_say_the_ratings_are_being_updated_until_it_has_run(
    live_server, browser, settings, monkeypatch, artifacts
):
    """#17: the correction answers at once; the re-rate waits in the queue for the worker."""
    cache.clear()
    settings.TASKS = DATABASE
    WorkerHeartbeat.objects.create(name="worker", queues="default,files")  # a worker runs
    # The worker runs in this thread on the live server's in-memory database: it must not
    # close that connection between tasks.
    monkeypatch.setattr(db_worker, "close_old_connections", lambda: None)
    club = make_club(name="Сочинка", slug="sochi", is_public=False)
    player = make_member(club, Role.PLAYER, username="petro").user
    secretary = make_member(club, Role.SECRETARY, username="serhii").user
    old = six_and_no_plays(club, OLD, boris_tricks=6)
    six_and_no_plays(club, NEW, boris_tricks=6)
    league = League.objects.create(
        club=club, name="Осінь", start=OLD, end=NEW, rule="sum", min_pulkas=1
    )
    boris = old.seats.get(player__name="Boris").player
    work()  # the ratings of the two evenings, before anyone looks
    assert not RatingRefresh.objects.exists()
    before = _snapshots(club)

    reader = browser.new_context().new_page()
    log_in(reader, live_server, player)
    reader.goto(live_server.url + league.get_absolute_url())
    rating_before = _cell(reader, "Boris", "rating")
    total_before = _cell(reader, "Boris", "total")
    assert reader.locator("#rerating").count() == 0
    reader.goto(live_server.url + f"/c/sochi/players/{boris.pk}/")
    profile_before = _profile_rating(reader)
    assert profile_before == charts.format_number(_latest_rating(boris), 0)

    desk = browser.new_context().new_page()
    log_in(desk, live_server, secretary)
    desk.goto(live_server.url + old.get_absolute_url())
    desk.locator("#deal-1 .deal-actions a", has_text="edit").click()
    desk.wait_for_selector("text=Correct deal 1")
    desk.fill("#deal-form input[name='tricks_1']", "5")
    desk.fill("#deal-form input[name='tricks_2']", "3")
    desk.fill("#deal-form input[name='tricks_0']", "2")
    desk.locator("#deal-form button[type='submit']").click()
    desk.wait_for_selector("#deal-1 >> text=5–3–2")

    since = date_format(OLD, "DATE_FORMAT")
    reader.goto(live_server.url + league.get_absolute_url())
    notice = reader.locator("#rerating")
    assert notice.inner_text().strip() == f"Ratings are being updated (since {since})."
    assert _cell(reader, "Boris", "total") != total_before  # the whists follow at once
    assert _cell(reader, "Boris", "rating") == rating_before  # the ratings wait
    reader.screenshot(path=str(artifacts / "league-being-updated.png"), full_page=True)
    reader.goto(live_server.url + f"/c/sochi/players/{boris.pk}/")
    assert "Ratings are being updated" in reader.locator("#rerating").inner_text()
    assert _profile_rating(reader) == profile_before
    assert _snapshots(club) == before

    # Nothing in flight on the live server while the worker uses its connection.
    reader.wait_for_load_state("networkidle")
    desk.wait_for_load_state("networkidle")
    work()

    assert not RatingRefresh.objects.exists()
    worked = _snapshots(club)
    assert worked != before
    ratings.ratings_update(club=club)  # what `manage.py rebuild_ratings` computes
    assert _snapshots(club) == worked
    latest = _latest_rating(boris)
    reader.reload()
    assert reader.locator("#rerating").count() == 0
    assert _profile_rating(reader) == charts.format_number(latest, 0)
    reader.goto(live_server.url + league.get_absolute_url())
    assert reader.locator("#rerating").count() == 0
    assert _cell(reader, "Boris", "rating") == f"{latest:.1f}"
    assert _cell(reader, "Boris", "rating") != rating_before
    reader.screenshot(path=str(artifacts / "league-updated.png"), full_page=True)
    reader.context.close()
    desk.context.close()


def _latest_rating(player) -> float:
    return RatingSnapshot.objects.filter(player=player).order_by("-seq").first().rating


def _snapshots(club) -> set[tuple]:
    return set(
        RatingSnapshot.objects.filter(club=club).values_list(
            "player__name", "pulka_id", "seq", "mu", "sigma", "rating", "delta"
        )
    )


def _profile_rating(page) -> str:
    stats = page.locator("#stats > div", has=page.locator("dt", has_text="Rating"))
    return stats.locator("dd").inner_text().strip()
