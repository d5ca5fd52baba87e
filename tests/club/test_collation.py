"""One alphabetical order of names (club.names.collation_key), the same on every page."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from club.models import Player
from club.names import collation_key, sort_key
from tests.club.factories import html
from tests.competition.factories import make_tournament, published
from tests.conftest import make_evening, make_member, make_player

# Each row: names in, the alphabetical order out.
ORDERS = [
    pytest.param(
        ["Ігор", "Андрій", "Яна", "Ґанна", "Богдан"],
        ["Андрій", "Богдан", "Ґанна", "Ігор", "Яна"],
        id="ukrainian-a-b-g-i-ya",
    ),
    pytest.param(["Ґанна", "Гліб", "Дмитро"], ["Гліб", "Ґанна", "Дмитро"], id="ge-after-he"),
    pytest.param(["Єва", "Жанна", "Емма"], ["Емма", "Єва", "Жанна"], id="ye-after-e"),
    pytest.param(["Ёлка", "Жанна", "Елена"], ["Елена", "Ёлка", "Жанна"], id="yo-after-e"),
    pytest.param(
        ["Йосип", "Їжак", "Ірина", "Иван", "Кирило"],
        ["Иван", "Ірина", "Їжак", "Йосип", "Кирило"],
        id="y-i-yi-short-y",
    ),
    pytest.param(
        ["Щука", "Юлія", "Эрик", "Ьа", "Ыра", "Ъб", "Яна"],
        ["Щука", "Ъб", "Ыра", "Ьа", "Эрик", "Юлія", "Яна"],
        id="russian-tail",
    ),
    pytest.param(["ярослав", "Андрій", "АННА"], ["Андрій", "АННА", "ярослав"], id="case-aside"),
    pytest.param(
        ["Zoe", "Anna", "Богдан", "Émile"], ["Anna", "Émile", "Zoe", "Богдан"], id="latin"
    ),
    pytest.param(["Eva", "Éva", "Ewa"], ["Eva", "Éva", "Ewa"], id="accent-after-plain-letter"),
    pytest.param(
        ["О\u0301льга", "Олена", "Оксана"],  # a stress mark does not move a name
        ["Оксана", "Олена", "О\u0301льга"],
        id="stress-mark-aside",
    ),
    pytest.param(
        ["Мар’яна", "Марія", "Марта"], ["Марія", "Марта", "Мар’яна"], id="apostrophe-aside"
    ),
    pytest.param(
        ["Аннабель", "Анна Шевченко", "Анна"],
        ["Анна", "Анна Шевченко", "Аннабель"],
        id="a-space-before-a-letter",
    ),
    pytest.param(["Ѯ", "Я", "Ω", "1 Анна"], ["1 Анна", "Я", "Ω", "Ѯ"], id="other-letters"),
]


@pytest.mark.parametrize(("names", "ordered"), ORDERS)
def test_names_sort_in_the_alphabets_order(names, ordered):
    assert sorted(names, key=collation_key) == ordered


def test_names_that_differ_beyond_case_never_share_a_key():
    names = ["Eva", "Éva", "Мар'яна", "Мар’яна", "Маряна", "Ёлка", "Елка"]

    assert len({collation_key(name) for name in names}) == len(names)


def test_one_letter_in_either_unicode_spelling_is_one_letter():
    assert collation_key("Й") == collation_key("И\u0306") == collation_key("й")
    assert collation_key("Ї") == collation_key("І\u0308") < collation_key("Й")


def test_the_key_sorts_alike_as_any_database_sorts_text():
    # Four lowercase hex digits a character: a collation of any locale orders them so.
    assert re.fullmatch("(?:[0-9a-f]{4})+", collation_key("Ґанна Ё-Ї 1 Éva ß"))


def test_the_stored_key_is_cut_to_its_column():
    assert len(sort_key("Ю" * 60)) <= Player._meta.get_field("sort_key").max_length


def test_the_letters_in_order_are_a_permutation_of_their_code_points():
    # Every Cyrillic letter of uk, ru and be has a rank, and no two share one.
    letters = "абвгґдеёєжзиіїйклмнопрстуўфхцчшщъыьэюя"
    assert sorted(letters, key=collation_key) == list(letters)


# The database sorts as Python does: the roster's stored key


UKRAINIAN = ["Ігор", "Андрій", "Яна", "Ґанна", "Богдан"]
IN_ORDER = ["Андрій", "Богдан", "Ґанна", "Ігор", "Яна"]


def _order_in(text: str, names: list[str]) -> list[str]:
    return sorted(names, key=text.index)


@pytest.mark.django_db
def test_the_roster_and_the_club_page_list_names_in_one_order(as_persona, club_a):
    for name in UKRAINIAN:
        make_player(club_a, name)
    client = as_persona("secretary")

    roster = html(client.get("/c/sochi/players/"))
    club = html(client.get("/c/sochi/"))

    assert _order_in(roster, UKRAINIAN) == IN_ORDER
    assert _order_in(club, UKRAINIAN) == IN_ORDER


@pytest.mark.django_db
def test_a_renamed_player_takes_his_new_place(club_a):
    igor = make_player(club_a, "Ігор")
    make_player(club_a, "Богдан")

    igor.name = "Андрій"
    igor.save(update_fields=["name"])

    assert list(Player.objects.filter(club=club_a).values_list("name", flat=True)) == [
        "Андрій",
        "Богдан",
    ]


@pytest.mark.django_db
def test_players_made_in_bulk_have_their_key(club_a):
    Player.objects.bulk_create([Player(club=club_a, name="Яна"), Player(club=club_a, name="Ґанна")])

    assert list(Player.objects.filter(club=club_a).values_list("name", flat=True)) == [
        "Ґанна",
        "Яна",
    ]


@pytest.mark.django_db
def test_the_members_page_lists_members_in_the_same_order(as_persona, club_a, owner):
    for name in UKRAINIAN:
        make_member(club_a, first_name=name)

    text = html(as_persona("owner").get("/c/sochi/members/"))

    assert _order_in(text, UKRAINIAN) == IN_ORDER


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_key_as_the_function_makes_it():
    before = [("club", "0010_invitations_with_consent")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldClub, OldPlayer = old.get_model("club", "Club"), old.get_model("club", "Player")  # noqa: N806
    club = OldClub.objects.create(name="Old", slug="old")
    for name in [*UKRAINIAN, "Éva Мар’яна", "Ё" * 60]:
        OldPlayer.objects.create(club=club, name=name, name_key=name.casefold())

    call_command("migrate", verbosity=0)

    rows = list(Player.objects.filter(club_id=club.pk).values_list("name", "sort_key"))
    assert [(name, key) for name, key in rows] == [(name, sort_key(name)) for name, _ in rows]
    assert [name for name, _ in rows] == sorted((name for name, _ in rows), key=collation_key)


@pytest.mark.django_db
def test_the_new_tables_seats_and_the_tournament_pages_list_names_in_the_same_order(
    as_persona, club_a
):
    tournament = make_tournament(club_a, names=UKRAINIAN)
    published(tournament)  # the penalty form names the players of a round out
    evening = make_evening(club_a)
    client = as_persona("owner")
    base = f"/c/sochi/tournaments/{tournament.pk}"

    seats = html(client.get(f"/c/sochi/s/{evening.pk}/tables/new/"))
    entries = html(client.get(f"{base}/entries/"))
    penalties = html(client.get(f"{base}/penalties/"))

    seat_1 = seats[seats.index('name="seat_0"') :]
    assert _order_in(seat_1[: seat_1.index("</select>")], UKRAINIAN) == IN_ORDER
    table = entries[entries.index('class="data entry-list"') :]
    assert _order_in(table, UKRAINIAN) == IN_ORDER
    select = penalties[penalties.index('name="player"') :]
    assert _order_in(select[: select.index("</select>")], UKRAINIAN) == IN_ORDER
