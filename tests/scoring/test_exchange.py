"""Import and export of whole pulkas: round trips through the database, and refused files."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from club.models import Player
from scoring import engine
from scoring.exchange import (
    MAX_UPLOAD_BYTES,
    pulka_document,
    read_upload,
    sheet_document,
)
from scoring.models import Deal, DealRevision, Pulka, PulkaResultCache, PulkaStatus, Seat
from scoring.services import ScoringError, pulka_import
from tests.conftest import make_player, make_pulka, record
from tests.engine.factories import BAD, GOOD, error_of, expected_of, load
from tests.scoring.factories import dealt, stored_rows

pytestmark = pytest.mark.django_db

SHEET_KEYS = (
    "players",
    "rules",
    "pool",
    "mountain",
    "whists",
    "closed",
    "result",
    "result_rounded",
)


def without_entries(deals: list[dict]) -> list[dict]:
    return [{k: v for k, v in deal.items() if k != "entries"} for deal in deals]


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_a_golden_pulka_exports_as_it_was_imported_and_scores_as_expected(
    evening_a, secretary, path
):
    original = load(path)

    pulka = pulka_import(evening=evening_a, document=original, imported_by=secretary)
    exported = pulka_document(pulka)
    again = pulka_document(pulka_import(evening=evening_a, document=exported, imported_by=None))

    assert again == exported
    assert exported["format"] == "pulka/1"
    assert exported["players"] == original["players"]
    assert exported["first_dealer"] == original.get("first_dealer", original["players"][0])
    assert exported["rules"] == engine.rules_to_dict(engine.rules_from_dict(original["rules"]))
    assert exported["deals"] == dealt(original)  # every deal with who dealt it
    expected = expected_of(path)
    sheet = sheet_document(pulka)
    assert {key: sheet[key] for key in SHEET_KEYS} == {key: expected[key] for key in SHEET_KEYS}
    assert without_entries(sheet["deals"]) == expected["deals"]
    assert all(isinstance(deal["entries"], list) for deal in sheet["deals"])


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_an_imported_pulka_is_finished_and_cached_exactly_when_every_pool_closed(evening_a, path):
    closed = expected_of(path)["closed"]

    pulka = pulka_import(evening=evening_a, document=load(path), imported_by=None)

    pulka.refresh_from_db()
    assert pulka.status == (PulkaStatus.FINISHED if closed else PulkaStatus.RUNNING)
    assert (pulka.finished_at is not None) is closed
    cached = dict(
        PulkaResultCache.objects.filter(pulka=pulka).values_list("player__name", "result")
    )
    want = {name: str(r) for name, r in expected_of(path)["result"].items()} if closed else {}
    assert cached == want


def test_every_imported_deal_is_numbered_and_entered_by_the_importer(evening_a, secretary):
    original = load(GOOD[0])

    pulka = pulka_import(evening=evening_a, document=original, imported_by=secretary)

    deals = list(Deal.objects.filter(pulka=pulka).order_by("number"))
    assert [d.number for d in deals] == list(range(1, len(original["deals"]) + 1))
    assert {(d.entered_by, d.changed_by, d.version) for d in deals} == {(secretary, secretary, 1)}
    revisions = DealRevision.objects.filter(pulka=pulka).order_by("number")
    assert [(r.number, r.deal_id, r.action, r.user, r.before) for r in revisions] == [
        (d.number, d.pk, "created", secretary, None) for d in deals
    ]
    assert [r.after for r in revisions] == dealt(original)
    pulka.refresh_from_db()
    assert pulka.created_by == secretary
    assert pulka.version == 1


def test_an_import_becomes_the_next_table_of_the_evening(evening_a):
    make_pulka(evening_a)

    pulka = pulka_import(evening=evening_a, document=load(GOOD[0]), imported_by=None)

    assert pulka.table == 2
    assert pulka.evening == evening_a


def test_players_are_matched_to_the_roster_by_name_key_and_the_missing_added(evening_a, club_b):
    anna = make_player(evening_a.club, "Anna", is_active=False)
    boris = make_player(evening_a.club, "boris")
    make_player(club_b, "Vera")
    document = {
        "format": "pulka/1",
        "players": ["Anna", "BORIS", "Vera"],
        "first_dealer": "Vera",
        "deals": [],
    }

    pulka = pulka_import(evening=evening_a, document=document, imported_by=None)

    seats = list(Seat.objects.filter(pulka=pulka).order_by("position").select_related("player"))
    assert [s.player for s in seats[:2]] == [anna, boris]
    assert [s.player.name for s in seats] == ["Anna", "boris", "Vera"]  # the roster's spelling
    assert {s.player.club for s in seats} == {evening_a.club}
    assert seats[2].player.is_active
    assert sorted(Player.objects.filter(club=evening_a.club).values_list("name", flat=True)) == [
        "Anna",
        "Vera",
        "boris",
    ]
    assert pulka.first_dealer == 2
    assert pulka.rules == engine.rules_to_dict(engine.Rules())


def test_a_pulka_recorded_deal_by_deal_exports_imports_and_exports_the_same(evening_a):
    pulka = make_pulka(evening_a, names=("Анна", "Boris", "Vera"), first_dealer=1)
    record(
        pulka,
        {
            "kind": "game",
            "declarer": "Vera",
            "contract": "6S",
            "calls": {"Анна": "whist", "Boris": "pass"},
            "tricks": {"Vera": 6, "Анна": 3, "Boris": 1},
            "talon": ["AS", "KS"],
        },
        {
            "kind": "game",
            "declarer": "Vera",
            "contract": "7H",
            "calls": {"Анна": "pass", "Boris": "half"},
        },
        {"kind": "misere", "declarer": "Boris", "tricks": {"Boris": 1}, "dealer": "Анна"},
        {"kind": "raspasy", "tricks": {"Анна": 2, "Boris": 5, "Vera": 3}},
        {
            "kind": "game",
            "declarer": "Анна",
            "contract": "8NT",
            "calls": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Анна": 8, "Boris": 1, "Vera": 1},
            "quick_tricks": 1,
        },
    )
    exported = pulka_document(pulka)

    imported = pulka_import(evening=evening_a, document=exported, imported_by=None)

    assert pulka_document(imported) == exported
    assert sheet_document(imported) == sheet_document(pulka)
    assert exported["first_dealer"] == "Boris"
    assert exported["deals"][1]["calls"] == {"Анна": "pass", "Boris": "half"}
    assert exported["deals"][2]["dealer"] == "Анна"
    assert exported["deals"][0]["talon"] == ["AS", "KS"]
    assert exported["deals"][4]["quick_tricks"] == 1


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_a_bad_golden_case_is_refused_with_its_deal_named_and_saves_nothing(evening_a, path):
    before = stored_rows()

    with pytest.raises(ScoringError) as caught:
        pulka_import(evening=evening_a, document=load(path), imported_by=None)

    assert error_of(path).lower() in caught.value.message.lower()
    assert stored_rows() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pulka-sheet/1"}, "format must be 'pulka/1'"),
        ({"players": ["A", "B"]}, "players must be 3 or 4 distinct non-empty names"),
        ({"rules": {"pool_target": 0}}, "the pool target must be a whole number above zero"),
        ({"colour": "red"}, "unknown key 'colour'"),
        ({"players": ["A" * 61, "B", "C"], "deals": []}, "at most 60 characters"),
    ],
)
def test_a_document_the_engine_refuses_saves_nothing(evening_a, change, message):
    document = {**load(GOOD[0]), **change}
    before = stored_rows()

    with pytest.raises(ScoringError, match=message):
        pulka_import(evening=evening_a, document=document, imported_by=None)

    assert stored_rows() == before


def test_a_failure_after_the_first_writes_rolls_the_whole_import_back(evening_a, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(DealRevision.objects, "bulk_create", fail)
    before = stored_rows()

    with pytest.raises(RuntimeError):
        pulka_import(evening=evening_a, document=load(GOOD[0]), imported_by=None)

    assert stored_rows() == before


def test_an_upload_is_read_as_a_json_object():
    document = load(GOOD[0])
    upload = SimpleUploadedFile("g1.json", json.dumps(document).encode())

    assert read_upload(upload) == document


def test_an_upload_may_start_with_a_byte_order_mark():
    assert read_upload(io.BytesIO(b'\xef\xbb\xbf{"format": "pulka/1"}')) == {"format": "pulka/1"}


def test_an_upload_of_exactly_one_megabyte_is_read():
    body = b'{"format": "pulka/1"}'
    upload = io.BytesIO(body + b" " * (MAX_UPLOAD_BYTES - len(body)))

    assert read_upload(upload) == {"format": "pulka/1"}


@pytest.mark.parametrize(
    "upload",
    [
        io.BytesIO(b"{}" + b" " * (MAX_UPLOAD_BYTES - 1)),
        SimpleUploadedFile("big.json", b"{}" + b" " * MAX_UPLOAD_BYTES),
    ],
    ids=["stream", "uploaded"],
)
def test_an_upload_over_one_megabyte_is_refused(upload):
    with pytest.raises(ScoringError, match=r"^The file is too large: at most 1 MB\.$"):
        read_upload(upload)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "pulka/1",\n  players: []}', "This file is not JSON: .* line 2, column 3"),
        (b"", "This file is not JSON: .* line 1, column 1"),
        (b'{"players": ["\xff"]}', r"This file is not JSON: it is not UTF-8 text \(byte 15\)"),
        (b"[" * 100_000 + b"]" * 100_000, "This file is not JSON: it is nested too deeply"),
        (b'["pulka/1"]', "This file holds no pulka"),
        (b'"pulka/1"', "This file holds no pulka"),
    ],
    ids=["syntax", "empty", "not-utf8", "too-deep", "a-list", "a-string"],
)
def test_an_upload_that_is_not_a_json_object_is_refused_with_a_reason(content, message):
    with pytest.raises(ScoringError, match=message):
        read_upload(io.BytesIO(content))


def test_an_import_finds_the_roster_players_whatever_the_case_and_spaces(evening_a):
    club = evening_a.club
    olena, andrii, taras = (make_player(club, name) for name in ("Олена", "Андрій", "Тарас"))
    six = {
        "kind": "game",
        "declarer": "ТАРАС",
        "contract": "6S",
        "calls": {" Олена": "whist", "Андрій  ": "pass"},
        "tricks": {"ТАРАС": 6, " Олена": 3, "Андрій  ": 1},
    }
    document = {
        "format": "pulka/1",
        "players": [" Олена", "Андрій  ", "ТАРАС"],
        "first_dealer": " Олена",
        "deals": [six],
    }

    pulka = pulka_import(evening=evening_a, document=document, imported_by=None)

    seats = Seat.objects.filter(pulka=pulka).order_by("position")
    assert [seat.player for seat in seats] == [olena, andrii, taras]
    assert Player.objects.filter(club=club).count() == 3  # nobody new
    assert pulka.names == ["Олена", "Андрій", "Тарас"]
    revision = DealRevision.objects.get(pulka=pulka)
    assert revision.after["declarer"] == "Тарас"  # the history speaks the roster's spelling
    assert Deal.objects.get(pulka=pulka).to_pulka_dict(pulka.names)["declarer"] == "Тарас"


@pytest.mark.parametrize(
    ("players", "problem"),
    [
        (["Ол\u200bена", "Boris", "Vera"], "invisible or control character (U+200B)"),
        (["\u200b", "Boris", "Vera"], "invisible or control character (U+200B)"),
        (["Тарас", "ТАРАС", "Vera"], "Тарас and ТАРАС are the same player"),
        (["Anna", " Anna", "Vera"], "Anna and Anna are the same player"),
    ],
)
def test_an_import_with_a_name_the_roster_refuses_saves_nothing(evening_a, players, problem):
    document = {"format": "pulka/1", "players": players, "first_dealer": "Vera", "deals": []}

    with pytest.raises(ScoringError) as error:
        pulka_import(evening=evening_a, document=document, imported_by=None)

    assert problem in error.value.message
    assert not Pulka.objects.filter(evening=evening_a).exists()
    assert not Player.objects.filter(club=evening_a.club).exists()


PRESET_CASES = sorted(p for p in GOOD if p.parent.name == "presets")


@pytest.mark.parametrize("path", PRESET_CASES, ids=lambda p: p.stem)
def test_the_convention_of_a_preset_case_is_stored_exported_and_imported_again(evening_a, path):
    original = load(path)
    preset = original["rules"].get("preset", "sochi")

    pulka = pulka_import(evening=evening_a, document=original, imported_by=None)
    exported = pulka_document(pulka)
    again = pulka_import(evening=evening_a, document=exported, imported_by=None)

    assert pulka.rules["preset"] == preset
    assert exported["rules"]["preset"] == preset
    assert again.rules == pulka.rules
    assert engine.rules_from_dict(exported["rules"]) == engine.rules_from_dict(original["rules"])
    assert sheet_document(again)["rules"]["preset"] == preset


def test_an_explicit_key_beside_a_preset_survives_the_round_trip(evening_a):
    original = load(next(p for p in PRESET_CASES if p.stem == "L1-basics"))
    original["rules"] = {**original["rules"], "quick_tricks": True, "help": True}

    pulka = pulka_import(evening=evening_a, document=original, imported_by=None)
    exported = pulka_document(pulka)

    assert exported["rules"]["preset"] == "leningrad"
    assert (exported["rules"]["quick_tricks"], exported["rules"]["help"]) == (True, True)
    assert exported["rules"]["pool_end"] == "sum"
    assert engine.options_changed(engine.rules_from_dict(exported["rules"])) == ("quick_tricks",)
