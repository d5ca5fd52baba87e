"""A series over the database: stages from member clubs' tournaments (and an imported file),
their places to points, the standings page, CSV, XLSX and the PDF, the settings and the
stages, the final's field and its entries; who may read and who may change; bad input that
changes nothing."""

from __future__ import annotations

import csv
import datetime
import io
from fractions import Fraction

import openpyxl
import pypdf
import pytest
from django.urls import reverse

from club.models import Player
from competition.models import Entry, Round, RoundState
from competition.tournament import selectors as tournaments
from federation import series_selectors as selectors
from federation import series_services as services
from federation.models import ImportedResult, MemberClub, MemberState, Person, Series, Stage
from federation.series import TieBreak
from tests.club.factories import (
    assert_forbidden,
    assert_fragment,
    assert_full_page,
    assert_htmx_login_redirect,
    assert_login_redirect,
    assert_not_found,
    html,
    visible_text,
)
from tests.competition.factories import make_tournament, play_round
from tests.conftest import HTMX, database_state, make_club
from tests.federation.conftest import FEDERATION_PERSONAS, make_federation
from tests.federation.series_factories import POINTS, link, make_cup, rated, stage_tournament

pytestmark = pytest.mark.django_db

F = Fraction


@pytest.fixture
def cup(federation, clubs):
    return make_cup(federation, clubs)


@pytest.fixture
def final(clubs):
    """The final: Pechersk Club's tournament, nobody entered, no round yet."""
    return make_tournament(clubs[1], names=(), name="Grand Final")


def url(name: str, series: Series, *args) -> str:
    return reverse(f"federation:{name}", args=[series.federation.slug, series.pk, *args])


def as_persona(client, request, persona: str):
    if persona != "anonymous":
        client.force_login(request.getfixturevalue(persona))
    return client


def standings_of(series: Series) -> list[tuple]:
    table = selectors.SeriesTable(series)
    return [(table.names[line.key], line.place, line.total) for line in table.standings.lines]


# --- stages, points and standings ------------------------------------------------------------


def test_the_stages_places_become_points_shared_by_ties_and_counted_from_two_stages(cup):
    assert standings_of(cup.series) == [
        ("Anna", 1, 170),
        ("Boris", 2, 160),
        ("Gleb", 3, 155),
        ("Dana", 4, F(215, 2)),
        ("Vera", 5, 95),
        ("Kira", None, 55),
        ("Ivan", None, F(95, 2)),
    ]


def test_a_stage_reads_the_places_of_competitions_standings_core(cup):
    table = selectors.SeriesTable(cup.series)
    core = tournaments.standings(cup.stages[0])

    stage = table.stages[0]
    assert [(line.name, line.place) for line in stage.lines] == [
        (Player.objects.get(pk=line.player).name, line.place) for line in core.lines
    ]
    assert [line.place for line in stage.lines] == [1, 1, 3, 3, 5, 5]


def test_each_stage_keeps_and_shows_its_convention(cup, client):
    text = visible_text(html(client.get(cup.series.get_absolute_url())))

    assert "Sochi" in text
    assert "Leningrad" in text


def test_a_roster_name_linked_to_no_person_is_shown_by_name_and_said_to_be_unable_to_qualify(
    cup, client
):
    page = html(client.get(cup.series.get_absolute_url()))

    assert 'id="series-unlinked"' in page
    assert "Kira" in page.split('id="series-unlinked"')[1]
    assert selectors.SeriesTable(cup.series).unlinked == ["Kira"]


def test_the_same_person_across_two_clubs_has_one_line(cup):
    table = selectors.SeriesTable(cup.series)
    anna = next(line for line in table.standings.lines if line.key == cup.persons["Anna"].pk)

    assert {number: score.points for number, score in anna.stages.items()} == {1: 90, 2: 80}


def test_the_best_n_stages_count_and_the_page_marks_the_dropped_one(cup, client):
    Series.objects.filter(pk=cup.series.pk).update(best_of=1, min_stages=1)

    series = Series.objects.get(pk=cup.series.pk)
    assert standings_of(series)[:2] == [("Boris", 1, 100), ("Anna", 2, 90)]
    page = html(client.get(series.get_absolute_url()))
    assert "(80)" in page  # Anna's second stage, in brackets: not counted
    assert "not counted" in page
    assert 'id="series-legend"' in page


def test_a_stage_still_being_played_makes_the_standings_provisional(federation, clubs, cup, client):
    running = stage_tournament(
        clubs[0], [{"Anna": 10, "Boris": 0, "Vera": -10}], name="Autumn", finished=False
    )
    cup.series.stages.create(tournament=running, number=3)

    page = html(client.get(cup.series.get_absolute_url()))

    assert 'id="series-provisional"' in page
    assert selectors.SeriesTable(cup.series).stages[2].state == selectors.PROVISIONAL


def test_a_tournament_played_through_the_services_is_a_stage(federation, clubs):
    played = make_tournament(clubs[0], name="Played Cup", round_count=2)
    play_round(played, deals=3)
    for player in Player.objects.filter(club=clubs[0]):
        link(federation, clubs[0], player.name)
    series = Series.objects.create(federation=federation, name="S", points=POINTS)
    series.stages.create(tournament=played, number=1)

    table = selectors.SeriesTable(series)

    core = tournaments.standings(played)
    assert [line.place for line in table.stages[0].lines] == [line.place for line in core.lines]
    assert table.stages[0].state == selectors.PROVISIONAL  # confirmed round, not finished
    assert len(table.standings.placed) == 10


def test_an_imported_results_file_is_a_stage_by_its_matched_persons(federation, cup, client):
    lev = Person.objects.create(federation=federation, name="Lev")
    document = {
        "format": "pulka-tournament/1",
        "tournament": {"name": "Odesa Open", "date": "2026-04-01", "club": {"name": "Odesa"}},
        "persons": {"p1": {"name": "Lev"}, "p2": {"name": "Anna"}, "p3": {"name": "Olha"}},
        "standings": {
            "overall": [
                {"place": 1, "person": "p1", "total": "30"},
                {"place": 2, "person": "p2", "total": "5/2"},
                {"place": 3, "person": "p3", "total": "-3"},
                {"place": "x", "person": "p3"},
            ]
        },
    }
    imported = ImportedResult.objects.create(
        federation=federation,
        name="Odesa Open",
        start=datetime.date(2026, 4, 1),
        document=document,
        persons={"p1": lev.pk, "p2": cup.persons["Anna"].pk},
    )

    assert selectors.imported_places(imported) == [(lev.pk, 1), (cup.persons["Anna"].pk, 2)]
    services.stage_add(series=cup.series, imported=imported)
    lines = standings_of(cup.series)
    assert lines[0] == ("Anna", 1, 250)  # 90 + 80 + 80
    assert ("Lev", None, 100) in lines  # one stage: below
    assert ("Olha", None, 65) in lines  # the file's name, matched to no person
    assert selectors.SeriesTable(cup.series).unlinked == ["Kira", "Olha"]


# --- the exports and the printout ------------------------------------------------------------


def test_the_csv_has_a_column_a_stage_the_total_and_the_stages_counted(cup, client):
    response = client.get(url("series-export", cup.series, "csv"))

    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Place",
        "Name",
        "Stage 1",
        "Stage 2",
        "Total",
        "Stages played",
        "Stages counted",
    ]
    assert rows[1] == ["1", "Anna", "90", "80", "170", "2", "1, 2"]
    assert rows[4] == ["4", "Dana", "60", "47.5", "107.5", "2", "1, 2"]
    assert rows[6] == ["", "Kira", "", "55", "55", "1", "2"]


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_everyone_downloads_the_standings(client, request, cup, persona):
    client = as_persona(client, request, persona)

    response = client.get(url("series-export", cup.series, "csv"))

    assert response["Content-Disposition"] == 'attachment; filename="Kyiv Cup.csv"'
    assert "Anna" in response.content.decode("utf-8-sig")


def test_the_xlsx_holds_numbers(cup, client):
    response = client.get(url("series-export", cup.series, "xlsx"))

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[1][:5] == (1, "Anna", 90, 80, 170)
    assert rows[4][3] == 47.5


def test_a_name_that_looks_like_a_formula_is_exported_as_text(federation, clubs, cup, client):
    Person.objects.filter(pk=cup.persons["Anna"].pk).update(name="=HYPERLINK(1)")

    response = client.get(url("series-export", cup.series, "csv"))

    assert "'=HYPERLINK(1)" in response.content.decode("utf-8-sig")


def test_an_unknown_export_format_is_404(cup, client):
    assert_not_found(client.get(url("series-export", cup.series, "pdf")))


def pdf_pages(content: bytes) -> list[str]:
    assert content.startswith(b"%PDF-")
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages]


def test_the_pdf_fits_twelve_stages_on_one_a4_landscape_page(federation, clubs, client):
    series = Series.objects.create(
        federation=federation, name="Grand Prix", points=POINTS, best_of=8, min_stages=1
    )
    names = [f"Гравець з дуже довгим прізвищем {n:02d}" for n in range(1, 19)]
    for number in range(1, 13):
        tables = [
            {name: 60 - 30 * (k % 3) for k, name in enumerate(names[i : i + 3])}
            for i in range(0, len(names), 3)
        ]
        series.stages.create(
            tournament=stage_tournament(clubs[0], tables, name=f"Stage {number}"), number=number
        )
    for name in names:
        link(federation, clubs[0], name)

    response = client.get(url("series-print", series))

    assert response["Content-Type"] == "application/pdf"
    pages = pdf_pages(response.content)
    assert len(pages) == 1
    box = pypdf.PdfReader(io.BytesIO(response.content)).pages[0].mediabox
    assert float(box.width) > float(box.height)  # landscape
    assert "S12" in pages[0]
    assert names[-1] in " ".join(pages[0].split())


def test_the_pdf_prints_the_standings_with_the_dropped_scores_in_brackets(cup, client):
    Series.objects.filter(pk=cup.series.pk).update(best_of=1)

    text = " ".join(pdf_pages(client.get(url("series-print", cup.series)).content)[0].split())

    assert "Kyiv Cup" in text
    assert "(80)" in text
    assert "Lviv Open" in text


def test_the_pdf_asked_by_htmx_sends_the_browser_to_download_it(cup, client):
    response = client.get(url("series-print", cup.series), headers=HTMX)

    assert response["HX-Redirect"] == url("series-print", cup.series)


# --- who may read, who may change -------------------------------------------------------------

READS = ["series-list", "series", "series-final"]
FRAGMENTS = {"series-list": "series-list", "series": "series-body", "series-final": "final-field"}


def read_url(name: str, series: Series) -> str:
    if name == "series-list":
        return reverse("federation:series-list", args=[series.federation.slug])
    return url(name, series)


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("name", READS)
def test_everyone_reads_a_series_full_page_and_fragment(client, request, cup, persona, name):
    Series.objects.filter(pk=cup.series.pk).update(final_from_series=2)
    client = as_persona(client, request, persona)

    page = assert_full_page(client.get(read_url(name, cup.series)), FRAGMENTS[name])
    fragment = assert_fragment(
        client.get(read_url(name, cup.series), headers=HTMX), FRAGMENTS[name]
    )

    assert "Kyiv Cup" in page
    if name != "series-list":
        assert "Anna" in fragment


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_only_officers_see_the_controls(client, request, cup, persona):
    client = as_persona(client, request, persona)

    page = html(client.get(cup.series.get_absolute_url()))

    officer = persona in ("judge", "fed_owner")
    assert ('id="stage-form"' in page) is officer
    assert ('id="series-settings-link"' in page) is officer


def test_an_unknown_series_or_federation_is_404(client, cup, federation):
    assert_not_found(client.get(reverse("federation:series", args=[federation.slug, 99999])))
    assert_not_found(client.get(reverse("federation:series", args=["nowhere", cup.series.pk])))
    elsewhere = make_federation(name="Lviv Federation", slug="lpf")
    other = Series.objects.create(federation=elsewhere, name="Other", points=POINTS)
    assert_not_found(client.get(reverse("federation:series", args=[federation.slug, other.pk])))


def changes(cup, final) -> list[tuple[str, str, dict]]:
    """Each change: (method, url, the fields of a valid one)."""
    series = cup.series
    stage = series.stages.get(number=2)
    return [
        ("POST", reverse("federation:series-create", args=[series.federation.slug]), series_post()),
        ("POST", url("series-settings", series), series_post(final=str(final.pk))),
        ("POST", url("series-stage-add", series), {"tournament": str(final.pk)}),
        ("POST", url("series-stage-remove", series, stage.pk), {}),
        ("POST", url("series-final-entries", series), {}),
    ]


def series_post(**fields) -> dict:
    post = {
        "name": "Spring Cup",
        "season": "2026",
        "points_preset": "custom",
        "points": "100, 80, 65",
        "best_of": "",
        "min_stages": "1",
        "tie_break_1": "stage_wins",
        "tie_break_2": "best_places",
        "tie_break_3": "",
        "tie_break_4": "",
        "final_from_series": "2",
        "final_from_rating": "0",
        "defending_winner": "",
        "final": "",
    }
    return {**post, **fields}


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("persona", ["anonymous", "outsider", "member", "club_owner"])
def test_no_one_but_an_officer_changes_a_series(client, request, cup, final, persona, htmx):
    Series.objects.filter(pk=cup.series.pk).update(final=final, final_from_series=3)
    client = as_persona(client, request, persona)
    headers = HTMX if htmx else {}
    for _method, address, fields in changes(cup, final):
        before = database_state()

        response = client.post(address, fields, headers=headers)

        if persona == "anonymous":
            if htmx:
                assert_htmx_login_redirect(response)
            else:
                assert_login_redirect(response, address)
        else:
            assert_forbidden(response)
        assert database_state() == before, address
    for address in (
        reverse("federation:series-create", args=[cup.series.federation.slug]),
        url("series-settings", cup.series),
    ):
        response = client.get(address, headers=headers)
        if persona == "anonymous":
            assert response.status_code in (302, 204)
        else:
            assert_forbidden(response)


@pytest.mark.parametrize("persona", ["judge", "fed_owner"])
def test_an_officer_opens_a_series_from_the_last_used_points(client, request, cup, persona):
    client = as_persona(client, request, persona)
    address = reverse("federation:series-create", args=[cup.series.federation.slug])

    form = assert_full_page(client.get(address), "series-form")
    assert "100, 80, 65, 55, 50, 45" in form  # the federation's last series
    response = client.post(address, series_post(points_preset="last", name="Autumn Cup"))

    made = Series.objects.get(name="Autumn Cup")
    assert response.status_code == 302
    assert response["Location"] == made.get_absolute_url()
    assert made.points == POINTS
    assert made.tie_breaks == [TieBreak.STAGE_WINS, TieBreak.BEST_PLACES]
    assert made.final_from_series == 2


def test_the_usual_preset_is_the_models(client, judge, federation):
    client.force_login(judge)
    address = reverse("federation:series-create", args=[federation.slug])

    client.post(address, series_post(points_preset="preset"))

    assert Series.objects.get().points[:4] == [100, 80, 65, 55]


@pytest.mark.parametrize("persona", ["judge", "fed_owner"])
def test_an_officer_changes_the_settings_by_htmx(client, request, cup, final, persona):
    client = as_persona(client, request, persona)
    address = url("series-settings", cup.series)
    assert_fragment(client.get(address, headers=HTMX), "series-form")
    anna = cup.persons["Anna"]

    response = client.post(
        address,
        series_post(
            name="Kyiv Cup",
            defending_winner="anna",
            final=str(final.pk),
            final_from_rating="4",
            best_of="1",
        ),
        headers=HTMX,
    )

    assert response["HX-Redirect"] == cup.series.get_absolute_url()
    series = Series.objects.get(pk=cup.series.pk)
    assert (series.defending_winner, series.final, series.best_of) == (anna, final, 1)
    assert series.final_from_rating == 4


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"points": "100, 120"}, "points", "scores more than the place before it"),
        ({"points": "0,0"}, "points", "At least the first place must score points."),
        ({"points": "100, x"}, "points", "is not a whole number"),
        ({"points": ""}, "points", "Write the points"),
        ({"min_stages": "0"}, "min_stages", ""),
        ({"best_of": "31"}, "best_of", ""),
        ({"final_from_series": "501"}, "final_from_series", ""),
        ({"tie_break_2": "stage_wins"}, "tie_break_2", "Each tie-break can be chosen once."),
        ({"defending_winner": "Nobody Here"}, "defending_winner", "No person of this federation"),
        ({"name": "  "}, "name", ""),
        ({"name": "Cup\u200b"}, "name", ""),
    ],
)
def test_bad_settings_are_refused_on_their_field_and_change_nothing(
    client, judge, cup, fields, field, message
):
    client.force_login(judge)
    before = database_state()

    response = client.post(url("series-settings", cup.series), series_post(**fields), headers=HTMX)

    page = assert_fragment(response, "series-form")
    assert database_state() == before
    assert "invalid" in page
    assert message.replace("'", "&#x27;") in page


def test_two_persons_of_one_name_are_told_apart_by_the_number_of_their_page(
    client, judge, cup, federation
):
    other = Person.objects.create(federation=federation, name="Anna")
    client.force_login(judge)

    refused = client.post(url("series-settings", cup.series), series_post(defending_winner="Anna"))
    assert "Several persons are called Anna" in html(refused)
    client.post(
        url("series-settings", cup.series), series_post(defending_winner=f"Anna #{other.pk}")
    )

    assert Series.objects.get(pk=cup.series.pk).defending_winner == other


def test_a_started_tournament_cannot_become_the_final(client, judge, cup, final):
    Round.objects.create(
        tournament=final, number=1, state=RoundState.PUBLISHED, method="swiss", seed=1
    )
    client.force_login(judge)
    before = database_state()

    response = client.post(url("series-settings", cup.series), series_post(final=str(final.pk)))

    assert database_state() == before
    assert "Select a valid choice" in html(response)
    with pytest.raises(services.SeriesError, match="has started"):
        services.series_update(series=cup.series, **settings_of(cup.series, final=final))


def settings_of(series: Series, **fields) -> dict:
    names = ("name", "season", "points", "best_of", "min_stages", "tie_breaks")
    names += ("final_from_series", "final_from_rating", "defending_winner", "final")
    return {**{name: getattr(series, name) for name in names}, **fields}


def test_a_tournament_of_a_club_outside_the_federation_cannot_be_the_final(cup, final):
    MemberClub.objects.filter(club=final.club).update(state=MemberState.LEFT)

    with pytest.raises(services.SeriesError, match="member club"):
        services.series_update(series=cup.series, **settings_of(cup.series, final=final))


# --- stages ----------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["judge", "fed_owner"])
def test_an_officer_adds_a_stage_and_the_htmx_answer_is_the_updated_body(
    client, request, cup, clubs, persona
):
    third = stage_tournament(
        clubs[1], [{"Anna": 10, "Boris": 0, "Vera": -10}], name="Pechersk Open"
    )
    client = as_persona(client, request, persona)

    response = client.post(
        url("series-stage-add", cup.series), {"tournament": third.pk}, headers=HTMX
    )

    body = assert_fragment(response, "series-body")
    assert "Stage 3 is added." in body
    assert "Pechersk Open" in body
    assert list(cup.series.stages.values_list("number", "tournament")) == [
        (1, cup.stages[0].pk),
        (2, cup.stages[1].pk),
        (3, third.pk),
    ]


def test_without_htmx_adding_a_stage_goes_back_to_the_series(client, judge, cup, clubs):
    third = stage_tournament(
        clubs[1], [{"Anna": 10, "Boris": 0, "Vera": -10}], name="Pechersk Open"
    )
    client.force_login(judge)

    response = client.post(url("series-stage-add", cup.series), {"tournament": third.pk})

    assert response["Location"] == cup.series.get_absolute_url()
    assert cup.series.stages.count() == 3


def test_a_tournament_of_a_club_outside_the_federation_is_no_stage(client, judge, cup):
    outside = stage_tournament(make_club(slug="far"), [{"A": 1, "B": 0, "C": -1}], name="Far Cup")
    client.force_login(judge)
    before = database_state()

    response = client.post(
        url("series-stage-add", cup.series), {"tournament": outside.pk}, headers=HTMX
    )

    page = assert_fragment(response, "series-body")
    assert "Select a valid choice" in page
    assert database_state() == before
    with pytest.raises(services.SeriesError, match="not a tournament of a member club"):
        services.stage_add(series=cup.series, tournament=outside)


def test_a_club_that_left_adds_no_more_stages_but_its_stages_stay(cup, clubs):
    MemberClub.objects.filter(club=clubs[2]).update(state=MemberState.LEFT)
    later = stage_tournament(clubs[2], [{"Anna": 1, "Gleb": 0, "Kira": -1}], name="Lviv Late")

    with pytest.raises(services.SeriesError):
        services.stage_add(series=cup.series, tournament=later)
    assert standings_of(cup.series)[0] == ("Anna", 1, 170)


@pytest.mark.parametrize(
    "fields",
    [{}, {"tournament": "", "imported": ""}, {"tournament": "99999"}, {"tournament": "x"}],
)
def test_a_stage_form_naming_nothing_usable_changes_nothing(client, judge, cup, fields):
    client.force_login(judge)
    before = database_state()

    response = client.post(url("series-stage-add", cup.series), fields)

    assert response.status_code == 200
    assert 'id="stage-form"' in html(response)
    assert database_state() == before


def test_a_tournament_is_a_stage_once(cup):
    with pytest.raises(services.SeriesError, match="is a stage already"):
        services.stage_add(series=cup.series, tournament=cup.stages[0])


def test_removing_a_stage_renumbers_the_ones_after_it(client, judge, cup, clubs):
    third = stage_tournament(
        clubs[1], [{"Anna": 10, "Boris": 0, "Vera": -10}], name="Pechersk Open"
    )
    services.stage_add(series=cup.series, tournament=third)
    client.force_login(judge)
    first = cup.series.stages.get(number=1)

    response = client.post(url("series-stage-remove", cup.series, first.pk), headers=HTMX)

    assert "Stage 1 is removed" in assert_fragment(response, "series-body")
    assert list(cup.series.stages.values_list("number", "tournament")) == [
        (1, cup.stages[1].pk),
        (2, third.pk),
    ]


def test_a_stage_of_another_series_is_404(client, judge, cup, federation):
    other = Series.objects.create(federation=federation, name="Other", points=POINTS)
    stage = Stage.objects.create(series=other, tournament=cup.stages[0], number=1)
    client.force_login(judge)

    assert_not_found(client.post(url("series-stage-remove", cup.series, stage.pk)))
    assert Stage.objects.filter(pk=stage.pk).exists()


# --- the final's field and its entries --------------------------------------------------------


@pytest.fixture
def drawn(cup, final, federation):
    """The final's rule: Boris defends, the top 2 of the series, the top 2 of the rating list
    (Anna, Ivan, Gleb, Dana)."""
    p = cup.persons
    rated(federation, [p["Anna"], p["Ivan"], p["Gleb"], p["Dana"]])
    Series.objects.filter(pk=cup.series.pk).update(
        defending_winner=p["Boris"], final_from_series=2, final_from_rating=2, final=final
    )
    cup.series.refresh_from_db()
    return cup


def test_the_field_passes_down_the_places_of_who_is_in_already(drawn):
    field = selectors.final_field(drawn.series)

    assert [(one.name, one.why) for one in field] == [
        ("Boris", "defending winner"),
        ("Anna", "series, place 1"),
        ("Gleb", "series, place 3, the place passed down from Boris"),
        ("Ivan", "rating, place 2"),
        ("Dana", "rating, place 4, the place passed down from Anna"),
    ]


def test_the_final_page_lists_the_field_with_why(client, drawn):
    page = html(client.get(url("series-final", drawn.series)))

    assert "series, place 3, the place passed down from Boris" in page
    assert 'id="final-entries-form"' not in page  # a visitor has no button


def test_a_defending_winner_merged_into_another_person_defends_as_that_person(drawn, federation):
    boris = drawn.persons["Boris"]
    twin = Person.objects.create(federation=federation, name="Borys")
    Person.objects.filter(pk=boris.pk).update(merged_into=twin)
    drawn.series.refresh_from_db()

    assert selectors.final_field(drawn.series)[0].name == "Borys"


def test_a_defending_winner_merged_twice_defends_as_the_last_person(drawn, federation):
    boris = drawn.persons["Boris"]
    twin = Person.objects.create(federation=federation, name="Borys")
    last = Person.objects.create(federation=federation, name="Borys Petrenko")
    Person.objects.filter(pk=boris.pk).update(merged_into=twin)
    Person.objects.filter(pk=twin.pk).update(merged_into=last)
    drawn.series.refresh_from_db()

    assert selectors.final_field(drawn.series)[0].name == "Borys Petrenko"


@pytest.mark.parametrize("persona", ["judge", "fed_owner"])
def test_making_the_entries_enters_the_field_once_however_often_it_is_done(
    client, request, drawn, final, persona
):
    client = as_persona(client, request, persona)
    address = url("series-final-entries", drawn.series)

    first = client.post(address, headers=HTMX)
    again = client.post(address)

    assert "5 finalists are entered: Boris, Anna, Gleb, Ivan, Dana." in assert_fragment(
        first, "final-field"
    )
    assert again.status_code == 302
    names = sorted(Entry.objects.filter(tournament=final).values_list("player__name", flat=True))
    assert names == ["Anna", "Boris", "Dana", "Gleb", "Ivan"]
    page = html(client.get(url("series-final", drawn.series)))
    assert "Every finalist is entered already." in page


def test_making_the_entries_adds_who_is_missing_only(drawn, final):
    services.final_entries_make(series=drawn.series)
    Entry.objects.filter(tournament=final, player__name="Gleb").delete()

    assert services.final_entries_make(series=drawn.series) == ["Gleb"]
    assert Entry.objects.filter(tournament=final).count() == 5


def test_the_entries_are_refused_once_the_finals_round_1_is_published(client, judge, drawn, final):
    services.final_entries_make(series=drawn.series)
    Round.objects.create(
        tournament=final, number=1, state=RoundState.PUBLISHED, method="swiss", seed=1
    )
    Series.objects.filter(pk=drawn.series.pk).update(final_from_series=4)
    client.force_login(judge)
    before = database_state()

    response = client.post(url("series-final-entries", drawn.series), headers=HTMX)

    page = assert_fragment(response, "final-field")
    assert "Round 1 of «Grand Final» is published" in page
    assert database_state() == before
    assert 'id="final-started"' in page


def test_without_a_final_the_entries_are_refused_with_a_message(client, judge, cup):
    client.force_login(judge)
    before = database_state()

    response = client.post(url("series-final-entries", cup.series), follow=True)

    assert "Choose the final tournament" in html(response)
    assert database_state() == before


def test_entries_of_a_finalist_from_another_club_come_in_as_a_guest_linked_to_him(drawn, final):
    services.final_entries_make(series=drawn.series)

    anna = Player.objects.get(club=final.club, name="Anna")
    assert anna.person_links.get().person == drawn.persons["Anna"]
