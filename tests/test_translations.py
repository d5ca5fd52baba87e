"""Every visible label of the pulka page speaks Ukrainian and Russian.

The page is rendered with Cyrillic player and club names, so any Latin word left in the
visible text is an English string that escaped translation.
"""

import re

import pytest

from club.models import Role
from tests.club.factories import visible_text
from tests.conftest import make_club, make_evening, make_member, make_pulka, record

pytestmark = pytest.mark.django_db

# Words that are the same in every language: language codes, the Enter key, file formats.
ALLOWED = {"UK", "RU", "EN", "Enter", "JSON", "CSV", "XLSX", "PDF", "QR", "pulka", "sheet"}
# Proper names on the ratings page: the model and the library that implements it.
ALLOWED |= {"Plackett", "Luce", "openskill", "ij"}  # and the subscript of S_ij
# Talon cards as they are typed (the help text's examples): AS, 10H, QH.
CARD_CODE = re.compile(r"(A|K|Q|J|10|9|8|7)[SCDH]")


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
    assert "Vera writes" not in html  # the fixture's names are Cyrillic
    assert "Анна writes whists on Віра: 20 (help)" in html


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


# A Ukrainian word that starts like the Russian "вист" but is not about whists ("вистачає").
RUSSIAN_WHIST = re.compile(r"(?<!\w)[Вв]ист(?!ач|ав)\w*")
WHIST_ENTRIES = {
    "uk": [
        "Віра пише вісти на гравця Анна: 4 (піввіста)",
        "Анна пише вісти на гравця Віра: 4",
        "Анна пише вісти на гравця Віра: 20 (допомога)",
        "Віра пише вісти на гравця Борис: 4 (консоляція)",
        "Анна пише вісти на гравця Борис: 4 (швидкі взятки в прикупі)",
        "Анна: 4 у гору (підсад на вісті)",
    ],
    "ru": [
        "Віра пишет висты на игрока Анна: 4 (полвиста)",
        "Анна пишет висты на игрока Віра: 4",
        "Анна пишет висты на игрока Віра: 20 (помощь)",
        "Віра пишет висты на игрока Борис: 4 (консоляция)",
        "Анна пишет висты на игрока Борис: 4 (быстрые взятки в прикупе)",
        "Анна: 4 в гору (подсад на висте)",
    ],
}
DRAWING = {
    "uk": "Анна: пуля 10, гора 3 (пуля закрита); вісти на гравця Віра: 24; "
    "вісти на гравця Борис: 16.",
    "ru": "Анна: пуля 10, гора 3 (пуля закрыта); висты на игрока Віра: 24; "
    "висты на игрока Борис: 16.",
}


@pytest.mark.parametrize("language", ["uk", "ru"])
def test_the_deal_log_and_drawing_keep_names_in_the_nominative(client, busy_pulka, language):
    """The number stands alone after a colon, the name after "на гравця/на игрока"."""
    club = busy_pulka.evening.club
    client.force_login(make_member(club, Role.PLAYER, username="p").user)

    html = client.get(
        busy_pulka.get_absolute_url(), headers={"accept-language": language}
    ).content.decode()
    text = visible_text(html)

    for sentence in WHIST_ENTRIES[language]:
        assert f"<li>{sentence}</li>" in html
    assert DRAWING[language] in html
    # The settlement of this pulka is in thirds: the fraction is shown as players write it.
    assert "448/3" in text
    if language == "uk":
        assert RUSSIAN_WHIST.findall(text) == []


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("uk", "Віра пише вісти на гравця Анна: 5/2 (піввіста)"),
        ("ru", "Віра пишет висты на игрока Анна: 5/2 (полвиста)"),
        ("en", "Віра writes whists on Анна: 5/2 (half-whist)"),
    ],
)
def test_a_fractional_whist_entry_reads_correctly(language, expected):
    from fractions import Fraction

    from django.utils import translation

    from scoring import engine
    from scoring.templatetags.pulka import entry_text

    entry = engine.Entry("whists", "Віра", Fraction(5, 2), "Анна", "half_whist")
    with translation.override(language):
        assert entry_text(entry) == expected


@pytest.mark.parametrize(
    ("language", "whists", "rating"),
    [
        ("uk", "Одна пулька, {date}; вісти: ", "Одна пулька в рейтингу, {date}: рейтинг "),
        ("ru", "Одна пулька, {date}; висты: ", "Одна пулька в рейтинге, {date}: рейтинг "),
    ],
)
def test_a_single_pulka_profile_has_its_own_sentence(client, busy_pulka, language, whists, rating):
    """n = 1 is not "1 пулька з 01.12 по 01.12": each chart summary has a sentence of its own."""
    from scoring.services import pulka_finish

    pulka_finish(pulka=busy_pulka, finished_by=None)
    club = busy_pulka.evening.club
    anna = busy_pulka.seats.get(player__name="Анна").player
    client.force_login(make_member(club, Role.PLAYER, username="p").user)

    html = client.get(
        f"/c/{club.slug}/players/{anna.pk}/", headers={"accept-language": language}
    ).content.decode()

    date = busy_pulka.evening.date.strftime("%d.%m.%Y")
    whists, rating = whists.format(date=date), rating.format(date=date)
    assert whists in html
    assert rating in html
    assert "1 пульк" not in html  # never "1 пулька з … по …"
    assert " по " not in re.search(rf"{re.escape(whists)}[^<]*", html).group(0)
    if language == "uk":
        assert RUSSIAN_WHIST.findall(visible_text(html)) == []
