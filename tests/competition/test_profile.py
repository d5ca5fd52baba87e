"""The player profile: who may read it, and what it shows from the result caches."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.models import Player
from competition.models import RatingSnapshot
from competition.profile.views import PULKAS_PER_PAGE
from scoring.models import PairResultCache, PulkaResultCache
from tests.club.factories import READ, assert_fragment, assert_full_page, assert_not_found, html
from tests.conftest import HTMX, PERSONAS, make_evening, make_player, make_pulka, record
from tests.scoring.factories import SIX_BY_BORIS, play_finished

SVG = "{http://www.w3.org/2000/svg}"
DAY = datetime.date(2024, 3, 1)


def make_cache(pulka, player, *, result: str, place: int, position: int = 0, players: int = 3):
    """A result cache row written directly (what the services would write for a pulka)."""
    value = Decimal(result.split("/")[0]) / Decimal(result.split("/")[1] if "/" in result else 1)
    return PulkaResultCache.objects.create(
        pulka=pulka,
        player=player,
        club=pulka.evening.club,
        date=pulka.evening.date,
        position=position,
        players=players,
        result=result,
        result_rounded=round(value),
        place=place,
        closed=True,
    )


def make_snapshot(pulka, player, *, seq: int, rating: float):
    return RatingSnapshot.objects.create(
        club=pulka.evening.club,
        player=player,
        pulka=pulka,
        date=pulka.evening.date,
        seq=seq,
        mu=25.0,
        sigma=8.0,
        rating=rating,
        delta=0.0,
    )


def url(player: Player) -> str:
    return f"/c/{player.club.slug}/players/{player.pk}/"


def chart(text: str, chart_id: str) -> ET.Element:
    """The <svg> of a chart, parsed as XML (so it must be well-formed)."""
    figure = text[text.index(f'<figure class="chart" id="{chart_id}">') :]
    figure = figure[: figure.index("</figure>")]
    return ET.fromstring(figure[figure.index("<svg") : figure.index("</svg>") + len("</svg>")])


def polyline_points(svg: ET.Element) -> list[tuple[float, float]]:
    points = svg.find(f"{SVG}polyline").get("points").split()
    return [tuple(float(n) for n in point.split(",")) for point in points]


def dot_values(svg: ET.Element) -> list[str]:
    circles = svg.iter(f"{SVG}circle")
    titles = [c.find(f"{SVG}title").text for c in circles if c.find(f"{SVG}title") is not None]
    return [title.rsplit(": ", 1)[1] for title in titles]


def section(text: str, element_id: str) -> str:
    start = text.index(f'id="{element_id}"')
    return text[start : text.index("</section>", start)]


def row_cells(text: str, marker: str) -> list[str]:
    """The cell texts of the table row that contains `marker`, tags stripped."""
    row = text[text.rindex("<tr", 0, text.index(marker)) :]
    row = row[: row.index("</tr>")]
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]


@pytest.fixture
def evening(club_a):
    return make_evening(club_a, date=DAY, venue="Kurortny 12")


@pytest.fixture
def vera(evening):
    play_finished(evening)
    return Player.objects.get(club=evening.club, name="Vera")


# Who may read it


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_a_private_clubs_profile_is_read_by_members_only(as_persona, vera, persona):
    response = as_persona(persona).get(url(vera))

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        text = assert_full_page(response, "pulkas")
        assert "<h1>Vera</h1>" in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_the_pulka_list_fragment_follows_the_same_gate(as_persona, vera, persona):
    response = as_persona(persona).get(url(vera), headers=HTMX)

    assert response.status_code == READ[persona]
    if response.status_code == 200:
        text = assert_fragment(response, "pulkas")
        assert "Kurortny 12" in text
        assert 'id="whists-chart"' not in text


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
def test_anyone_reads_a_profile_in_a_public_club(as_persona, public_club, persona):
    play_finished(make_evening(public_club, date=DAY, venue="The library"))
    boris = Player.objects.get(club=public_club, name="Boris")

    client = as_persona(persona)

    text = assert_full_page(client.get(url(boris)), "pulkas")
    assert "The library" in text
    assert_fragment(client.get(url(boris), headers=HTMX), "pulkas")


@pytest.mark.django_db
def test_another_clubs_player_is_404_under_this_club(as_persona, club_a, club_b):
    theirs = make_player(club_b, "Stranger")

    client = as_persona("owner")

    assert_not_found(client.get(f"/c/sochi/players/{theirs.pk}/"), "Stranger")
    assert_not_found(client.get(f"/c/sochi/players/{theirs.pk}/", headers=HTMX), "Stranger")
    assert_not_found(client.get("/c/sochi/players/999999/"))
    assert_not_found(client.get("/c/no-such-club/players/1/"))


@pytest.mark.django_db
def test_a_member_of_both_clubs_still_reads_a_player_only_under_his_own_club(
    client, club_a, club_b, owner
):
    from club.models import Membership, Role

    Membership.objects.create(club=club_b, user=owner, role=Role.PLAYER)
    theirs = make_player(club_b, "Stranger")
    client.force_login(owner)

    assert_not_found(client.get(f"/c/sochi/players/{theirs.pk}/"), "Stranger")
    assert "Stranger" in assert_full_page(client.get(f"/c/other/players/{theirs.pk}/"), "pulkas")


# The pulka list


@pytest.mark.django_db
def test_the_pulka_list_links_each_pulka_and_its_evening_newest_first(as_persona, club_a):
    older = make_evening(club_a, date=datetime.date(2024, 2, 1), venue="Old room")
    newer = make_evening(club_a, date=datetime.date(2024, 4, 1), venue="New room")
    first = play_finished(older)
    second = play_finished(newer, names=("Boris", "Vera", "Anna"))  # Anna +8, 1st
    anna = Player.objects.get(club=club_a, name="Anna")

    text = assert_full_page(as_persona("player").get(url(anna)), "pulkas")

    pulkas = section(text, "pulkas")
    assert pulkas.index("New room") < pulkas.index("Old room")
    assert f'href="{first.get_absolute_url()}"' in pulkas
    assert f'href="{second.get_absolute_url()}"' in pulkas
    assert f'href="{newer.get_absolute_url()}"' in pulkas
    assert f'href="{older.get_absolute_url()}"' in pulkas
    new_row = row_cells(pulkas, "New room")
    # date, evening, table, seat, tablemates, result, place
    assert new_row[1:] == ["New room", "1", "3", "Boris, Vera", "+8", "1/3"]
    old_row = row_cells(pulkas, "Old room")
    assert old_row[1:] == ["Old room", "1", "1", "Boris, Vera", "0", "2/3"]


@pytest.mark.django_db
def test_an_unfinished_or_abandoned_pulka_is_not_listed(as_persona, evening):
    from scoring.services import pulka_abandon

    running = make_pulka(evening, names=("Anna", "Boris", "Gleb"))
    six = {"calls": {"Gleb": "whist", "Anna": "pass"}, "tricks": {"Boris": 6, "Gleb": 3, "Anna": 1}}
    record(running, {**SIX_BY_BORIS, **six})
    abandoned = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    pulka_abandon(pulka=abandoned, abandoned_by=None)
    boris = Player.objects.get(club=evening.club, name="Boris")

    text = html(as_persona("player").get(url(boris)))

    assert "No finished pulka yet." in text
    assert running.get_absolute_url() not in text
    assert abandoned.get_absolute_url() not in text
    assert "No finished pulka yet: the chart starts with the first one." in text
    assert "No rating yet" in text
    assert "No opponent met yet." in text
    assert "<svg" not in text


@pytest.mark.django_db
def test_an_exact_result_is_shown_rounded_with_the_exact_value_in_its_title(as_persona, evening):
    pulka = make_pulka(evening, names=("Anna", "Boris", "Vera"))
    anna = Player.objects.get(club=evening.club, name="Anna")
    make_cache(pulka, anna, result="-23/3", place=3)

    text = html(as_persona("player").get(url(anna)))

    cell = re.search(r'<td class="num minus" title="exactly (.*?)">(.*?)</td>', text)
    assert cell.groups() == ("−23/3", "−8")


@pytest.mark.django_db
def test_a_long_list_is_paginated_with_htmx_and_plain_links(as_persona, club_a):
    anna = make_player(club_a, "Anna")
    for n in range(PULKAS_PER_PAGE + 2):
        pulka = make_pulka(make_evening(club_a, date=DAY + datetime.timedelta(days=n)))
        make_cache(pulka, anna, result=str(n), place=1)
    client = as_persona("player")

    first = section(html(client.get(url(anna))), "pulkas")
    second = assert_fragment(client.get(url(anna) + "?page=2", headers=HTMX), "pulkas")

    assert first.count("<tr>") == PULKAS_PER_PAGE + 1  # with the header row
    assert 'href="?page=2" hx-get="?page=2"' in first
    assert 'hx-target="#pulkas"' in first
    assert second.count("<tr>") == 2 + 1
    assert 'href="?page=1" hx-get="?page=1"' in second
    assert ">+1<" in second
    assert ">0<" in second
    assert "page 2 of 2" in second


# The charts


@pytest.mark.django_db
def test_the_whists_chart_adds_up_the_results_one_point_per_pulka(as_persona, club_a):
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 5)))  # Vera +8
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 12)), ("Vera", "Anna", "Boris"))
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 19)), ("Anna", "Vera", "Boris"))
    vera = Player.objects.get(club=club_a, name="Vera")  # +8, then 0, then −8

    svg = chart(html(as_persona("player").get(url(vera))), "whists-chart")

    points = polyline_points(svg)
    assert len(points) == 3
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert dot_values(svg) == ["8", "8", "0"]
    assert points[0][1] == points[1][1] < points[2][1]  # higher whists, higher on the chart
    zero = svg.find(f"{SVG}line[@class='zero']")
    assert float(zero.get("y1")) == points[2][1]
    assert svg.get("viewBox") == "0 0 640 260"
    assert svg.get("width") == "100%"
    assert svg.find(f"{SVG}title").text == "Whists won, added up pulka after pulka"
    assert "3 pulkas from" in svg.find(f"{SVG}desc").text
    tick_labels = [t.text for t in svg.find(f"{SVG}g[@class='axis y-axis']")]
    assert "0" in tick_labels
    assert len(tick_labels) >= 3


@pytest.mark.django_db
def test_the_rating_chart_has_one_point_per_snapshot_in_their_order(as_persona, evening):
    pulkas = [make_pulka(evening, names=("Anna", "Boris", "Vera")) for _ in range(4)]
    anna = Player.objects.get(club=evening.club, name="Anna")
    ratings = [1000.0, 1042.4, 1031.6, 1080.2]
    for n, (pulka, rating) in enumerate(zip(pulkas, ratings, strict=True)):
        make_snapshot(pulka, anna, seq=10 - n, rating=rating)  # seq decides, not the id

    text = html(as_persona("player").get(url(anna)))
    svg = chart(text, "rating-chart")

    assert len(polyline_points(svg)) == 4
    assert dot_values(svg) == ["1080", "1032", "1042", "1000"]
    assert "the rating is 1000;" in svg.find(f"{SVG}desc").text
    assert "<dd>1000</dd>" in text  # the rating now, in the figures at the top


@pytest.mark.django_db
def test_the_rating_chart_follows_the_finished_pulkas(as_persona, club_a):
    for n in range(3):
        play_finished(make_evening(club_a, date=DAY + datetime.timedelta(days=7 * n)))
    vera = Player.objects.get(club=club_a, name="Vera")  # first three times
    snapshots = list(RatingSnapshot.objects.filter(player=vera).order_by("seq"))

    svg = chart(html(as_persona("player").get(url(vera))), "rating-chart")

    assert len(snapshots) == 3
    assert dot_values(svg) == [str(round(s.rating)) for s in snapshots]
    ys = [y for _, y in polyline_points(svg)]
    assert ys == sorted(ys, reverse=True)  # always first: the rating climbs


# Places and head to head


@pytest.mark.django_db
def test_places_are_counted_with_their_share(as_persona, evening):
    anna = make_player(evening.club, "Anna")
    for place in (1, 1, 2, 4):
        make_cache(make_pulka(evening), anna, result="0", place=place, players=4)

    places = section(html(as_persona("player").get(url(anna))), "places")

    assert row_cells(places, 'data-place="1"')[:3] == ["1st", "2", "50%"]
    assert row_cells(places, 'data-place="2"')[:3] == ["2nd", "1", "25%"]
    assert row_cells(places, 'data-place="3"')[:3] == ["3rd", "0", "0%"]
    assert row_cells(places, 'data-place="4"')[:3] == ["4th", "1", "25%"]
    assert '<rect class="place-1" width="50.0" height="1"/>' in places


@pytest.mark.django_db
def test_head_to_head_sums_the_pair_settlements_and_counts_the_meetings(as_persona, club_a):
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 5)))
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 12)))
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 19)), ("Anna", "Vera", "Gleb"))
    vera = Player.objects.get(club=club_a, name="Vera")
    boris = Player.objects.get(club=club_a, name="Boris")

    h2h = section(html(as_persona("player").get(url(vera))), "head-to-head")

    # Against Boris: won 8 twice. Against Anna: three pulkas, all even. Gleb won 8 off Vera.
    assert row_cells(h2h, f'data-opponent="{boris.pk}"') == ["Boris", "2", "2", "0", "+16"]
    anna = Player.objects.get(club=club_a, name="Anna")
    assert row_cells(h2h, f'data-opponent="{anna.pk}"') == ["Anna", "3", "0", "0", "0"]
    gleb = Player.objects.get(club=club_a, name="Gleb")
    assert row_cells(h2h, f'data-opponent="{gleb.pk}"') == ["Gleb", "1", "0", "1", "−8"]
    assert h2h.index("Anna") < h2h.index("Boris") < h2h.index("Gleb")  # most met first
    assert f'href="/c/sochi/players/{boris.pk}/"' in h2h


@pytest.mark.django_db
def test_head_to_head_rounds_the_exact_sum_once(as_persona, evening):
    anna, boris = make_player(evening.club, "Anna"), make_player(evening.club, "Boris")
    for _ in range(3):
        PairResultCache.objects.create(
            pulka=make_pulka(evening),
            player=anna,
            opponent=boris,
            club=evening.club,
            date=DAY,
            net=Decimal("3.5000"),
        )

    h2h = section(html(as_persona("player").get(url(anna))), "head-to-head")

    assert row_cells(h2h, f'data-opponent="{boris.pk}"') == ["Boris", "3", "3", "0", "+11"]


# Queries


def _count_queries(client, path: str, **kwargs) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path, **kwargs)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_the_pulkas(as_persona, club_a):
    client = as_persona("player")
    for n in range(2):
        play_finished(make_evening(club_a, date=DAY + datetime.timedelta(days=n)))
    vera = Player.objects.get(club=club_a, name="Vera")
    few = _count_queries(client, url(vera))
    few_fragment = _count_queries(client, url(vera), headers=HTMX)

    for n in range(10):
        play_finished(
            make_evening(club_a, date=DAY + datetime.timedelta(days=10 + n)),
            ("Anna", "Boris", "Vera") if n % 2 else ("Gleb", "Vera", "Dina"),
        )
    assert vera.result_cache.count() == 12
    assert RatingSnapshot.objects.filter(player=vera).count() == 12

    assert _count_queries(client, url(vera)) == few
    assert _count_queries(client, url(vera), headers=HTMX) == few_fragment
    assert few_fragment < few


@pytest.mark.parametrize("language", ["uk", "en"])
def test_every_negative_figure_on_the_profile_has_a_real_minus(as_persona, club_a, language):
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 5)), ("Anna", "Vera", "Boris"))
    play_finished(make_evening(club_a, date=datetime.date(2024, 1, 12)), ("Anna", "Vera", "Boris"))
    vera = Player.objects.get(club=club_a, name="Vera")  # −8, then −16 in all
    evening = make_evening(club_a, date=datetime.date(2024, 1, 19))
    make_cache(make_pulka(evening, names=("Vera", "Anna", "Boris")), vera, result="-23/3", place=3)

    text = html(as_persona("player").get(url(vera), headers={"accept-language": language}))

    assert "−8" in text
    assert "−16" in text
    # No figure with a hyphen for its minus, anywhere a person reads (text or chart labels).
    readable = re.sub(r"<[^>]*>", " ", text.split("<main", 1)[1])
    assert not re.findall(r"(?<![\w\-])-\s?\d", readable)
    if language == "uk":  # and the decimals in the reader's own way
        assert not re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", readable)
