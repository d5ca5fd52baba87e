"""The series tests' data: stages as tournaments of member clubs with a confirmed round
written in bulk (the rows the tournament services leave behind, with the whists given), the
persons behind their roster names, and a small cup of two stages."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from club.models import Club, Player
from competition.lib.seating import Method, Seating, Table
from competition.models import Entry, Round, RoundState, RoundTable, Scoring, Tournament
from competition.tournament import selectors, services
from federation.models import Federation, Person, PersonLink, RatingList, Series
from federation.series import DEFAULT_TIE_BREAKS
from scoring import engine
from scoring.models import Evening, Pulka, PulkaResultCache, Seat

SOCHI = engine.rules_to_dict(engine.preset_rules("sochi", pool_target=4))
LENINGRAD = engine.rules_to_dict(engine.preset_rules("leningrad", pool_target=4))
POINTS = [100, 80, 65, 55, 50, 45]


def stage_tournament(
    club: Club,
    tables: list[dict[str, int]],
    *,
    name: str = "Stage",
    rules: dict = SOCHI,
    finished: bool = True,
    start: datetime.date = datetime.date(2026, 3, 1),
) -> Tournament:
    """A one-round tournament of plain whists (no lot: full ties share the place) whose
    round is confirmed with these tables ({name: whists}, in seat order)."""
    tournament = services.tournament_create(
        club=club,
        created_by=None,
        name=name,
        start=start,
        rules=rules,
        round_count=1,
        scoring=Scoring.WHISTS,
        lot=False,
    )
    services.entries_add(tournament=tournament, names=[n for t in tables for n in t])
    ids = dict(Entry.objects.filter(tournament=tournament).values_list("player__name", "player_id"))
    seated = [
        Table(n, tuple(ids[name] for name in t), ids[next(iter(t))])
        for n, t in enumerate(tables, start=1)
    ]
    evening = Evening.objects.create(club=club, venue=name, counted=False)
    round_ = Round.objects.create(
        tournament=tournament,
        number=1,
        state=RoundState.CONFIRMED,
        method="mixing",
        seed=1,
        seating=selectors.seating_to_json(Seating(1, 1, Method.MIXING, tuple(seated), ())),
        evening=evening,
        confirmed_at=timezone.now(),
    )
    for (number, whists), table in zip(enumerate(tables, start=1), seated, strict=True):
        pulka = Pulka.objects.create(evening=evening, table=number, rules=rules, status="finished")
        RoundTable.objects.create(round=round_, number=number, pulka=pulka)
        results = list(whists.values())
        for position, (player, value) in enumerate(zip(table.seats, results, strict=True)):
            Seat.objects.create(pulka=pulka, position=position, player_id=player)
            PulkaResultCache.objects.create(
                pulka=pulka,
                player_id=player,
                club=club,
                date=evening.date,
                position=position,
                players=len(results),
                result=str(value),
                result_rounded=value,
                place=1 + sum(other > value for other in results),
                closed=True,
                counted=False,
            )
    if finished:
        Tournament.objects.filter(pk=tournament.pk).update(finished_at=timezone.now())
    return Tournament.objects.select_related("club").get(pk=tournament.pk)


def link(federation: Federation, club: Club, name: str, person: Person | None = None) -> Person:
    """The club's roster name `name` is this person (a new one by default)."""
    player = Player.objects.get(club=club, name=name)
    person = person or Person.objects.create(federation=federation, name=name)
    PersonLink.objects.create(federation=federation, person=person, player=player)
    return person


def rated(federation: Federation, persons: list[Person]) -> None:
    """The federation's rating list: these persons in this order."""
    RatingList.objects.bulk_create(
        RatingList(
            federation=federation,
            person=person,
            place=place,
            rating=30 - place,
            mu=25,
            sigma=3,
            pulkas=20,
            last_date=datetime.date(2026, 3, 1),
        )
        for place, person in enumerate(persons, start=1)
    )


@dataclass
class Cup:
    series: Series
    stages: list[Tournament]
    persons: dict[str, Person]


def make_cup(federation: Federation, clubs: list[Club], **fields) -> Cup:
    """Two stages: Kyiv Club's (Sochi) and Lviv Club's (Leningrad), the points 100, 80, 65,
    55, 50, 45, placed from 2 stages. Kira of Lviv is linked to no person.

    Stage 1: Anna and Gleb tie for 1st (90 each), Boris and Dana for 3rd (60), Vera and Ivan
    for 5th (47.5). Stage 2: Boris 100, Anna 80, Gleb 65, Kira 55, Dana and Vera 47.5.
    Series: Anna 170, Boris 160, Gleb 155, Dana 107.5, Vera 95; below: Kira 55, Ivan 47.5.
    """
    kyiv, _pechersk, lviv = clubs
    first = stage_tournament(
        kyiv,
        [{"Anna": 100, "Boris": -40, "Vera": -60}, {"Gleb": 100, "Dana": -40, "Ivan": -60}],
        name="Kyiv Open",
        start=datetime.date(2026, 2, 1),
    )
    second = stage_tournament(
        lviv,
        [{"Anna": 50, "Gleb": 30, "Kira": -80}, {"Boris": 200, "Dana": -100, "Vera": -100}],
        name="Lviv Open",
        rules=LENINGRAD,
        start=datetime.date(2026, 3, 1),
    )
    persons = {
        name: link(federation, kyiv, name)
        for name in ("Anna", "Boris", "Vera", "Gleb", "Dana", "Ivan")
    }
    for name in ("Anna", "Gleb", "Boris", "Dana", "Vera"):
        link(federation, lviv, name, persons[name])
    settings = {
        "name": "Kyiv Cup",
        "season": "2026",
        "points": POINTS,
        "min_stages": 2,
        "tie_breaks": [key.value for key in DEFAULT_TIE_BREAKS],
        **fields,
    }
    series = Series.objects.create(federation=federation, **settings)
    series.stages.create(tournament=first, number=1)
    series.stages.create(tournament=second, number=2)
    return Cup(series, [first, second], persons)
