"""The competition tests' plain factories: leagues over results written straight into the
caches, the ratings' snapshots, the task worker, and tournaments played through the services
(a tournament of a club with its players, the moves from a round's draft to its confirmation,
the forms an organiser posts)."""

from __future__ import annotations

import datetime
import random
from fractions import Fraction

from django.core.management import call_command

from club.models import Club, Player
from club.services import club_results_bump
from competition.demo import next_valid_deal
from competition.league import selectors as leagues
from competition.models import (
    League,
    RatingSnapshot,
    Round,
    RoundState,
    RoundTable,
    Scoring,
    Tournament,
)
from competition.rating import ratings
from competition.tournament import selectors, services
from scoring import engine
from scoring.models import Deal, Pulka, PulkaResultCache, PulkaStatus, Seat
from scoring.services import deal_record
from tests.conftest import make_club, make_evening, make_pulka

# --- leagues -------------------------------------------------------------------------------------

DAY = datetime.date(2024, 3, 1)


def places(results: list[int]) -> list[int]:
    return [1 + sum(other > result for other in results) for result in results]


def finished(club: Club, results: dict[str, int], *, date: datetime.date = DAY) -> Pulka:
    """A finished pulka as its result cache records it (what a league reads), e.g.
    finished(club, {"Anna": 30, "Boris": -10, "Vera": -20}); players are made by name."""
    pulka = make_pulka(make_evening(club, date=date), names=tuple(results))
    Pulka.objects.filter(pk=pulka.pk).update(status=PulkaStatus.FINISHED)
    seats = dict(pulka.seats.values_list("player__name", "player_id"))
    PulkaResultCache.objects.bulk_create(
        PulkaResultCache(
            pulka=pulka,
            player_id=seats[name],
            club=club,
            date=date,
            position=position,
            players=len(results),
            result=str(result),
            result_rounded=result,
            place=place,
            closed=True,
        )
        for position, ((name, result), place) in enumerate(
            zip(results.items(), places(list(results.values())), strict=True)
        )
    )
    club_results_bump(club_id=club.pk)  # as scoring.services.result_cache_rebuild does
    return pulka


def make_league(club: Club, **overrides) -> League:
    fields = {
        "name": "Spring",
        "start": datetime.date(2024, 1, 1),
        "end": datetime.date(2024, 12, 31),
        "rule": "sum",
        "min_pulkas": 1,
    }
    return League.objects.create(club=club, **{**fields, **overrides})


def table(league: League) -> list[tuple]:
    """The ranked lines as (place, name, score)."""
    ranking = leagues.league_ranking(league)
    return [(s.place, ranking.names[s.player_id], s.score) for s in ranking.ranked]


# --- ratings -------------------------------------------------------------------------------------


def day(n: int) -> datetime.date:
    """A day of March 2025."""
    return datetime.date(2025, 3, n)


def rating_rows(club: Club) -> set[tuple]:
    """Every rating snapshot of the club, as comparable rows."""
    return set(
        RatingSnapshot.objects.filter(club=club).values_list(
            "player__name", "pulka_id", "date", "seq", "mu", "sigma", "rating", "delta"
        )
    )


def rebuilt(club: Club) -> set[tuple]:
    """The snapshots a full rebuild writes (what `manage.py rebuild_ratings` does for a club)."""
    ratings.ratings_update(club=club)
    return rating_rows(club)


# --- the task worker -----------------------------------------------------------------------------

# TASKS with django-tasks-db's backend: tasks wait in the database for `work()`, in the
# queues of config/settings.py (the re-rates' and the files').
QUEUES = ["default", "files"]
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": QUEUES}}


def work(queues: list[str] = QUEUES) -> None:
    """What `manage.py db_worker --queue-name default,files` does, until those queues are
    empty (tests/competition/conftest.py keeps the worker from closing the test's connection)."""
    call_command(
        "db_worker",
        queue_name=",".join(queues),
        batch=True,
        reload=False,
        startup_delay=False,
        interval=0,
    )


# --- tournaments ---------------------------------------------------------------------------------

TEN = ("Anna", "Boris", "Vera", "Gleb", "Dana", "Yurii", "Zoia", "Ivan", "Kira", "Lev")
RULES = engine.rules_to_dict(engine.preset_rules("sochi", pool_target=10))
CAPS = services.caps_from_text(services.CAPS_PRESETS["200-650"])


def names_for(count: int, prefix: str = "P") -> list[str]:
    """`count` players' names: P01, P02, ..."""
    return [f"{prefix}{n:02d}" for n in range(1, count + 1)]


def make_tournament(
    club: Club | None = None, names=TEN, *, seed: int | None = None, **overrides
) -> Tournament:
    """A cup of `names` (TEN: tables of 4, 3 and 3), Sochi to 2, caps 200/650, 3 rounds;
    `seed` fixes the lot (the same draws, so the same random deals, on every run)."""
    fields = {
        "name": "Club Cup",
        "rules": engine.rules_to_dict(engine.preset_rules("sochi", pool_target=2)),
        "round_count": 3,
        "scoring": Scoring.CAPS,
        "caps": CAPS,
        **overrides,
    }
    tournament = services.tournament_create(club=club or make_club(), created_by=None, **fields)
    if seed is not None:
        Tournament.objects.filter(pk=tournament.pk).update(seed=seed)
        tournament.seed = seed
    if names:
        services.entries_add(tournament=tournament, names=list(names))
    return tournament


UKRAINIAN_TEN = (
    "Андрій Шевченко",
    "Ольга Шевчук",
    "Борис Коваль",
    "Віра Бондар",
    "Галина Мельник",
    "Дмитро Ткаченко",
    "Євген Кравець",
    "Жанна Олійник",
    "Зоя Лисенко",
    "Ігор Руденко",
)


def spring_cup(club: Club, names=UKRAINIAN_TEN, **fields) -> Tournament:
    """The public pages' cup: plain whists, Sochi to 4, 4 rounds, its lot fixed."""
    settings = {
        "name": "Spring Cup",
        "rules": engine.rules_to_dict(engine.preset_rules("sochi", pool_target=4)),
        "round_count": 4,
        "scoring": Scoring.WHISTS,
        **fields,
    }
    return make_tournament(club, names, seed=20240301, **settings)


def draft(tournament: Tournament) -> Round:
    return services.round_draft(tournament=tournament)


def published(tournament: Tournament) -> Round:
    return services.round_publish(round=draft(tournament), by=None)


def play_table(pulka: Pulka, deals: int | None = None, seed: object = 0) -> None:
    """Random valid deals (competition.demo.next_valid_deal) through the scoring services,
    after the deals already there, until the table ends (at its pools or its deal cap) or
    after `deals` more."""
    pulka.refresh_from_db()
    names = pulka.names
    rules = pulka.engine_rules()
    played = [d.to_engine(names) for d in pulka.deals.order_by("number")]
    rng = random.Random(seed)
    while pulka.status == PulkaStatus.RUNNING and (deals is None or deals > 0):
        data, _sheet = next_valid_deal(rng, rules, names, names[pulka.first_dealer], played)
        deal_record(pulka=pulka, data=data, entered_by=None)
        played.append(engine.deal_from_dict(data, len(played) + 1))
        pulka.refresh_from_db()
        deals = None if deals is None else deals - 1


def play(round: Round, deals: int | None = None, seed: object = 0) -> None:
    """Every table of a published round played (`play_table`), each with its own dealing."""
    for table in selectors.round_tables(round):
        play_table(table.pulka, deals, seed=f"{seed}/{round.number}/{table.number}")


def end_all(round: Round) -> None:
    """The judge ends every table still running."""
    for number in selectors.running_tables(round):
        services.table_end(round=round, number=number, by=None)


def play_round(of: Tournament | Round, deals: int | None = None, seed: object = 0) -> Round:
    """A round as an organiser runs it, confirmed: the tournament's next one drawn (or the
    round given, from where it stands), published, started, its tables played (to their end,
    or `deals` each and then ended by the judge)."""
    round = draft(of) if isinstance(of, Tournament) else of
    if round.state == RoundState.DRAFT:
        assert services.draft_problems(round) == []
        round = services.round_publish(round=round, by=None)
    if round.state == RoundState.PUBLISHED:
        round = services.round_start(round=round)
    play(round, deals, seed)
    end_all(round)
    return services.round_confirm(round=round, by=None)


def table_whists(table: RoundTable) -> dict[int, Fraction] | None:
    """A table's settlement replayed by the engine from its deals (None: set aside)."""
    pulka = table.pulka
    if pulka.status != PulkaStatus.FINISHED:
        return None
    seats = list(
        Seat.objects.filter(pulka=pulka)
        .order_by("position")
        .values_list("player_id", "player__name")
    )
    names = [name for _, name in seats]
    deals = [d.to_engine(names) for d in Deal.objects.filter(pulka=pulka).order_by("number")]
    sheet = engine.compute_sheet(
        engine.rules_from_dict(pulka.rules), names, deals, first_dealer=names[pulka.first_dealer]
    )
    return {player: sheet.result[name] for player, name in seats}


def round_whists(round: Round) -> dict[int, Fraction]:
    """Each seated player's whists as the engine settles his table of the round."""
    return {
        player: whists
        for table in selectors.round_tables(round)
        for player, whists in (table_whists(table) or {}).items()
    }


def expected_lines(round: Round) -> list[tuple[int, int | None, int | None]]:
    """From the round's stored seating: (player, table, seat from 1), alphabetically (the
    site's one order, club.names.collation_key, as the roster stores it)."""
    keys = dict(Player.objects.values_list("pk", "sort_key"))
    seats = [
        (player, table["number"], position + 1)
        for table in round.seating["tables"]
        for position, player in enumerate(table["seats"])
    ]
    seats += [(bye["player"], None, None) for bye in round.seating.get("byes", ())]
    return sorted(seats, key=lambda line: (keys[line[0]], line[0]))


def rules_post(preset: str = "sochi", pool_target: int = 10) -> dict[str, str]:
    """The conventions' fields (prefix rules-) of a preset, as a browser posts them."""
    data = {}
    rules = engine.rules_to_dict(engine.preset_rules(preset, pool_target=pool_target))
    for key, value in rules.items():
        if isinstance(value, bool):
            if value:
                data[f"rules-{key}"] = "on"
        elif isinstance(value, list):
            data[f"rules-{key}"] = ",".join(str(x) for x in value)
        else:
            data[f"rules-{key}"] = str(value)
    return data


def settings_post(**overrides) -> dict[str, str]:
    """The tournament form, filled in as an organiser would."""
    data = {
        "name": "Spring Cup",
        "start": "2024-04-06",
        "round_count": "5",
        "deal_cap": "18",
        "seating": "swiss",
        "tables": "mixed",
        "scoring": "caps",
        "caps_preset": "200-650",
        "caps": "",
        "caps_mirror": "on",
        "floor": "",
        "bye_score": "0",
        "tie_break_1": "adjusted_whists",
        "tie_break_2": "table_wins",
        "tie_break_3": "best_round",
        "tie_break_4": "opponents_total",
        "lot": "on",
        "team_best": "",
        "stage_after": "",
        "stage_top": "",
        "stage_keep_totals": "on",
        **rules_post(),
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}
