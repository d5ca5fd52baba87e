"""A club's backup (export_club / import_club, competition.backup.services): a club moves whole."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from club.models import Club, Membership, Player, Role
from competition.backup import services as backup
from competition.demo import CLUB_SLUG
from competition.league.selectors import league_ranking
from competition.models import Entry, League, RatingSnapshot, RoundTable, Tournament
from competition.profile import selectors as profile
from competition.rating import ratings
from scoring import engine, selectors, services
from scoring.models import (
    Deal,
    DealRevision,
    Evening,
    Pulka,
    PulkaResultCache,
    PulkaStatus,
    StatusChange,
)
from tests.competition.factories import RULES, make_tournament, names_for, play_round
from tests.conftest import make_club, make_evening, make_member, make_pulka, make_user, record
from tests.scoring.factories import SIX_BY_BORIS, no_play

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def _sheet(sheet: engine.Sheet) -> dict:
    return engine.sheet_to_dict(sheet)


def in_order(pulkas):
    """Pulkas in an order a backup keeps: two evenings of one date (a tournament's rounds)
    have tables of the same numbers, told apart by when they were created."""
    return pulkas.order_by("evening__date", "table", "created_at")


def figures(club: Club) -> dict:
    """What the club's pages show, computed (not rendered), with players by name."""
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    evenings = list(selectors.evenings_for_club(club))
    pulkas = in_order(Pulka.objects.filter(evening__club=club))
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
    for pulka in in_order(Pulka.objects.filter(evening__club=club)):
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
def demo(demo) -> Club:
    """The demo's club (tests/conftest.py's `demo`), with a deleted deal and a corrected one."""
    club = demo
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
    printed = run(
        "import_club", str(path), "--slug", "moved", "--name", "Сочинка 2", "--owner", "owner"
    )

    moved = Club.objects.get(slug="moved")
    assert printed.startswith(
        f"Restored Сочинка 2 at /c/moved/: {Evening.objects.filter(club=demo).count()} evenings"
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

    backup.club_restore(
        document=json.loads(json.dumps(document)), slug="moved", name="Moved", link_members=True
    )

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
        doc["club"].pop("name")
        for evening in doc["evenings"]:
            evening.pop("id")
            for pulka in evening["pulkas"]:
                pulka.pop("id")
        for tournament in doc["tournaments"]:  # they name evenings and pulkas by those ids
            for one in tournament["rounds"]:
                one.pop("evening")
                for table in one["tables"]:
                    table.pop("pulka")
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

    printed = run(
        "import_club", str(path), "--slug", "elsewhere", "--name", "Moved", "--link-members"
    )

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

    report = backup.club_restore(
        document=document, slug="elsewhere", name="Moved", link_members=True
    )

    assert report.matched_users == ["anna.k"]
    assert report.created_users == []
    assert Membership.objects.get(club=report.club).user == same_person
    assert Deal.objects.get(pulka__evening__club=report.club).entered_by == same_person


def test_a_username_taken_by_someone_else_gets_a_new_account():
    document = backup.club_document(_small_club())
    get_user_model().objects.filter(username="anna").update(email="someone@example.org")

    report = backup.club_restore(
        document=document, slug="elsewhere", name="Moved", link_members=True
    )

    assert report.created_users == ["anna-2"]
    assert get_user_model().objects.get(username="anna-2").email == "anna@example.org"


def test_results_are_recomputed_not_copied():
    club = _small_club()
    document = backup.club_document(club)

    report = backup.club_restore(
        document=document, slug="elsewhere", name="Moved", owner=make_user()
    )

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

    report = backup.club_restore(
        document=document, slug="elsewhere", name="Moved", owner=make_user()
    )

    restored = Evening.objects.get(club=report.club)
    expected = counted is not False
    assert restored.counted is expected
    assert set(restored.pulkas.get().result_cache.values_list("counted", flat=True)) == {expected}


def test_a_club_with_evenings_is_never_overwritten(tmp_path):
    club = _small_club()
    path = tmp_path / "club.json"
    run("export_club", club.slug, "--output", str(path))

    with pytest.raises(CommandError, match="already has evenings, players or leagues"):
        run("import_club", str(path), "--owner", "anna")

    assert Evening.objects.filter(club=club).count() == 1


def test_an_empty_club_of_that_link_receives_the_backup():
    document = backup.club_document(_small_club())
    empty = make_club(slug="fresh")

    report = backup.club_restore(document=document, slug="fresh", name="Moved", owner=make_user())

    assert report.club.pk == empty.pk
    assert Pulka.objects.filter(evening__club=empty).count() == 1


def test_a_pulka_the_engine_refuses_saves_nothing():
    document = backup.club_document(_small_club())
    deal = document["evenings"][0]["pulkas"][0]["pulka"]["deals"][0]
    deal["tricks"] = {"Anna": 9, "Boris": 9, "Vera": 9}
    clubs = Club.objects.count()

    with pytest.raises(backup.BackupError, match=r"evenings\[0\]\.pulkas\[0\]"):
        backup.club_restore(document=document, slug="elsewhere", name="Moved", owner=make_user())

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

    owner = make_user()

    with pytest.raises(backup.BackupError, match=message):
        backup.club_restore(document=document, slug=slug, name="Restored", owner=owner)

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


# --- tournaments: uncounted evenings, capped tables, and the tournaments themselves ------


@pytest.fixture(scope="module")
def cup_club_rows(module_rows, django_db_blocker) -> tuple[int, int]:
    """The club of a cup (made once for the module, tests/conftest.py's module_rows)."""
    with django_db_blocker.unblock():
        club, t = _tournament_club()
        return club.pk, t.pk


@pytest.fixture
def cup_club(cup_club_rows, db) -> tuple[Club, Tournament]:
    """A club whose cup of 10 (3 of them a team), uncounted, capped at 4 deals a table, has
    two rounds confirmed (a withdrawal and a substitute between them, a penalty in round 2)
    and a third drawn."""
    club, t = cup_club_rows
    return Club.objects.get(pk=club), Tournament.objects.get(pk=t)


def _tournament_club() -> tuple[Club, Tournament]:
    from competition.tournament import services as tsvc

    club = make_club(slug="cup-club")
    make_member(club, Role.OWNER, username="organiser")
    t = make_tournament(club, names_for(10), rules=RULES, deal_cap=4, counted=False)
    for name in names_for(3):
        Entry.objects.filter(tournament=t, player__name=name).update(team="Aces")
    play_round(t)
    gone = Entry.objects.get(tournament=t, player__name="P05")
    tsvc.entry_withdraw(entry=gone)
    tsvc.entry_substitute(entry=gone, name="Sasha")
    play_round(t, deals=2)
    tsvc.penalty_add(
        tournament=t,
        player_id=Player.objects.get(club=club, name="P01").pk,
        round_number=2,
        amount=7,
        unit="whists",
        reason="Late",
        by=None,
    )
    tsvc.round_draft(tournament=t)
    return club, t


def _tournament_figures(club: Club) -> dict:
    from competition.tournament import selectors as tsel

    (t,) = Tournament.objects.filter(club=club)
    table = tsel.standings(t)
    names = tsel.names(t)
    return {
        "settings": {name: getattr(t, name) for name in (*Tournament.SETTINGS, "seed")},
        "entries": [
            (
                e.player.name,
                e.team,
                e.status,
                e.first_round,
                e.last_round,
                e.substitute_for.player.name if e.substitute_for else None,
            )
            for e in tsel.entries(t)
        ],
        "rounds": [
            (r.number, r.state, r.method, r.seed, backup._seating_named(r.seating, names))
            for r in t.rounds.order_by("number")
        ],
        "tables": [
            (r.number, x.number, x.pulka.names, x.pulka.deal_cap, x.pulka.evening.counted)
            for r in t.rounds.order_by("number")
            for x in RoundTable.objects.filter(round=r).order_by("number")
        ],
        "standings": [
            (
                names[line.player],
                line.place,
                line.score,
                line.whists,
                [(p.round, p.amount, p.unit, p.reason) for p in line.penalties],
            )
            for line in table.lines
        ],
    }


def test_a_tournament_moves_with_its_rounds_uncounted_evenings_and_capped_tables(
    tmp_path, cup_club
):
    club, t = cup_club
    before = _tournament_figures(club)
    path = tmp_path / "club.json"
    run("export_club", club.slug, "--output", str(path))

    printed = run(
        "import_club", str(path), "--slug", "cup-moved", "--name", "Cup", "--owner", "organiser"
    )

    assert "Tournaments restored: 1." in printed
    moved = Club.objects.get(slug="cup-moved")
    assert _tournament_figures(moved) == before
    evenings = Evening.objects.filter(club=moved)
    assert evenings.count() == 2
    assert not any(evenings.values_list("counted", flat=True))
    assert set(Pulka.objects.filter(evening__club=moved).values_list("deal_cap", flat=True)) == {4}
    assert not PulkaResultCache.objects.filter(club=moved, counted=True).exists()
    assert PulkaResultCache.objects.filter(club=moved).count() == 20
    assert not RatingSnapshot.objects.filter(club=moved).exists()
    assert before["standings"][0][1] == 1


def test_a_backup_from_before_tournaments_restores_every_evening_as_counted(cup_club):
    club, _ = cup_club
    document = backup.club_document(club)
    del document["tournaments"]
    for evening in document["evenings"]:
        del evening["counted"]
        del evening["id"]
        for pulka in evening["pulkas"]:
            del pulka["deal_cap"]

    backup.club_restore(document=document, slug="old-style", name="Old", owner=make_user())

    moved = Club.objects.get(slug="old-style")
    assert all(Evening.objects.filter(club=moved).values_list("counted", flat=True))
    assert not Tournament.objects.filter(club=moved).exists()
    assert RatingSnapshot.objects.filter(club=moved).count() == 20


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda d: d["evenings"][0].update(counted="yes"), "evenings[0].counted"),
        (lambda d: d["tournaments"][0]["entries"][0].update(player="Nobody"), "entries[0].player"),
        (lambda d: d["tournaments"][0]["rounds"][0].update(evening=999999), "rounds[0].evening"),
        (lambda d: d["tournaments"][0]["rounds"][1].update(number=1), "rounds[1].number"),
        (
            lambda d: d["tournaments"][0]["rounds"][0]["tables"][0].update(pulka=-1),
            "rounds[0].tables[0].pulka",
        ),
        (lambda d: d["tournaments"][0]["penalties"][0].update(unit="stars"), "penalties[0].unit"),
        (lambda d: d["tournaments"][0].update(round_count=99), None),
    ],
)
def test_a_damaged_tournament_restores_nothing(damage, where, cup_club):
    club, _ = cup_club
    document = backup.club_document(club)
    damage(document)

    with pytest.raises(backup.BackupError) as refused:
        backup.club_restore(document=document, slug="broken", name="Broken", owner=make_user())

    if where is not None:
        assert where in refused.value.message
    else:
        assert refused.value.message == "A tournament has 1 to 15 rounds."
    assert not Club.objects.filter(slug="broken").exists()


def test_a_table_beyond_its_cap_in_a_backup_is_refused(cup_club):
    club, _ = cup_club
    document = backup.club_document(club)
    document["evenings"][0]["pulkas"][0]["deal_cap"] = 1

    with pytest.raises(backup.BackupError, match="plays at most 1 deals"):
        backup.club_restore(document=document, slug="broken", name="Broken", owner=make_user())


def test_the_stake_the_locks_and_the_judges_reasons_move_with_the_club():
    owner = make_user(username="judge")
    club = make_club(name="Stake club", slug="stake")
    make_member(club, Role.OWNER, user=owner)
    Club.objects.filter(pk=club.pk).update(whist_price="0.50", currency="EUR")
    pulka = make_pulka(make_evening(club))
    record(pulka, SIX_BY_BORIS, no_play("Vera", "Anna", "Boris"))
    services.pulka_lock(pulka=pulka)
    pulka = Pulka.objects.get(pk=pulka.pk)
    services.deal_delete(
        pulka=pulka, number=2, expected_version=1, deleted_by=owner, reason="Typed twice"
    )
    document = json.loads(json.dumps(backup.club_document(Club.objects.get(pk=club.pk))))

    backup.club_restore(document=document, slug="moved", name="Moved", link_members=True)

    moved = Club.objects.get(slug="moved")
    assert (str(moved.whist_price), moved.currency) == ("0.50", "EUR")
    restored = Pulka.objects.get(evening__club=moved)
    assert restored.locked_at == Pulka.objects.get(pk=pulka.pk).locked_at
    revisions = DealRevision.objects.filter(pulka=restored).order_by("at", "pk")
    assert list(revisions.values_list("action", "reason")) == [
        ("created", ""),
        ("created", ""),
        ("deleted", "Typed twice"),
    ]


def test_what_its_players_did_at_the_table_moves_with_the_club_but_never_its_link():
    anna = make_user(username="anna")
    club = make_club(name="Table club", slug="table")
    make_member(club, Role.OWNER, user=make_user(username="boss"))
    evening = make_evening(club)
    pulka = make_pulka(evening)
    Player.objects.filter(club=club, name="Anna").update(user=anna)
    services.evening_self_entry(evening=evening, on=True)
    pulka = Pulka.objects.get(pk=pulka.pk)
    services.table_seat_claim(pulka=pulka, seat=0, user=anna)
    services.deal_record(pulka=pulka, data=SIX_BY_BORIS, entered_by=anna, seat=0)
    services.deal_confirm(pulka=pulka, number=1, expected_version=1, seat=1, user=None)
    services.deal_record(
        pulka=pulka, data=no_play("Vera", "Anna", "Boris"), entered_by=None, seat=1
    )
    services.deal_dispute(
        pulka=pulka, number=2, expected_version=1, seat=2, user=None, reason="Vera passed"
    )
    document = json.loads(json.dumps(backup.club_document(Club.objects.get(pk=club.pk))))

    backup.club_restore(document=document, slug="moved", name="Moved", link_members=True)

    restored = Pulka.objects.get(evening__club__slug="moved")
    assert restored.table_token is None
    assert restored.evening.self_entry is True
    fields = ("confirmation", "entered_seat", "confirmed_seat", "disputed_seat", "dispute_reason")
    assert list(Deal.objects.filter(pulka=restored).order_by("number").values_list(*fields)) == [
        ("confirmed", 0, 1, None, ""),
        ("disputed", 1, None, 2, "Vera passed"),
    ]
    assert Deal.objects.get(pulka=restored, number=1).confirmed_at is not None
    revisions = DealRevision.objects.filter(pulka=restored).order_by("at", "pk")
    assert list(revisions.values_list("action", "seat")) == [
        ("created", 0),
        ("confirmed", 1),
        ("created", 1),
        ("disputed", 2),
    ]
    claimed = restored.seats.order_by("position").values_list("claimed_by__username", flat=True)
    assert list(claimed) == ["anna", None, None]


def test_a_backup_whose_table_entry_names_a_seat_not_at_the_table_restores_nothing():
    club = make_club(name="Seat club", slug="seats")
    make_member(club, Role.OWNER, user=make_user(username="seat-owner"))
    pulka = make_pulka(make_evening(club))
    record(pulka, SIX_BY_BORIS)
    document = json.loads(json.dumps(backup.club_document(Club.objects.get(pk=club.pk))))
    document["evenings"][0]["pulkas"][0]["deals"][0]["entered_seat"] = 7

    with pytest.raises(backup.BackupError, match="What was done at the table for deal 1"):
        backup.club_restore(
            document=document, slug="moved-seats", name="Moved seats", link_members=True
        )

    assert not Club.objects.filter(slug="moved-seats").exists()
