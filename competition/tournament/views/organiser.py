"""The organiser's tournament pages: the club's tournaments, a tournament's settings, home,
entries and penalties, and a round from its draft to its confirmation.

Reading follows the club (anyone for a public club, members for a private one); the club's
owner organises (settings, entries, seating, publishing, starting, confirming, penalties);
a secretary records the deals on the ordinary pulka pages and may also end a table on time.

Every action is a POST. Without JavaScript it redirects back with a message (post-redirect-
get); with htmx it answers with the updated section of the page, saying what happened or
why nothing did (status 200: htmx swaps only that). Input that names no player, table or
round of this tournament is refused with a message; nothing is changed then.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import ClubAccess, get_club_for_user
from club.errors import ServiceError
from club.models import Role
from club.names import NAME_MAX_LENGTH, collation_key, name_key
from club.params import PAGE_MAX, int_param, parse_int
from club.rendering import (
    after_action,
    club_context,
    is_poll,
    poll_answer,
    render_page,
    wants_fragment,
)
from competition.models import Entry, Round, RoundState, Tournament
from competition.tournament import notices, pages, selectors, services
from competition.tournament.forms import (
    AddMinutesForm,
    EntriesForm,
    PenaltyForm,
    PublishForm,
    SubstituteForm,
    TeamForm,
    TournamentForm,
)
from competition.tournament.services import TournamentServiceError
from scoring import engine, table_links
from scoring.forms import convention_summary

LIST = "competition/tournament_list.html"
FORM = "competition/tournament_form.html"
HOME = "competition/tournament_detail.html"
ENTRIES = "competition/tournament_entries.html"
PENALTIES = "competition/tournament_penalties.html"
ROUND = "competition/tournament_round.html"
ROWS_PER_PAGE = 100  # the entries and the penalties, a page at a time (?page=)


def _gate(
    request: HttpRequest, club_slug: str, tournament_id: int, *, role: str | None = None
) -> tuple[ClubAccess, Tournament]:
    access = get_club_for_user(request, club_slug, role=role)
    return access, selectors.tournament_for_club(access.club, tournament_id)


def _url(name: str, tournament: Tournament, *args: object) -> str:
    return reverse(f"competition:{name}", args=[tournament.club.slug, tournament.pk, *args])


def _has_published(tournament: Tournament) -> bool:
    return tournament.rounds.exclude(state=RoundState.DRAFT).exists()


def _page(request: HttpRequest, rows: list) -> Page:
    """The page of `rows` that ?page= asks for: past the last, the last (as every list)."""
    page = int_param(request.GET.get("page"), low=1, high=PAGE_MAX)
    return Paginator(rows, ROWS_PER_PAGE).get_page(page)


def _same_page(request: HttpRequest, url: str) -> str:
    """`url` on the page of the list the request came from (an action keeps its page)."""
    page = int_param(request.GET.get("page"), low=1, high=PAGE_MAX)
    return f"{url}?page={page}" if page is not None and page > 1 else url


def _level(ok: bool) -> int:
    """How an action's outcome is flashed: it was done, or it was refused."""
    return messages.SUCCESS if ok else messages.ERROR


# --- the list and the settings --------------------------------------------------------------


@require_safe
def tournament_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    context = club_context(access, rows=pages.tournament_rows(access.club))
    return render_page(request, LIST, context, fragment="tournaments")


def _form_page(
    request: HttpRequest, access: ClubAccess, form: TournamentForm, tournament: Tournament | None
) -> HttpResponse:
    context = club_context(access, form=form, tournament=tournament)
    return render_page(request, FORM, context, fragment="form")


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    form = TournamentForm(request.POST or None, club=access.club)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                club=access.club, created_by=request.user, **form.settings()
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("%(tournament)s is open: enter its players.") % {"tournament": tournament},
                url=_url("tournament-entries", tournament),
            )
    return _form_page(request, access, form, None)


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_edit(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    access, tournament = _gate(request, club_slug, tournament_id, role=Role.OWNER)
    locked = _has_published(tournament)
    # A copy: an invalid form must not rename the tournament in the page's header.
    form = TournamentForm(
        request.POST or None, instance=copy.copy(tournament), club=access.club, locked=locked
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, **form.settings())
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("%(tournament)s is saved.") % {"tournament": tournament},
                url=tournament.get_absolute_url(),
            )
    return _form_page(request, access, form, tournament)


# --- the home -------------------------------------------------------------------------------


def _home(
    request: HttpRequest, access: ClubAccess, tournament: Tournament, outcome: str = "", ok=True
) -> HttpResponse:
    rounds = list(tournament.rounds.order_by("number"))
    last = rounds[-1] if rounds else None
    can_draw = (
        access.can_manage
        and len(rounds) < tournament.round_count
        and (last is None or last.state == RoundState.CONFIRMED)
    )
    context = club_context(
        access,
        tournament=tournament,
        rounds=rounds,
        planned=range(len(rounds) + 1, tournament.round_count + 1),
        state=pages.tournament_state(tournament, rounds),
        can_draw=can_draw,
        next_number=len(rounds) + 1,
        outcome=outcome,
        ok=ok,
    )
    if not wants_fragment(request):
        lines, count = pages.top_standings(tournament)
        conventions = engine.rules_from_dict(tournament.rules)
        context.update(
            conventions=convention_summary(conventions),
            pool_target=conventions.pool_target,
            rules=selectors.rule_words(tournament),
            entries=pages.entry_counts(tournament),
            standings=lines,
            standings_count=count,
            schedule=pages.schedule_summary(tournament),
        )
    return render_page(request, HOME, context, fragment="rounds")


@require_safe
def tournament_detail(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    access, tournament = _gate(request, club_slug, tournament_id)
    return _home(request, access, tournament)


@require_POST
def round_draw(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """Draw the next round's draft, then show it."""
    access, tournament = _gate(request, club_slug, tournament_id, role=Role.OWNER)
    try:
        round = services.round_draft(tournament=tournament)
    except ServiceError as exc:
        return after_action(
            request,
            exc.message,
            level=messages.ERROR,
            url=tournament.get_absolute_url(),
            fragment=lambda said: _home(request, access, tournament, said, ok=False),
        )
    return after_action(
        request,
        _("The draft of round %(number)s is drawn.") % {"number": round.number},
        url=_url("round-detail", tournament, round.number),
    )


# --- entries --------------------------------------------------------------------------------


def _entries(
    request: HttpRequest,
    access: ClubAccess,
    tournament: Tournament,
    form: EntriesForm | None = None,
    outcome: str = "",
    ok: bool = True,
) -> HttpResponse:
    entries = selectors.entries(tournament)
    page = _page(request, entries)
    context = club_context(
        access,
        tournament=tournament,
        entries=page,
        # An action on a row answers with the same page.
        page_query=f"?page={page.number}" if page.number > 1 else "",
        active=sum(1 for e in entries if e.is_active),
        outcome=outcome,
        ok=ok,
    )
    if access.can_manage:
        roster = pages.roster_to_enter(tournament)
        context["form"] = form or EntriesForm(roster=roster)
        context["roster"] = [name for _pk, name in roster]
        context["everyone"] = entries  # whom a substitute may play for
        context.update(_pickable(request, roster, context["form"]))
    return render_page(request, ENTRIES, context, fragment="entries")


PICK_MAX = 300  # roster names offered as checkboxes at once; ?find= narrows a longer roster


def _pickable(request: HttpRequest, roster: list[tuple[int, str]], form: EntriesForm) -> dict:
    """The roster names the entry form offers to pick: those ?find= matches (the filter
    without JavaScript), at most PICK_MAX of them, the ones already ticked kept."""
    find = " ".join(request.GET.get("find", "")[:NAME_MAX_LENGTH].split())
    wanted = name_key(find)
    matching = [(pk, name) for pk, name in roster if wanted in name_key(name)]
    ticked = {str(pk) for pk in form["picked"].value() or ()}
    shown = [
        (pk, name, str(pk) in ticked)
        for n, (pk, name) in enumerate(matching)
        if n < PICK_MAX or str(pk) in ticked
    ]
    return {"pickable": shown, "pick_hidden": len(matching) - len(shown), "find": find}


def _entries_answer(
    request: HttpRequest, access: ClubAccess, tournament: Tournament, outcome: str, ok: bool
) -> HttpResponse:
    """After an action on the entries: the entries' section says what happened."""
    return after_action(
        request,
        outcome,
        level=_level(ok),
        url=_same_page(request, _url("tournament-entries", tournament)),
        fragment=lambda said: _entries(request, access, tournament, outcome=said, ok=ok),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_entries(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The players entered; the owner adds them by name (one a line) with their team."""
    role = Role.OWNER if request.method == "POST" else None
    access, tournament = _gate(request, club_slug, tournament_id, role=role)
    if request.method != "POST":
        return _entries(request, access, tournament)
    form = EntriesForm(request.POST, roster=pages.roster_to_enter(tournament))
    if form.is_valid():
        names, teams = form.entries()
        try:
            added = services.entries_add(tournament=tournament, names=names, teams=teams)
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            count = len(added)
            if added and added[0].first_round > 1:
                # One sentence, so that its verb agrees with the count in every language.
                outcome = ngettext(
                    "%(count)s player entered, from round %(number)s.",
                    "%(count)s players entered, from round %(number)s.",
                    count,
                ) % {"count": count, "number": added[0].first_round}
            else:
                outcome = ngettext(
                    "%(count)s player entered.", "%(count)s players entered.", count
                ) % {"count": count}
            return _entries_answer(request, access, tournament, outcome, True)
    return _entries(request, access, tournament, form)


def _entry_action(
    request: HttpRequest,
    club_slug: str,
    tournament_id: int,
    entry_id: int,
    act: Callable[[HttpRequest, Entry], str],
) -> HttpResponse:
    """A POST on one entry by the owner: `act` does it and says what it did."""
    access, tournament = _gate(request, club_slug, tournament_id, role=Role.OWNER)
    entry = (
        Entry.objects.filter(tournament=tournament, pk=entry_id)
        .select_related("player", "tournament")
        .first()
    )
    if entry is None:
        raise Http404
    entry.tournament = tournament
    try:
        outcome, ok = act(request, entry), True
    except ServiceError as exc:
        outcome, ok = exc.message, False
    return _entries_answer(request, access, tournament, outcome, ok)


def _withdraw(request: HttpRequest, entry: Entry) -> str:
    services.entry_withdraw(entry=entry, by=request.user)
    return _("%(name)s is withdrawn.") % {"name": entry.player.name}


def _restore(request: HttpRequest, entry: Entry) -> str:
    entry = services.entry_restore(entry=entry)
    # From the first round not yet published (a late entry's first round may be later).
    return _("%(name)s plays again from round %(number)s.") % {
        "name": entry.player.name,
        "number": max(entry.first_round, services.next_round(entry.tournament)),
    }


def _team(request: HttpRequest, entry: Entry) -> str:
    form = TeamForm(request.POST)
    if not form.is_valid():
        raise TournamentServiceError(" ".join(form.errors["team"]))
    entry = services.entry_update(entry=entry, team=form.cleaned_data["team"])
    if entry.team:
        return _("%(name)s plays for team %(team)s.") % {
            "name": entry.player.name,
            "team": entry.team,
        }
    return _("%(name)s plays in no team.") % {"name": entry.player.name}


@require_POST
def entry_withdraw(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    return _entry_action(request, club_slug, tournament_id, entry_id, _withdraw)


@require_POST
def entry_restore(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    return _entry_action(request, club_slug, tournament_id, entry_id, _restore)


@require_POST
def entry_team(
    request: HttpRequest, club_slug: str, tournament_id: int, entry_id: int
) -> HttpResponse:
    return _entry_action(request, club_slug, tournament_id, entry_id, _team)


@require_POST
def entry_substitute(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """A substitute (by name) plays for an entered player (chosen in the form)."""
    access, tournament = _gate(request, club_slug, tournament_id, role=Role.OWNER)
    form = SubstituteForm(request.POST, entries=selectors.entries(tournament))
    if form.is_valid():
        entry = form.cleaned_data["entry"]
        entry.tournament = tournament
        try:
            substitute = services.entry_substitute(entry=entry, name=form.cleaned_data["name"])
        except ServiceError as exc:
            outcome, ok = exc.message, False
        else:
            outcome, ok = (
                _("%(substitute)s plays for %(name)s from round %(number)s.")
                % {
                    "substitute": substitute.player.name,
                    "name": entry.player.name,
                    "number": substitute.first_round,
                },
                True,
            )
    else:
        outcome, ok = " ".join(str(e) for errors in form.errors.values() for e in errors), False
    return _entries_answer(request, access, tournament, outcome, ok)


# --- penalties ------------------------------------------------------------------------------


def _penalties_page(
    request: HttpRequest,
    access: ClubAccess,
    tournament: Tournament,
    form: PenaltyForm,
    rounds: list[int],
    outcome: str = "",
) -> HttpResponse:
    context = club_context(
        access,
        tournament=tournament,
        penalties=_page(request, pages.penalty_history(tournament)),
        penalties_max=services.PENALTIES_MAX,
        form=form if access.can_manage else None,
        rounds=rounds,
        outcome=outcome,
    )
    return render_page(request, PENALTIES, context, fragment="penalties")


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_penalties(request: HttpRequest, club_slug: str, tournament_id: int) -> HttpResponse:
    """The judge's penalties: every one with who gave it and when; the owner adds them."""
    role = Role.OWNER if request.method == "POST" else None
    access, tournament = _gate(request, club_slug, tournament_id, role=role)
    players = sorted(selectors.names(tournament).items(), key=lambda item: collation_key(item[1]))
    rounds = list(
        tournament.rounds.exclude(state=RoundState.DRAFT)
        .order_by("number")
        .values_list("number", flat=True)
    )
    form = PenaltyForm(request.POST or None, players=players, rounds=rounds)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty = services.penalty_add(
                tournament=tournament,
                player_id=data["player"],
                round_number=data["round"],
                amount=data["amount"],
                unit=data["unit"],
                reason=data["reason"],
                by=request.user,
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("The penalty of %(name)s in round %(number)s is recorded.")
                % {"name": dict(players)[penalty.player_id], "number": penalty.round},
                url=_url("tournament-penalties", tournament),
                fragment=lambda said: _penalties_page(
                    request,
                    access,
                    tournament,
                    PenaltyForm(players=players, rounds=rounds),
                    rounds,
                    said,
                ),
            )
    return _penalties_page(request, access, tournament, form, rounds)


# --- a round --------------------------------------------------------------------------------


def _round_context(
    request: HttpRequest, access: ClubAccess, round: Round, outcome: str = "", ok: bool = True
) -> dict:
    tournament = round.tournament
    now = timezone.now()
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    context = club_context(
        access,
        tournament=tournament,
        round=round,
        method=pages.method_label(round),
        outcome=outcome,
        ok=ok,
        previous=max((n for n in numbers if n < round.number), default=None),
        next=min((n for n in numbers if n > round.number), default=None),
    )
    if round.state == RoundState.DRAFT:
        if access.can_manage:
            context["draft"] = pages.draft_review(round)
            context["publish_form"] = PublishForm()
        return context
    tables = pages.live_tables(round)
    names = selectors.names(tournament)
    seated = sorted(
        ((p, names.get(p, str(p))) for p in selectors.seating_of(round).players),
        key=lambda item: collation_key(item[1]),
    )
    context.update(
        tables=tables,
        running=[t.number for t in tables if t.running],
        seated=seated,
        live_token=pages.live_token(round, now),
        corrected=services.corrected_after_confirm(round),
        notices=notices.round_notices(round) if access.can_manage else None,
        clock=pages.round_clock(round, now),
        minutes_form=AddMinutesForm(),
    )
    if access.can_record and round.state != RoundState.CONFIRMED:
        context["statuses"] = [
            (status, _link(request, status)) for status in pages.round_table_status(round, now)
        ]
    return context


def _link(request: HttpRequest, status: pages.TableStatus) -> tuple[str, str] | None:
    """A running table's link and its QR code (None: the table has none, or has ended)."""
    if status.token is None:
        return None
    url = table_links.table_url(status.token, request)
    return url, table_links.table_qr_inline(url, status.number)


def _round_page(request: HttpRequest, access: ClubAccess, round: Round, **kw) -> HttpResponse:
    context = _round_context(request, access, round, **kw)
    return render_page(request, ROUND, context, fragment="round")


def _round_answer(
    request: HttpRequest, access: ClubAccess, round: Round, outcome: str, ok: bool
) -> HttpResponse:
    """After an action on a round: the round's section says what happened."""
    return after_action(
        request,
        outcome,
        level=_level(ok),
        url=round.get_absolute_url(),
        fragment=lambda said: _round_page(request, access, round, outcome=said, ok=ok),
    )


@require_safe
def round_detail(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    access, tournament = _gate(request, club_slug, tournament_id)
    round = selectors.round_of(tournament, number)
    if is_poll(request):
        # The tables' poll: 204 while nothing changed, else the tables again.
        return poll_answer(
            request,
            pages.live_token(round, timezone.now()),
            lambda: render_page(
                request, ROUND, _round_context(request, access, round), fragment="tables"
            ),
        )
    return _round_page(request, access, round)


def _player(request: HttpRequest, field: str) -> int:
    player = parse_int(request.POST.get(field))
    if player is None:
        raise TournamentServiceError(_("Choose two players of this round."))
    return player


def _table(request: HttpRequest) -> int:
    table = parse_int(request.POST.get("table"))
    if table is None:
        raise TournamentServiceError(_("Choose a table of this round."))
    return table


def _pair_names(round: Round, first: int, second: int) -> dict[str, str]:
    names = selectors.names(round.tournament)
    return {"first": names.get(first, first), "second": names.get(second, second)}


def _swap(request: HttpRequest, round: Round) -> str:
    first, second = _player(request, "first"), _player(request, "second")
    services.draft_swap(round=round, first=first, second=second)
    return _("%(first)s and %(second)s have exchanged seats.") % _pair_names(round, first, second)


def _lock(request: HttpRequest, round: Round) -> str:
    table = _table(request)
    lock = request.POST.get("lock")
    if lock not in ("0", "1"):
        raise TournamentServiceError(_("Choose to lock or to unlock the table."))
    services.draft_lock(round=round, table=table, lock=lock == "1")
    if lock == "1":
        return _("Table %(table)s is locked: a new draw keeps it.") % {"table": table}
    return _("Table %(table)s is unlocked.") % {"table": table}


def _redraw(request: HttpRequest, round: Round) -> str:
    drawn = services.draft_redraw(round=round)
    return _("The draft is drawn again with seed %(seed)s.") % {"seed": drawn.seed}


def _form_refusal(form) -> TournamentServiceError:
    return TournamentServiceError(
        " ".join(str(e) for errors in form.errors.values() for e in errors)
    )


def _publish(request: HttpRequest, round: Round) -> str:
    form = PublishForm(request.POST)
    if not form.is_valid():
        raise _form_refusal(form)
    published = services.round_publish(
        round=round, by=request.user, starts_at=form.cleaned_data["starts_at"]
    )
    count = published.tables.count()
    return ngettext(
        "Round %(number)s is published: %(count)s table.",
        "Round %(number)s is published: %(count)s tables.",
        count,
    ) % {"number": published.number, "count": count}


def _start(request: HttpRequest, round: Round) -> str:
    services.round_start(round=round)
    return _("Round %(number)s has started.") % {"number": round.number}


def _end(request: HttpRequest, round: Round) -> str:
    table = _table(request)
    services.table_end(round=round, number=table, by=request.user)
    return _("Table %(table)s is ended.") % {"table": table}


def _add_minutes(request: HttpRequest, round: Round) -> str:
    form = AddMinutesForm(request.POST)
    if not form.is_valid():
        raise _form_refusal(form)
    minutes, table = form.cleaned_data["minutes"], form.cleaned_data["table"]
    services.round_clock_add(round=round, minutes=minutes, table=table)
    if table is None:
        return ngettext(
            "Every running table has %(minutes)s minute more.",
            "Every running table has %(minutes)s minutes more.",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "Table %(table)s has %(minutes)s minute more.",
        "Table %(table)s has %(minutes)s minutes more.",
        minutes,
    ) % {"table": table, "minutes": minutes}


def _pause(request: HttpRequest, round: Round) -> str:
    services.round_clock_pause(round=round)
    return _("The clock is paused.")


def _resume(request: HttpRequest, round: Round) -> str:
    services.round_clock_resume(round=round)
    return _("The clock runs again.")


def _end_at_time(request: HttpRequest, round: Round) -> str:
    ended = services.round_end_at_time(round=round, by=request.user)
    return ngettext(
        "Table %(tables)s is ended on time.",
        "Tables %(tables)s are ended on time.",
        len(ended),
    ) % {"tables": ", ".join(map(str, ended))}


def _renew_link(request: HttpRequest, round: Round) -> str:
    table = _table(request)
    services.round_table_link_renew(round=round, number=table)
    return _("Table %(table)s has a new link: the old one no longer works.") % {"table": table}


def _reseat(request: HttpRequest, round: Round) -> str:
    first, second = _player(request, "first"), _player(request, "second")
    services.round_reseat(round=round, first=first, second=second)
    return _("%(first)s and %(second)s have exchanged seats.") % _pair_names(round, first, second)


def _confirm(request: HttpRequest, round: Round) -> str:
    services.round_confirm(round=round, by=request.user)
    return _("Round %(number)s is confirmed: it counts in the standings.") % {
        "number": round.number
    }


def _round_action(
    request: HttpRequest,
    club_slug: str,
    tournament_id: int,
    number: int,
    act: Callable[[HttpRequest, Round], str],
    *,
    role: str = Role.OWNER,
) -> HttpResponse:
    """A POST on a round: `act` does it and says what it did; the round's section shows it."""
    access, tournament = _gate(request, club_slug, tournament_id, role=role)
    round = selectors.round_of(tournament, number)
    try:
        outcome, ok = act(request, round), True
    except ServiceError as exc:
        outcome, ok = exc.message, False
    # Read again either way: a refused action (a confirm that lost a race to another) shows
    # the round as it now is, not as it was when the request came.
    round = selectors.round_of(tournament, number)
    return _round_answer(request, access, round, outcome, ok)


@require_POST
def round_swap(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _swap)


@require_POST
def round_lock(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _lock)


@require_POST
def round_redraw(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _redraw)


@require_POST
def round_publish(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _publish)


@require_POST
def round_start(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _start)


@require_POST
def round_clock_add(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _add_minutes)


@require_POST
def round_clock_pause(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _pause)


@require_POST
def round_clock_resume(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _resume)


@require_POST
def round_end_at_time(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """End every running table whose time is out: one action for the organiser."""
    return _round_action(request, club_slug, tournament_id, number, _end_at_time)


@require_POST
def round_link_renew(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """A new link for a table (its old one dies at once)."""
    return _round_action(request, club_slug, tournament_id, number, _renew_link)


@require_POST
def round_end_table(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """A secretary may end a table of a running round on time, as the owner may; a table of
    a round that has not started, only the owner (the service says so)."""
    return _round_action(request, club_slug, tournament_id, number, _end, role=Role.SECRETARY)


@require_POST
def round_reseat(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _reseat)


@require_POST
def round_confirm(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    return _round_action(request, club_slug, tournament_id, number, _confirm)


@require_POST
def round_discard(
    request: HttpRequest, club_slug: str, tournament_id: int, number: int
) -> HttpResponse:
    """Throw the draft away: the tournament's home then offers to draw it again."""
    access, tournament = _gate(request, club_slug, tournament_id, role=Role.OWNER)
    round = selectors.round_of(tournament, number)
    try:
        services.draft_discard(round=round)
    except ServiceError as exc:
        return _round_answer(request, access, round, exc.message, False)
    return after_action(
        request,
        _("The draft of round %(number)s is discarded.") % {"number": number},
        url=tournament.get_absolute_url(),
    )
