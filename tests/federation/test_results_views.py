"""The results files' pages for every persona of the matrix (anonymous, outsider, a member of
a member club, a club owner, a federation judge, the federation owner), full page and htmx
fragment: the results page and its downloads, the import (a file, refusals saving nothing)
and an imported result's page with its re-match."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club.models import Role
from competition.models import Tournament
from federation import results_file
from federation.models import ImportedResult, Officer, OfficerRole, Person
from tests.club.factories import assert_not_found
from tests.competition.factories import make_tournament
from tests.conftest import HTMX, make_club, make_member, make_user
from tests.federation.conftest import FEDERATION_PERSONAS, join, make_federation, played_cup
from tests.federation.results_factories import valid_document

OFFICERS = ("judge", "fed_owner")
NOT_OFFICERS = ("outsider", "member", "club_owner")


@pytest.fixture(scope="module")
def world_rows(module_rows, django_db_blocker):
    """Made once: the federation, its public club's played cup, its private club's cup, a
    tournament of a club outside, the personas and one imported result."""
    with django_db_blocker.unblock():
        federation = make_federation()
        public = make_club(name="Kyiv Club", slug="kyiv", city="Kyiv", is_public=True)
        private = make_club(name="Pechersk Club", slug="pechersk", is_public=False)
        for club in (public, private):
            join(federation, club)
        elsewhere = make_club(name="Elsewhere", slug="elsewhere", is_public=True)
        users = {
            "outsider": make_member(elsewhere, Role.OWNER, username="stranger").user,
            "member": make_member(public, Role.PLAYER, username="maksym").user,
            "club_owner": make_member(public, Role.OWNER, username="kateryna").user,
            "judge": make_user(username="yurii"),
            "fed_owner": make_user(username="fedir"),
        }
        Officer.objects.create(federation=federation, user=users["judge"], role=OfficerRole.JUDGE)
        Officer.objects.create(
            federation=federation, user=users["fed_owner"], role=OfficerRole.OWNER
        )
        cup = played_cup(federation, public)
        quiet = make_tournament(private, name="Quiet Cup", names=("Ivan", "Oksana", "Petro"))
        outside = make_tournament(elsewhere, name="Outside Cup", names=())
        imported = results_file.result_import(
            federation=federation, document=valid_document(), source="lviv.json", imported_by=None
        )
        return {
            "users": users,
            "cup": cup.pk,
            "quiet": quiet.pk,
            "outside": outside.pk,
            "imported": imported.pk,
        }


@pytest.fixture
def world(world_rows, db):
    return world_rows


@pytest.fixture
def as_(client, world):
    def login(persona: str):
        if persona != "anonymous":
            client.force_login(world["users"][persona])
        return client

    return login


def url(name: str, *args) -> str:
    return reverse(f"federation:{name}", args=["kpf", *args])


def text(response) -> str:
    return response.content.decode()


def to_login(response) -> bool:
    location = response.headers.get("HX-Redirect") or response.headers.get("Location", "")
    return response.status_code in (302, 204) and location.startswith("/accounts/login/")


def headers(htmx: bool) -> dict:
    return HTMX if htmx else {}


# --- reading ---------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_everyone_reads_a_public_clubs_results_page_with_its_categories(as_, world, persona, htmx):
    client = as_(persona)

    index = client.get(url("results"), headers=headers(htmx))
    page = client.get(url("results-detail", world["cup"]), headers=headers(htmx))

    assert index.status_code == page.status_code == 200
    assert "Open Cup" in text(index)
    assert "Lviv Open" in text(index)  # the imported one
    assert 'id="results"' in text(page)
    assert 'id="overall"' in text(page)
    assert "<h2>Masters</h2>" in text(page)
    assert "<h2>Women</h2>" in text(page)
    assert "Round 2" in text(page)
    for response in (index, page):
        assert ("<html" in text(response)) is not htmx
    assert ("results/import/" in text(index)) is (persona in OFFICERS and not htmx)
    if not htmx:
        assert f"/f/kpf/results/{world['cup']}.json" in text(page)
        assert f"/f/kpf/results/{world['cup']}.csv" in text(page)


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_everyone_downloads_a_public_clubs_results_file_and_csv(as_, world, persona):
    client = as_(persona)

    document = client.get(url("results-export", world["cup"], "json"))
    sheet = client.get(url("results-export", world["cup"], "csv"))

    assert document["Content-Type"] == "application/json; charset=utf-8"
    assert json.loads(document.content)["tournament"]["name"] == "Open Cup"
    assert sheet["Content-Type"] == "text/csv; charset=utf-8"
    assert sheet.content.decode("utf-8-sig").startswith("Place,Name,Club,Categories,Total")


def test_the_json_is_deterministic_with_sorted_keys(as_, world):
    client = as_("anonymous")

    first = client.get(url("results-export", world["cup"], "json")).content
    again = client.get(url("results-export", world["cup"], "json")).content

    strip = [line for line in first.decode().splitlines() if "exported_at" not in line]
    assert strip == [line for line in again.decode().splitlines() if "exported_at" not in line]
    assert first.decode().index('"categories"') < first.decode().index('"exported_at"')


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_private_clubs_results_are_for_the_officers_only_here(as_, world, persona, htmx):
    client = as_(persona)

    page = client.get(url("results-detail", world["quiet"]), headers=headers(htmx))
    document = client.get(url("results-export", world["quiet"], "json"))
    index = client.get(url("results"))

    readable = persona in OFFICERS
    assert page.status_code == (200 if readable else 404)
    assert document.status_code == (200 if readable else 404)
    assert ("Quiet Cup" in text(index)) is readable
    if readable:
        assert 'id="results"' in text(page)
        assert ("Quiet Cup" in text(page)) is not htmx  # the title is the page's
        assert ("<html" in text(page)) is not htmx


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
def test_a_tournament_of_a_club_outside_the_federation_is_not_found(as_, world, persona):
    client = as_(persona)

    hidden = Tournament.objects.get(pk=world["outside"]).name
    assert_not_found(client.get(url("results-detail", world["outside"])), hidden)
    assert_not_found(client.get(url("results-export", world["outside"], "csv")), hidden)
    assert_not_found(client.get(url("results-export", world["cup"], "xlsx")))
    assert_not_found(client.get(reverse("federation:results", args=["nope"])))


@pytest.mark.parametrize("persona", FEDERATION_PERSONAS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_everyone_reads_an_imported_result_and_only_officers_see_the_rematch(
    as_, world, persona, htmx
):
    client = as_(persona)

    page = client.get(url("imported", world["imported"]), headers=headers(htmx))
    document = client.get(url("imported-export", world["imported"], "json"))

    assert page.status_code == 200
    assert 'id="imported"' in text(page)
    assert 'id="matches"' in text(page)
    assert "Olena" in text(page)
    assert ("<html" in text(page)) is not htmx
    assert ('name="person"' in text(page)) is (persona in OFFICERS)
    assert json.loads(document.content) == ImportedResult.objects.get().document
    assert client.get(url("imported", 999_999)).status_code == 404


# --- importing -------------------------------------------------------------------------------


def upload(document: dict | bytes, name: str = "lviv.json") -> SimpleUploadedFile:
    content = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, content, "application/json")


def other_file() -> dict:
    document = valid_document()
    document["tournament"]["id"] = 8
    document["tournament"]["name"] = "Lviv Autumn"
    return document


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_anonymous_is_sent_to_log_in_to_import(as_, world, htmx):
    client = as_("anonymous")

    shown = client.get(url("results-import"), headers=headers(htmx))
    sent = client.post(url("results-import"), {"file": upload(other_file())}, headers=headers(htmx))

    assert to_login(shown)
    assert to_login(sent)
    assert ImportedResult.objects.count() == 1


@pytest.mark.parametrize("persona", NOT_OFFICERS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_who_is_no_officer_may_not_import(as_, world, persona, htmx):
    client = as_(persona)

    shown = client.get(url("results-import"), headers=headers(htmx))
    sent = client.post(url("results-import"), {"file": upload(other_file())}, headers=headers(htmx))

    assert shown.status_code == sent.status_code == 403
    assert ImportedResult.objects.count() == 1


@pytest.mark.parametrize("persona", OFFICERS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_an_officer_imports_a_file_and_is_sent_to_its_matches(as_, world, persona, htmx):
    client = as_(persona)

    shown = client.get(url("results-import"), headers=headers(htmx))
    sent = client.post(url("results-import"), {"file": upload(other_file())}, headers=headers(htmx))

    assert 'id="import"' in text(shown)
    assert ("<html" in text(shown)) is not htmx
    imported = ImportedResult.objects.get(name="Lviv Autumn")
    target = url("imported", imported.pk)
    if htmx:
        assert sent.headers["HX-Redirect"] == target
    else:
        assert sent.status_code == 302
        assert sent["Location"] == target
    assert imported.source == "lviv.json"
    assert imported.imported_by == world["users"][persona]
    assert set(imported.persons) == {"p1", "p2", "p3"}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({}, "Choose a file, or give an address."),
        ({"file": b"{broken"}, "This file is not JSON"),
        ({"file": {"format": "pulka/1"}}, '"format" must be "pulka-tournament/1"'),
        ({"file": "unknown person"}, "names the person p9, who is not in persons"),
        ({"file": "again"}, "already imported: Lviv Open"),
        ({"url": "ftp://example.com/x.json"}, "starts with http:// or https://"),
        ({"url": "http://127.0.0.1/x.json"}, "private or local network"),
        ({"file": b"{}", "url": "https://example.com/"}, "not both"),
    ],
    ids=["nothing", "broken", "format", "person", "twice", "scheme", "private", "both"],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_refused_import_says_why_and_saves_nothing(as_, world, fields, message, htmx):
    client = as_("judge")
    data = {}
    for name, value in fields.items():
        if name == "file":
            if value == "unknown person":
                value = other_file()
                value["rounds"][0]["tables"][0]["seats"][1]["person"] = "p9"
            elif value == "again":
                value = valid_document()
            data["file"] = upload(value)
        else:
            data[name] = value
    before = (ImportedResult.objects.count(), Person.objects.count())

    response = client.post(url("results-import"), data, headers=headers(htmx))

    assert response.status_code == 200
    assert message in text(response).replace("&quot;", '"').replace("&#x27;", "'")
    assert ("<html" in text(response)) is not htmx
    assert (ImportedResult.objects.count(), Person.objects.count()) == before


# --- re-matching ------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["anonymous", *NOT_OFFICERS])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_only_officers_rematch(as_, world, persona, htmx):
    client = as_(persona)
    imported = ImportedResult.objects.get(pk=world["imported"])
    before = dict(imported.persons)

    response = client.post(
        url("imported", imported.pk), {"key": "p1", "person": ""}, headers=headers(htmx)
    )

    if persona == "anonymous":
        assert to_login(response)
    else:
        assert response.status_code == 403
    imported.refresh_from_db()
    assert imported.persons == before


@pytest.mark.parametrize("persona", OFFICERS)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_an_officer_rematches_a_person_of_the_file(as_, world, persona, htmx):
    client = as_(persona)
    imported = ImportedResult.objects.get(pk=world["imported"])
    olena = Person.objects.create(federation=imported.federation, name="Olena Bondar")

    response = client.post(
        url("imported", imported.pk), {"key": "p1", "person": str(olena.pk)}, headers=headers(htmx)
    )

    imported.refresh_from_db()
    assert imported.persons["p1"] == olena.pk
    if htmx:
        assert 'id="matches"' in text(response)
        assert "<html" not in text(response)
        assert "Olena of the file is now Olena Bondar." in text(response)
    else:
        assert response.status_code == 302
        assert response["Location"] == url("imported", imported.pk)


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_refused_rematch_says_why_and_changes_nothing(as_, world, htmx):
    client = as_("judge")
    imported = ImportedResult.objects.get(pk=world["imported"])
    before = dict(imported.persons)
    stranger = Person.objects.create(federation=make_federation(slug="other"), name="X")

    taken = client.post(
        url("imported", imported.pk),
        {"key": "p2", "person": str(before["p1"])},
        headers=headers(htmx),
    )
    foreign = client.post(
        url("imported", imported.pk),
        {"key": "p2", "person": str(stranger.pk)},
        headers=headers(htmx),
    )
    unknown = client.post(
        url("imported", imported.pk), {"key": "p99", "person": ""}, headers=headers(htmx)
    )

    assert "is already matched to Olena" in text(taken)
    assert "Select a valid choice" in text(foreign)
    assert "Select a valid choice" in text(unknown)
    for response in (taken, foreign, unknown):
        assert response.status_code == 200
        assert 'id="matches"' in text(response)
    imported.refresh_from_db()
    assert imported.persons == before


def test_the_rematch_select_is_bounded_and_narrowed_by_a_filter(as_, world):
    client = as_("judge")
    imported = ImportedResult.objects.get(pk=world["imported"])
    Person.objects.bulk_create(
        Person(federation=imported.federation, name=f"P{n:04d}", name_key=f"p{n:04d}")
        for n in range(600)
    )

    page = text(client.get(url("imported", imported.pk)))
    narrowed = text(client.get(url("imported", imported.pk), {"q": "P0599"}))

    assert page.count("<option") < 520
    assert ">P0599</option>" in narrowed


@pytest.mark.parametrize("persona", ["anonymous", "judge"])
def test_a_stored_row_that_is_no_results_file_says_so_and_serves_nothing(as_, world, persona):
    client = as_(persona)
    odd = ImportedResult.objects.create(
        federation=ImportedResult.objects.get(pk=world["imported"]).federation,
        name="Typed in the admin",
        start="2026-01-01",
        document={"standings": []},
    )

    page = client.get(url("imported", odd.pk))
    posted = client.post(url("imported", odd.pk), {"key": "p1", "person": ""})

    assert page.status_code == 200
    assert "&quot;format&quot; must be &quot;pulka-tournament/1&quot;, not null." in text(page)
    assert 'name="person"' not in text(page)
    assert client.get(url("imported-export", odd.pk, "json")).status_code == 404
    if persona == "anonymous":
        assert to_login(posted)
    else:
        assert posted.status_code == 200
    odd.refresh_from_db()
    assert odd.persons == {}
