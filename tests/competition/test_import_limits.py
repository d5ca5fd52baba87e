"""import_club with a file nobody should trust (competition.backup.services, the command).

Every crafted file gets a CommandError in words, never another exception, and changes
nothing; the file's people become nobody of this site unless staff say --link-members, and
even then never a staff account; a club name another club has is refused.
"""

from __future__ import annotations

import io
import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import connection

from club.models import Club, Invitation, Membership, MembershipEvent, Player, Role
from competition.backup import services as backup
from scoring import services
from scoring.models import Deal, Evening
from tests.competition.factories import RULES, make_tournament, names_for, play_round
from tests.conftest import make_club, make_evening, make_member, make_pulka, make_user

pytestmark = pytest.mark.django_db

RLO = "\u202e"


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_club", *args, stdout=out)
    return out.getvalue()


def everything() -> dict[str, list]:
    """The rows an import could touch, to show that a refused one touched none."""
    User = get_user_model()
    return {
        "clubs": list(Club.objects.values_list("pk", "name", "slug")),
        "users": list(User.objects.values_list("pk", "username", "is_staff", "is_active")),
        "members": list(Membership.objects.values_list("club", "user", "role")),
        "players": list(Player.objects.values_list("club", "name", "user")),
        "invitations": list(Invitation.objects.values_list("club", "role", "player")),
        "evenings": list(Evening.objects.values_list("pk", flat=True)),
        "history": MembershipEvent.objects.count(),
    }


def small_club() -> Club:
    """Anna owns it, Boris is its secretary (both with an address, both on the roster), Vera
    plays without an account; one finished pulka."""
    club = make_club(name="Small Club", slug="small")
    anna = make_member(club, Role.OWNER, username="anna", email="anna@example.org").user
    boris = make_member(club, Role.SECRETARY, username="boris", email="boris@example.org").user
    pulka = make_pulka(make_evening(club))
    Player.objects.filter(club=club, name="Anna").update(user=anna)
    Player.objects.filter(club=club, name="Boris").update(user=boris)
    raspasy = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
    services.deal_record(pulka=pulka, data=raspasy, entered_by=boris)
    services.pulka_finish(pulka=pulka, finished_by=anna)
    return club


def moved(document: dict) -> dict:
    """The same club as kept by another site: its people are nobody here."""
    text = json.dumps(document)
    for name in ("anna", "boris"):
        text = text.replace(f'"{name}"', f'"{name}.k"').replace(
            f"{name}@example.org", f"{name}@elsewhere.example"
        )
    return json.loads(text)


@pytest.fixture
def owner():
    return make_user(username="olena", email="olena@example.org")


@pytest.fixture
def backup_file(tmp_path):
    """write(document or text) -> the path of a file holding it."""

    def write(content, name: str = "club.json"):
        path = tmp_path / name
        text = content if isinstance(content, str) else json.dumps(content)
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


# --- crafted files: a message, never a traceback, and nothing changed ---------------------------


def test_a_hundred_thousand_nested_brackets_are_refused_in_words(backup_file, owner):
    before = everything()

    with pytest.raises(CommandError, match="nests its values more than 40 deep"):
        run(backup_file("[" * 100_000 + "]" * 100_000), "--owner", "olena")

    assert everything() == before


def test_nesting_too_deep_for_a_backup_but_not_for_python_is_refused_too(backup_file, owner):
    document = backup.club_document(small_club())
    document["evenings"][0]["notes"] = json.loads("[" * 60 + "]" * 60)
    before = everything()

    with pytest.raises(CommandError, match="more than 40 deep"):
        run(backup_file(document), "--owner", "olena", "--name", "Moved", "--slug", "moved")

    assert everything() == before


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("1" * 5_000, "a number of more than 640 digits"),
        ("-" + "9" * 641, "a number of more than 640 digits"),
        ("-" + "9" * 19, "a number of 19 digits"),
        ("1e999", "holds 1e999, which is no number"),
        ("NaN", "holds NaN, which is no number"),
    ],
)
def test_a_number_no_backup_holds_is_refused_in_words(backup_file, owner, number, message):
    text = json.dumps(backup.club_document(small_club())).replace(
        '"is_public": true', f'"is_public": {number}', 1
    )
    assert number in text
    before = everything()

    with pytest.raises(CommandError, match=message):
        run(backup_file(text), "--owner", "olena")

    assert everything() == before


def test_an_over_large_file_is_refused_before_a_byte_is_read(tmp_path, owner):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:  # a sparse file: 200 MB and one byte, on no disk space
        f.truncate(backup.MAX_FILE_MB * 1024 * 1024 + 1)
    before = everything()
    started = time.monotonic()

    with pytest.raises(CommandError, match="is 200.0 MB: a club backup is read up to 200 MB"):
        run(str(path), "--owner", "olena")

    assert time.monotonic() - started < 1
    assert everything() == before


def test_staff_may_read_a_larger_file_with_max_size(backup_file, owner):
    text = json.dumps(backup.club_document(small_club())) + " " * (1024 * 1024)
    path = backup_file(text)

    with pytest.raises(CommandError, match="read up to 1 MB. Staff may allow a larger one"):
        run(path, "--owner", "olena", "--max-size", "1", "--slug", "moved", "--name", "Moved")
    printed = run(path, "--owner", "olena", "--max-size", "2", "--slug", "moved", "--name", "Moved")

    assert printed.startswith("Restored Moved at /c/moved/")


def test_a_file_of_too_many_deals_is_refused_at_once_before_anything_is_stored(backup_file, owner):
    document = backup.club_document(small_club())
    pulka = document["evenings"][0]["pulkas"][0]
    pulka["pulka"]["deals"] = [{}] * (backup.MAX_DEALS + 1)
    path = backup_file(document)
    before = everything()
    started = time.monotonic()

    with pytest.raises(CommandError, match="holds 200001 deals; a club backup restored here"):
        run(path, "--owner", "olena", "--slug", "moved", "--name", "Moved")

    assert time.monotonic() - started < 5
    assert everything() == before


def test_millions_of_empty_objects_are_refused_before_parsing(backup_file, owner):
    # 12 MB of "{}," would be 4 million dicts in memory; 200 MB of them, some 5 GB.
    text = '{"format": "pulka-club/1", "x": [' + "{}," * backup.MAX_CONTAINERS + "{}]}"
    path = backup_file(text)
    before = everything()
    started = time.monotonic()

    with pytest.raises(CommandError, match="holds 4000003 JSON objects and lists"):
        run(path, "--owner", "olena")

    assert time.monotonic() - started < 2
    assert everything() == before


def test_a_file_of_too_many_lines_of_history_or_rows_is_refused(backup_file, owner):
    document = backup.club_document(small_club())
    document["evenings"][0]["pulkas"][0]["revisions"] = [{}] * (backup.MAX_HISTORY_LINES + 1)
    before = everything()

    with pytest.raises(CommandError, match="lines of history"):
        run(backup_file(document), "--owner", "olena", "--slug", "moved", "--name", "Moved")
    document["evenings"][0]["pulkas"][0]["revisions"] = []
    document["players"] = [{}] * backup.MAX_ROWS
    with pytest.raises(CommandError, match="rows"):
        run(backup_file(document), "--owner", "olena", "--slug", "moved", "--name", "Moved")

    assert everything() == before


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d["players"][0].update(name=f"An{RLO}na"), r"The name An<U\+202E>na contains"),
        (lambda d: d["evenings"][0].update(notes=f"a\n{RLO}b"), r"evenings\[0\]\.notes: The notes"),
        (lambda d: d["evenings"][0].update(venue=["a"]), r"evenings\[0\]\.venue is missing"),
        (lambda d: d["club"].update(city=7), r"club\.city is missing"),
    ],
)
def test_a_name_the_rule_refuses_refuses_the_file(backup_file, owner, damage, message):
    document = backup.club_document(small_club())
    damage(document)
    before = everything()

    with pytest.raises(CommandError, match=message):
        run(backup_file(document), "--owner", "olena", "--slug", "moved", "--name", "Moved")

    assert everything() == before


def test_a_club_name_the_rule_refuses_refuses_the_file(backup_file, owner):
    document = backup.club_document(small_club())
    document["club"]["name"] = f"Small{RLO}Club"
    before = everything()

    with pytest.raises(CommandError, match=r"The club's name contains .* \(U\+202E\)"):
        run(backup_file(document), "--owner", "olena", "--slug", "moved")

    assert everything() == before


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite keeps 64-bit integers in every column"
)
def test_a_number_beyond_its_column_is_refused_in_words(backup_file, owner):
    document = backup.club_document(small_club())
    document["evenings"][0]["pulkas"][0]["table"] = 10**17  # an integer column of 32 bits
    before = everything()

    with pytest.raises(CommandError, match="a number too large for this site's database"):
        run(backup_file(document), "--owner", "olena", "--slug", "moved", "--name", "Moved")

    assert everything() == before


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda d: d["evenings"][0]["pulkas"][0]["revisions"][0].update(deal=1.5),
            r"revisions\[0\]\.deal is missing or not understood",
        ),
        (lambda d: d["tournaments"][0].update(lot="x"), "must be either True or False"),
        (
            lambda d: d["tournaments"][0]["rounds"][0]["tables"][0].update(number=-1),
            "a value is missing or not understood",
        ),
    ],
)
def test_a_value_a_column_refuses_gets_a_message_too(backup_file, owner, damage, message):
    club = make_club(name="Cup Club", slug="cup-club")
    play_round(make_tournament(club, names_for(4), rules=RULES, deal_cap=2), deals=1)
    document = backup.club_document(club)
    damage(document)
    before = everything()

    with pytest.raises(CommandError, match=message):
        run(backup_file(document), "--owner", "olena", "--slug", "moved", "--name", "Moved")

    assert everything() == before


# --- whose club it is: the owner named, the members invited -------------------------------------


def test_the_file_makes_nobody_a_member_the_owner_gets_invitations_to_send(
    client, backup_file, owner
):
    document = moved(backup.club_document(small_club()))
    users = get_user_model().objects.count()

    printed = run(backup_file(document), "--owner", "olena", "--slug", "moved", "--name", "Moved")

    club = Club.objects.get(slug="moved")
    assert list(Membership.objects.filter(club=club).values_list("user__username", "role")) == [
        ("olena", Role.OWNER)
    ]
    assert get_user_model().objects.count() == users  # no account made for anybody
    roster = dict(Player.objects.filter(club=club).values_list("name", "user"))
    assert roster == {"Anna": None, "Boris": None, "Vera": None}
    links = Invitation.objects.filter(club=club).order_by("role")
    assert [(i.role, i.player.name, i.created_by, i.max_uses) for i in links] == [
        (Role.OWNER, "Anna", owner, 1),
        (Role.SECRETARY, "Boris", owner, 1),
    ]
    assert mail.outbox == []  # the owner sends them, or not
    assert "Anna <anna@elsewhere.example> (owner)" in printed
    assert "Boris <boris@elsewhere.example> (secretary)" in printed
    assert "Existing accounts used" not in printed
    assert Deal.objects.get(pulka__evening__club=club).entered_by is None  # nobody named
    client.force_login(owner)
    page = client.get("/c/moved/invitations/").content.decode()
    assert "Anna" in page
    assert "Boris" in page


def test_a_member_with_the_admins_address_does_not_become_the_admin(backup_file, owner):
    admin = make_user(username="root", email="root@example.org", is_staff=True, is_superuser=True)
    document = backup.club_document(small_club())
    text = json.dumps(document).replace("anna@example.org", "ROOT@example.org")
    before = everything()

    with pytest.raises(CommandError, match="staff account root"):
        run(backup_file(text), "--link-members", "--slug", "moved", "--name", "Moved")
    assert everything() == before

    run(backup_file(text), "--owner", "olena", "--slug", "moved", "--name", "Moved")

    club = Club.objects.get(slug="moved")
    assert not Membership.objects.filter(user=admin).exists()
    assert not Player.objects.filter(user=admin).exists()
    assert Membership.objects.get(club=club).user == owner
    # The link is there for the owner to send; it makes nobody anything until accepted.
    assert Invitation.objects.filter(club=club, role=Role.OWNER, uses=0).count() == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Name the restored club's owner, an account of this site: --owner USERNAME"),
        (("--owner", "nobody"), "There is no account nobody on this site"),
    ],
)
def test_the_owner_is_required_and_must_be_an_account(backup_file, owner, args, message):
    path = backup_file(backup.club_document(small_club()))
    before = everything()

    with pytest.raises(CommandError, match=message):
        run(path, "--slug", "moved", "--name", "Moved", *args)

    assert everything() == before


def test_link_members_keeps_matching_the_files_people_to_accounts(backup_file, owner):
    club = small_club()
    path = backup_file(backup.club_document(club))

    printed = run(path, "--link-members", "--slug", "moved", "--name", "Moved")

    restored = Club.objects.get(slug="moved")
    assert set(Membership.objects.filter(club=restored).values_list("user__username", "role")) == {
        ("anna", Role.OWNER),
        ("boris", Role.SECRETARY),
    }
    assert Player.objects.get(club=restored, name="Boris").user.username == "boris"
    assert not Invitation.objects.filter(club=restored).exists()
    assert "Existing accounts used: anna, boris." in printed


def test_link_members_with_an_owner_adds_him_as_owner_too(backup_file, owner):
    path = backup_file(backup.club_document(small_club()))

    run(path, "--link-members", "--owner", "olena", "--slug", "moved", "--name", "Moved")

    restored = Club.objects.get(slug="moved")
    assert set(Membership.objects.filter(club=restored).values_list("user__username", "role")) == {
        ("olena", Role.OWNER),
        ("anna", Role.OWNER),
        ("boris", Role.SECRETARY),
    }


# --- the club's name ------------------------------------------------------------------------------


@pytest.mark.parametrize("taken", ["Small Club", "SMALL  club"])
def test_a_name_another_club_has_is_refused_and_name_gives_another(backup_file, owner, taken):
    document = backup.club_document(small_club())
    document["club"]["name"] = taken
    path = backup_file(document)
    before = everything()

    with pytest.raises(CommandError, match="--name NEW_NAME"):
        run(path, "--owner", "olena", "--slug", "moved")
    assert everything() == before

    printed = run(path, "--owner", "olena", "--slug", "moved", "--name", " Small Club 2 ")

    assert printed.startswith("Restored Small Club 2 at /c/moved/")
    assert Club.objects.filter(name__startswith="Small Club").count() == 2


def test_an_empty_club_of_the_link_may_keep_its_own_name(backup_file, owner):
    document = backup.club_document(small_club())
    document["club"]["name"] = "Fresh"
    empty = make_club(name="Fresh", slug="fresh")

    run(backup_file(document), "--owner", "olena", "--slug", "fresh")

    empty.refresh_from_db()
    assert empty.name == "Fresh"
    assert Membership.objects.get(club=empty).user == owner
