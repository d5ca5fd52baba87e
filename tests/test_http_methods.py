"""Every view answers only the HTTP methods it serves: HEAD like GET wherever GET works (the
same status and headers, no body), and 405 naming the methods it serves (the Allow header)
to any other, e.g. PUT anywhere, or GET on a POST-only action.

The views are found by walking the URL resolver (tests.conftest.url_params), and the methods
each serves are read from its decorator (require_safe, require_POST, require_http_methods):
a new view without one fails test_every_view_says_which_methods_it_serves with its name.
"""

from __future__ import annotations

import datetime
import functools
import inspect
from collections.abc import Callable

import pytest
from django.urls import resolve, reverse
from django.utils import timezone

from club import invitations
from club.models import Role
from competition.files import services as files
from competition.models import FileState, PreparedFile
from federation import events as open_events
from federation import persons, results_file
from federation.models import (
    Federation,
    ImportedResult,
    LinkProposal,
    MemberClub,
    MemberState,
    Officer,
    OfficerRole,
    PersonLink,
    Series,
)
from tests.competition.factories import make_league, make_tournament, published
from tests.conftest import (
    HTMX,
    make_club,
    make_evening,
    make_member,
    make_player,
    make_pulka,
    record,
    url_params,
)
from tests.scoring.factories import SIX_BY_BORIS

#: Ours beyond url_params(): the language switch (Django's view behind our own decorator).
ALSO_OURS = {"set_language": []}
#: What a view may serve; none of ours takes PUT, PATCH, DELETE or OPTIONS.
SERVABLE = ("GET", "HEAD", "POST")
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
#: Any value of each URL parameter: the method check answers before the view reads them.
ANY_VALUE = {"club_slug": "sochi", "fmt": "csv", "token": "any-token", "language": "uk"}


def our_views() -> dict[str, list[str]]:
    """Every view of ours by URL name, with its URL's parameters."""
    return {**url_params(), **ALSO_OURS}


def address(name: str, params: list[str], values: dict[str, object]) -> str:
    return reverse(name, kwargs={param: values[param] for param in params})


def view_of(name: str, params: list[str]) -> Callable:
    values = {param: ANY_VALUE.get(param, 1) for param in params}
    return resolve(address(name, params, values)).func


def served_methods(view: Callable) -> list[str] | None:
    """The methods the view's decorator lets through (None: it has none).

    Django's require_http_methods (require_safe and require_POST are two of them) keeps the
    list in its wrapper's closure; the wrappers above it (never_cache) point down by
    __wrapped__.
    """
    while view is not None:
        methods = inspect.getclosurevars(view).nonlocals.get("request_method_list")
        if methods is not None:
            return list(methods)
        view = getattr(view, "__wrapped__", None)
    return None


@functools.cache
def served() -> dict[str, list[str] | None]:
    """Every view's methods, by URL name, as its decorator says them."""
    return {name: served_methods(view_of(name, params)) for name, params in our_views().items()}


def test_every_view_says_which_methods_it_serves():
    undecorated = sorted(name for name, methods in served().items() if methods is None)
    assert undecorated == [], f"views without a method decorator: {undecorated}"
    strange = {
        name: methods
        for name, methods in served().items()
        if methods is not None and (not methods or set(methods) - set(SERVABLE))
    }
    assert strange == {}


def test_head_is_served_wherever_get_is():
    without_head = sorted(
        name
        for name, methods in served().items()
        if methods and "GET" in methods and "HEAD" not in methods
    )
    assert without_head == [], f"GET without HEAD (use require_safe): {without_head}"


@pytest.mark.parametrize(
    ("name", "methods"),
    [
        ("home", ["GET", "HEAD"]),
        ("healthz", ["GET", "HEAD"]),
        ("favicon", ["GET", "HEAD"]),
        ("service-worker", ["GET", "HEAD"]),
        ("manifest", ["GET", "HEAD"]),
        ("offline", ["GET", "HEAD"]),
        ("javascript-catalog", ["GET", "HEAD"]),
        ("set_language", ["POST"]),
        ("club:members", ["GET", "HEAD", "POST"]),
        ("club:invitation-revoke", ["POST"]),
        ("club:account-notices", ["POST"]),
        ("club:telegram-webhook", ["POST"]),
        ("scoring:pulka-detail", ["GET", "HEAD"]),
        ("scoring:pulka-live", ["GET", "HEAD"]),
        ("scoring:pulka-finish", ["POST"]),
        ("scoring:deal-delete", ["GET", "HEAD", "POST"]),
        ("scoring:deal-insert", ["GET", "HEAD", "POST"]),
        ("scoring:deal-keep", ["POST"]),
        ("scoring:table", ["GET", "HEAD"]),
        ("scoring:table-live", ["GET", "HEAD"]),
        ("scoring:table-confirm", ["POST"]),
        ("competition:player-detail", ["GET", "HEAD"]),
        ("competition:club-backup", ["POST"]),
        ("competition:entry-team", ["POST"]),
        ("competition:round-confirm", ["POST"]),
        ("competition:round-clock-add", ["POST"]),
        ("competition:round-link-renew", ["POST"]),
        ("competition:tournament-print-seating", ["GET", "HEAD", "POST"]),
    ],
)
def test_the_walk_reads_each_views_own_methods(name, methods):
    assert served()[name] == methods


@pytest.mark.django_db
def test_a_method_a_view_does_not_serve_answers_405_naming_those_it_does(client):
    wrong = []
    for name, params in sorted(our_views().items()):
        methods = served()[name] or []
        url = address(name, params, {param: ANY_VALUE.get(param, 1) for param in params})
        for method in METHODS:
            if method in methods:
                continue
            response = client.generic(method, url)
            answer = (response.status_code, response.get("Allow"), response.content)
            if answer != (405, ", ".join(methods), b""):
                wrong.append((name, method, *answer[:2]))
    assert wrong == []
    # Every view was asked at least once (a view serving everything would be asked nothing).
    assert all(len(methods or []) < len(METHODS) for methods in served().values())


# --- HEAD answers like GET, on real pages ---------------------------------------------------------


@pytest.fixture
def values(db) -> dict[str, object]:
    """A club with something behind every URL of ours, and the URL parameters that name it."""
    club = make_club(name="Sochi Club", slug="sochi", is_public=False)
    owner = make_member(club, Role.OWNER, username="olena").user
    secretary = make_member(club, Role.SECRETARY, username="serhii")
    evening = make_evening(club)
    pulka = make_pulka(evening)
    record(pulka, SIX_BY_BORIS)
    league = make_league(club)
    gleb = make_player(club, "Gleb")
    invitation = invitations.invitation_create(
        club=club, role=Role.PLAYER, player=None, created_by=owner
    )
    claim = invitations.name_claim_create(
        club=club, user=secretary.user, player=make_player(club, "Dana")
    )
    cup = make_tournament(club, names=("Anna", "Boris", "Vera", "Gleb", "Dana", "Lena", "Mark"))
    published(cup)
    ready = PreparedFile.objects.create(
        club=club,
        kind="club-backup",
        params_key=files.params_key({}),
        requested_by=owner,
        expires_at=timezone.now() + files.LIFETIME,
        state=FileState.READY,
        filename="backup.json",
        content_type="application/json",
        content=b"{}",
    )
    # A federation (its owner the club's owner, the club a member) with a series of the cup.
    federation = Federation.objects.create(name="Federation", slug="fed")
    Officer.objects.create(federation=federation, user=owner, role=OfficerRole.OWNER)
    MemberClub.objects.create(federation=federation, club=club, state=MemberState.MEMBER)
    series = Series.objects.create(federation=federation, name="Cup", points=[100, 80, 65])
    stage = series.stages.create(tournament=cup, number=1)
    # An open event of the club there: a category and a registration to check in.
    event = open_events.event_open(
        federation=federation,
        tournament=make_tournament(club, names=(), name="Open Cup"),
        deadline=timezone.now() + datetime.timedelta(days=7),
        categories=open_events.categories_from_text("Open"),
    )
    registration = open_events.registration_create(
        event=event, user=secretary.user, name="Serhii", category=event.categories.get()
    )
    # The core's rows there (federation.views): the club's persons and a proposal.
    persons.persons_sync(federation)
    person = PersonLink.objects.filter(federation=federation).order_by("pk").first().person
    proposal = LinkProposal.objects.create(
        federation=federation, person=person, player=make_player(club, "Proposed")
    )
    # A results file imported there (federation.results_views).
    imported = ImportedResult.objects.create(
        federation=federation,
        name="Elsewhere Cup",
        start=datetime.date(2026, 3, 1),
        document=results_file.build(cup, federation),
    )
    return {
        "imported_id": imported.pk,
        "owner": owner,
        "slug": federation.slug,
        "officer_id": federation.officers.get().pk,
        "member_id": federation.member_clubs.get().pk,
        "person_id": person.pk,
        "proposal_id": proposal.pk,
        "series_id": series.pk,
        "stage_id": stage.pk,
        "club_slug": club.slug,
        "evening_id": evening.pk,
        "pulka_id": pulka.pk,
        "number": 1,
        "membership_id": secretary.pk,
        "player_id": gleb.pk,
        "league_id": league.pk,
        "fmt": "csv",
        "token": invitation.token,
        "invitation_id": invitation.pk,
        "claim_id": claim.pk,
        "tournament_id": cup.pk,
        "entry_id": cup.entries.order_by("pk").first().pk,
        "file_id": ready.pk,
        "table": 1,
        "event_id": event.pk,
        "registration_id": registration.pk,
        "code": registration.code,
        "category_id": event.categories.get().pk,
        "language": "uk",
    }


HEADERS_ALIKE = ("Content-Type", "Location", "HX-Redirect", "Vary", "Content-Disposition")


def head_unlike_get(client, url: str, headers: dict) -> tuple[int, str | None]:
    """GET's status at `url`, and how HEAD differs (None: it answers alike, without a body)."""
    got = client.get(url, headers=headers)
    head = client.head(url, headers=headers)
    if head.status_code != got.status_code:
        return got.status_code, f"HEAD {head.status_code}, GET {got.status_code}"
    if head.content:
        return got.status_code, "HEAD has a body"
    for header in HEADERS_ALIKE:
        if head.get(header) != got.get(header):
            return got.status_code, f"{header}: HEAD {head.get(header)!r}, GET {got.get(header)!r}"
    return got.status_code, None


@pytest.mark.parametrize(
    ("persona", "headers"),
    [("owner", {}), ("owner", HTMX), ("anonymous", {})],
    ids=["owner", "owner-htmx", "anonymous"],
)
def test_head_answers_like_get_on_every_page(client, values, persona, headers):
    if persona == "owner":
        client.force_login(values["owner"])
    unlike = {}
    statuses = set()
    for name, params in sorted(our_views().items()):
        if "GET" not in (served()[name] or []):
            continue
        status, difference = head_unlike_get(client, address(name, params, values), headers)
        statuses.add(status)
        if difference is not None:
            unlike[name] = difference
    assert unlike == {}
    # The pages were really reached, not all refused alike.
    assert 200 in statuses
