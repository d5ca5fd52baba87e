"""A club's backup (export_club / import_club, competition.backup): a club moves whole."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from club.models import Club, Membership, Player, Role
from competition import backup, profile, ratings
from competition.demo import CLUB_SLUG, load_demo
from competition.models import League
from competition.selectors import league_ranking
from scoring import engine, selectors, services
from scoring.models import Deal, DealRevision, Evening, Pulka, PulkaStatus, StatusChange
from tests.conftest import make_club, make_evening, make_member, make_pulka, make_user

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _sheet(sheet: engine.Sheet) -> dict:
    return engine.sheet_to_dict(sheet)


def figures(club: Club) -> dict:
    """What the club's pages show, computed (not rendered), with players by name."""
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    evenings = list(selectors.evenings_for_club(club))
    pulkas = Pulka.objects.filter(evening__club=club).order_by("evening__date", "table")
    current = ratings.current_ratings(club)
    return {
        "club page": {
            "running": [
                (t.pulka.evening.date, t.pulka.table, t.names, t.rows)
                for t in selectors.running_tables_for_club(club)
            ],
            "evenings": [(e.date, e.venue, e.notes, e.table_count) for e in evenings],
            "roster": [(p.name, p.is_active) for p in Player.objects.filter(club=club)],
        },
        "evening pages": [
            [
                (t.pulka.table, t.pulka.status, t.names, t.rows)
                for t in selectors.evening_tables(evening)
            ]
            for evening in evenings
        ],
        "pulka sheets": [
            (p.evening.date, p.table, p.status, _sheet(selectors.pulka_sheet(p))) for p in pulkas
        ],
        "leagues": [
            _ranking(league_ranking(league), names)
            for league in League.objects.filter(club=club).order_by("name")
        ],
        "profiles": {
            player.name: (
                current[player.pk].rating if player.pk in current else None,
                profile.player_summary(club, player),
            )
            for player in Player.objects.filter(club=club)
        },
    }


def _ranking(ranking, names: dict[int, str]) -> dict:
    def lines(standings):
        return [(names[s.player_id], *s[1:]) for s in standings]

    return {"ranked": lines(ranking.ranked), "unranked": lines(ranking.unranked)}


def history(club: Club) -> list:
    """Who did what to each pulka: its creator, deals, revisions and status changes."""

    def who(user) -> str | None:
        return user.username if user else None

    lines = []
    for pulka in Pulka.objects.filter(evening__club=club).order_by("evening__date", "table"):
        lines.append((who(pulka.created_by), pulka.created_at, pulka.finished_at))
        lines += [
            (d.number, d.version, who(d.entered_by), d.entered_at, who(d.changed_by), d.changed_at)
            for d in Deal.objects.filter(pulka=pulka).order_by("number")
        ]
        lines += [
            (r.number, r.deal.number if r.deal else None, r.action, r.before, r.after)
            + (who(r.user), r.at)
            for r in DealRevision.objects.filter(pulka=pulka).order_by("at", "pk")
        ]
        lines += [
            (s.status, who(s.user), s.at)
            for s in StatusChange.objects.filter(pulka=pulka).order_by("at", "pk")
        ]
    return lines


@pytest.fixture
def demo() -> Club:
    load_demo()
    club = Club.objects.get(slug=CLUB_SLUG)
    # A deleted deal and a corrected one, so that the history has every kind of line.
    running = Pulka.objects.filter(evening__club=club, status=PulkaStatus.RUNNING).first()
    last = Deal.objects.filter(pulka=running).order_by("number").last()
    services.deal_delete(pulka=running, number=last.number, expected_version=1, deleted_by=None)
    game = Deal.objects.filter(pulka=running, kind=engine.GAME).order_by("number").first()
    data = game.to_pulka_dict(running.names)
    data["talon"] = ["AS", "KS"] if data.get("talon") != ["AS", "KS"] else ["QH", "JH"]
    secretary = get_user_model().objects.get(username="secretary")
    services.deal_update(
        pulka=running, number=game.number, data=data, expected_version=1, changed_by=secretary
    )
    return club


def test_a_club_moves_with_every_figure_of_every_page_unchanged(demo, tmp_path):
    path = tmp_path / "club.json"

    assert run("export_club", CLUB_SLUG, "--output", str(path)) == ""
    printed = run("import_club", str(path), "--slug", "moved")

    moved = Club.objects.get(slug="moved")
    assert printed.startswith(
        f"Restored Сочинка at /c/moved/: {Evening.objects.filter(club=demo).count()} evenings"
    )
    assert "created inactive" not in printed
    assert (
        Pulka.objects.filter(evening__club=moved).count()
        == Pulka.objects.filter(evening__club=demo).count()
    )
    before, after = figures(demo), figures(moved)
    assert after["club page"] == before["club page"]
    assert after["evening pages"] == before["evening pages"]
    assert after["pulka sheets"] == before["pulka sheets"]
    assert after["leagues"] == before["leagues"]
    assert after["leagues"][0]["ranked"], "the demo league ranks somebody"
    assert after["profiles"] == before["profiles"]
    assert any(rating is not None for rating, _ in after["profiles"].values())


def test_the_history_and_who_did_what_move_with_the_club(demo):
    document = backup.club_document(demo)

    backup.club_restore(document=json.loads(json.dumps(document)), slug="moved")

    moved = Club.objects.get(slug="moved")
    assert history(moved) == history(demo)
    actions = {line[2] for line in history(moved) if len(line) == 7 and isinstance(line[2], str)}
    assert {"created", "changed", "deleted"} <= actions

    def resolved(club: Club) -> dict:
        return engine.rules_to_dict(engine.rules_from_dict(club.default_rules()))

    assert resolved(moved) == resolved(demo)
    assert set(Membership.objects.filter(club=moved).values_list("user__username", "role")) == set(
        Membership.objects.filter(club=demo).values_list("user__username", "role")
    )
    linked = Player.objects.get(club=moved, user__username="player")
    assert linked.name == Player.objects.get(club=demo, user__username="player").name
    # Exported again, the moved club is the same document but for its link and the moment.
    again = backup.club_document(moved)
    for doc in (document, again):
        doc.pop("exported_at")
        doc["club"].pop("slug")
        for evening in doc["evenings"]:
            for pulka in evening["pulkas"]:
                pulka.pop("id")
    assert again == json.loads(json.dumps(document))


def _small_club() -> Club:
    club = make_club(slug="small")
    owner = make_user(username="anna", email="anna@example.org")
    make_member(club, Role.OWNER, user=owner)
    pulka = make_pulka(make_evening(club))
    raspasy = {"kind": "raspasy", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}}
    services.deal_record(pulka=pulka, data=raspasy, entered_by=owner)
    services.pulka_finish(pulka=pulka, finished_by=owner)
    return club


def test_missing_accounts_are_created_inactive_without_a_password(tmp_path):
    # The same club, kept by someone this site has never seen.
    text = json.dumps(backup.club_document(_small_club()))
    text = text.replace('"anna"', '"olena"').replace("anna@example.org", "olena@example.org")
    path = tmp_path / "club.json"
    path.write_text(text, encoding="utf-8")

    printed = run("import_club", str(path), "--slug", "elsewhere")

    olena = get_user_model().objects.get(username="olena")
    assert not olena.is_active
    assert not olena.has_usable_password()
    assert olena.email == "olena@example.org"
    assert "created inactive and without a password" in printed
    assert printed.strip().endswith("olena.")
    club = Club.objects.get(slug="elsewhere")
    assert Membership.objects.get(club=club).user == olena


def test_accounts_are_matched_by_email_before_username():
    document = backup.club_document(_small_club())
    same_person = make_user(username="anna.k", email="ANNA@example.org")
    namesake = get_user_model().objects.get(username="anna")
    namesake.email = "another@example.org"
    namesake.save()

    report = backup.club_restore(document=document, slug="elsewhere")

    assert report.matched_users == ["anna.k"]
    assert report.created_users == []
    assert Membership.objects.get(club=report.club).user == same_person
    assert Deal.objects.get(pulka__evening__club=report.club).entered_by == same_person


def test_a_username_taken_by_someone_else_gets_a_new_account():
    document = backup.club_document(_small_club())
    get_user_model().objects.filter(username="anna").update(email="someone@example.org")

    report = backup.club_restore(document=document, slug="elsewhere")

    assert report.created_users == ["anna-2"]
    assert get_user_model().objects.get(username="anna-2").email == "anna@example.org"


def test_results_are_recomputed_not_copied():
    club = _small_club()
    document = backup.club_document(club)

    report = backup.club_restore(document=document, slug="elsewhere")

    pulka = Pulka.objects.get(evening__club=report.club)
    assert pulka.status == PulkaStatus.FINISHED
    assert sorted(pulka.result_cache.values_list("player__name", "result_rounded")) == sorted(
        Pulka.objects.get(evening__club=club).result_cache.values_list(
            "player__name", "result_rounded"
        )
    )
    assert ratings.current_ratings(report.club)


@pytest.mark.parametrize("counted", [True, False, None])
def test_an_evening_that_does_not_count_in_the_leagues_stays_so(counted):
    club = _small_club()
    evening = Evening.objects.get(club=club)
    if counted is not None:
        services.evening_count(evening=evening, counted=counted)
    document = backup.club_document(club)
    if counted is None:  # a file older than the flag: everything counted then
        del document["evenings"][0]["counted"]

    report = backup.club_restore(document=document, slug="elsewhere")

    restored = Evening.objects.get(club=report.club)
    expected = counted is not False
    assert restored.counted is expected
    assert set(restored.pulkas.get().result_cache.values_list("counted", flat=True)) == {expected}


def test_a_club_with_evenings_is_never_overwritten(tmp_path):
    club = _small_club()
    path = tmp_path / "club.json"
    run("export_club", club.slug, "--output", str(path))

    with pytest.raises(CommandError, match="already has evenings, players or leagues"):
        run("import_club", str(path))

    assert Evening.objects.filter(club=club).count() == 1


def test_an_empty_club_of_that_link_receives_the_backup():
    document = backup.club_document(_small_club())
    empty = make_club(slug="fresh")

    report = backup.club_restore(document=document, slug="fresh")

    assert report.club.pk == empty.pk
    assert Pulka.objects.filter(evening__club=empty).count() == 1


def test_a_pulka_the_engine_refuses_saves_nothing():
    document = backup.club_document(_small_club())
    deal = document["evenings"][0]["pulkas"][0]["pulka"]["deals"][0]
    deal["tricks"] = {"Anna": 9, "Boris": 9, "Vera": 9}
    clubs = Club.objects.count()

    with pytest.raises(backup.BackupError, match=r"evenings\[0\]\.pulkas\[0\]"):
        backup.club_restore(document=document, slug="elsewhere")

    assert Club.objects.count() == clubs
    assert not Club.objects.filter(slug="elsewhere").exists()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(format="pulka/1"), "not a club backup"),
        (lambda d: d["evenings"][0].pop("date"), r"evenings\[0\]\.date is missing"),
        (lambda d: d["evenings"][0].update(counted="no"), r"evenings\[0\]\.counted"),
        (lambda d: d["members"][0].update(role="king"), r"members\[0\]\.role"),
        (lambda d: d["members"][0].update(user="nobody"), r"members\.user"),
        (lambda d: d["club"].update(slug="not a slug", name="Moved"), "cannot be a club's link"),
    ],
)
def test_a_damaged_file_is_refused_in_words(damage, message):
    document = backup.club_document(_small_club())
    damage(document)

    # The file's own link, unless the damage is elsewhere (that link is taken here).
    slug = None if document["club"]["name"] == "Moved" else "elsewhere"

    with pytest.raises(backup.BackupError, match=message):
        backup.club_restore(document=document, slug=slug)

    assert Club.objects.count() == 1


def test_the_commands_say_what_is_wrong(tmp_path):
    with pytest.raises(CommandError, match="There is no club nowhere"):
        run("export_club", "nowhere")
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_club", str(tmp_path / "missing.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="is not a JSON file"):
        run("import_club", str(broken))


def test_export_club_prints_the_document_without_output():
    club = _small_club()

    document = json.loads(run("export_club", club.slug))

    assert document["format"] == "pulka-club/1"
    assert document["evenings"][0]["pulkas"][0]["pulka"]["format"] == "pulka/1"
    assert document["evenings"][0]["pulkas"][0]["status_changes"][0]["user"] == "anna"
    assert document["users"] == [
        {"username": "anna", "email": "anna@example.org", "first_name": "", "last_name": ""}
    ]
