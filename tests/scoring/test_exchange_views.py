"""The export downloads and the import page, for every persona, full page and htmx."""

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.exchange import MAX_UPLOAD_BYTES, pulka_document, sheet_document
from scoring.models import Deal, Pulka
from tests.club.factories import assert_method_refused, assert_not_found
from tests.conftest import HTMX, make_evening, make_pulka, record
from tests.engine.factories import BAD, GOOD, error_of, load
from tests.scoring.factories import SIX_BY_BORIS, dealt, stored_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(pulka):
    record(pulka, SIX_BY_BORIS)
    return pulka


def export_url(pulka, name="pulka-export"):
    return reverse(f"scoring:{name}", args=[pulka.evening.club.slug, pulka.pk])


def import_url(evening):
    return reverse("scoring:pulka-import", args=[evening.club.slug, evening.pk])


def upload(content: bytes, name: str = "pulka.json") -> dict:
    return {"file": SimpleUploadedFile(name, content, content_type="application/json")}


def golden_upload() -> dict:
    return upload(GOOD[0].read_bytes())


def alert_text(response) -> str:
    """The text of the form's error box (the message the secretary reads)."""
    match = re.search(r'role="alert">(.*?)</div>', response.content.decode(), re.S)
    assert match, "no error box in the response"
    return html.unescape(re.sub(r"<[^>]+>", " ", match.group(1)))


# Exports


@pytest.mark.parametrize("name", ["pulka-export", "sheet-export"])
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_cannot_download_a_private_clubs_pulka(as_persona, played, persona, name):
    response = as_persona(persona).get(export_url(played, name))

    assert response.status_code == 404
    assert "Boris" not in response.content.decode()


@pytest.mark.parametrize("persona", ["player", "secretary", "owner"])
def test_members_download_the_pulka_as_pulka_1(as_persona, played, persona):
    response = as_persona(persona).get(export_url(played))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    date = f"{played.evening.date:%Y-%m-%d}"
    assert response["Content-Disposition"] == (
        f'attachment; filename="pulka-sochi-{date}-table-1.json"'
    )
    document = json.loads(response.content.decode("utf-8"))
    assert document == pulka_document(played)
    assert document["deals"] == [{**SIX_BY_BORIS, "dealer": "Anna"}]


@pytest.mark.parametrize("persona", ["player", "owner"])
def test_members_download_the_sheet_as_pulka_sheet_1(as_persona, played, persona):
    response = as_persona(persona).get(export_url(played, "sheet-export"))

    assert response.status_code == 200
    date = f"{played.evening.date:%Y-%m-%d}"
    assert response["Content-Disposition"] == (
        f'attachment; filename="pulka-sochi-{date}-table-1-sheet.json"'
    )
    document = json.loads(response.content.decode("utf-8"))
    assert document == sheet_document(played)
    assert document["format"] == "pulka-sheet/1"
    assert document["pool"] == {"Anna": 0, "Boris": 2, "Vera": 0}
    assert document["deals"][0]["entries"]


def test_the_download_is_indented_utf_8_with_names_as_written(as_persona, evening_a):
    pulka = make_pulka(evening_a, names=("Анна", "Борис", "Віра"))

    response = as_persona("player").get(export_url(pulka))

    text = response.content.decode("utf-8")
    assert '"players": [\n    "Анна",\n    "Борис",\n    "Віра"\n  ]' in text
    assert "\\u" not in text


@pytest.mark.parametrize("name", ["pulka-export", "sheet-export"])
def test_anyone_downloads_a_public_clubs_pulka(client, public_club, name):
    pulka = make_pulka(make_evening(public_club))
    record(pulka, SIX_BY_BORIS)

    response = client.get(export_url(pulka, name))

    assert response.status_code == 200
    assert json.loads(response.content)["players"] == ["Anna", "Boris", "Vera"]


def test_another_clubs_pulka_is_not_found_through_this_club(as_persona, club_b):
    theirs = make_pulka(make_evening(club_b))
    url = reverse("scoring:pulka-export", args=["sochi", theirs.pk])

    response = as_persona("owner").get(url)

    assert_not_found(response, "Anna", '"format"')
    assert not response.has_header("Content-Disposition")


def test_an_export_cannot_be_posted(as_persona, played):
    assert_method_refused(as_persona("owner").post(export_url(played)), "GET, HEAD")
    assert played.deals.count() == 1


# The import page


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_strangers_get_404_on_the_import_and_save_nothing(
    as_persona, evening_a, persona, method, htmx
):
    client = as_persona(persona)
    before = stored_rows()
    headers = HTMX if htmx else {}

    if method == "get":
        response = client.get(import_url(evening_a), headers=headers)
    else:
        response = client.post(import_url(evening_a), golden_upload(), headers=headers)

    assert response.status_code == 404
    assert stored_rows() == before


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_gets_403_on_the_import_and_saves_nothing(as_persona, evening_a, method, htmx):
    client = as_persona("player")
    before = stored_rows()
    headers = HTMX if htmx else {}

    if method == "get":
        response = client.get(import_url(evening_a), headers=headers)
    else:
        response = client.post(import_url(evening_a), golden_upload(), headers=headers)

    assert response.status_code == 403
    assert stored_rows() == before


def test_an_evening_of_another_club_is_not_found(as_persona, club_b):
    theirs = make_evening(club_b)
    url = reverse("scoring:pulka-import", args=["sochi", theirs.pk])

    response = as_persona("owner").post(url, golden_upload())

    assert response.status_code == 404
    assert not Pulka.objects.exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_on_a_public_club_is_sent_to_log_in_to_import(client, public_club, method):
    evening = make_evening(public_club)

    if method == "get":
        response = client.get(import_url(evening))
    else:
        response = client.post(import_url(evening), golden_upload())

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert not Pulka.objects.exists()


@pytest.mark.parametrize("persona", ["secretary", "owner"])
def test_the_import_page_shows_a_multipart_form_that_works_without_javascript(
    as_persona, evening_a, persona
):
    response = as_persona(persona).get(import_url(evening_a))

    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" in page
    assert 'id="import"' in page
    assert f'action="{import_url(evening_a)}"' in page
    assert 'enctype="multipart/form-data"' in page
    assert 'hx-encoding="multipart/form-data"' in page
    assert 'type="file" name="file"' in page
    assert "HX-Request" in response.get("Vary", "")


def test_the_import_form_comes_alone_to_htmx(as_persona, evening_a):
    response = as_persona("secretary").get(import_url(evening_a), headers=HTMX)

    fragment = response.content.decode()
    assert response.status_code == 200
    assert 'id="import"' in fragment
    assert 'hx-target="#import"' in fragment
    assert "<html" not in fragment


@pytest.mark.parametrize("persona", ["secretary", "owner"])
def test_an_imported_file_becomes_a_table_and_the_browser_goes_to_it(
    as_persona, evening_a, persona
):
    response = as_persona(persona).post(import_url(evening_a), golden_upload())

    pulka = Pulka.objects.get()
    assert response.status_code == 302
    assert response["Location"] == pulka.get_absolute_url()
    assert pulka.evening == evening_a
    assert pulka_document(pulka)["deals"] == dealt(load(GOOD[0]))
    assert pulka.created_by.username == {"secretary": "serhii", "owner": "olena"}[persona]
    page = as_persona(persona).get(response["Location"]).content.decode()
    assert "The file was imported as table 1." in page


def test_an_import_through_htmx_redirects_the_whole_page(as_persona, evening_a):
    response = as_persona("secretary").post(import_url(evening_a), golden_upload(), headers=HTMX)

    pulka = Pulka.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == pulka.get_absolute_url()
    assert Deal.objects.filter(pulka=pulka).count() == len(load(GOOD[0])["deals"])


BAD_FILES = [
    pytest.param(b'{"format": "pulka/1", players}', "This file is not JSON:", id="not-json"),
    pytest.param(b"{}" + b" " * MAX_UPLOAD_BYTES, "The file is too large: at most 1 MB.", id="big"),
    pytest.param(
        json.dumps({**load(GOOD[0]), "format": "pulka/2"}).encode(),
        "format must be 'pulka/1'",
        id="wrong-format",
    ),
    *(pytest.param(path.read_bytes(), error_of(path), id=f"bad-{path.stem}") for path in BAD),
]


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("content", "message"), BAD_FILES)
def test_a_bad_file_is_refused_with_the_reason_and_saves_nothing(
    as_persona, evening_a, content, message, htmx
):
    before = stored_rows()

    response = as_persona("secretary").post(
        import_url(evening_a), upload(content), headers=HTMX if htmx else {}
    )

    assert response.status_code == 200
    assert message.lower() in alert_text(response).lower()
    page = response.content.decode()
    assert 'id="import"' in page
    assert ("<html" in page) is not htmx
    assert stored_rows() == before


def test_a_post_without_a_file_asks_for_one(as_persona, evening_a):
    response = as_persona("secretary").post(import_url(evening_a), {}, headers=HTMX)

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Pulka.objects.exists()


@pytest.mark.parametrize(
    ("language", "lead"),
    [
        ("en", "This file is not a pulka in the pulka/1 format: unknown key 'colour'"),
        ("uk", "Цей файл не є пулькою у форматі pulka/1: невідомий ключ 'colour'"),
        ("ru", "Этот файл не является пулькой в формате pulka/1: неизвестный ключ 'colour'"),
    ],
)
def test_a_file_in_another_format_is_refused_in_the_secretarys_language(
    as_persona, evening_a, language, lead
):
    content = json.dumps({**load(GOOD[0]), "colour": "red"}).encode()

    response = as_persona("secretary").post(
        import_url(evening_a), upload(content), headers={**HTMX, "accept-language": language}
    )

    assert " ".join(alert_text(response).split()) == lead
    assert not Pulka.objects.exists()
