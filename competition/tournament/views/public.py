"""The tournament pages for the players and the room: "find your table" and the projector.

Reading follows the club (anyone for a public club, members for a private one). A draft is
never shown to anyone but the organiser (the club's owner), who may preview it on "find
your table" by asking for its number; the projector shows only published rounds.

Both pages work without JavaScript (the filter is a GET form, the projector has a
<noscript> refresh) and need no inline script (the Content-Security-Policy allows none):
htmx sends the filter as the visitor types and fetches the projector's next slide.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from club.access import get_club_for_user
from club.params import PAGE_MAX, int_param
from club.rendering import club_context, render_page
from competition.models import Round, RoundState
from competition.templatetags.tournament_format import total
from competition.tournament import pages, selectors
from scoring import table_links
from scoring.clock import Clock, clock_of
from scoring.models import Pulka, PulkaStatus

#: The longest filter read; a name on the roster is at most 60 characters.
QUERY_MAX = 60
#: The highest round number read from ?round= (a tournament has at most 15).
ROUND_MAX = 99
#: Players on one slide of the projector's seating (two columns of twelve).
SEATS_PER_SLIDE = 24
#: Lines on one slide of the projector's standings.
LINES_PER_SLIDE = 20
#: A seating slide with a name longer than this is set in smaller type (one line a name).
LONG_NAME = 22
#: Seconds between two slides of the projector.
REFRESH_SECONDS = 20
#: "Find your table" shows the tables' links and clocks once the filter leaves this few lines.
YOUR_TABLE_LINES = 4

T = TypeVar("T")


def _query(request: HttpRequest) -> str:
    """The filter as typed, without control characters, at most QUERY_MAX characters."""
    text = request.GET.get("q", "")
    return "".join(char for char in text if char.isprintable())[:QUERY_MAX].strip()


@require_safe
def tournament_find(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """Everyone of the current round (or of ?round=K), alphabetically, with his table and
    seat; ?q= keeps the names that contain it (htmx: the list alone, as the visitor types)."""
    access = get_club_for_user(request, club_slug)
    tournament = selectors.tournament_for_club(access.club, tournament_id)
    rounds = selectors.shown_rounds(tournament, drafts=access.can_manage)
    asked = int_param(request.GET.get("round"), low=1, high=ROUND_MAX)
    if asked is None:
        shown = selectors.current_round(rounds)
    else:
        shown = next((one for one in rounds if one.number == asked), None)
        if shown is None:
            raise Http404
    query = _query(request)
    lines = selectors.seat_lines(shown) if shown is not None else []
    found = selectors.matching(lines, query)
    now = timezone.now()
    yours = _your_tables(request, shown, found, now) if query else []
    context = club_context(
        access,
        tournament=tournament,
        rounds=rounds,
        round=shown,
        asked=asked,
        draft=shown is not None and shown.state == RoundState.DRAFT,
        query=query,
        lines=found,
        total=len(lines),
        find_url=reverse("competition:tournament-find", args=[access.club.slug, tournament.pk]),
        clock=pages.round_clock(shown, now) if shown is not None else None,
        yours=yours,
    )
    return render_page(request, "competition/tournament_find.html", context, fragment="list")


@dataclass(frozen=True)
class YourTable:
    """A found player's table while it runs: its clock and its link (the players' entry)."""

    table: int
    name: str
    clock: Clock | None
    url: str
    qr: str


def _your_tables(
    request: HttpRequest,
    round: Round | None,
    found: Sequence[selectors.SeatLine],
    now: datetime.datetime,
) -> list[YourTable]:
    """The link and clock of each found player's running table, once the filter has found
    at most YOUR_TABLE_LINES players of a published or playing round (one query).

    The link lets whoever holds it enter that table's deals: the issue has it shown here,
    where the players look for their table, and only while the table runs."""
    if round is None or round.state not in (RoundState.PUBLISHED, RoundState.PLAYING):
        return []
    if not found or len(found) > YOUR_TABLE_LINES:
        return []
    ids = [line.pulka_id for line in found if line.pulka_id is not None]
    pulkas = Pulka.objects.filter(
        pk__in=ids, status=PulkaStatus.RUNNING, table_token__isnull=False
    ).only("pk", "table", "table_token", "ends_at", "paused_left")
    by_id = {pulka.pk: pulka for pulka in pulkas}
    yours = []
    for line in found:
        pulka = by_id.get(line.pulka_id)
        if pulka is None:
            continue
        url = table_links.table_url(pulka.table_token, request)
        yours.append(
            YourTable(
                table=line.table,
                name=line.name,
                clock=clock_of(pulka.ends_at, pulka.paused_left, now),
                url=url,
                qr=table_links.table_qr_inline(url, line.table),
            )
        )
    return yours


# --- the projector ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Slide:
    """What the projector shows at a step: a page of the seating or of the standings."""

    kind: str  # "seating", "standings" or "empty" (nothing published yet)
    page: int  # 0-based, within its kind
    pages: int  # of its kind
    next: int  # the step after this one


def screen_slide(step: int, seating_pages: int, standing_pages: int) -> Slide:
    """The slide at `step`: the seating and the standings take turns, each advancing a page
    every time it comes back, so a long list scrolls by while the other stays in view.

    >>> [(s.kind[:5], s.page) for s in (screen_slide(k, 2, 3) for k in range(6))]
    [('seati', 0), ('stand', 0), ('seati', 1), ('stand', 1), ('seati', 0), ('stand', 2)]
    >>> screen_slide(12, 2, 3).next, screen_slide(11, 2, 3).next
    (1, 0)
    >>> screen_slide(7, 0, 3)
    Slide(kind='standings', page=1, pages=3, next=2)
    """
    if seating_pages and standing_pages:
        period = 2 * math.lcm(seating_pages, standing_pages)
        step %= period
        turn, standings = divmod(step, 2)
        if standings:
            return Slide("standings", turn % standing_pages, standing_pages, (step + 1) % period)
        return Slide("seating", turn % seating_pages, seating_pages, (step + 1) % period)
    if seating_pages or standing_pages:
        kind = "seating" if seating_pages else "standings"
        pages = seating_pages or standing_pages
        step %= pages
        return Slide(kind, step, pages, (step + 1) % pages)
    return Slide("empty", 0, 0, 0)


def _pages(items: Sequence[T], size: int) -> list[Sequence[T]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


@dataclass(frozen=True)
class ScreenLine:
    place: int
    name: str
    total: str
    last: str  # the score of the last round counted ("" if he did not play it)
    shared: bool  # his place is shared with the line above or below


def _screen_lines(table, names: dict[int, str], last: int | None) -> list[ScreenLine]:
    places = [line.place for line in table.lines]
    out = []
    for k, line in enumerate(table.lines):
        scored = line.rounds.get(last) if last is not None else None
        shared = (k > 0 and places[k - 1] == line.place) or (
            k + 1 < len(places) and places[k + 1] == line.place
        )
        out.append(
            ScreenLine(
                place=line.place,
                name=names.get(line.player, str(line.player)),
                total=total(line.score),
                last=total(scored.score) if scored is not None else "",
                shared=shared,
            )
        )
    return out


@require_safe
def tournament_screen(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The projector: the current round's seating and the standings in turn, a slide every
    REFRESH_SECONDS (?page is the step; htmx fetches the next slide, the page polls itself);
    the final standings alone once the tournament is over."""
    access = get_club_for_user(request, club_slug)
    tournament = selectors.tournament_for_club(access.club, tournament_id)
    shown = selectors.current_round(selectors.shown_rounds(tournament))
    # Once the last round is confirmed (the tournament is over) nobody looks for a seat any
    # more: the room sees the final standings alone.
    final = tournament.finished_at is not None
    seated = selectors.seat_lines(shown) if shown is not None and not final else []
    seating = _pages(seated, SEATS_PER_SLIDE)
    read = selectors.results(tournament)
    last = read.rounds[-1] if read.rounds else None
    lines = _screen_lines(selectors.standings_from(tournament, read), read.names, last)
    standings = _pages(lines, LINES_PER_SLIDE)
    step = int_param(request.GET.get("page"), low=0, high=PAGE_MAX) or 0
    slide = screen_slide(step, len(seating), len(standings))
    seats = seating[slide.page] if slide.kind == "seating" else ()
    url = reverse("competition:tournament-screen", args=[access.club.slug, tournament.pk])
    now = timezone.now()
    context = club_context(
        access,
        tournament=tournament,
        round=shown,
        slide=slide,
        seats=seats,
        long_names=any(len(line.name) > LONG_NAME for line in seats),
        standings=standings[slide.page] if slide.kind == "standings" else (),
        after=last,
        final=final,
        next_url=f"{url}?page={slide.next}",
        refresh=REFRESH_SECONDS,
        clock=pages.round_clock(shown, now) if shown is not None and not final else None,
    )
    return render_page(request, "competition/tournament_screen.html", context, fragment="screen")
