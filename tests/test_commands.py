"""The management commands import_pulka and export_pulka."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from scoring.exchange import pulka_document, sheet_document
from scoring.models import Pulka
from tests.conftest import make_evening, make_pulka
from tests.engine.factories import BAD, GOOD, error_of, expected_of, load
from tests.scoring.factories import dealt, stored_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(club_a):
    return make_evening(club_a)


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_an_imported_file_exports_as_the_same_pulka_and_sheet(evening):
    path = GOOD[0]

    printed = run("import_pulka", str(evening.pk), str(path))

    pulka = Pulka.objects.get()
    assert printed == f"{pulka.pk} /c/sochi/p/{pulka.pk}/\n"
    exported = json.loads(run("export_pulka", str(pulka.pk)))
    assert exported == pulka_document(pulka)
    assert exported["deals"] == dealt(load(path))
    sheet = json.loads(run("export_pulka", str(pulka.pk), "--sheet"))
    assert sheet == sheet_document(pulka)
    assert sheet["result"] == expected_of(path)["result"]


def test_a_pulka_is_imported_from_standard_input(evening, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(GOOD[0].read_bytes())))

    printed = run("import_pulka", str(evening.pk), "-")

    pulka = Pulka.objects.get()
    assert printed.split()[0] == str(pulka.pk)
    assert pulka_document(pulka)["deals"] == dealt(load(GOOD[0]))


def test_the_export_is_written_to_a_file_on_request(evening, tmp_path):
    pulka = make_pulka(evening, names=("Анна", "Борис", "Віра"))
    target = tmp_path / "out.json"

    printed = run("export_pulka", str(pulka.pk), "--output", str(target))

    assert printed == ""
    text = target.read_text(encoding="utf-8")
    assert "Анна" in text
    assert json.loads(text) == pulka_document(pulka)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_a_bad_file_stops_the_command_with_the_reason_and_saves_nothing(evening, path):
    before = stored_rows()

    with pytest.raises(CommandError) as caught:
        run("import_pulka", str(evening.pk), str(path))

    assert error_of(path).lower() in str(caught.value).lower()
    assert stored_rows() == before


def test_a_file_that_is_not_json_stops_the_command(evening, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("Anna 10, Boris 8\n", encoding="utf-8")

    with pytest.raises(CommandError, match="This file is not JSON: .* line 1, column 1"):
        run("import_pulka", str(evening.pk), str(path))

    assert not Pulka.objects.exists()


def test_a_missing_file_stops_the_command(evening, tmp_path):
    with pytest.raises(CommandError, match="Cannot read .*missing.json"):
        run("import_pulka", str(evening.pk), str(tmp_path / "missing.json"))


def test_an_unknown_session_stops_the_import(db):
    with pytest.raises(CommandError, match="There is no evening 999."):
        run("import_pulka", "999", str(GOOD[0]))


def test_an_unknown_pulka_stops_the_export(db):
    with pytest.raises(CommandError, match="There is no pulka 999."):
        run("export_pulka", "999")
