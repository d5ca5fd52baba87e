"""Every visible label of the pulka page speaks Ukrainian and Russian.

The page is rendered with Cyrillic player and club names, so any Latin word left in the
visible text is an English string that escaped translation.
"""

import re
from html.parser import HTMLParser

import pytest

from club.models import Role
from tests.conftest import make_club, make_evening, make_member, make_pulka, record

pytestmark = pytest.mark.django_db

# Words that are the same in every language: language codes, the Enter key, file formats.
ALLOWED = {"UK", "RU", "EN", "Enter", "JSON", "CSV", "XLSX", "pulka", "sheet"}
# Proper names on the ratings page: the model and the library that implements it.
ALLOWED |= {"Plackett", "Luce", "openskill", "ij"}  # and the subscript of S_ij
# Talon cards as they are typed (the help text's examples): AS, 10H, QH.
CARD_CODE = re.compile(r"(A|K|Q|J|10|9|8|7)[SCDH]")
VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in VISIBLE_ATTRIBUTES and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return " ".join(parser.parts)


def latin_words(text: str) -> set[str]:
    words = re.findall(r"[A-Za-z][A-Za-z']+", text)
    return {w for w in words if w not in ALLOWED and not CARD_CODE.fullmatch(w)}


@pytest.fixture
def busy_pulka():
    club = make_club(name="Сочинка", slug="sochinka", city="Київ", is_public=False, pool_target=10)
    evening = make_evening(club, venue="Кав'ярня")
    pulka = make_pulka(evening, names=("Анна", "Борис", "Віра"))
    record(
        pulka,
        {
            "kind": "game",
            "declarer": "Борис",
            "contract": "7H",
            "calls": {"Віра": "whist", "Анна": "whist"},
            "tricks": {"Борис": 6, "Віра": 2, "Анна": 2},
            "talon": ["AS", "KS"],
        },
        {
            "kind": "game",
            "declarer": "Віра",
            "contract": "6S",
            "calls": {"Анна": "whist", "Борис": "pass"},
            "tricks": {"Віра": 8, "Анна": 1, "Борис": 1},
        },
        {
            "kind": "game",
            "declarer": "Анна",
            "contract": "6C",
            "calls": {"Борис": "pass", "Віра": "half"},
        },
        {"kind": "misere", "declarer": "Борис", "tricks": {"Борис": 1}},
        {"kind": "raspasy", "tricks": {"Анна": 0, "Борис": 4, "Віра": 6}},
        {
            "kind": "game",
            "declarer": "Анна",
            "contract": "10NT",
            "calls": {"Борис": "pass", "Віра": "pass"},
        },
    )
    return pulka


@pytest.mark.parametrize("language", ["uk", "ru"])
@pytest.mark.parametrize("role", [Role.SECRETARY, Role.PLAYER])
def test_the_pulka_page_has_no_untranslated_label(client, busy_pulka, language, role):
    club = busy_pulka.evening.club
    client.force_login(make_member(club, role, username="секретар").user)

    html = client.get(
        busy_pulka.get_absolute_url(), headers={"accept-language": language}
    ).content.decode()

    assert f'<html lang="{language}">' in html
    assert latin_words(visible_text(html)) == set()


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_rules_and_history_pages_have_no_untranslated_label(client, busy_pulka, language):
    club = busy_pulka.evening.club
    client.force_login(make_member(club, Role.SECRETARY, username="секретар").user)

    for path in ("rules/", "history/"):
        html = client.get(
            busy_pulka.get_absolute_url() + path, headers={"accept-language": language}
        ).content.decode()
        assert latin_words(visible_text(html)) == set(), path


def test_english_is_the_source_language(client, busy_pulka):
    club = busy_pulka.evening.club
    client.force_login(make_member(club, Role.PLAYER, username="p").user)

    html = client.get(
        busy_pulka.get_absolute_url(), headers={"accept-language": "en"}
    ).content.decode()

    assert "Final settlement" in html or "Sheet" in html
    assert "whists on" in html.lower() or "Whists on" in html


@pytest.mark.parametrize(
    ("language", "date"),
    [("uk", "30 листопада 2026"), ("ru", "30 ноября 2026"), ("en", "Nov. 30, 2026")],
)
def test_dates_are_written_for_the_locale(client, language, date):
    import datetime

    club = make_club(slug="dates", is_public=True)
    pulka = make_pulka(make_evening(club, date=datetime.date(2026, 11, 30)))

    html = client.get(
        pulka.get_absolute_url(), headers={"accept-language": language}
    ).content.decode()

    assert date in html


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_club_and_evening_pages_have_no_untranslated_label(client, busy_pulka, language):
    evening = busy_pulka.evening
    club = evening.club
    client.force_login(make_member(club, Role.OWNER, username="власник").user)
    pages = [
        "/",
        f"/c/{club.slug}/",
        f"/c/{club.slug}/s/{evening.pk}/",
        f"/c/{club.slug}/s/{evening.pk}/import/",
        f"/c/{club.slug}/players/",
        f"/c/{club.slug}/members/",
        f"/c/{club.slug}/settings/",
    ]

    for path in pages:
        html = client.get(path, headers={"accept-language": language}).content.decode()
        # The club's short name in links is data, not a label.
        assert latin_words(visible_text(html)) - {club.slug} == set(), path


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_league_profile_and_rating_pages_have_no_untranslated_label(
    client, busy_pulka, language
):
    import datetime

    from competition.models import League
    from scoring.services import pulka_finish

    evening = busy_pulka.evening
    club = evening.club
    pulka_finish(pulka=busy_pulka, finished_by=None)
    league = League.objects.create(
        club=club,
        name="Осінь",
        start=evening.date - datetime.timedelta(days=30),
        end=evening.date,
        rule="best",
        best_count=2,
        cap=100,
        min_pulkas=2,
    )
    player = busy_pulka.seats.first().player
    client.force_login(make_member(club, Role.SECRETARY, username="секретар").user)
    pages = [
        f"/c/{club.slug}/leagues/",
        f"/c/{club.slug}/leagues/new/",
        league.get_absolute_url(),
        f"/c/{club.slug}/players/{player.pk}/",
        "/ratings/",
    ]

    for path in pages:
        html = client.get(path, headers={"accept-language": language}).content.decode()
        assert latin_words(visible_text(html)) - {club.slug} == set(), path
