"""The organisers' printouts as downloads: A4 PDFs built by competition.printouts.

Who may download: the seating and the standings, whoever reads the club (anyone for a
public club, its members for a private one); the table protocols, a secretary or the owner
(they go on the tables). A draft's seating is the owner's alone, marked DRAFT; to anyone
else a draft round does not exist yet (404), as a round that was never drawn.

An htmx request gets a client-side redirect to the same address instead of the file: htmx
would swap the PDF's bytes into the page, while the browser downloads it.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from club.access import ClubAccess, get_club_for_user
from club.models import Role
from club.params import parse_int
from club.rendering import club_context, render_page, wants_fragment
from competition import files, printouts
from competition import tournament_selectors as selectors
from competition.models import Round, RoundState, Tournament

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


@require_GET
def print_seating(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    access, tournament = _tournament(request, club_slug, tournament_id, None)
    found = _round(access, tournament, number, draft=True)
    if wants_fragment(request):
        return HttpResponseClientRedirect(request.get_full_path())
    what = _("round %(number)s seating") % {"number": number}
    if found.state == RoundState.DRAFT:
        what = _("round %(number)s seating DRAFT") % {"number": number}
    return _pdf(printouts.seating_pdf(found), printouts.filename(tournament, what))


@require_http_methods(["GET", "POST"])
def print_protocols(
    request: HttpRequest,
    club_slug: str,
    tournament_id: int,
    number: int,
    table: int | None = None,
) -> HttpResponse:
    """Every table's protocol of the round, a page each; or one table's (`table`).

    A big round's protocols (over PROTOCOLS_THRESHOLD_TABLES) take seconds: a GET then
    answers a page with a button, whose POST has the file prepared in the background
    (competition.files) and leads to the page that offers it when it is ready.
    """
    access, tournament = _tournament(request, club_slug, tournament_id, Role.SECRETARY)
    found = _round(access, tournament, number, draft=False)
    if table is not None and not printouts.has_table(found, table):
        raise Http404
    size = printouts.protocols_size(found, table)
    big = table is None and size > printouts.PROTOCOLS_THRESHOLD_TABLES
    if request.method == "POST":
        if not big:
            raise Http404  # only a big round's protocols are prepared
        return files.respond_or_prepare(
            request,
            access,
            kind=printouts.PROTOCOLS_KIND,
            params={"tournament_id": tournament.pk, "number": number},
            size=size,
            threshold=printouts.PROTOCOLS_THRESHOLD_TABLES,
        )
    if big:
        return render_page(
            request,
            "competition/print_prepare.html",
            {**club_context(access), "tournament": tournament, "round": found, "tables": size},
            fragment="prepare",
        )
    if wants_fragment(request):
        return HttpResponseClientRedirect(request.get_full_path())
    if table is None:
        what = _("round %(number)s protocols") % {"number": number}
    else:
        what = _("round %(number)s table %(table)s protocol") % {"number": number, "table": table}
    return _pdf(printouts.protocols_pdf(found, table), printouts.filename(tournament, what))


@require_GET
def print_standings(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The standings now (the final ones once the tournament is over), or after round
    ?after=K, a confirmed round."""
    _access, tournament = _tournament(request, club_slug, tournament_id, None)
    raw = request.GET.get("after", "")
    after = None
    if raw != "":
        after = parse_int(raw)
        if after is None or after not in printouts.confirmed_rounds(tournament):
            raise Http404
    if wants_fragment(request):
        return HttpResponseClientRedirect(request.get_full_path())
    if after is None:
        what = _("standings")
    else:
        what = _("standings after round %(number)s") % {"number": after}
    return _pdf(printouts.standings_pdf(tournament, after), printouts.filename(tournament, what))


@require_GET
def print_teams(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The team standings, for a tournament with teams (404 without)."""
    _access, tournament = _tournament(request, club_slug, tournament_id, None)
    if not tournament.team_best:
        raise Http404
    if wants_fragment(request):
        return HttpResponseClientRedirect(request.get_full_path())
    return _pdf(
        printouts.team_standings_pdf(tournament), printouts.filename(tournament, _("teams"))
    )
