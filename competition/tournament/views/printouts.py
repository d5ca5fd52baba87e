"""The organisers' printouts as downloads: A4 PDFs built by competition.tournament.printouts.

Who may download: the seating and the standings, whoever reads the club (anyone for a
public club, its members for a private one); the table protocols, a secretary or the owner
(they go on the tables). A draft's seating is the owner's alone, marked DRAFT; to anyone
else a draft round does not exist yet (404), as a round that was never drawn.

A big printout (by what it draws: bench/printouts.py) is prepared in the background instead,
and only for a member who may download it then; a visitor who is none is told to log in
or to ask a member (competition.files.services).

An htmx request gets a client-side redirect to the same address instead of the file: htmx
would swap the PDF's bytes into the page, while the browser downloads it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.access import ClubAccess, get_club_for_user
from club.models import Role
from club.params import parse_int
from club.rendering import after_action, club_context, render_page, wants_fragment
from competition.files import services as files
from competition.models import Round, RoundState, Tournament
from competition.tournament import printouts, selectors

PREPARE = "competition/print_prepare.html"

# Round and table numbers are small integers: a number in the URL beyond them is no round.
NUMBER_MAX = 32767


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"  # standings change with every correction
    return response


def _tournament(request: HttpRequest, club_slug: str, tournament_id: int, role: str | None):
    access = get_club_for_user(request, club_slug, role=role)
    return access, selectors.tournament_for_club(access.club, tournament_id)


def _round(access: ClubAccess, tournament: Tournament, number: int, *, draft: bool) -> Round:
    """The round `number`; a draft only for the owner and only where `draft` is allowed."""
    if not 1 <= number <= NUMBER_MAX:
        raise Http404
    found = selectors.round_of(tournament, number)
    if found.state == RoundState.DRAFT and not (draft and access.can_manage):
        raise Http404
    return found


def _offer(
    request: HttpRequest,
    access: ClubAccess,
    tournament: Tournament,
    *,
    kind: str,
    params: dict,
    size: int,
    threshold: int,
    amount: str,
    build: Callable[[], bytes],
    what: str,
    readers: str | None = None,
) -> HttpResponse:
    """The PDF at once; a big one (`size` over `threshold`) takes seconds, so a GET answers
    a page with a button whose POST has it prepared in the background (competition.files.services),
    leading to the page that offers it when it is ready. Only a member who may download the
    prepared file (of at least the role `readers`) gets the button; anyone else is told
    to log in or to ask a member, and his POST is refused so."""
    big = size > threshold
    readers = readers or printouts.PRINT_READERS[kind]

    def prepare_page(outcome: str = "") -> HttpResponse:
        context = club_context(
            access,
            tournament=tournament,
            amount=amount,
            may_prepare=files.may_prepare(access, readers),
            outcome=outcome,
        )
        return render_page(request, PREPARE, context, fragment="prepare")

    if request.method == "POST":
        if not big:
            raise Http404  # only a big file is prepared
        return files.respond_or_prepare(
            request,
            access,
            kind=kind,
            params=params,
            size=size,
            threshold=threshold,
            readers=readers,
            back=request.get_full_path(),
            refused=prepare_page,
        )
    if big:
        return prepare_page()
    if wants_fragment(request):
        return _download_in_browser(request)
    return _pdf(build(), printouts.filename(tournament, what))


def _download_in_browser(request: HttpRequest) -> HttpResponse:
    """htmx asked for a file: the browser fetches the same address itself."""
    return after_action(request, url=request.get_full_path())


@require_http_methods(["GET", "HEAD", "POST"])
def print_seating(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    access, tournament = _tournament(request, club_slug, tournament_id, None)
    found = _round(access, tournament, number, draft=True)
    size = printouts.seating_size(found)
    return _offer(
        request,
        access,
        tournament,
        kind=printouts.SEATING_KIND,
        params={"tournament_id": tournament.pk, "number": number},
        size=size,
        threshold=printouts.SEATING_THRESHOLD_PLAYERS,
        amount=_("Players in this seating: %(count)s.") % {"count": size},
        build=lambda: printouts.seating_pdf(found),
        what=printouts.seating_what(found),
        readers=printouts.seating_readers(found),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def print_protocols(
    request: HttpRequest,
    club_slug: str,
    tournament_id: int,
    number: int,
    table: int | None = None,
) -> HttpResponse:
    """Every table's protocol of the round, a page each; or one table's (`table`), which
    is never big."""
    access, tournament = _tournament(request, club_slug, tournament_id, Role.SECRETARY)
    found = _round(access, tournament, number, draft=False)
    if table is not None and not printouts.has_table(found, table):
        raise Http404
    size = printouts.protocols_size(found, table)
    if table is None:
        what = _("round %(number)s protocols") % {"number": number}
    else:
        what = _("round %(number)s table %(table)s protocol") % {"number": number, "table": table}
    return _offer(
        request,
        access,
        tournament,
        kind=printouts.PROTOCOLS_KIND,
        params={"tournament_id": tournament.pk, "number": number},
        size=size if table is None else 0,
        threshold=printouts.PROTOCOLS_THRESHOLD_TABLES,
        amount=_("Tables in this round: %(count)s.") % {"count": size},
        build=lambda: printouts.protocols_pdf(found, table),
        what=what,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def print_standings(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The standings now (the final ones once the tournament is over), or after round
    ?after=K, a confirmed round."""
    access, tournament = _tournament(request, club_slug, tournament_id, None)
    raw = request.GET.get("after", "")
    after = None
    if raw != "":
        after = parse_int(raw)
        if after is None or after not in printouts.confirmed_rounds(tournament):
            raise Http404
    drawn = printouts.standings_size(tournament, after)
    return _offer(
        request,
        access,
        tournament,
        kind=printouts.STANDINGS_KIND,
        params={"tournament_id": tournament.pk, "after": after},
        size=drawn.cells,
        threshold=printouts.STANDINGS_THRESHOLD_CELLS,
        amount=_(
            "Lines of the standings: %(lines)s, of %(columns)s columns; penalties: %(penalties)s."
        )
        % {"lines": drawn.lines, "columns": drawn.columns, "penalties": drawn.listed},
        build=lambda: printouts.standings_pdf(tournament, after),
        what=printouts.standings_what(after),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def print_teams(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The team standings, for a tournament with teams (404 without)."""
    access, tournament = _tournament(request, club_slug, tournament_id, None)
    if not tournament.team_best:
        raise Http404
    drawn = printouts.team_standings_size(tournament)
    return _offer(
        request,
        access,
        tournament,
        kind=printouts.TEAMS_KIND,
        params={"tournament_id": tournament.pk},
        size=drawn.cells,
        threshold=printouts.STANDINGS_THRESHOLD_CELLS,
        amount=_("Teams: %(lines)s, of %(columns)s columns.")
        % {"lines": drawn.lines, "columns": drawn.columns},
        build=lambda: printouts.team_standings_pdf(tournament),
        what=_("teams"),
    )
