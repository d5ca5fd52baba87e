"""The account pages and mails in the reader's words, the footer's convention, the caps'
decimals, a plural that agrees, and the favicon (issue 23, findings 6 and 17).

allauth's own uk and ru texts left "Email" in English on the sign-up form, wrote labels and
mail subjects in Title Case, and ran two words together ("адресоюелектронної"); the site's
templates and forms say it in msgids of its own, which our catalogs translate.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from django.contrib.sites.models import Site
from django.contrib.staticfiles import finders
from django.core import mail
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import ngettext

from club.models import Role
from tests.club.factories import visible_text
from tests.conftest import PASSWORD, make_club, make_evening, make_member, make_pulka, make_user

pytestmark = pytest.mark.django_db

LANGUAGES = ("uk", "ru")
# What allauth's catalogs showed on these pages, and allauth's English that must not leak.
BROKEN = ("адресоюелектронної", "Email", "Password", "Sign", "Forgot", "Remember", "e-mail")
TITLE_CASE = re.compile(r"\b[А-ЯІЇЄҐЁ][а-яіїєґё’']+ [А-ЯІЇЄҐЁ][а-яіїєґё’']+ [А-ЯІЇЄҐЁ]")
# Latin that is the same in every language: the language switch, addresses, the site's name.
ALLOWED = {"UK", "RU", "EN", "Pulka"}
ADDRESS = re.compile(r"\S+@\S+")


def visible(html: str) -> str:
    return " ".join(visible_text(html).split())


def latin_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z][A-Za-z'-]+", ADDRESS.sub("", text))) - ALLOWED


def account_pages(client, language: str) -> dict[str, str]:
    """Every allauth page the site shows, as the reader in `language` sees it."""
    headers = {"accept-language": language}
    pages = {}

    def see(name, response):
        assert response.status_code == 200, name
        assert f'<html lang="{language}">' in response.content.decode(), name
        # The page's own part: the header and the footer are every page's (tested below).
        pages[name] = visible(
            "<main" + response.content.decode().split("<main")[1].split("</main>")[0]
        )

    for path in (
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/password/reset/done/",
        "/accounts/confirm-email/",
        "/accounts/inactive/",
        "/accounts/password/reset/key/done/",
    ):
        see(path, client.get(path, headers=headers))
    see("wrong login", client.post("/accounts/login/", {"login": "x@example.org"}, headers=headers))
    see(
        "wrong sign-up",
        client.post(
            "/accounts/signup/",
            {"email": "not an address", "password1": "1", "password2": "2"},
            headers=headers,
        ),
    )
    user = make_user(username="олена", email="olena@example.org")
    address = EmailAddress.objects.create(user=user, email=user.email, primary=True)
    key = EmailConfirmationHMAC(address).key
    see("confirm", client.get(f"/accounts/confirm-email/{key}/", headers=headers))
    see("stale confirm", client.get("/accounts/confirm-email/stale/", headers=headers))
    token = default_token_generator.make_token(user)
    reset = f"/accounts/password/reset/key/{user_pk_to_url_str(user)}-{token}/"
    see("new password", client.get(reset, headers=headers, follow=True))
    see("stale reset", client.get(reset.replace(token, "used-up"), headers=headers))
    client.force_login(user)
    for path in (
        "/accounts/email/",
        "/accounts/password/change/",
        "/accounts/reauthenticate/",
        "/accounts/logout/",
    ):
        see(path, client.get(path, headers=headers))
    see(
        "wrong password change",
        client.post(
            "/accounts/password/change/",
            {"oldpassword": "x", "password1": "1", "password2": "2"},
            headers=headers,
        ),
    )
    return pages


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_account_page_speaks_the_readers_language(client, language):
    pages = account_pages(client, language)

    for name, text in pages.items():
        assert not [word for word in BROKEN if word in text], (name, text)
        assert latin_words(text) == set(), (name, text)
        assert not TITLE_CASE.search(text), (name, TITLE_CASE.search(text).group(0))


def test_the_sign_up_form_names_the_address_in_ukrainian(client):
    text = visible(
        client.get("/accounts/signup/", headers={"accept-language": "uk"}).content.decode()
    )

    assert "Адреса електронної пошти" in text
    assert "Email" not in text


def test_the_confirmation_page_keeps_its_words_apart(client):
    user = make_user(username="olena", email="olena@example.org")
    address = EmailAddress.objects.create(user=user, email=user.email, primary=True)
    key = EmailConfirmationHMAC(address).key

    html = client.get(
        f"/accounts/confirm-email/{key}/", headers={"accept-language": "uk"}
    ).content.decode()

    assert "адреса електронної пошти облікового запису olena" in html
    assert "адресоюелектронної" not in html


def test_a_mistyped_address_is_refused_in_the_readers_words(client):
    html = client.post(
        "/accounts/signup/",
        {"email": "olena at example", "password1": PASSWORD, "password2": PASSWORD},
        headers={"accept-language": "uk"},
    ).content.decode()

    assert "Введіть адресу електронної пошти на кшталт name@example.org." in html
    assert "email адресу" not in html  # Django's uk text


# --- mails ---------------------------------------------------------------------------------------


def sentence_case(subject: str) -> bool:
    """Only the first word starts with a capital (names aside: these subjects have none)."""
    words = subject.split()
    return words[0][0].isupper() and all(not w[0].isupper() for w in words[1:])


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_account_mails_come_from_the_site_in_sentence_case(client, settings, language):
    Site.objects.filter(pk=settings.SITE_ID).update(
        name="Пулька Ростов", domain="pulka.example.org"
    )
    make_user(username="olena", email="olena@example.org")
    headers = {"accept-language": language}

    client.post(
        "/accounts/signup/",
        {"email": "anna@example.org", "password1": PASSWORD, "password2": PASSWORD},
        headers=headers,
        HTTP_HOST="127.0.0.1:8101",
    )
    client.post("/accounts/password/reset/", {"email": "olena@example.org"}, headers=headers)

    assert len(mail.outbox) == 2
    for message in mail.outbox:
        prefix = "[Пулька Ростов] "
        assert message.subject.startswith(prefix), message.subject
        assert sentence_case(message.subject.removeprefix(prefix)), message.subject
        assert "Пулька Ростов" in message.body
        assert "pulka.example.org" in message.body
        assert "127.0.0.1" not in message.body
        assert "8101" not in message.body
        assert "Pulka!" not in message.body  # allauth's ru closing put the "!" in the name
    if language == "en":
        assert [m.subject for m in mail.outbox] == [
            "[Пулька Ростов] Confirm your e-mail address",
            "[Пулька Ростов] A link to set a new password",
        ]


def test_the_sentence_case_check_refuses_title_case():
    assert sentence_case("Confirm your e-mail address")
    assert not sentence_case("Please Confirm Your Email Address")
    assert not sentence_case("Будь Ласка, Підтвердіть Вашу Адресу")


# --- the footer ---------------------------------------------------------------------------------


def footer(html: str) -> str:
    return visible(html.split('<footer class="site-footer">')[1].split("</footer>")[0])


def test_the_footer_names_the_clubs_convention(client):
    club = make_club(name="Ростовчани", slug="rostov", is_public=True, rules={"preset": "rostov"})

    text = footer(
        client.get(f"/c/{club.slug}/", headers={"accept-language": "uk"}).content.decode()
    )

    assert "Ростов" in text
    assert "Сочинка" not in text


def test_the_footer_names_the_pulkas_own_convention(client):
    club = make_club(slug="mixed", is_public=True, rules={"preset": "rostov"})
    pulka = make_pulka(make_evening(club), rules={"preset": "leningrad"})

    text = footer(
        client.get(pulka.get_absolute_url(), headers={"accept-language": "ru"}).content.decode()
    )

    assert "Ленинградка (Питер)" in text
    assert "Ростов" not in text


def test_outside_a_club_the_footer_names_no_convention(client):
    make_club(slug="rostov", is_public=True, rules={"preset": "rostov"})

    text = footer(client.get("/", headers={"accept-language": "uk"}).content.decode())

    assert text == "Пулька веде рахунок преферансу точно до віста."


def test_a_club_without_a_chosen_convention_plays_sochi(client):
    club = make_club(slug="plain", is_public=True)

    text = footer(
        client.get(f"/c/{club.slug}/", headers={"accept-language": "uk"}).content.decode()
    )

    assert "Сочинка" in text


# --- numbers and plurals in the rule text ---------------------------------------------------------


@pytest.mark.parametrize(("language", "factor"), [("uk", "×0,1"), ("ru", "×0,1"), ("en", "×0.1")])
def test_the_caps_steps_use_the_locales_decimal_sign(language, factor):
    from competition.tournament import selectors

    class Caps:
        steps = ((Fraction(0), Fraction(1)), (Fraction(200), Fraction(1, 10)), (Fraction(650), 0))
        mirror = True

    original = selectors.caps_of
    selectors.caps_of = lambda tournament: Caps
    try:
        with translation.override(language):
            words = selectors.caps_words(None)
    finally:
        selectors.caps_of = original

    assert f"{factor} " in words
    assert ("×0.1" in words) == (language == "en")


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("uk", 1, "1 гравець заявлений, з туру 2."),
        ("uk", 3, "3 гравці заявлені, з туру 2."),
        ("uk", 5, "5 гравців заявлено, з туру 2."),
        ("uk", 21, "21 гравець заявлений, з туру 2."),
        ("ru", 1, "1 игрок заявлен, с тура 2."),
        ("ru", 2, "2 игрока заявлены, с тура 2."),
        ("en", 1, "1 player entered, from round 2."),
    ],
)
def test_a_late_entry_is_one_sentence_that_agrees_with_its_count(language, count, expected):
    """Not "1 гравець заявлений. Вони грають з туру 2.": the count and the verb agree."""
    with translation.override(language):
        text = ngettext(
            "%(count)s player entered, from round %(number)s.",
            "%(count)s players entered, from round %(number)s.",
            count,
        ) % {"count": count, "number": 2}

    assert text == expected


# --- the favicon ----------------------------------------------------------------------------------


def test_favicon_ico_leads_to_a_real_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"].endswith("img/favicon.ico")
    assert "max-age" in response["Cache-Control"]
    assert response["Location"] == static("img/favicon.ico")
    icon = Path(finders.find("img/favicon.ico")).read_bytes()
    assert icon[:4] == b"\x00\x00\x01\x00"  # an ICO's header
    assert icon[4] >= 3  # 16, 32, 48 and 64 pixels


def test_every_page_links_both_icons(client):
    html = client.get("/").content.decode()

    assert re.search(r'<link rel="icon" href="[^"]*favicon\.ico" sizes="any">', html)
    assert re.search(r'<link rel="icon" href="[^"]*pulka\.svg" type="image/svg\+xml">', html)


def test_favicon_refuses_a_post(client):
    response = client.post("/favicon.ico")

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"


def test_the_members_page_of_a_rostov_club_says_rostov(client):
    """A member's page inside the club carries the club's convention too."""
    club = make_club(slug="rostov", rules={"preset": "rostov"})
    client.force_login(make_member(club, Role.OWNER).user)

    text = footer(
        client.get(f"/c/{club.slug}/members/", headers={"accept-language": "uk"}).content.decode()
    )

    assert "Ростов" in text
