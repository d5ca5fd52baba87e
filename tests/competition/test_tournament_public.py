"""The tournament's public pages: "find your table", the projector, and the player's
tournament rounds on his profile.

The tournaments are played through the services (drafted, published, random valid deals at
every table, ended on time, confirmed); the whists expected are the engine's sheets as the
deals were recorded, not the caches the pages read.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from club.models import Player
from club.names import name_key
from competition.models import Round, Scoring, Tournament
from competition.templatetags.tournament_format import signed_total
from competition.templatetags.tournament_format import total as total_text
from competition.tournament import selectors, services
from competition.tournament.views.public import (
    LINES_PER_SLIDE,
    REFRESH_SECONDS,
    SEATS_PER_SLIDE,
    Slide,
    screen_slide,
)
from scoring.formatting import signed
from tests.club.factories import READ, assert_fragment, assert_full_page, assert_not_found, html
from tests.competition.factories import (
    UKRAINIAN_TEN,
    expected_lines,
    play_round,
    published,
    round_whists,
    spring_cup,
)
from tests.conftest import HTMX, PERSONAS, make_club, make_club_a, make_member


def player_named(club, name: str) -> Player:
    return Player.objects.get(club=club, name=name)


@pytest.fixture(scope="module")
def played_cup(module_rows, django_db_blocker) -> tuple[int, int, int, dict[int, Fraction]]:
    """Club A's cup, made once for the module (tests/conftest.py's module_rows)."""
    with django_db_blocker.unblock():
        tournament = spring_cup(make_club_a())
        first = published(tournament)
        play_round(first, deals=3)
        whists = round_whists(first)
        return tournament.pk, first.pk, published(tournament).pk, whists


@pytest.fixture
def cup(played_cup, club_a):
    """Ten players (tables of 4, 3 and 3): round 1 played and confirmed, round 2 published;
    with the whists each player's table settled in round 1."""
    tournament, first, second, whists = played_cup
    return (
        Tournament.objects.get(pk=tournament),
        Round.objects.get(pk=first),
        Round.objects.get(pk=second),
        dict(whists),
    )


@pytest.fixture
def open_cup(public_club):
    tournament = spring_cup(public_club)
    return tournament, published(tournament)


def find_url(tournament: Tournament, **query) -> str:
    url = reverse("competition:tournament-find", args=[tournament.club.slug, tournament.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def screen_url(tournament: Tournament, page: int | None = None) -> str:
    url = reverse("competition:tournament-screen", args=[tournament.club.slug, tournament.pk])
    return url if page is None else f"{url}?page={page}"


def profile_url(player: Player) -> str:
    return reverse("competition:player-detail", args=[player.club.slug, player.pk])


LINE = re.compile(
    r'<li class="find-line[^"]*" data-player="(\d+)"(?: data-table="(\d+)" data-seat="(\d+)")?>'
)


def find_lines(text: str) -> list[tuple[int, int | None, int | None]]:
    return [
        (int(player), int(table) if table else None, int(seat) if seat else None)
        for player, table, seat in LINE.findall(text)
    ]


# --- who may see the pages --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("view", ["find", "screen"])
def test_the_pages_of_a_private_club_are_for_its_members(as_persona, cup, persona, view):
    tournament, _, second, _ = cup
    url = find_url(tournament) if view == "find" else screen_url(tournament)

    response = as_persona(persona).get(url)

    assert response.status_code == READ[persona]
    if READ[persona] == 200:
        assert "Андрій Шевченко" in html(response)


@pytest.mark.django_db
@pytest.mark.parametrize("view", ["find", "screen"])
def test_anyone_reads_the_pages_of_a_public_club(client, open_cup, view):
    tournament, round = open_cup
    url = find_url(tournament) if view == "find" else screen_url(tournament)

    text = html(client.get(url))

    assert "Ольга Шевчук" in text
    assert f'data-player="{player_named(tournament.club, "Ольга Шевчук").pk}"' in text


@pytest.mark.django_db
@pytest.mark.parametrize("view", ["find", "screen"])
def test_an_outsider_of_a_public_club_reads_too_but_a_member_of_another_club_not_its_private_one(
    as_persona, open_cup, cup, view
):
    """The outsider (club B's owner) reads the public club's pages, and gets 404 for a
    private club's tournament named under the public club's address."""
    public, _ = open_cup
    private, *_ = cup
    client = as_persona("outsider")
    url = find_url if view == "find" else screen_url

    page = assert_full_page(client.get(url(public)), "find-list" if view == "find" else "screen")
    assert public.name in page
    elsewhere = reverse(f"competition:tournament-{view}", args=[public.club.slug, private.pk])
    assert_not_found(client.get(elsewhere), private.name, UKRAINIAN_TEN[0])


# --- find your table --------------------------------------------------------------------------


@pytest.mark.django_db
def test_find_is_a_page_and_its_list_an_htmx_fragment(as_persona, cup):
    tournament, *_ = cup
    client = as_persona("player")

    page = assert_full_page(client.get(find_url(tournament)), "find-list")
    fragment = assert_fragment(client.get(find_url(tournament), headers=HTMX), "find-list")

    assert 'id="find-q"' in page
    assert 'hx-trigger="input changed delay:200ms, search"' in page
    assert "<script>" not in page  # CSP: no inline script; htmx comes from its static file
    assert 'id="find-q"' not in fragment
    assert find_lines(fragment) == find_lines(page)


@pytest.mark.django_db
def test_find_lists_every_seated_player_alphabetically_with_his_table_and_seat(as_persona, cup):
    tournament, _, second, _ = cup

    text = html(as_persona("player").get(find_url(tournament)))

    lines = find_lines(text)
    assert lines == expected_lines(second)
    assert len(lines) == 10
    tables = [table for _, table, _ in lines]
    assert sorted(tables.count(number) for number in (1, 2, 3)) == [3, 3, 4]
    assert "round 2" in text
    assert "10 players, in alphabetical order" in text


@pytest.mark.django_db
def test_each_line_leads_to_the_players_table_and_names_who_deals_first(as_persona, cup):
    tournament, _, second, _ = cup
    table = selectors.round_tables(second)[0]
    dealer = table.pulka.seats.get(position=table.pulka.first_dealer).player

    text = html(as_persona("player").get(find_url(tournament)))

    line = re.search(rf'data-player="{dealer.pk}".*?</li>', text, re.S).group(0)
    assert reverse("scoring:pulka-detail", args=["sochi", table.pulka_id]) in line
    assert "deals first" in line
    assert text.count("deals first") == 3  # one dealer at each of the three tables


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_filter_keeps_the_names_that_contain_it_whatever_the_case(as_persona, cup, htmx):
    tournament, _, second, _ = cup
    client = as_persona("player")
    shevchenko = player_named(tournament.club, "Андрій Шевченко")
    shevchuk = player_named(tournament.club, "Ольга Шевчук")

    response = client.get(find_url(tournament, q="  ШЕВЧ "), headers=HTMX if htmx else {})

    lines = find_lines(html(response))
    assert [player for player, _, _ in lines] == [shevchenko.pk, shevchuk.pk]
    wanted = {shevchenko.pk, shevchuk.pk}
    assert lines == [line for line in expected_lines(second) if line[0] in wanted]
    assert "2 of 10 players" in html(response)


@pytest.mark.django_db
def test_a_filter_that_matches_nobody_says_so(as_persona, cup):
    tournament, *_ = cup

    text = html(as_persona("player").get(find_url(tournament, q="Zbigniew")))

    assert find_lines(text) == []
    assert "No player of this round has “Zbigniew” in the name." in text


@pytest.mark.django_db
def test_the_filter_compares_name_keys():
    line = selectors.SeatLine(1, "Ігор Руденко", name_key("Ігор Руденко"), 1, 1, 3, False, "", 7)

    assert selectors.matching([line], "ігор  РУД") == [line]
    assert selectors.matching([line], "") == [line]
    assert selectors.matching([line], "Руденко Ігор") == []


@pytest.mark.django_db
def test_an_earlier_round_is_shown_on_request(as_persona, cup):
    tournament, first, _, _ = cup

    text = html(as_persona("player").get(find_url(tournament, round=1)))

    assert find_lines(text) == expected_lines(first)
    assert 'name="round" value="1"' in text  # the filter stays on round 1
    assert 'aria-current="page"' in text


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "-1", "x", "9" * 30, ""])
def test_a_round_number_that_is_not_one_shows_the_current_round(as_persona, cup, value):
    tournament, _, second, _ = cup

    text = html(as_persona("player").get(find_url(tournament, round=value)))

    assert find_lines(text) == expected_lines(second)


@pytest.mark.django_db
def test_a_round_that_does_not_exist_is_not_found(as_persona, cup):
    tournament, *_ = cup

    assert_not_found(as_persona("player").get(find_url(tournament, round=7)), tournament.name)


@pytest.fixture
def drafted(club_a):
    """Round 1 confirmed, round 2 a draft."""
    tournament = spring_cup(club_a)
    first = published(tournament)
    play_round(first, deals=3)
    draft = services.round_draft(tournament=tournament)
    return tournament, first, draft


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "player", "secretary", "owner"])
def test_a_draft_is_never_the_current_round(as_persona, drafted, persona):
    tournament, first, draft = drafted
    if persona == "anonymous":
        tournament.club.is_public = True
        tournament.club.save()
    client = as_persona(persona)

    text = html(client.get(find_url(tournament)))
    screen = html(client.get(screen_url(tournament)))

    assert find_lines(text) == expected_lines(first)
    assert "round 1" in text
    if persona == "owner":  # the organiser finds his draft among the rounds, marked
        assert re.search(r"Round 2 <span class=\"badge\">draft</span>", text)
    else:
        assert "Round 2" not in text
    assert "Round 2" not in screen
    assert "Round 1: seating" in screen


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["player", "secretary"])
def test_a_draft_asked_for_by_number_is_not_found(as_persona, drafted, persona):
    tournament, _, draft = drafted

    assert_not_found(as_persona(persona).get(find_url(tournament, round=2)), tournament.name)


@pytest.mark.django_db
def test_the_organiser_previews_the_draft_marked_as_one(as_persona, drafted):
    tournament, _, draft = drafted

    text = html(as_persona("owner").get(find_url(tournament, round=2)))

    assert find_lines(text) == expected_lines(draft)
    assert 'id="find-draft"' in text
    assert "pulka" not in re.search(r'<ul class="find-lines">.*?</ul>', text, re.S).group(0)


@pytest.mark.django_db
def test_before_any_round_is_published_nobody_sees_a_seating(as_persona, club_a):
    tournament = spring_cup(club_a)
    services.round_draft(tournament=tournament)

    for persona in ("player", "owner"):
        page = html(as_persona(persona).get(find_url(tournament)))
        fragment = html(as_persona(persona).get(find_url(tournament, q="a"), headers=HTMX))
        assert find_lines(page) == find_lines(fragment) == []
        assert "The seating is not published yet" in page
        assert "The seating is not published yet" in fragment
        assert 'id="find-q"' not in page


@pytest.mark.django_db
def test_with_five_players_the_one_who_sits_out_is_listed_with_the_reason(as_persona, club_a):
    tournament = spring_cup(club_a, names=UKRAINIAN_TEN[:5])
    round = published(tournament)
    (bye,) = round.seating["byes"]

    text = html(as_persona("player").get(find_url(tournament)))

    assert find_lines(text) == expected_lines(round)
    line = re.search(rf'data-player="{bye["player"]}".*?</li>', text, re.S).group(0)
    assert "Sits out" in line
    assert "one player sits out each round in turn" in line


@pytest.mark.django_db
def test_a_tournament_of_another_club_is_not_found(as_persona, cup, club_b):
    other = spring_cup(club_b, names=("Anna", "Boris", "Vera"))
    url = reverse("competition:tournament-find", args=["sochi", other.pk])

    assert_not_found(as_persona("player").get(url), "Anna", "Boris", "Vera")


@pytest.mark.django_db
def test_find_costs_the_same_queries_for_ten_and_thirty_two_players(as_persona, club_a):
    client = as_persona("player")
    client.get("/")  # the first request of a session reads a little more
    counts = []
    for size in (10, 32):
        tournament = spring_cup(club_a, names=[f"P{size}-{n}" for n in range(size)])
        published(tournament)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(find_url(tournament)).status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


# --- the projector ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "seating", "standings", "expected"),
    [
        (0, 1, 1, Slide("seating", 0, 1, 1)),
        (1, 1, 1, Slide("standings", 0, 1, 0)),
        (2, 1, 1, Slide("seating", 0, 1, 1)),
        (0, 2, 3, Slide("seating", 0, 2, 1)),
        (1, 2, 3, Slide("standings", 0, 3, 2)),
        (2, 2, 3, Slide("seating", 1, 2, 3)),
        (3, 2, 3, Slide("standings", 1, 3, 4)),
        (4, 2, 3, Slide("seating", 0, 2, 5)),
        (5, 2, 3, Slide("standings", 2, 3, 6)),
        (11, 2, 3, Slide("standings", 2, 3, 0)),
        (12, 2, 3, Slide("seating", 0, 2, 1)),  # past the period: as step 0
        (5, 3, 0, Slide("seating", 2, 3, 0)),  # no round confirmed: the seating only
        (4, 0, 3, Slide("standings", 1, 3, 2)),  # no round out: the standings only
        (9, 0, 0, Slide("empty", 0, 0, 0)),
        (10**6, 2, 3, Slide("seating", 0, 2, 5)),  # 10**6 = 4 (mod 12)
    ],
)
def test_the_projector_alternates_seating_and_standings_paging_each(
    step, seating, standings, expected
):
    assert screen_slide(step, seating, standings) == expected


def test_every_step_of_a_cycle_shows_every_page():
    shown = set()
    step = 0
    for _ in range(2 * 2 * 3):
        slide = screen_slide(step, 2, 3)
        shown.add((slide.kind, slide.page))
        step = slide.next
    assert shown == {("seating", 0), ("seating", 1), *(("standings", k) for k in range(3))}
    assert step == 0


def slide_of(text: str) -> tuple[str, int]:
    found = re.search(r'id="screen"[^>]*data-slide="(\w+)" data-page="(\d+)"', text)
    return found.group(1), int(found.group(2))


def next_page(text: str) -> int:
    return int(re.search(r'hx-get="[^"]*\?page=(\d+)"', text).group(1))


@pytest.mark.django_db
def test_the_projector_is_a_bare_page_and_polls_for_its_next_slide(as_persona, cup):
    tournament, *_ = cup
    client = as_persona("player")

    page = assert_full_page(client.get(screen_url(tournament)), "screen")
    fragment = assert_fragment(client.get(screen_url(tournament), headers=HTMX), "screen")

    assert f'hx-trigger="every {REFRESH_SECONDS}s"' in page
    assert f'content="{REFRESH_SECONDS}; url=' in page  # without JavaScript: a refresh
    assert "site-nav" not in page
    assert "site-footer" not in page
    assert "<script>" not in page
    assert 'hx-swap="outerHTML"' in fragment
    assert slide_of(page) == slide_of(fragment) == ("seating", 1)


@pytest.mark.django_db
def test_the_projector_alternates_the_seating_and_the_standings(as_persona, cup):
    tournament, first, second, whists = cup
    client = as_persona("player")
    read = selectors.standings(tournament)
    names = selectors.names(tournament)

    seen, page = [], 0
    for _ in range(4):
        text = html(client.get(screen_url(tournament, page), headers=HTMX))
        seen.append(slide_of(text))
        if slide_of(text)[0] == "seating":
            assert "Round 2: seating" in text
            order = [int(p) for p in re.findall(r'<li data-player="(\d+)"', text)]
            assert order == [player for player, _, _ in expected_lines(second)]
        else:
            assert "Standings after round 1" in text
            rows = re.findall(r'<th scope="row">([^<]+)</th>', text)
            assert rows == [names[line.player] for line in read.lines]
        page = next_page(text)

    assert seen == [("seating", 1), ("standings", 1), ("seating", 1), ("standings", 1)]


@pytest.mark.django_db
def test_the_standings_on_the_projector_are_the_settled_whists(as_persona, cup):
    tournament, _, _, whists = cup
    names = {player.pk: player.name for player in Player.objects.filter(pk__in=whists)}
    order = sorted(whists, key=lambda player: -whists[player])

    text = html(as_persona("player").get(screen_url(tournament, 1)))

    rows = re.findall(
        r'<th scope="row">([^<]+)</th>\s*<td class="num screen-total">([^<]+)</td>', text
    )
    assert [total for _, total in rows] == [total_text(whists[p]) for p in order]
    assert {name for name, _ in rows} == set(names.values())
    assert rows[0][0] in {names[p] for p in whists if whists[p] == whists[order[0]]}


@pytest.mark.django_db
def test_a_long_tournament_pages_both_lists_in_turn(as_persona, club_a):
    names = [f"Гравець {n:02}" for n in range(32)]
    tournament = spring_cup(club_a, names=names)
    play_round(published(tournament), deals=1)
    published(tournament)
    client = as_persona("player")

    shown, page = [], 0
    for _ in range(5):
        text = html(client.get(screen_url(tournament, page)))
        kind, number = slide_of(text)
        size = len(re.findall(r'<li data-player="', text)) or text.count('<th scope="row">')
        shown.append((kind, number, size))
        page = next_page(text)

    assert shown == [
        ("seating", 1, SEATS_PER_SLIDE),
        ("standings", 1, LINES_PER_SLIDE),
        ("seating", 2, 32 - SEATS_PER_SLIDE),
        ("standings", 2, 32 - LINES_PER_SLIDE),
        ("seating", 1, SEATS_PER_SLIDE),
    ]
    assert "page 2 of 2" in html(client.get(screen_url(tournament, 2)))


@pytest.mark.django_db
def test_once_the_last_round_is_confirmed_the_projector_shows_the_final_standings_alone(
    as_persona, club_a
):
    tournament = spring_cup(club_a, round_count=2)
    play_round(published(tournament), deals=1)
    play_round(published(tournament), deals=1)
    tournament.refresh_from_db()
    assert tournament.finished_at is not None
    names = selectors.names(tournament)
    read = selectors.standings(tournament)
    client = as_persona("player")

    seen, page = [], 0
    for _ in range(4):
        text = html(client.get(screen_url(tournament, page), headers=HTMX))
        seen.append(slide_of(text))
        assert 'id="final-standings"' in text
        assert "seating" not in text.split('id="screen"', 1)[1].split("</header>")[0]
        assert re.findall(r'<th scope="row">([^<]+)</th>', text) == [
            names[line.player] for line in read.lines
        ]
        page = next_page(text)

    assert seen == [("standings", 1)] * 4
    assert 'data-player="' not in text


@pytest.mark.django_db
def test_before_any_round_the_projector_waits(as_persona, club_a):
    tournament = spring_cup(club_a)
    services.round_draft(tournament=tournament)

    text = html(as_persona("owner").get(screen_url(tournament, 3)))

    assert slide_of(text) == ("empty", 1)
    assert "as soon as the first round is published" in text
    assert 'data-player="' not in text


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "-1", "٣", "9" * 4301, "x"])
def test_a_page_that_is_no_number_starts_the_cycle(as_persona, cup, value):
    tournament, *_ = cup

    response = as_persona("player").get(screen_url(tournament) + f"?page={value}")

    assert slide_of(html(response)) == ("seating", 1)


@pytest.mark.django_db
def test_the_projector_costs_the_same_queries_for_one_round_and_for_three(as_persona, club_a):
    client = as_persona("player")
    tournament = spring_cup(club_a, round_count=5)
    play_round(published(tournament), deals=1)
    second = published(tournament)
    client.get(screen_url(tournament))  # the first request of a session reads a little more
    counts = []
    with CaptureQueriesContext(connection) as queries:
        assert client.get(screen_url(tournament, 1)).status_code == 200
    counts.append(len(queries))
    play_round(second, deals=1)
    play_round(published(tournament), deals=1)
    published(tournament)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(screen_url(tournament, 1)).status_code == 200
    counts.append(len(queries))

    assert counts[0] == counts[1]


# --- the player's profile -----------------------------------------------------------------------


def tournament_section(text: str) -> str:
    found = re.search(r'<section class="card" id="tournaments".*?</section>', text, re.S)
    assert found, "no tournaments section"
    return found.group(0)


@pytest.mark.django_db
def test_the_profile_lists_the_players_rounds_with_their_whists(as_persona, cup):
    tournament, first, second, whists = cup
    player = player_named(tournament.club, "Віра Бондар")
    place = next(
        line.place for line in selectors.standings(tournament).lines if line.player == player.pk
    )
    seating = {1: selectors.seating_of(first), 2: selectors.seating_of(second)}

    section = tournament_section(html(as_persona("player").get(profile_url(player))))

    assert "Spring Cup" in section
    assert f"Place {place} of 10 after 1 round" in section
    rows = re.findall(r'<tr data-round="(\d)">(.*?)</tr>', section, re.S)
    assert [number for number, _ in rows] == ["1", "2"]
    one, two = rows[0][1], rows[1][1]
    table_1 = seating[1].table_of(player.pk).number
    table_2 = seating[2].table_of(player.pk).number
    assert f">{table_1}</a>" in one
    assert f">{table_2}</a>" in two
    assert f">{signed(whists[player.pk])}</td>" in one
    assert "confirmed" in one
    assert "published" in two
    assert "—" in two


@pytest.mark.django_db
def test_every_players_rounds_hold_the_engines_whists(cup):
    tournament, first, _, whists = cup
    places = {line.player: line.place for line in selectors.standings(tournament).lines}
    for player_id, expected in whists.items():
        (read,) = selectors.player_rounds(Player.objects.get(pk=player_id))
        assert read.rounds[0].whists == expected
        assert read.rounds[0].score == expected  # plain whists: the round counts them
        assert read.rounds[1].whists is None
        assert read.rounds[1].score is None
        assert read.total == expected
        assert read.place == places[player_id]
        assert read.players == 10


@pytest.mark.django_db
def test_under_caps_the_profile_shows_the_whists_and_what_they_count(as_persona, club_a):
    caps = services.caps_from_text("0:1, 5:3/10")  # beyond 5 whists either way, 3/10 of them
    tournament = spring_cup(club_a, scoring=Scoring.CAPS, caps=caps)
    whists = round_whists(play_round(published(tournament), deals=4))
    player = Player.objects.get(pk=max(whists, key=lambda player: abs(whists[player])))
    played = whists[player.pk]
    counted = (5 + Fraction(3, 10) * (abs(played) - 5)) * (1 if played > 0 else -1)
    assert abs(played) > 5, whists

    (read,) = selectors.player_rounds(player)
    section = tournament_section(html(as_persona("player").get(profile_url(player))))

    assert read.rounds[0].whists == played
    assert read.rounds[0].score == counted
    assert f">{signed(played)}</td>" in section
    shown = f">{signed_total(counted)}</span></td>" if counted.denominator > 1 else ""
    assert shown in section
    assert f'<span title="{signed(counted)}">{signed_total(counted)}</span>' in section


@pytest.mark.django_db
def test_the_profile_of_a_player_without_tournaments_has_no_such_section(as_persona, cup, club_a):
    loner = Player.objects.create(club=club_a, name="Самотній")

    text = html(as_persona("player").get(profile_url(loner)))

    assert 'id="tournaments"' not in text
    assert selectors.player_rounds(loner) == []


@pytest.mark.django_db
def test_the_profile_never_shows_a_draft_round(as_persona, drafted):
    tournament, first, draft = drafted
    player = Player.objects.get(pk=draft.seating["tables"][0]["seats"][0])

    section = tournament_section(html(as_persona("player").get(profile_url(player))))

    assert re.findall(r'<tr data-round="(\d)">', section) == ["1"]


@pytest.mark.django_db
def test_a_round_sat_out_shows_on_the_profile(as_persona, club_a):
    tournament = spring_cup(club_a, names=UKRAINIAN_TEN[:5], bye_score=7)
    round = published(tournament)
    (bye,) = round.seating["byes"]
    play_round(round, deals=1)

    (read,) = selectors.player_rounds(Player.objects.get(pk=bye["player"]))

    assert read.rounds[0].table is None
    assert read.rounds[0].score == 7
    section = tournament_section(
        html(as_persona("player").get(profile_url(Player.objects.get(pk=bye["player"]))))
    )
    assert "sat out" in section
    assert ">+7</td>" in section


@pytest.mark.django_db
def test_the_fragment_of_the_profile_does_not_read_the_tournaments(as_persona, cup):
    tournament, *_ = cup
    player = player_named(tournament.club, "Віра Бондар")

    text = assert_fragment(as_persona("player").get(profile_url(player), headers=HTMX), "pulkas")

    assert 'id="tournaments"' not in text


def _profile_queries(client, player: Player) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(profile_url(player)).status_code == 200
    return len(queries)


@pytest.mark.django_db
def test_the_profile_costs_the_same_queries_for_one_tournament_and_for_three(as_persona, club_a):
    client = as_persona("player")
    cup = spring_cup(club_a)
    play_round(published(cup), deals=1)
    player = player_named(club_a, "Віра Бондар")
    _profile_queries(client, player)  # the first request of a session reads a little more
    one = _profile_queries(client, player)

    play_round(published(cup), deals=1)
    for name in ("Autumn Cup", "Winter Cup"):
        other = spring_cup(club_a, name=name)
        play_round(published(other), deals=1)
        published(other)

    assert len(selectors.player_rounds(player)) == 3
    assert _profile_queries(client, player) == one


@pytest.mark.django_db
def test_the_tournaments_cost_the_profile_a_fixed_number_of_queries(as_persona, club_a):
    """Six at most: tournaments, rounds, results, his tables, penalties, names."""
    cup = spring_cup(club_a)
    play_round(published(cup), deals=1)
    player = player_named(club_a, "Віра Бондар")

    with CaptureQueriesContext(connection) as queries:
        selectors.player_rounds(player)

    assert len(queries) == 6


@pytest.mark.django_db
def test_a_tournament_under_another_public_clubs_address_is_not_found(client, open_cup):
    """Anonymous on another public club's address: the tournament is not there."""
    tournament, _ = open_cup
    other = make_club(is_public=True)
    make_member(other)
    url = reverse("competition:tournament-find", args=[other.slug, tournament.pk])

    assert_not_found(client.get(url), tournament.name, UKRAINIAN_TEN[0])


# --- how totals read ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "english", "ukrainian"),
    [
        (Fraction(12), "12", "12"),
        (Fraction(-3), "−3", "−3"),
        (Fraction(617, 5), "123.40", "123,40"),
        (Fraction(317, 3), "105.67", "105,67"),
        (Fraction(-64, 3), "−21.33", "−21,33"),
        (Fraction(-5, 2), "−2.50", "−2,50"),
        (Fraction(-1, 1000), "0.00", "0,00"),  # rounded to nothing: no minus sign
        (None, "", ""),
    ],
)
def test_a_total_reads_whole_or_to_two_decimals_in_the_users_locale(value, english, ukrainian):
    with translation.override("en"):
        assert total_text(value) == english
    with translation.override("uk"):
        assert total_text(value) == ukrainian


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7), "+7"),
        (Fraction(0), "0"),
        (Fraction(1, 1000), "0.00"),
        (Fraction(1, 100), "+0.01"),
        (Fraction(-7), "−7"),
    ],
)
def test_a_signed_total_shows_plus_only_above_zero(value, text):
    assert signed_total(value) == text
