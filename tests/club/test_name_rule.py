"""One rule for every name a person types and others read (club.names.normalise_text), tested
once here as a table; then, for each form of the club's and the account's pages, that it
refuses a right-to-left override and changes nothing, and the services apply it too.

The tournament, league and evening forms have their tests beside their pages'
(tests/competition/test_name_rule_forms.py, tests/scoring/test_evening_names.py).
"""

from __future__ import annotations

import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from club import services
from club.account_adapter import AccountAdapter
from club.account_forms import AccountForm, SignupForm
from club.forms import ClubCreateForm, ClubSettingsForm
from club.models import Club, Membership
from club.names import (
    EMPTY,
    INVISIBLE,
    NO_LETTER,
    TOO_LONG,
    InvalidName,
    NameField,
    normalise_name,
    normalise_text,
)
from club.services import ClubError
from tests.club.factories import html
from tests.conftest import PASSWORD, make_user

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "Клуб\u202eанна" shows as "Клубаннa" reversed


# --- the rule ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "multiline", "stored"),
    [
        ("  Сочинка  ", False, "Сочинка"),
        ("Клуб \t  Сочі", False, "Клуб Сочі"),
        ("Клуб\u00a0Сочі", False, "Клуб Сочі"),  # a no-break space is a space
        ("Клуб\nСочі", False, "Клуб Сочі"),  # a line break in a one-line name: a space
        ("Клуб\r\nСочі", False, "Клуб Сочі"),
        ("Клуб\u2028Сочі", False, "Клуб Сочі"),  # LINE SEPARATOR is whitespace too
        ("Zoe\u0301", False, "Zo\u00e9"),  # e + combining acute: composed (NFC)
        ("Ю\u0301рий", False, "Ю\u0301рий"),  # no composed Ю́: the accent is kept
        ("Ж\u0306ук", False, "\u04c1ук"),  # Ж + combining breve: one letter
        ("", False, ""),  # not required: empty is no name
        ("   ", False, ""),
        # Multi-line (notes): line breaks kept (any kind becomes \n), each line tidied, at most
        # one empty line in a row, none at the ends.
        ("Bring\r\n  the  cards ", True, "Bring\nthe cards"),
        ("\n\nOne\n\n\n\nTwo\n\n", True, "One\n\nTwo"),
        ("One\u2029Two\rThree", True, "One\nTwo\nThree"),
        ("Ка\u0301ва", True, "Ка\u0301ва"),
    ],
)
def test_the_rule_stores_a_text_tidied_and_composed(typed, multiline, stored):
    result = normalise_text(
        typed, max_length=60, what="The name", multiline=multiline, required=False
    )

    assert result == stored
    assert unicodedata.is_normalized("NFC", result)


@pytest.mark.parametrize(
    ("typed", "code", "shown"),
    [
        (f"Клуб{RLO}анна", INVISIBLE, "U+202E"),  # right-to-left override
        ("Клуб\u202dанна", INVISIBLE, "U+202D"),  # left-to-right override
        ("Клуб\u2067анна", INVISIBLE, "U+2067"),  # right-to-left isolate
        ("Клуб\u200fанна", INVISIBLE, "U+200F"),  # right-to-left mark
        ("Клуб\u200bанна", INVISIBLE, "U+200B"),  # zero-width space
        ("Клуб\u200dанна", INVISIBLE, "U+200D"),  # zero-width joiner
        ("\ufeffКлуб", INVISIBLE, "U+FEFF"),  # byte order mark
        ("Клуб\x00", INVISIBLE, "U+0000"),  # NUL
        ("Клуб\x1b[31m", INVISIBLE, "U+001B"),  # escape (a terminal's colours)
        ("Со\u00adчі", INVISIBLE, "U+00AD"),  # soft hyphen
        ("Клуб\ud800", INVISIBLE, "U+D800"),  # a lone surrogate
        ("\u200b", INVISIBLE, "U+200B"),  # invisible alone: refused as such, not as empty
        ("—", NO_LETTER, "at least one letter or digit"),
        ("...", NO_LETTER, "at least one letter or digit"),
        ("я" * 61, TOO_LONG, "at most 60 characters"),
    ],
)
@pytest.mark.parametrize("multiline", [False, True])
def test_the_rule_refuses_invisible_direction_and_control_characters(typed, code, shown, multiline):
    with pytest.raises(InvalidName) as refused:
        normalise_text(typed, max_length=60, what="The club's name", multiline=multiline)

    assert refused.value.code == code
    assert shown in refused.value.message
    assert refused.value.message.startswith("The club's name ")


@pytest.mark.parametrize("typed", ["", "   ", "\n\t"])
def test_the_rule_refuses_an_empty_required_text_naming_the_field(typed):
    with pytest.raises(InvalidName) as refused:
        normalise_text(typed, max_length=60, what="The league's name")

    assert refused.value.code == EMPTY
    assert refused.value.message == "The league's name is empty: write it."


def test_the_length_is_counted_after_tidying():
    assert normalise_text("  " + "я" * 60 + "\n ", max_length=60, what="The name") == "я" * 60


def test_only_a_multi_line_text_keeps_line_breaks_and_it_still_refuses_an_override():
    assert normalise_text("a\nb", max_length=9, what="N", multiline=True) == "a\nb"
    assert normalise_text("a\nb", max_length=9, what="N") == "a b"
    with pytest.raises(InvalidName, match="U\\+202E"):
        normalise_text(f"a\n{RLO}b", max_length=9, what="N", multiline=True)


@pytest.mark.parametrize(
    "typed", [f"Ол{RLO}ена", "Ол\u200bена", "\ufeffОлена", "Олена\x00", "Ол\u00adена", "—", ""]
)
def test_the_roster_follows_the_same_rule_in_its_own_words(typed):
    with pytest.raises(InvalidName) as general:
        normalise_text(typed, max_length=60, what="The player's name")
    with pytest.raises(InvalidName) as roster:
        normalise_name(typed)

    assert roster.value.code == general.value.code
    assert roster.value.field == "name"


def test_the_form_field_turns_a_refusal_into_its_own_error():
    field = NameField(what="The team's name", max_length=60, required=False)

    assert field.clean("  Aces   high ") == "Aces high"
    assert field.clean("") == ""
    with pytest.raises(ValidationError, match="The team's name contains an invisible") as refused:
        field.clean(f"Aces{RLO}")
    assert refused.value.code == INVISIBLE


# --- the club's forms, on their pages ----------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["name", "city"])
def test_creating_a_club_refuses_an_override_in_its_name_or_city_and_opens_none(client, field):
    client.force_login(make_user())
    data = {"name": "Odesa Pulka", "slug": "odesa", "city": "Odesa", "is_public": "on"}
    data[field] = f"Odesa{RLO}Pulka"

    response = client.post("/clubs/new/", data)

    assert response.status_code == 200
    assert "invisible, direction or control character (U+202E)" in html(response)
    assert not Club.objects.filter(slug="odesa").exists()
    assert not ClubCreateForm(data).is_valid()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["name", "city"])
def test_the_club_settings_refuse_an_override_and_rename_nothing(as_persona, club_a, field):
    data = {"name": "Sochi Club", "city": "Adler", "is_public": ""}
    data[field] = f"Sochi{RLO}bulC"
    before = (club_a.name, club_a.city)

    response = as_persona("owner").post("/c/sochi/settings/", data)

    assert response.status_code == 200
    assert "(U+202E)" in html(response)
    club_a.refresh_from_db()
    assert (club_a.name, club_a.city) == before
    assert field in ClubSettingsForm(data, instance=club_a).errors


@pytest.mark.django_db
def test_the_account_page_refuses_an_override_in_the_display_name(client):
    user = make_user(first_name="Olena")
    client.force_login(user)

    response = client.post("/accounts/profile/", {"name": f"Olena{RLO}", "language": ""})

    assert response.status_code == 200
    assert "Your name contains an invisible, direction or control character" in html(response)
    user.refresh_from_db()
    assert user.first_name == "Olena"
    assert AccountForm({"name": "", "language": ""}).is_valid()  # no name at all is allowed


@pytest.mark.django_db
def test_sign_up_refuses_an_override_in_the_name_and_makes_no_account(client):
    data = {
        "email": "oksana@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "first_name": f"Оксана{RLO}",
    }

    response = client.post("/accounts/signup/", data)

    assert response.status_code == 200
    assert "(U+202E)" in html(response)
    assert not get_user_model().objects.filter(email="oksana@example.org").exists()
    assert "first_name" in SignupForm(data).errors


# --- the services, whatever calls them ----------------------------------------------------------


@pytest.mark.django_db
def test_club_create_refuses_an_override_and_opens_nothing():
    owner = make_user()

    with pytest.raises(ClubError, match="U\\+202E") as refused:
        services.club_create(name=f"Клуб{RLO}", slug="twin", city="", is_public=True, owner=owner)

    assert refused.value.field == "name"
    assert not Club.objects.filter(slug="twin").exists()
    assert not Membership.objects.filter(user=owner).exists()


@pytest.mark.django_db
def test_club_create_and_update_store_the_names_tidied():
    club = services.club_create(
        name="  Клуб  Сочі ", slug="sochi-2", city=" Київ\n", is_public=True, owner=make_user()
    )
    assert (club.name, club.city) == ("Клуб Сочі", "Київ")

    with pytest.raises(ClubError, match="U\\+200B") as refused:
        services.club_update(club=club, name="Клуб", city="Ки\u200bїв", is_public=True)
    assert refused.value.field == "city"
    club.refresh_from_db()
    assert (club.name, club.city) == ("Клуб Сочі", "Київ")


@pytest.mark.django_db
def test_account_update_refuses_an_override_and_keeps_the_name():
    user = make_user(first_name="Olena")

    with pytest.raises(ClubError, match="U\\+202E"):
        services.account_update(user=user, name=f"{RLO}Olena", language="")

    user.refresh_from_db()
    assert user.first_name == "Olena"
    services.account_update(user=user, name="  Olena   K ", language="")
    assert user.first_name == "Olena K"


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "stored"), [(f"Оксана{RLO}", ""), ("  Оксана  П ", "Оксана П")])
def test_the_sign_up_adapter_saves_only_a_name_the_rule_takes(typed, stored):
    request = RequestFactory().post("/accounts/signup/")
    request.user = AnonymousUser()
    form = SignupForm()
    form.cleaned_data = {"email": "oksana@example.org", "password1": PASSWORD, "first_name": typed}

    user = AccountAdapter(request).save_user(request, get_user_model()(), form)

    user.refresh_from_db()
    assert user.first_name == stored
