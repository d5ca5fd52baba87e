"""One spelling of a name: club.names, the roster's services and forms, and the key migration.

The database tests run on SQLite and again on PostgreSQL (`make test`): the point of the
stored key is that both refuse the same duplicates.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from club import services
from club.models import Player
from club.names import InvalidName, name_key, normalise_name
from club.services import ClubError
from tests.club.factories import html
from tests.conftest import make_club, make_player

# Tidying


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Олена ", "Олена"),
        ("Андрій  ", "Андрій"),
        ("Anna \t  Petrova", "Anna Petrova"),
        ("Anna\u00a0Petrova", "Anna Petrova"),  # a no-break space is a space
        ("Anna\nPetrova", "Anna Petrova"),
        ("Zoe\u0301", "Zoé"),  # e + combining acute: one letter, NFC
    ],
)
def test_a_name_is_stored_trimmed_collapsed_and_composed(typed, stored):
    assert normalise_name(typed) == stored
    assert unicodedata.is_normalized("NFC", normalise_name(typed))


@pytest.mark.parametrize(
    ("invisible", "code"),
    [
        ("\u200b", "U+200B"),  # zero-width space
        ("\u200d", "U+200D"),  # zero-width joiner
        ("\u200c", "U+200C"),  # zero-width non-joiner
        ("\u200f", "U+200F"),  # right-to-left mark
        ("\u202e", "U+202E"),  # right-to-left override
        ("\u2066", "U+2066"),  # left-to-right isolate
        ("\ufeff", "U+FEFF"),  # byte order mark
        ("\x00", "U+0000"),
        ("\x1b", "U+001B"),  # escape
        ("\x7f", "U+007F"),
        ("\ud800", "U+D800"),  # a lone surrogate (from a JSON file)
    ],
)
def test_invisible_and_control_characters_are_refused_by_their_code_point(invisible, code):
    with pytest.raises(InvalidName, match=re.escape(f"({code})")) as error:
        normalise_name(f"Ол{invisible}ена")

    assert error.value.field == "name"


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200b", "\u2060"])
def test_a_name_of_invisible_characters_alone_is_refused(name):
    with pytest.raises(InvalidName, match="invisible or control character"):
        normalise_name(name)


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_an_empty_name_is_refused(name):
    with pytest.raises(InvalidName, match="Write the player's name."):
        normalise_name(name)


@pytest.mark.parametrize("name", ["-", "...", "— —"])
def test_a_name_without_a_letter_or_digit_is_refused(name):
    with pytest.raises(InvalidName, match="at least one letter or digit"):
        normalise_name(name)


def test_a_name_longer_than_the_roster_keeps_is_refused_after_tidying():
    assert normalise_name(" " + "я" * 60 + " ") == "я" * 60
    with pytest.raises(InvalidName, match="at most 60 characters"):
        normalise_name("я" * 61)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("ОЛЕНА", "Олена"),
        ("ТАРАС", "Тарас"),
        ("Ірина", "ірина"),
        ("ЇЖАК", "їжак"),
        ("Straße", "STRASSE"),
        ("Zoé", "ZOE\u0301"),
        (" Anna  Petrova", "anna petrova"),
    ],
)
def test_names_that_differ_by_case_spelling_or_spaces_share_a_key(one, other):
    assert name_key(one) == name_key(other)


def test_different_names_have_different_keys():
    assert name_key("Олена") != name_key("Олена Іванівна")
    assert name_key("Ирина") != name_key("Ірина")  # Russian и and Ukrainian і are letters apart


# The roster's services, on the database


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second"),
    [("Олена", "ОЛЕНА"), ("ОЛЕНА", "олена"), ("Їжак", "їЖАК"), ("Anna", " ANNA ")],
)
def test_player_add_refuses_a_cyrillic_name_that_differs_only_by_case(first, second):
    club = make_club()
    services.player_add(club=club, name=first)

    with pytest.raises(ClubError, match=f"There is already a player called {first}.") as error:
        services.player_add(club=club, name=second)

    assert error.value.field == "name"
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == [first]


@pytest.mark.django_db
def test_player_update_refuses_to_rename_onto_another_players_name_in_any_case():
    club = make_club()
    services.player_add(club=club, name="Олена")
    taras = services.player_add(club=club, name="Тарас")

    with pytest.raises(ClubError, match="There is already a player called Олена."):
        services.player_update(player=taras, name="олЕНА", user=None, is_active=True)

    taras.refresh_from_db()
    assert (taras.name, taras.name_key) == ("Тарас", "тарас")


@pytest.mark.django_db
def test_player_update_may_change_the_case_of_the_players_own_name():
    club = make_club()
    olena = services.player_add(club=club, name="олена")

    services.player_update(player=olena, name="  Олена ", user=None, is_active=True)

    olena.refresh_from_db()
    assert (olena.name, olena.name_key) == ("Олена", "олена")


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\u200b", "Ол\u200bена", "Anna\x00", "\u202eanna"])
def test_the_roster_refuses_invisible_characters_and_adds_nobody(name):
    club = make_club()
    anna = services.player_add(club=club, name="Anna")

    with pytest.raises(ClubError, match="invisible or control character") as error:
        services.player_add(club=club, name=name)
    assert error.value.field == "name"
    with pytest.raises(ClubError, match="invisible or control character"):
        services.player_update(player=anna, name=name, user=None, is_active=True)

    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Anna"]


@pytest.mark.django_db
def test_the_database_itself_refuses_two_players_with_one_key():
    club = make_club()
    make_player(club, "Олена")

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="ОЛЕНА")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(club=club, name="олена")])


@pytest.mark.django_db
def test_every_write_of_a_name_writes_its_key():
    club = make_club()
    olena = make_player(club, "ОЛЕНА")
    assert olena.name_key == "олена"

    olena.name = "Straße"
    olena.save(update_fields=["name"])
    (bulk,) = Player.objects.bulk_create([Player(club=club, name="ТАРАС")])

    assert Player.objects.get(pk=olena.pk).name_key == "strasse"
    assert Player.objects.get(name="ТАРАС").name_key == "тарас"
    assert bulk.name_key == "тарас"


@pytest.mark.django_db
def test_roster_players_for_names_matches_by_key_and_adds_the_rest_tidied():
    club = make_club()
    olena = make_player(club, "Олена")
    taras = make_player(club, "Тарас")

    found = services.roster_players_for_names(club=club, names=[" Олена", "ТАРАС", "Андрій  "])

    assert found[:2] == [olena, taras]
    assert found[2].name == "Андрій"
    assert Player.objects.filter(club=club).count() == 3


@pytest.mark.django_db
def test_roster_players_for_names_refuses_one_person_twice():
    club = make_club()

    with pytest.raises(ClubError, match="Тарас and ТАРАС are the same player"):
        services.roster_players_for_names(club=club, names=["Тарас", "ТАРАС", "Олена"])

    assert not Player.objects.filter(club=club).exists()


# The roster page


@pytest.mark.django_db
def test_the_roster_page_shows_the_refusal_of_an_invisible_name(as_persona, club_a):
    response = as_persona("secretary").post("/c/sochi/players/", {"name": "\u200b"})

    assert response.status_code == 200
    assert "invisible or control character (U+200B)" in html(response)
    assert not Player.objects.filter(club=club_a).exists()


@pytest.mark.django_db
def test_the_roster_page_refuses_a_cyrillic_duplicate(as_persona, club_a):
    make_player(club_a, "Олена")

    response = as_persona("secretary").post("/c/sochi/players/", {"name": "ОЛЕНА"})

    assert "There is already a player called Олена." in html(response)
    assert Player.objects.filter(club=club_a).count() == 1


# The migration that filled the keys


@pytest.mark.django_db(transaction=True)
def test_the_key_migration_keeps_clashing_players_apart_and_says_so(caplog):
    before = [("club", "0004_club_results_version")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldClub, OldPlayer = old.get_model("club", "Club"), old.get_model("club", "Player")  # noqa: N806
    club = OldClub.objects.create(name="Old", slug="old")
    other = OldClub.objects.create(name="Other", slug="other")
    first = OldPlayer.objects.create(club=club, name="Олена")
    second = OldPlayer.objects.create(club=club, name="ОЛЕНА")
    elsewhere = OldPlayer.objects.create(club=other, name="олена")
    taras = OldPlayer.objects.create(club=club, name="Тарас")

    with caplog.at_level("WARNING", logger="club.migrations"):
        call_command("migrate", verbosity=0)

    keys = dict(Player.objects.values_list("pk", "name_key"))
    assert keys[first.pk] == "олена"
    assert keys[second.pk] == f"олена  #{second.pk}"
    assert keys[elsewhere.pk] == "олена"  # another club: no clash
    assert keys[taras.pk] == "тарас"
    assert Player.objects.get(pk=second.pk).name == "ОЛЕНА"  # nobody lost
    assert str(second.pk) in caplog.text
    assert "merge them on the roster" in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "problem"),
    [("ОЛЕНА", "There is already a player called Олена."), ("Ол\u200bена", "U+200B")],
)
def test_a_player_form_outside_the_services_follows_the_same_rules(typed, problem):
    club = make_club()
    make_player(club, "Олена")

    with pytest.raises(ValidationError) as error:
        Player(club=club, name=typed).full_clean()

    assert problem in " ".join(error.value.message_dict["name"])


@pytest.mark.django_db
def test_a_player_form_outside_the_services_stores_the_tidied_name():
    player = Player(club=make_club(), name="  Тарас   Шевченко ")

    player.full_clean()
    player.save()

    assert (player.name, player.name_key) == ("Тарас Шевченко", "тарас шевченко")
