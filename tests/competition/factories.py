"""What the tournament page tests share: a tournament of club A with its players, and the
moves that bring a round from its draft to its confirmation."""

from __future__ import annotations

import random

from club.models import Club
from competition.demo import next_valid_deal
from competition.models import Round, Scoring, Tournament
from competition.tournament import selectors, services
from scoring import engine
from scoring.services import deal_record

TEN = ("Anna", "Boris", "Vera", "Gleb", "Dana", "Yurii", "Zoia", "Ivan", "Kira", "Lev")


def make_tournament(club: Club, names=TEN, **overrides) -> Tournament:
    """A cup of `names` (10: tables of 4, 3 and 3), Sochi to 2, caps 200/650, 3 rounds."""
    fields = {
        "name": "Club Cup",
        "rules": engine.rules_to_dict(engine.preset_rules("sochi", pool_target=2)),
        "round_count": 3,
        "scoring": Scoring.CAPS,
        "caps": services.caps_from_text(services.CAPS_PRESETS["200-650"]),
        **overrides,
    }
    tournament = services.tournament_create(club=club, created_by=None, **fields)
    if names:
        services.entries_add(tournament=tournament, names=list(names))
    return tournament


def draft(tournament: Tournament) -> Round:
    return services.round_draft(tournament=tournament)


def published(tournament: Tournament) -> Round:
    return services.round_publish(round=draft(tournament), by=None)


def play(round: Round, deals: int = 2, seed: int = 1) -> None:
    """Record a few valid random deals at every table of a published round."""
    for table in selectors.round_tables(round):
        pulka = table.pulka
        names = pulka.names
        rng = random.Random(seed * 100 + table.number)
        played: list[engine.Deal] = []
        for _ in range(deals):
            pulka.refresh_from_db()
            if not pulka.is_running:
                break
            data, _sheet = next_valid_deal(
                rng, pulka.engine_rules(), names, names[pulka.first_dealer], played
            )
            deal_record(pulka=pulka, data=data, entered_by=None)
            played.append(engine.deal_from_dict(data, len(played) + 1))


def end_all(round: Round) -> None:
    for number in selectors.running_tables(round):
        services.table_end(round=round, number=number, by=None)


def confirmed(tournament: Tournament, deals: int = 2) -> Round:
    round = published(tournament)
    play(round, deals)
    end_all(round)
    return services.round_confirm(round=round, by=None)


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
