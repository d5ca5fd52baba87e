"""Demo data for `make run`: idempotent, so running it twice duplicates nothing.

One public club, "Сочинка", with its owner, secretary and a player who can log in, a roster of
fourteen (twelve league regulars and two guests), eight league weeks and the club cup's three
evenings: the earlier ones played to the end, the last one still going; a Leningrad evening
(rules/conventions.md) with a table played to the sum of its pools and one still going; and a
finished tournament, the autumn cup (:data:`CUP`): 14 players, 4 rounds seated Swiss after
the first, the 200–650 caps, run through competition.tournament.services from the draft to
the confirmed round, with a judge's penalty. It does not count in the leagues and ratings.
Every deal comes from a seeded generator of realistic deals (:func:`random_deal`) and is
recorded through scoring.services, so the revisions, the result cache and the statuses are
the real ones. bench/entry.py posts deals from the same generator.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from club.models import Club, Membership, Player, Role
from competition.models import (
    CountingRule,
    League,
    PenaltyUnit,
    Scoring,
    SeatingMethod,
    Tournament,
)
from competition.tournament import selectors as tournament_selectors
from competition.tournament import services as tournament_services
from scoring import engine, services
from scoring.models import Evening, Pulka, PulkaStatus

DEMO_PASSWORD = "pulka-demo"
CLUB_SLUG = "sochi"
ROSTER = (
    "Олена",
    "Андрій",
    "Тарас",
    "Оксана",
    "Богдан",
    "Ірина",
    "Дмитрий",
    "Наталья",
    "Сергей",
    "Марина",
    "Микола",
    "Светлана",
    # Guests: they play the cup only (the league weeks seat the first twelve).
    "Віктор",
    "Людмила",
)
# The "player" login sees the club as this roster player.
PLAYER_NAME = "Оксана"


# The generator of deals --------------------------------------------------------------------

SUITS = engine.SUITS
CARDS = tuple(rank + suit for rank in engine.RANKS for suit in engine.CARD_SUITS)
# Sixes and sevens are the everyday games; a ten is rare.
LEVEL_WEIGHTS = {6: 42, 7: 33, 8: 14, 9: 7, 10: 4}
W, P, H = engine.WHIST, engine.PASS, engine.HALF
# (first defender, second defender) -> weight, per level: the higher the contract, the more
# often both defenders pass (the game is written without play).
CALL_WEIGHTS = {
    6: {(W, W): 25, (W, P): 35, (P, W): 15,
        (P, P): 10, (P, H): 15},
    7: {(W, W): 20, (W, P): 35, (P, W): 15,
        (P, P): 15, (P, H): 15},
    8: {(W, W): 10, (W, P): 25, (P, W): 10, (P, P): 55},
    9: {(W, W): 5, (W, P): 20, (P, W): 5, (P, P): 70},
    10: {(W, P): 10, (P, P): 90},
}  # fmt: skip
# The declarer's tricks against the contract: usually made, sometimes set by one or two.
RESULT_WEIGHTS = {-2: 4, -1: 12, 0: 58, 1: 19, 2: 7}


def _spread(rng: random.Random, total: int, players: Sequence[str]) -> dict[str, int]:
    """Share `total` tricks among `players`, each with his own luck in this deal."""
    luck = [rng.uniform(0.2, 1.8) for _ in players]
    counts = dict.fromkeys(players, 0)
    for name in rng.choices(players, luck, k=total):
        counts[name] += 1
    return counts


def _pick(rng: random.Random, weights: dict):
    return rng.choices(list(weights), list(weights.values()))[0]


def random_deal(
    rng: random.Random, players: Sequence[str], dealer: str, rules: engine.Rules
) -> dict:
    """One realistic deal (a pulka/1 deal object) at a table where `dealer` deals.

    Mostly sixes and sevens with one or two whisters or none, now and then a half-whist, a
    misère (usually clean) or raspasy. With 4 players the dealer sits on the talon: he never
    declares nor defends, and takes 0–2 tricks in raspasy, or none and is not listed when the
    rules score raspasy in whists (Rostov). The fields follow engine.deal_shape, so the deal
    is valid under every preset: the talon is given only where quick tricks count.

    Example::

        >>> deal = random_deal(random.Random(1), ["A", "B", "C"], "A", engine.Rules())
        >>> deal["kind"] in engine.KINDS
        True
    """
    four = len(players) == 4
    active = list(engine.deal_shape(rules, players, dealer, engine.RASPASY, "", 6, {}).declarers)
    kind = _pick(rng, {engine.GAME: 76, engine.MISERE: 4, engine.RASPASY: 20})
    if kind == engine.RASPASY:
        shape = engine.deal_shape(rules, players, dealer, engine.RASPASY, "", 6, {})
        if not four or dealer not in shape.trick_players:
            return {"kind": kind, "tricks": _spread(rng, 10, shape.trick_players)}
        talon = _pick(rng, {0: 60, 1: 30, 2: 10})
        return {"kind": kind, "tricks": {**_spread(rng, 10 - talon, active), dealer: talon}}
    declarer = rng.choice(active)
    if kind == engine.MISERE:
        taken = _pick(rng, {0: 80, 1: 14, 2: 6})
        return {"kind": kind, "declarer": declarer, "tricks": {declarer: taken}}
    level = _pick(rng, LEVEL_WEIGHTS)
    first, second = engine.defenders_in_order(players, declarer, dealer)
    weights = dict(CALL_WEIGHTS[level])
    after_a_pass = engine.deal_shape(
        rules, players, dealer, engine.GAME, declarer, level, {first: engine.PASS}
    )
    if after_a_pass.half_whist is None:
        weights.pop((P, H), None)
    calls = _pick(rng, weights)
    deal: dict = {
        "kind": engine.GAME,
        "declarer": declarer,
        "contract": f"{level}{rng.choice(SUITS)}",
        "calls": {first: calls[0], second: calls[1]},
    }
    if engine.WHIST in calls:
        made = min(10, max(0, level + _pick(rng, RESULT_WEIGHTS)))
        deal["tricks"] = {declarer: made, **_spread(rng, 10 - made, (first, second))}
    if after_a_pass.quick_tricks and rng.random() < 0.3:
        deal["talon"] = rng.sample(CARDS, 2)
    return deal


def next_valid_deal(
    rng: random.Random,
    rules: engine.Rules,
    players: Sequence[str],
    first_dealer: str,
    deals: list[engine.Deal],
) -> tuple[dict, engine.Sheet]:
    """A random deal that the engine accepts after `deals`, and the sheet with it."""
    dealer = engine.dealer_for_next_deal(players, first_dealer, deals)
    for _ in range(100):
        data = random_deal(rng, players, dealer, rules)
        new = engine.deal_from_dict(data, len(deals) + 1)
        try:
            return data, engine.compute_sheet(rules, players, [*deals, new], first_dealer)
        except engine.PulkaError:
            continue
    raise RuntimeError("the deal generator keeps producing deals the engine refuses")


# The club and its evenings -----------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    players: tuple[str, ...]
    pool_target: int
    # None: play until every pool is closed; a number: stop after that many deals.
    deals: int | None = None
    end_early: bool = False  # then the secretary ends it with pulka_finish
    convention: str = engine.PRESET_SOCHI  # the preset the table plays (conventions.md §A)


@dataclass(frozen=True)
class DemoEvening:
    days_ago: int
    venue: str
    notes: str  # with the venue, the key that finds this evening again on the next run
    tables: tuple[Table, ...]


# The league's earlier weeks: two tables an evening, the roster seated in turn, so that the
# rankings and the rating charts have a season behind them.
VENUES = ("Кав'ярня «Прикуп», Поділ", "Бібліотека на Лук'янівці", "Клубна кімната на Хрещатику")
SEASON = tuple(
    DemoEvening(
        days_ago=days_ago,
        venue=VENUES[week % len(VENUES)],
        notes=f"Ліга, тиждень {week + 1}.",
        tables=(
            Table(tuple(ROSTER[(week * 5 + i) % 12] for i in range(3)), pool_target=20),
            Table(tuple(ROSTER[(week * 5 + 3 + i) % 12] for i in range(3)), pool_target=20),
        ),
    )
    for week, days_ago in enumerate(range(84, 28, -7))
)

EVENINGS = SEASON + (
    DemoEvening(
        days_ago=28,
        venue="Кав'ярня «Прикуп», Поділ",
        notes="Перший вечір сезону.",
        tables=(
            Table(("Олена", "Андрій", "Тарас"), pool_target=30),
            Table(("Оксана", "Богдан", "Ірина", "Дмитрий"), pool_target=20),
        ),
    ),
    DemoEvening(
        days_ago=21,
        venue="Бібліотека на Лук'янівці",
        notes="Кубок клубу, перший тур.",
        tables=(
            Table(("Наталья", "Сергей", "Марина"), pool_target=30),
            Table(("Микола", "Светлана", "Олена"), pool_target=30),
            Table(("Андрій", "Тарас", "Оксана", "Богдан"), pool_target=20),
        ),
    ),
    DemoEvening(
        days_ago=14,
        venue="Кав'ярня «Прикуп», Поділ",
        notes="Кубок клубу, другий тур.",
        tables=(
            Table(("Ірина", "Дмитрий", "Наталья"), pool_target=30),
            Table(("Сергей", "Марина", "Микола", "Светлана"), pool_target=20),
        ),
    ),
    DemoEvening(
        days_ago=0,
        venue="Клубна кімната на Хрещатику",
        notes="Кубок клубу, третій тур.",
        tables=(
            Table(("Олена", "Тарас", "Ірина", "Сергей"), pool_target=20, deals=14),
            Table(("Андрій", "Оксана", "Марина"), pool_target=20, deals=9),
            Table(("Богдан", "Дмитрий", "Микола"), pool_target=20, deals=12, end_early=True),
        ),
    ),
    # After the cup in the tuple, so that the cup's seeds stay as they were.
    DemoEvening(
        days_ago=3,
        venue="Клубна кімната на Хрещатику",
        notes="Вечір ленінградки: гра до суми пуль.",
        tables=(
            Table(
                ("Дмитрий", "Наталья", "Светлана"),
                pool_target=20,
                convention=engine.PRESET_LENINGRAD,
            ),
            Table(
                ("Андрій", "Ірина", "Сергей"),
                pool_target=20,
                deals=10,
                convention=engine.PRESET_LENINGRAD,
            ),
        ),
    ),
)


# The autumn cup: a finished tournament of the whole roster, played through the tournament
# services as an organiser runs one (draft, publish, start, the deals at each table, the judge
# ending a table on time, confirm), over two days six weeks ago.
CUP_NAME = "Осінній кубок клубу"
CUP_ROUNDS = 4
CUP_DEAL_CAP = 24
CUP_SEED = 20261017  # fixed: the demo's seatings and lot are the same on every machine
CUP_DAYS_AGO = (43, 43, 42, 42)  # each round's day
# The judge ends these tables on time, after this many deals: (round, table) -> deals.
CUP_ON_TIME = {(2, 1): 14, (4, 3): 11}
CUP_PENALTY = {
    "round_number": 3,
    "player": "Богдан",
    "amount": 30,
    "reason": "Запізнення на тур на 15 хвилин.",
}


def _cup(club: Club, owner: AbstractBaseUser, secretary: AbstractBaseUser) -> None:
    if Tournament.objects.filter(club=club, name=CUP_NAME).exists():
        return
    today = timezone.localdate()
    cup = tournament_services.tournament_create(
        club=club,
        created_by=owner,
        name=CUP_NAME,
        start=today - datetime.timedelta(days=CUP_DAYS_AGO[0]),
        rules=club.default_rules(),
        round_count=CUP_ROUNDS,
        deal_cap=CUP_DEAL_CAP,
        seating=SeatingMethod.SWISS,
        scoring=Scoring.CAPS,
        caps=tournament_services.caps_from_text(tournament_services.CAPS_PRESETS["200-650"]),
        floor=-250,
        counted=False,  # the leagues and ratings of the demo stay as they are
    )
    tournament_services.tournament_update(tournament=cup, seed=CUP_SEED)
    tournament_services.entries_add(tournament=cup, names=ROSTER)
    for number, days_ago in enumerate(CUP_DAYS_AGO, 1):
        drawn = tournament_services.round_draft(tournament=cup)
        published = tournament_services.round_publish(round=drawn, by=owner)
        evening = published.evening
        services.evening_update(
            evening=evening,
            date=today - datetime.timedelta(days=days_ago),
            venue=evening.venue,
            notes=evening.notes,
        )
        playing = tournament_services.round_start(round=published)
        for table in tournament_selectors.round_tables(playing):
            pulka = table.pulka
            names = list(pulka.names)
            deals = CUP_ON_TIME.get((number, table.number), CUP_DEAL_CAP)
            rng = random.Random(f"{CLUB_SLUG}/cup/{number}/{table.number}")
            plan = Table(tuple(names), pool_target=club.pool_target, deals=deals)
            _play(pulka, names, rng, plan, secretary)
            pulka.refresh_from_db(fields=["status"])
            if pulka.status == PulkaStatus.RUNNING:  # time is up: the judge ends it
                tournament_services.table_end(round=playing, number=table.number, by=owner)
        tournament_services.round_confirm(round=playing, by=owner)
    penalised = Player.objects.get(club=club, name=CUP_PENALTY["player"])
    tournament_services.penalty_add(
        tournament=cup,
        player_id=penalised.pk,
        round_number=CUP_PENALTY["round_number"],
        amount=CUP_PENALTY["amount"],
        unit=PenaltyUnit.WHISTS,
        reason=CUP_PENALTY["reason"],
        by=owner,
    )


DEMO_EMAIL_DOMAIN = "pulka.example"  # reserved (RFC 2606): no mail ever leaves for it


def _user(username: str, **defaults) -> AbstractBaseUser:
    """A demo login: the username or username@pulka.example, with DEMO_PASSWORD; the
    address is confirmed already, so it logs in under mandatory e-mail verification."""
    email = f"{username}@{DEMO_EMAIL_DOMAIN}"
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": email, **defaults}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save()
    if user.email == email:
        EmailAddress.objects.get_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
    return user


def _club(members: dict[str, AbstractBaseUser]) -> Club:
    club, _ = Club.objects.get_or_create(
        slug=CLUB_SLUG,
        defaults={"name": "Сочинка", "city": "Київ", "is_public": True, "pool_target": 20},
    )
    for role, user in members.items():
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
    for name in ROSTER:
        Player.objects.get_or_create(club=club, name=name)
    player_user = members[Role.PLAYER]
    if not Player.objects.filter(club=club, user=player_user).exists():
        Player.objects.filter(club=club, name=PLAYER_NAME, user=None).update(user=player_user)
    return club


def _play(
    pulka: Pulka, names: list[str], rng: random.Random, table: Table, secretary: AbstractBaseUser
) -> None:
    """Record random deals until the pulka closes (or `table.deals` are in)."""
    rules = pulka.engine_rules()
    first_dealer = names[pulka.first_dealer]
    deals: list[engine.Deal] = []
    while table.deals is None or len(deals) < table.deals:
        data, sheet = next_valid_deal(rng, rules, names, first_dealer, deals)
        services.deal_record(pulka=pulka, data=data, entered_by=secretary)
        deals.append(engine.deal_from_dict(data, len(deals) + 1))
        if sheet.closed:
            return
    if table.end_early:
        services.pulka_finish(pulka=pulka, finished_by=secretary)


def _rules(club: Club, table: Table) -> dict:
    """The club's conventions, or the preset the table plays, to the table's pool target."""
    if table.convention == engine.PRESET_SOCHI:
        return {**club.default_rules(), "pool_target": table.pool_target}
    chosen = engine.preset_rules(table.convention, pool_target=table.pool_target)
    return engine.rules_to_dict(chosen)


def _evening(club: Club, index: int, evening: DemoEvening, secretary: AbstractBaseUser) -> None:
    if Evening.objects.filter(club=club, venue=evening.venue, notes=evening.notes).exists():
        return
    stored = Evening.objects.create(
        club=club,
        date=timezone.localdate() - datetime.timedelta(days=evening.days_ago),
        venue=evening.venue,
        notes=evening.notes,
        created_by=secretary,
    )
    players = {p.name: p for p in Player.objects.filter(club=club)}
    for number, table in enumerate(evening.tables, 1):
        rng = random.Random(f"{CLUB_SLUG}/{index}/{number}")
        seated = [players[name] for name in table.players]
        pulka = services.pulka_create(
            evening=stored,
            players=seated,
            first_dealer=rng.choice(seated),
            rules=_rules(club, table),
            created_by=secretary,
        )
        _play(pulka, list(table.players), rng, table, secretary)


@transaction.atomic
def load_demo() -> list[tuple[str, str, str]]:
    """Create what is missing of the demo; return the logins as (username, password, what)."""
    _user("admin", is_staff=True, is_superuser=True)
    members = {
        Role.OWNER: _user("owner"),
        Role.SECRETARY: _user("secretary"),
        Role.PLAYER: _user("player"),
    }
    club = _club(members)
    for index, evening in enumerate(EVENINGS, 1):
        _evening(club, index, evening, members[Role.SECRETARY])
    _cup(club, members[Role.OWNER], members[Role.SECRETARY])
    today = timezone.localdate()
    League.objects.get_or_create(
        club=club,
        name="Осінь 2026",
        defaults={
            "start": today - datetime.timedelta(days=90),
            "end": today + datetime.timedelta(days=30),
            "rule": CountingRule.AVERAGE,
            "min_pulkas": 3,
            "cap": 300,
        },
    )
    League.objects.get_or_create(
        club=club,
        name="Ленінградка 2026",
        defaults={
            "start": today - datetime.timedelta(days=30),
            "end": today + datetime.timedelta(days=60),
            "rule": CountingRule.SUM,
            "min_pulkas": 1,
            "convention": engine.PRESET_LENINGRAD,
        },
    )
    return [
        ("admin", DEMO_PASSWORD, "staff: the Django admin"),
        ("owner", DEMO_PASSWORD, f"owner of {club.name}"),
        ("secretary", DEMO_PASSWORD, f"secretary of {club.name}: records deals"),
        ("player", DEMO_PASSWORD, f"player of {club.name} ({PLAYER_NAME} on the roster)"),
    ]
