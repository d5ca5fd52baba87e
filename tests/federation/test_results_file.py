"""The pulka-tournament/1 file: what a played tournament's file holds, its CSV, every way a
file is refused (by the field it names), and the import: persons matched by id, by name or
made new, the same file refused twice, a match changed."""

from __future__ import annotations

import copy
import csv
import io
import json
from fractions import Fraction

import pytest

from club.models import Role
from competition.tournament import selectors as tournaments
from federation import results_file
from federation.models import ImportedResult, Person
from federation.results_file import ResultsFileError, normalise
from scoring.formatting import export_value
from tests.competition.factories import make_tournament
from tests.conftest import make_club, make_member
from tests.federation.conftest import join, make_federation, played_cup
from tests.federation.results_factories import valid_document


@pytest.fixture(scope="module")
def cup_rows(module_rows, django_db_blocker):
    """Made once for the module: a federation of two clubs, the public one's cup played."""
    with django_db_blocker.unblock():
        federation = make_federation()
        public = make_club(name="Kyiv Club", slug="kyiv", city="Kyiv", is_public=True)
        private = make_club(name="Pechersk Club", slug="pechersk", city="Kyiv", is_public=False)
        for club in (public, private):
            join(federation, club)
        cup = played_cup(federation, public)
        return federation, public, private, cup


@pytest.fixture
def cup(cup_rows, db):
    return cup_rows[3]


@pytest.fixture
def fed(cup_rows, db):
    return cup_rows[0]


@pytest.fixture
def document(cup, fed):
    return results_file.build(cup, fed)


def by_name(document: dict) -> dict[str, str]:
    return {about["name"]: key for key, about in document["persons"].items()}


# --- the export --------------------------------------------------------------------------------


def test_the_file_holds_the_standings_the_core_computes_with_exact_numbers(cup, fed, document):
    table = tournaments.standings(cup)
    names = tournaments.names(cup)
    keys = by_name(document)

    overall = document["standings"]["overall"]

    assert [(line["place"], line["person"]) for line in overall] == [
        (line.place, keys[names[line.player]]) for line in table.lines
    ]
    assert [Fraction(line["total"]) for line in overall] == [line.score for line in table.lines]
    first = table.lines[0]
    assert overall[0]["tie_breaks"] == {
        "adjusted_whists": results_file._score(first.adjusted),
        "best_round": results_file._score(first.best_round),
        "opponents_total": results_file._score(first.opponents_total),
        "table_wins": first.table_wins,
    }


def test_the_file_names_the_tournament_its_host_convention_and_scoring(cup, document):
    about = document["tournament"]

    assert document["format"] == "pulka-tournament/1"
    assert document["site"] == results_file.this_site()
    assert about["id"] == cup.pk
    assert about["name"] == "Open Cup"
    assert about["date"] == cup.start.isoformat()
    assert about["host"] == {"name": "Kyiv Club", "city": "Kyiv"}
    assert about["rules"] == cup.rules
    assert about["rounds"] == 3
    assert about["scoring"]["method"] == "caps"
    assert about["scoring"]["caps"] == [[0, 1], [200, "1/10"], [650, 0]]
    assert about["tie_breaks"] == ["adjusted_whists", "table_wins", "best_round", "opponents_total"]
    assert about["url"].endswith(cup.get_absolute_url())


def test_persons_are_keyed_alphabetically_with_the_federations_person_where_known(fed, document):
    persons = document["persons"]

    assert [persons[f"p{n}"]["name"] for n in range(1, 8)] == sorted(
        ["Anna", "Boris", "Vera", "Gleb", "Dana", "Lena", "Mark"]
    )
    anna = Person.objects.get(federation=fed, name="Anna")
    assert persons["p1"]["federation"] == {"slug": "kpf", "person": anna.pk}
    assert persons["p2"]["federation"] is None
    assert {about["club"] for about in persons.values()} == {"Kyiv Club"}


def test_a_withdrawn_player_keeps_his_round_and_is_marked_withdrawn(document):
    mark = by_name(document)["Mark"]
    seated = [
        [seat["person"] for table in one["tables"] for seat in table["seats"]]
        for one in document["rounds"]
    ]

    assert document["persons"][mark]["status"] == "withdrawn"
    assert mark in seated[0]
    assert mark not in seated[1]
    assert mark in [line["person"] for line in document["standings"]["overall"]]


def test_rounds_hold_the_tables_seats_in_order_first_dealers_results_and_pulkas(cup, document):
    round_1 = cup.rounds.get(number=1)
    seating = tournaments.seating_of(round_1)
    names = tournaments.names(cup)
    keys = by_name(document)
    first = document["rounds"][0]

    assert [one["number"] for one in document["rounds"]] == [1, 2]
    assert [len(table["seats"]) for table in first["tables"]] == [4, 3]
    for drawn, table in zip(seating.tables, first["tables"], strict=True):
        assert [seat["person"] for seat in table["seats"]] == [
            keys[names[player]] for player in drawn.seats
        ]
        assert table["first_dealer"] == keys[names[drawn.first_dealer]]
        pulka = round_1.tables.get(number=drawn.number).pulka
        assert table["pulka"]["id"] == pulka.pk
        assert table["pulka"]["url"].endswith(pulka.get_absolute_url())
        # A table's settlement sums to zero, exactly.
        assert sum(Fraction(seat["whists"]) for seat in table["seats"]) == 0


def test_categories_list_their_members_and_standings_renumbered_from_one(document):
    keys = by_name(document)
    masters, women = document["categories"]

    assert masters["name"] == "Masters"
    assert masters["eligibility"] == "chosen"
    assert sorted(masters["persons"]) == sorted(keys[n] for n in ("Anna", "Boris", "Vera"))
    assert sorted(women["persons"]) == sorted(keys[n] for n in ("Vera", "Dana", "Lena"))
    overall = [line["person"] for line in document["standings"]["overall"]]
    lines = document["standings"]["categories"]["Women"]
    assert [line["place"] for line in lines] == [1, 2, 3]
    assert [line["person"] for line in lines] == [p for p in overall if p in women["persons"]]


def test_the_file_read_back_is_itself(document):
    assert normalise(json.loads(json.dumps(document))) == document


def test_the_csv_has_a_row_per_person_in_place_order_with_each_rounds_score(document):
    headers, rows = results_file.csv_rows(document, export_value)
    scores = results_file.round_scores(document)
    keys = by_name(document)

    assert headers == ["Place", "Name", "Club", "Categories", "Total", "Round 1", "Round 2"]
    assert [row[0] for row in rows] == [line["place"] for line in document["standings"]["overall"]]
    vera = next(row for row in rows if row[1] == "Vera")
    assert vera[2:4] == ["Kyiv Club", "Masters, Women"]
    assert vera[5:] == [export_value(scores[keys["Vera"]][n]) for n in (1, 2)]
    mark = next(row for row in rows if row[1] == "Mark")
    assert mark[6] == ""  # withdrawn: no round 2


# --- every way a file is refused -----------------------------------------------------------------


def test_the_crafted_valid_file_is_read_into_its_one_form():
    document = normalise(valid_document())

    assert document["persons"]["p2"] == {
        "name": "Taras",
        "club": "Lviv Club",
        "team": "",
        "status": "active",
        "federation": None,
    }
    assert document["tournament"]["rules"]["pool_target"] == 10
    assert normalise(document) == document


def _set(path: str, value):
    def spoil(document: dict) -> None:
        *parents, last = path.split("/")
        target = document
        for part in parents:
            target = target[int(part) if part.isdigit() else part]
        if value is DELETE:
            del target[int(last) if last.isdigit() else last]
        else:
            target[int(last) if last.isdigit() else last] = value

    return spoil


DELETE = object()
SEAT = "rounds/0/tables/0/seats"
BAD_FILES = [
    ("wrong format", _set("format", "pulka/1"), '"format" must be "pulka-tournament/1"'),
    ("no tournament", _set("tournament", DELETE), "tournament is missing"),
    ("no persons", _set("persons", DELETE), "persons is missing"),
    ("name not text", _set("tournament/name", 5), "tournament.name must be a text"),
    ("bad date", _set("tournament/date", "1 March"), "tournament.date must be a date"),
    ("site not http", _set("site", "ftp://x"), "site must be an http or https address"),
    ("rounds beyond 15", _set("tournament/rounds", 16), "tournament.rounds must be from 1 to 15"),
    ("bool as a number", _set("tournament/id", True), "tournament.id must be a whole number"),
    ("unknown method", _set("tournament/scoring/method", "elo"), "scoring.method must be one of"),
    ("rules refused", _set("tournament/rules/pool_target", 0), "tournament.rules:"),
    ("float score", _set(SEAT + "/0/whists", 6.5), "seats[1].whists must be an exact number"),
    ("zero denominator", _set(SEAT + "/0/score", "1/0"), "seats[1].score must be an exact number"),
    ("unknown person", _set(SEAT + "/1/person", "p9"), "names the person p9, who is not in"),
    ("bad key", _set(SEAT + "/1/person", "p 1"), "is not a person's key"),
    ("seated twice", _set(SEAT + "/1/person", "p1"), "has two places in round 1"),
    ("two seats", lambda d: d["rounds"][0]["tables"][0]["seats"].pop(), "at least 3"),
    ("dealer elsewhere", _set("rounds/0/tables/0/first_dealer", "p4"), "not in persons"),
    ("round beyond", _set("rounds/0/number", 3), "beyond the tournament's 2 rounds"),
    (
        "duplicate round",
        lambda d: d["rounds"].append(copy.deepcopy(d["rounds"][0])),
        "rounds[2].number: 1 appears twice",
    ),
    ("name refused", _set("persons/p2/name", "\u200bTaras"), "persons.p2.name:"),
    ("empty name", _set("persons/p2/name", "  "), "persons.p2.name:"),
    ("bad status", _set("persons/p2/status", "gone"), "persons.p2.status must be one of"),
    (
        "category twice",
        lambda d: d["categories"].append(copy.deepcopy(d["categories"][0])),
        "categories: Women appears twice",
    ),
    (
        "not in category",
        _set("standings/categories/Women/0/person", "p2"),
        "who is not in the category Women",
    ),
    ("unknown category", _set("standings/categories/Men", []), 'there is no category "Men"'),
    (
        "standings twice",
        lambda d: d["standings"]["overall"].append(copy.deepcopy(d["standings"]["overall"][0])),
        "standings.overall: p1 appears twice",
    ),
    ("tie-break unknown", _set("standings/overall/0/tie_breaks", {"luck": 1}), "must be one of"),
    (
        "too many persons",
        lambda d: d["persons"].update({f"x{n}": {"name": f"X{n}"} for n in range(2001)}),
        "persons holds 2004 items: at most 2000",
    ),
    ("tables not a list", _set("rounds/0/tables", {}), "rounds[1].tables must be a list"),
    ("persons not an object", _set("persons", []), "persons must be an object"),
]


@pytest.mark.parametrize(
    ("spoil", "message"), [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES]
)
def test_a_spoiled_file_is_refused_with_a_message_naming_the_field(spoil, message):
    document = valid_document()
    spoil(document)

    with pytest.raises(ResultsFileError) as refused:
        normalise(document)

    assert message in refused.value.message


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{", "This file is not JSON: Expecting property name"),
        (b"\xff\xfe", "not UTF-8 text"),
        (b"[1, 2]", "holds no tournament results"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"n": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
        (b" " * (2 * 1024 * 1024 + 1), "at most 2 MB"),
    ],
    ids=["broken", "not utf-8", "a list", "nested", "long number", "too large"],
)
def test_bytes_that_are_no_document_are_refused(raw, message):
    with pytest.raises(ResultsFileError) as refused:
        results_file.read_bytes(raw)

    assert message in refused.value.message


# --- the import ----------------------------------------------------------------------------------


def test_a_file_of_this_site_and_federation_matches_its_persons_by_id(fed, document):
    anna = Person.objects.get(federation=fed, name="Anna")
    anna.name = "Anna Koval"  # renamed since: the id still says who she is
    anna.save(update_fields=["name"])
    before = Person.objects.count()

    imported = results_file.result_import(
        federation=fed, document=document, source="cup.json", imported_by=None
    )

    assert imported.persons["p1"] == anna.pk
    assert Person.objects.count() == before + 6  # the others are new
    assert imported.name == "Open Cup"
    assert imported.document == document


def test_persons_are_matched_by_name_when_exactly_one_has_it_else_made_new(fed):
    olena = Person.objects.create(federation=fed, name="Olena")
    Person.objects.create(federation=fed, name="Taras")
    Person.objects.create(federation=fed, name="TARAS")  # two Tarases: no match by name
    document = valid_document()
    document["persons"]["p1"]["name"] = "  OLENA "
    document["persons"]["p1"]["federation"] = {"slug": "kpf", "person": olena.pk + 1000}

    imported = results_file.result_import(
        federation=fed, document=document, source="a.json", imported_by=None
    )

    assert imported.persons["p1"] == olena.pk
    taras = Person.objects.get(pk=imported.persons["p2"])
    iryna = Person.objects.get(pk=imported.persons["p3"])
    assert taras.name == "Taras"
    assert Person.objects.filter(federation=fed, name_key="taras").count() == 3
    assert iryna.name == "Iryna"
    assert iryna.federation == fed


def test_the_same_tournament_of_the_same_site_is_refused_the_second_time(fed):
    results_file.result_import(
        federation=fed, document=valid_document(), source="", imported_by=None
    )
    persons = Person.objects.count()

    with pytest.raises(ResultsFileError, match="already imported: Lviv Open"):
        results_file.result_import(
            federation=fed, document=valid_document(), source="", imported_by=None
        )

    assert ImportedResult.objects.filter(federation=fed).count() == 1
    assert Person.objects.count() == persons


def test_another_federation_imports_the_same_file_by_names(fed):
    other = make_federation(name="Lviv Federation", slug="lviv-f")
    results_file.result_import(
        federation=fed, document=valid_document(), source="", imported_by=None
    )

    imported = results_file.result_import(
        federation=other, document=valid_document(), source="", imported_by=None
    )

    assert {p.federation_id for p in Person.objects.filter(pk__in=imported.persons.values())} == {
        other.pk
    }


def test_a_match_is_changed_to_another_person_or_a_new_one_but_never_twice(fed):
    imported = results_file.result_import(
        federation=fed, document=valid_document(), source="", imported_by=None
    )
    olena = Person.objects.create(federation=fed, name="Olena Bondar")

    results_file.imported_rematch(imported=imported, key="p1", person=olena)
    imported.refresh_from_db()
    assert imported.persons["p1"] == olena.pk

    with pytest.raises(ResultsFileError, match="already matched to Olena"):
        results_file.imported_rematch(imported=imported, key="p2", person=olena)

    fresh = results_file.imported_rematch(imported=imported, key="p1", person=None)
    imported.refresh_from_db()
    assert imported.persons["p1"] == fresh.pk
    assert fresh.name == "Olena"


def test_a_person_of_another_federation_cannot_be_matched(fed):
    imported = results_file.result_import(
        federation=fed, document=valid_document(), source="", imported_by=None
    )
    stranger = Person.objects.create(federation=make_federation(slug="x"), name="Olena")

    with pytest.raises(ResultsFileError, match="Choose a person of this federation"):
        results_file.imported_rematch(imported=imported, key="p1", person=stranger)


def test_the_csv_download_is_one_row_a_person_with_safe_cells(fed, client):
    document = valid_document()
    document["persons"]["p2"]["name"] = "=Taras"
    imported = results_file.result_import(
        federation=fed, document=document, source="", imported_by=None
    )

    response = client.get(f"/f/kpf/imported/{imported.pk}.csv")

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Name", "Club", "Categories", "Total", "Round 1"]
    assert rows[1] == ["1", "Olena", "Lviv Club", "Women", "6.67", "6.67"]
    assert ["", "'=Taras", "Lviv Club", "", "", "-3.33"] in rows


def test_a_member_of_a_private_club_reads_its_tournaments_results(cup_rows, client, db):
    _federation, _public, private, _cup = cup_rows
    tournament = make_tournament(private, name="Quiet Cup")
    client.force_login(make_member(private, Role.PLAYER).user)

    document = json.loads(client.get(f"/f/kpf/results/{tournament.pk}.json").content)

    assert document["tournament"]["url"] is None
    assert document["rounds"] == []
    assert document["standings"]["overall"] == []
    assert len(document["persons"]) == 10
