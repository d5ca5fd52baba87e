"""Reads of the federation's core: the federations, what awaits a club's owner, a
federation's home (officers, clubs, calendar, rating top, series) and its persons.

Every list is bounded: a page, or a fixed number of rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from club.models import Club, Membership, Role
from club.names import name_key
from competition.models import Entry, Tournament
from federation.models import (
    Federation,
    ImportedResult,
    LinkEvent,
    LinkProposal,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    OpenEvent,
    Person,
    PersonLink,
    ProposalState,
    RatingList,
    Series,
)

FEDERATIONS_PER_PAGE = 50
AWAITING_MAX = 50
CALENDAR_UPCOMING = 25
CALENDAR_RECENT = 25
RATING_TOP = 10
SERIES_SHOWN = 20
HISTORY_SHOWN = 100
EVENTS_SHOWN = 50
MERGED_HOPS_MAX = 20
SEARCH_MAX_LENGTH = 60


def federations_page(number: int | None) -> Page:
    """A page of every federation, by name, with its number of member clubs."""
    federations = Federation.objects.annotate(
        club_count=Count("member_clubs", filter=Q(member_clubs__state=MemberState.MEMBER))
    ).order_by("name", "pk")
    return Paginator(federations, FEDERATIONS_PER_PAGE).get_page(number or 1)


def owned_club_ids(user: AbstractBaseUser | AnonymousUser) -> set[int]:
    """The clubs the user owns (none for anonymous)."""
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Role.OWNER).values_list("club_id", flat=True)
    )


def owns_club(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or club.pk in owned_club_ids(user)


def officer_federations(user: AbstractBaseUser | AnonymousUser) -> list[Officer]:
    """The federations where the user is an officer, with his role."""
    if not user.is_authenticated:
        return []
    return list(
        Officer.objects.filter(user=user).select_related("federation").order_by("federation__name")
    )


def invitations_awaiting(
    user: AbstractBaseUser | AnonymousUser, federation: Federation | None = None
) -> list[MemberClub]:
    """The invitations of federations to the clubs the user owns, waiting for his answer."""
    owned = owned_club_ids(user)
    if not owned:
        return []
    rows = MemberClub.objects.filter(state=MemberState.INVITED, club_id__in=owned)
    if federation is not None:
        rows = rows.filter(federation=federation)
    return list(rows.select_related("club", "federation").order_by("-invited_at")[:AWAITING_MAX])


@dataclass(frozen=True)
class Awaiting:
    """An open proposal and the clubs of the reader's whose owner it waits for."""

    proposal: LinkProposal
    clubs: list[Club] = field(default_factory=list)


def proposals_awaiting(
    user: AbstractBaseUser | AnonymousUser,
    *,
    federation: Federation | None = None,
    person: Person | None = None,
) -> list[Awaiting]:
    """The open proposals that wait for the confirmation of a club the user owns."""
    owned = owned_club_ids(user)
    if not owned:
        return []
    members = MemberClub.objects.filter(
        federation=OuterRef("federation"), club_id__in=owned, state=MemberState.MEMBER
    )
    proposals = LinkProposal.objects.filter(Exists(members), state=ProposalState.OPEN)
    if federation is not None:
        proposals = proposals.filter(federation=federation)
    if person is not None:
        proposals = proposals.filter(Q(person=person) | Q(player__person_links__person=person))
    proposals = proposals.select_related("federation", "person", "player__club").order_by(
        "created_at", "pk"
    )
    found = []
    for proposal in proposals[: AWAITING_MAX * 4]:
        mine = owned & set(proposal.clubs_awaiting)
        if mine:
            found.append(proposal)
        if len(found) == AWAITING_MAX:
            break
    clubs = Club.objects.in_bulk({c for p in found for c in p.clubs_awaiting if c in owned})
    return [
        Awaiting(p, [clubs[c] for c in p.clubs_awaiting if c in owned and c in clubs])
        for p in found
    ]


# A federation's home


def officers(federation: Federation) -> list[Officer]:
    """Owners first, then judges, by username."""
    rows = Officer.objects.filter(federation=federation).select_related("user")
    return sorted(
        rows, key=lambda o: (o.role != OfficerRole.OWNER, o.user.get_username().casefold())
    )


def member_clubs(federation: Federation) -> list[MemberClub]:
    """The current members, then the clubs that left and are not members again (each with
    its latest membership), by name."""
    rows = list(
        MemberClub.objects.filter(
            federation=federation, state__in=[MemberState.MEMBER, MemberState.LEFT]
        )
        .select_related("club")
        .order_by("club__name", "-invited_at", "-pk")
    )
    current = {row.club_id for row in rows if row.state == MemberState.MEMBER}
    shown, seen = [], set()
    for row in rows:
        if row.club_id in seen or (row.state == MemberState.LEFT and row.club_id in current):
            continue
        seen.add(row.club_id)
        shown.append(row)
    return sorted(shown, key=lambda row: (row.state != MemberState.MEMBER, row.club.name))


def invitations_open(federation: Federation) -> list[MemberClub]:
    return list(
        MemberClub.objects.filter(federation=federation, state=MemberState.INVITED)
        .select_related("club")
        .order_by("-invited_at")
    )


def member_club_ids(federation: Federation) -> set[int]:
    return set(
        MemberClub.objects.filter(federation=federation, state=MemberState.MEMBER).values_list(
            "club_id", flat=True
        )
    )


def readable(tournaments: QuerySet, user: AbstractBaseUser | AnonymousUser) -> QuerySet:
    """The tournaments the user may read: of public clubs, or of his own clubs."""
    if user.is_authenticated and user.is_superuser:
        return tournaments
    visible = Q(club__is_public=True)
    if user.is_authenticated:
        mine = Membership.objects.filter(club=OuterRef("club"), user=user.pk)
        visible |= Q(Exists(mine))
    return tournaments.filter(visible)


@dataclass(frozen=True)
class CalendarItem:
    """One line of the calendar: a member club's tournament, an open event or a result
    imported from elsewhere (`kind`), with the object to link to."""

    kind: str  # "tournament", "event", "imported"
    date: date
    name: str
    where: str
    item: object


def calendar(
    federation: Federation, user: AbstractBaseUser | AnonymousUser
) -> tuple[list[CalendarItem], list[CalendarItem]]:
    """The upcoming events (soonest first) and the recent ones (latest first): the member
    clubs' tournaments (a private club's for its members only), the open events and the
    imported results. Each list is bounded."""
    today = timezone.localdate()
    events = list(
        OpenEvent.objects.filter(federation=federation)
        .select_related("tournament__club")
        .order_by("-tournament__start", "-pk")[: CALENDAR_UPCOMING + CALENDAR_RECENT]
    )
    opened = OpenEvent.objects.filter(tournament=OuterRef("pk"))
    tournaments = readable(
        Tournament.objects.filter(club_id__in=member_club_ids(federation)).exclude(Exists(opened)),
        user,
    ).select_related("club")
    items = [
        CalendarItem("event", e.tournament.start, e.tournament.name, e.tournament.club.name, e)
        for e in events
    ]
    upcoming_t = tournaments.filter(start__gte=today).order_by("start", "pk")[:CALENDAR_UPCOMING]
    recent_t = tournaments.filter(start__lt=today).order_by("-start", "-pk")[:CALENDAR_RECENT]
    items += [
        CalendarItem("tournament", t.start, t.name, t.club.name, t)
        for t in [*upcoming_t, *recent_t]
    ]
    imported = ImportedResult.objects.filter(federation=federation).order_by("-start", "-pk")
    items += [
        CalendarItem("imported", r.start, r.name, r.source, r) for r in imported[:CALENDAR_RECENT]
    ]
    upcoming = sorted((i for i in items if i.date >= today), key=lambda i: i.date)
    recent = sorted((i for i in items if i.date < today), key=lambda i: i.date, reverse=True)
    return upcoming[:CALENDAR_UPCOMING], recent[:CALENDAR_RECENT]


def rating_top(federation: Federation) -> list[RatingList]:
    return list(
        RatingList.objects.filter(federation=federation)
        .select_related("person")
        .order_by("place")[:RATING_TOP]
    )


def series_list(federation: Federation) -> list[Series]:
    return list(
        Series.objects.filter(federation=federation)
        .select_related("federation")
        .order_by("-created_at")[:SERIES_SHOWN]
    )


# Persons


def persons_search(federation: Federation, query: str) -> QuerySet[Person]:
    """The federation's persons (not the merged ones) whose name contains `query` (as the
    roster compares names: case and spacing aside), alphabetically, with their number of
    roster names."""
    persons = Person.objects.filter(federation=federation, merged_into__isnull=True)
    key = name_key(query[:SEARCH_MAX_LENGTH])
    if key:
        persons = persons.filter(name_key__contains=key)
    return persons.annotate(names=Count("links")).order_by("sort_key", "pk")


def person_in(federation: Federation, person_id: int) -> Person | None:
    return Person.objects.filter(federation=federation, pk=person_id).first()


def merged_target(person: Person) -> Person:
    """The person a merged person's names went to, following the chain (bounded)."""
    for _ in range(MERGED_HOPS_MAX):
        if person.merged_into_id is None:
            break
        person = Person.objects.get(pk=person.merged_into_id)
    return person


def person_links(person: Person) -> list[PersonLink]:
    return list(
        PersonLink.objects.filter(person=person)
        .select_related("player__club")
        .order_by("player__club__name", "player__sort_key")
    )


def person_events(person: Person, user: AbstractBaseUser | AnonymousUser) -> list[Tournament]:
    """The tournaments whose entries are his roster names, latest first (bounded)."""
    names = PersonLink.objects.filter(person=person).values("player_id")
    entries = Entry.objects.filter(tournament=OuterRef("pk"), player_id__in=names)
    tournaments = Tournament.objects.filter(Exists(entries)).select_related("club")
    return list(readable(tournaments, user).order_by("-start", "-pk")[:EVENTS_SHOWN])


def person_history(person: Person) -> list[LinkEvent]:
    return list(
        LinkEvent.objects.filter(person=person)
        .select_related("other", "actor", "player__club")
        .order_by("-at", "-pk")[:HISTORY_SHOWN]
    )


def private_names_hidden(
    links: list[PersonLink], history: list[LinkEvent], user, *, officer: bool
) -> tuple[list[PersonLink], list[LinkEvent], int]:
    """What a person's page shows of his roster names: a private club's names only to its
    members and the federation's officers (as its pages are), with how many are left out.
    A history line whose roster name is gone is shown by its club's name, kept with it, to
    officers only."""
    if officer or (user.is_authenticated and user.is_superuser):
        return links, history, 0
    mine: set[int] = set()
    if user.is_authenticated:
        mine = set(Membership.objects.filter(user=user.pk).values_list("club_id", flat=True))

    def readable(club) -> bool:
        return club is not None and (club.is_public or club.pk in mine)

    shown = [link for link in links if readable(link.player.club)]
    lines = [line for line in history if line.player is not None and readable(line.player.club)]
    return shown, lines, len(links) - len(shown)


def person_proposals(person: Person) -> list[LinkProposal]:
    """The open proposals that name him or one of his names."""
    return list(
        LinkProposal.objects.filter(state=ProposalState.OPEN, federation_id=person.federation_id)
        .filter(Q(person=person) | Q(player__person_links__person=person))
        .select_related("person", "player__club")
        .distinct()
        .order_by("created_at", "pk")[:AWAITING_MAX]
    )


def member_clubs_for_choice(federation: Federation) -> QuerySet[Club]:
    return Club.objects.filter(pk__in=member_club_ids(federation)).order_by("name")
