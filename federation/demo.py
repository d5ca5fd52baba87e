"""The federation's demo for `make run` (after competition's): idempotent, so running it
twice duplicates nothing.

Over the demo club Сочинка (competition.demo) it adds two small clubs, Lviv's and Odesa's,
each with its owner and a couple of evenings of seeded random deals, and a federation of
the three, "Федерація преферансу України" (/f/fpu/), owned by the `federation` login with
the `judge` login as its judge. Its persons: every roster name that has played; Оксана (the
`player` login) plays in Сочинка and in Lviv under one account, so her two names are one
person at once, and Андрій's Lviv name is linked to his Сочинка person by a judge's proposal
that both clubs' owners confirmed. An open event: Сочинка's spring open a week ahead, 8
places, a fee, two categories, three players registered. A series of two stages (Сочинка's
autumn cup and the Lviv cup, played through the tournament services) with Odesa's final
drawn by the series and the rating. The rating list is built at the end.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from club.models import Club, Membership, Player, Role
from competition import demo as club_demo
from competition.models import Scoring, SeatingMethod, Tournament
from competition.tournament import selectors as tournament_selectors
from competition.tournament import services as tournament_services
from federation import events, persons, rating
from federation.models import (
    POINTS_PRESET,
    Federation,
    LinkProposal,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    OpenEvent,
    Person,
    PersonLink,
    ProposalState,
    Registration,
    Series,
    Stage,
)
from scoring import engine, services
from scoring.models import Evening, Pulka, PulkaStatus

FEDERATION_SLUG = "fpu"
FEDERATION_NAME = "Федерація преферансу України"
OWNER_LOGIN = "federation"
JUDGE_LOGIN = "judge"
RATING_MIN_PULKAS = 2
# The two small clubs: slug -> (name, city, owner's login, roster).
CLUBS = {
    "lviv": (
        "Львівський преф",
        "Львів",
        "lviv-owner",
        ("Оксана", "Андрій Л.", "Роман", "Ірина С.", "Юрій", "Галина"),
    ),
    "odesa": ("Одеський преф", "Одеса", "odesa-owner", ("Дана", "Лев", "Тарас О.")),
}
# Each small club's evenings: (days ago, the players of its one table).
EVENINGS = {
    "lviv": (
        (26, ("Оксана", "Андрій Л.", "Роман")),
        (19, ("Ірина С.", "Юрій", "Галина")),
        (12, ("Роман", "Ірина С.", "Оксана")),
        (5, ("Галина", "Андрій Л.", "Юрій")),
    ),
    "odesa": ((24, ("Дана", "Лев", "Тарас О.")), (10, ("Лев", "Тарас О.", "Дана"))),
}
# "Андрій Л." of Lviv is Сочинка's Андрій: a judge's proposal, confirmed by both owners.
PROPOSED = ("lviv", "Андрій Л.", "Андрій")
OPEN_NAME = "Весняний опен"
OPEN_CATEGORIES = "Майстер: rating 1000-\nАматор: rating -1000"
# Who has registered for it, under which name (logins with no address: no mail is printed).
OPEN_REGISTERED = {
    "lviv-owner": "Ярослав Коваль",
    "odesa-owner": "Одарка Мороз",
    "roman": "Роман",
}
LVIV_CUP = "Кубок Львова"
FINAL_NAME = "Фінал кубка федерації"
SERIES_NAME = "Кубок федерації"


def _user(username: str) -> AbstractBaseUser:
    """A demo login with no address (mails to it go nowhere): it logs in by its username."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(club_demo.DEMO_PASSWORD)
        user.save()
    return user


def _club(slug: str, secretary: AbstractBaseUser) -> Club:
    name, city, owner_login, roster = CLUBS[slug]
    club, _ = Club.objects.get_or_create(
        slug=slug, defaults={"name": name, "city": city, "is_public": True, "pool_target": 10}
    )
    Membership.objects.get_or_create(
        club=club, user=_user(owner_login), defaults={"role": Role.OWNER}
    )
    for name in roster:
        Player.objects.get_or_create(club=club, name=name)
    if slug == "lviv":  # the player login plays here too, under the same account, and Роман
        Player.objects.filter(club=club, name=club_demo.PLAYER_NAME, user=None).update(
            user=get_user_model().objects.get(username="player")
        )
        Player.objects.filter(club=club, name="Роман", user=None).update(user=_user("roman"))
    for number, (days_ago, names) in enumerate(EVENINGS[slug], start=1):
        notes = f"Вечір {number}."
        if Evening.objects.filter(club=club, notes=notes).exists():
            continue
        evening = Evening.objects.create(
            club=club,
            date=timezone.localdate() - datetime.timedelta(days=days_ago),
            venue=name,
            notes=notes,
        )
        players = {p.name: p for p in Player.objects.filter(club=club, name__in=names)}
        seated = [players[one] for one in names]
        pulka = services.pulka_create(
            evening=evening,
            players=seated,
            first_dealer=seated[0],
            rules={**club.default_rules(), "pool_target": 10},
            created_by=secretary,
        )
        _play(pulka, random.Random(f"{slug}/{number}"), secretary)
    return club


def _play(pulka: Pulka, rng: random.Random, by: AbstractBaseUser | None, cap: int = 200) -> None:
    """Seeded random valid deals until the pulka ends by itself (or `cap` deals)."""
    pulka.refresh_from_db()
    names = list(pulka.names)
    rules = pulka.engine_rules()
    first = names[pulka.first_dealer]
    played: list[engine.Deal] = []
    while len(played) < cap:
        data, sheet = club_demo.next_valid_deal(rng, rules, names, first, played)
        services.deal_record(pulka=pulka, data=data, entered_by=by)
        played.append(engine.deal_from_dict(data, len(played) + 1))
        if sheet.closed:
            return


def _federation(owner: AbstractBaseUser, judge: AbstractBaseUser, clubs: Sequence[Club]):
    federation, _ = Federation.objects.get_or_create(
        slug=FEDERATION_SLUG,
        defaults={
            "name": FEDERATION_NAME,
            "place": "Україна",
            "rating_min_pulkas": RATING_MIN_PULKAS,
        },
    )
    Officer.objects.get_or_create(
        federation=federation, user=owner, defaults={"role": OfficerRole.OWNER}
    )
    Officer.objects.get_or_create(
        federation=federation, user=judge, defaults={"role": OfficerRole.JUDGE}
    )
    today = timezone.localdate()
    for club in clubs:
        MemberClub.objects.get_or_create(
            federation=federation,
            club=club,
            state=MemberState.MEMBER,
            defaults={"joined_on": today - datetime.timedelta(days=30), "invited_by": owner},
        )
    persons.persons_sync(federation, actor=owner)
    return federation


def _proposal(federation: Federation, judge: AbstractBaseUser) -> None:
    slug, name, home_name = PROPOSED
    player = Player.objects.get(club__slug=slug, name=name)
    home = Player.objects.get(club__slug=club_demo.CLUB_SLUG, name=home_name)
    person = PersonLink.objects.get(federation=federation, player=home).person
    if PersonLink.objects.filter(federation=federation, player=player, person=person).exists():
        return
    if not LinkProposal.objects.filter(
        federation=federation, player=player, state=ProposalState.OPEN
    ).exists():
        persons.proposal_create(federation=federation, person=person, player=player, actor=judge)
    proposal = LinkProposal.objects.get(
        federation=federation, player=player, state=ProposalState.OPEN
    )
    for owner in Membership.objects.filter(
        club_id__in=proposal.clubs_awaiting, role=Role.OWNER
    ).select_related("user"):
        proposal.refresh_from_db()
        if proposal.state == ProposalState.OPEN and owner.club_id in proposal.clubs_awaiting:
            persons.proposal_decide(proposal=proposal, actor=owner.user, confirm=True)


def _tournament(club: Club, name: str, start: datetime.date, **fields) -> tuple[Tournament, bool]:
    found = Tournament.objects.filter(club=club, name=name).first()
    if found is not None:
        return found, False
    made = tournament_services.tournament_create(
        club=club,
        created_by=None,
        name=name,
        start=start,
        rules={**club.default_rules(), "pool_target": 6},
        round_count=2,
        deal_cap=18,
        seating=SeatingMethod.SWISS,
        scoring=Scoring.WHISTS,
        **fields,
    )
    return made, True


def _open_event(federation: Federation, club: Club) -> None:
    today = timezone.localdate()
    tournament, _new = _tournament(club, OPEN_NAME, today + datetime.timedelta(days=7))
    event = OpenEvent.objects.filter(tournament=tournament).first()
    if event is None:
        event = events.event_open(
            federation=federation,
            tournament=tournament,
            deadline=timezone.now() + datetime.timedelta(days=5),
            cap=8,
            fee=Decimal("200"),
            categories=events.categories_from_text(OPEN_CATEGORIES),
        )
    for username, name in OPEN_REGISTERED.items():
        user = _user(username)
        if Registration.objects.filter(event=event, user=user).exists():
            continue
        offered = events.categories_for(event, events.person_of(federation, user))
        events.registration_create(
            event=event, user=user, name=name, category=offered[0] if offered else None
        )


def _lviv_cup(club: Club) -> Tournament:
    cup, new = _tournament(club, LVIV_CUP, timezone.localdate() - datetime.timedelta(days=3))
    if not new:
        return cup
    tournament_services.entries_add(tournament=cup, names=list(CLUBS["lviv"][3]))
    for number in (1, 2):
        drawn = tournament_services.round_draft(tournament=cup)
        playing = tournament_services.round_start(
            round=tournament_services.round_publish(round=drawn, by=None)
        )
        for table in tournament_selectors.round_tables(playing):
            _play(table.pulka, random.Random(f"lviv-cup/{number}/{table.number}"), None, cap=18)
            table.pulka.refresh_from_db(fields=["status"])
            if table.pulka.status == PulkaStatus.RUNNING:
                tournament_services.table_end(round=playing, number=table.number, by=None)
        tournament_services.round_confirm(round=playing, by=None)
    return cup


def _series(federation: Federation, stages: Sequence[Tournament], final: Tournament) -> Series:
    series, _ = Series.objects.get_or_create(
        federation=federation,
        name=SERIES_NAME,
        defaults={
            "season": str(timezone.localdate().year),
            "points": list(POINTS_PRESET),
            "min_stages": 1,
            "tie_breaks": ["stage_wins", "best_places", "last_stages"],
            "final": final,
            "final_from_series": 4,
            "final_from_rating": 4,
        },
    )
    for number, tournament in enumerate(stages, start=1):
        Stage.objects.get_or_create(
            series=series, tournament=tournament, defaults={"number": number}
        )
    return series


@transaction.atomic
def load_federation_demo() -> list[tuple[str, str, str]]:
    """Create what is missing of the federation's demo (and competition's, first); return
    the new logins as (username, password, what)."""
    club_demo.load_demo()
    owner, judge = _user(OWNER_LOGIN), _user(JUDGE_LOGIN)
    secretary = get_user_model().objects.get(username="secretary")
    home = Club.objects.get(slug=club_demo.CLUB_SLUG)
    lviv, odesa = _club("lviv", secretary), _club("odesa", secretary)
    federation = _federation(owner, judge, [home, lviv, odesa])
    _proposal(federation, judge)
    lviv_cup = _lviv_cup(lviv)
    final, _ = _tournament(odesa, FINAL_NAME, timezone.localdate() + datetime.timedelta(days=30))
    autumn = Tournament.objects.get(club=home, name=club_demo.CUP_NAME)
    _series(federation, [autumn, lviv_cup], final)
    _open_event(federation, home)
    rating.rebuild(federation)
    password = club_demo.DEMO_PASSWORD
    return [
        (OWNER_LOGIN, password, f"owner of the federation {federation.name}"),
        (JUDGE_LOGIN, password, "judge of the federation: persons, events, series"),
        ("lviv-owner", password, f"owner of {lviv.name}"),
        ("odesa-owner", password, f"owner of {odesa.name}"),
        ("roman", password, f"player of {lviv.name}, registered for the open event"),
    ]


def demo_person() -> Person:
    """The person of the `player` login: one person over two clubs."""
    return Person.objects.get(
        federation__slug=FEDERATION_SLUG, user__username="player", merged_into=None
    )
