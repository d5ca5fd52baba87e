"""The table's own pages, reached by its link /t/<token>/: its players enter the deals and
confirm (or dispute) each other's, with no account of the club.

The link is the credential, so every view starts with `_table`: the token must be a table's
(else 404, never a word about other tables), the table must be running and not locked (else
"this table has ended", 410), and each attempt to change something counts against the
link's rate limit (429). Misses count against the visitor's address before the database is
asked, so guessing links costs the site next to nothing.

The visitor says which seat he is; the choice is kept in his session, per link. A signed-in
player whose account is a seat's player's (Player.user) is given that seat and takes it
(Seat.claimed_by): nobody else acts as that seat any more. The link only enters and
confirms or disputes: older deals are corrected by the secretaries, on the pulka's page.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import wraps

from allauth.account.adapter import get_adapter as get_account_adapter
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.forms.forms import NON_FIELD_ERRORS
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from club import notices
from club.params import int_param
from club.rendering import (
    after_action,
    nothing_changed,
    private_poll,
    render_fragment,
    render_page,
    wants_fragment,
)
from scoring import engine, queue, selectors, services, table_links
from scoring.clock import clock_of
from scoring.forms import DealForm
from scoring.models import Deal, DealCheck, Pulka, Seat
from scoring.services import DISPUTE_REASON_MAX

PAGE = "scoring/table_page.html"
CLOSED = "scoring/table_closed.html"
# The largest number a deal's number or version column holds (PositiveIntegerField).
NUMBER_MAX = 2_147_483_647
# What a link looks like (services._new_token: 32 URL-safe characters; at most 43 stored).
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,43}")
# Attempts to change something through one link: a table records a deal every minute or
# two, each confirmed once; a phone retrying on bad Wi-Fi stays far below.
ATTEMPTS = 60
ATTEMPT_PERIOD = 5 * 60
# Links that lead nowhere, per visitor's address: a mistyped link is tried a few times;
# guessing them (192 bits each) is stopped before it costs a query.
MISSES = 20
MISS_PERIOD = 10 * 60


class _Answer(Exception):
    """The gate's answer instead of the view's (an ended table, too many attempts)."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def _answering(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except _Answer as answer:
            return answer.response

    return wrapped


# --- the gate ----------------------------------------------------------------------------------


def _bucket(kind: str, key: str, period: int) -> str:
    return f"scoring:table:{kind}:{key}:{int(time.time() // period)}"


def _count(name: str, period: int) -> int:
    """One more in the counter `name` (a fixed window of `period` seconds)."""
    try:
        return cache.incr(name)
    except ValueError:  # the window's first
        cache.set(name, 1, period)
        return 1


def _address(request: HttpRequest) -> str:
    """The visitor's address as the rate limits of the accounts read it: behind our proxy
    the X-Forwarded-For entry it appended (ALLAUTH_TRUSTED_PROXY_COUNT), else REMOTE_ADDR."""
    try:
        return get_account_adapter().get_client_ip(request)
    except PermissionDenied:  # no address at all (a test client may send none)
        return "unknown"


def _too_many(request: HttpRequest) -> HttpResponse:
    minutes = max(1, ATTEMPT_PERIOD // 60)
    return render_page(
        request,
        CLOSED,
        {
            "text": _(
                "Too many attempts through this table's link: wait %(minutes)s minutes and "
                "try again."
            )
            % {"minutes": minutes},
            "status": 429,
        },
        fragment="closed",
        status=429,
    )


def _table(request: HttpRequest, token: str, *, attempt: bool = False) -> Pulka:
    """The running table of this link, or the gate's answer (404, 410, 429)."""
    misses = _bucket("miss", _address(request), MISS_PERIOD)
    if (cache.get(misses) or 0) >= MISSES:
        raise _Answer(_too_many(request))
    pulka = selectors.table_for_token(token) if TOKEN.fullmatch(token) else None
    if pulka is None:
        _count(misses, MISS_PERIOD)
        raise Http404
    if attempt and _count(_bucket("try", token, ATTEMPT_PERIOD), ATTEMPT_PERIOD) > ATTEMPTS:
        raise _Answer(_too_many(request))
    if not pulka.is_running or pulka.is_locked:
        if wants_fragment(request):
            raise _Answer(HttpResponseClientRedirect(reverse("scoring:table", args=[token])))
        raise _Answer(
            render_page(
                request,
                CLOSED,
                {"text": _("This table has ended: its link no longer works."), "status": 410},
                fragment="closed",
                status=410,
            )
        )
    return pulka


def _seats(pulka: Pulka) -> list[Seat]:
    seats = selectors.table_seats(pulka)
    pulka.__dict__["names"] = [seat.player.name for seat in seats]  # no second query
    return seats


def _key(token: str) -> str:
    return f"table-seat:{token}"


def _free_for(seat: Seat, request: HttpRequest) -> bool:
    """Whether the visitor may act as this seat: nobody took it, or his account did."""
    return seat.claimed_by_id is None or seat.claimed_by_id == request.user.pk


def _seat(request: HttpRequest, token: str, seats: list[Seat]) -> int | None:
    """The seat this visitor is at this table (kept in his session), if it is still his."""
    chosen = request.session.get(_key(token))
    if isinstance(chosen, int) and 0 <= chosen < len(seats) and _free_for(seats[chosen], request):
        return chosen
    return None


def _recognised(request: HttpRequest, pulka: Pulka, token: str, seats: list[Seat]) -> int | None:
    """A signed-in player whose account is a seat's player's gets that seat and takes it."""
    user = request.user
    if not user.is_authenticated:
        return None
    for seat in seats:
        if seat.player.user_id == user.pk and _free_for(seat, request):
            if seat.claimed_by_id is None:
                services.table_seat_claim(pulka=pulka, seat=seat.position, user=user)
                seat.claimed_by_id = user.pk
            request.session[_key(token)] = seat.position
            return seat.position
    return None


def _taken(seats: list[Seat], seat: int) -> str:
    return _(
        "Seat %(seat)s is taken by %(name)s's account: sign in to that account to play it."
    ) % {"seat": seat + 1, "name": seats[seat].player.name}


# --- what the page shows ---------------------------------------------------------------------


def _urls(token: str) -> dict[str, str]:
    return {
        "page": reverse("scoring:table", args=[token]),
        "seat": reverse("scoring:table-seat", args=[token]),
        "create": reverse("scoring:table-deal-create", args=[token]),
        "form": reverse("scoring:table-deal-form", args=[token]),
        "live": reverse("scoring:table-live", args=[token]),
    }


def _new_form(token: str, names: list[str], sheet: engine.Sheet, data=None) -> DealForm:
    return DealForm.next_entry(names, sheet, _urls(token)["form"], data)


def _item(deal: Deal, snapshot: engine.DealSnapshot, names: list[str], seat: int | None) -> dict:
    """A deal of the table's log, with what this seat may do to it."""
    state = deal.confirmation
    return {
        "deal": deal,
        "data": deal.to_pulka_dict(names),
        "dealer": snapshot.dealer,
        "entries": snapshot.entries,
        "raspasy_cost": snapshot.raspasy_cost,
        "check": selectors.deal_check(deal, names),
        "can_confirm": seat is not None
        and state == DealCheck.AWAITING
        and seat != deal.entered_seat,
        "can_dispute": seat is not None
        and (
            state == DealCheck.AWAITING
            or (state == DealCheck.CONFIRMED and deal.confirmed_seat is not None)
        ),
    }


def _log(deals: list[Deal], names: list[str], sheet: engine.Sheet, seat: int | None) -> list[dict]:
    """The table's deals, newest first."""
    pairs = zip(deals, sheet.snapshots, strict=True)
    return [_item(deal, snapshot, names, seat) for deal, snapshot in reversed(list(pairs))]


def _context(
    request: HttpRequest,
    pulka: Pulka,
    token: str,
    seats: list[Seat],
    seat: int | None,
    *,
    form: DealForm | None = None,
    notice: str | None = None,
    error: str | None = None,
) -> dict:
    names = pulka.names
    deals = selectors.pulka_deals(pulka)
    sheet = selectors.pulka_sheet(pulka, deals, names)
    now = timezone.now()
    rule = services.time_rule(pulka, len(deals) + 1, now)
    if form is None and seat is not None and not rule.over:
        form = _new_form(token, names, sheet)
    return {
        "club": pulka.evening.club,
        "pulka": pulka,
        "evening": pulka.evening,
        "names": names,
        "seats": seats,
        "seat_rows": [
            {
                "number": row.position + 1,
                "name": row.player.name,
                "taken": not _free_for(row, request),
                "mine": request.user.is_authenticated and row.player.user_id == request.user.pk,
            }
            for row in seats
        ],
        "seat": seat,
        "seat_name": selectors.seat_label(names, seat),
        "sheet": sheet,
        "rows": selectors.sheet_rows(sheet, names),
        "pool_sum": selectors.pool_sum(sheet),
        # No drawn pulka: a phone at the table needs the sheet, and each answer stays light.
        "drawing": None,
        "log": _log(deals, names, sheet, seat),
        "form": form,
        "mode": "new",
        "urls": _urls(token),
        "token": token,
        "next_number": len(deals) + 1,
        "rule": rule,
        "clock": clock_of(pulka.ends_at, pulka.paused_left, now),
        "table_view": True,
        "reason_max": DISPUTE_REASON_MAX,
        "notice": notice,
        "entry_error": error,
        # The seat's phone keeps its deals when the Wi-Fi drops (static/js/offline.js).
        "offline_entry": seat is not None and pulka.is_running,
        "device_form": form,
        "queue_account": "table",
    }


def _page(request: HttpRequest, context: dict) -> HttpResponse:
    return render_page(request, PAGE, context, fragment="table")


def _after(
    request: HttpRequest,
    pulka: Pulka,
    token: str,
    outcome: str,
    *,
    ok: bool,
) -> HttpResponse:
    """After an attempt: for htmx the whole table as it now is, saying the outcome; else
    the outcome flashed and back to the table's page (post-redirect-get)."""

    def whole(outcome: str) -> HttpResponse:
        pulka.refresh_from_db(fields=["status", "version", "finished_at", "locked_at"])
        seats = _seats(pulka)
        context = _context(request, pulka, token, seats, _seat(request, token, seats))
        context["notice" if ok else "entry_error"] = outcome
        # The whole table, whichever part asked (the entry form swaps itself otherwise).
        return retarget(reswap(_page(request, context), "outerHTML"), "#table")

    return after_action(
        request,
        outcome,
        level=messages.SUCCESS if ok else messages.ERROR,
        url=reverse("scoring:table", args=[token]),
        fragment=whole,
    )


def _ask_to_confirm(
    request: HttpRequest, pulka: Pulka, token: str, seats: list[Seat], deal: Deal
) -> None:
    """Tell the other seats' players who have an account (Player.user) that the deal awaits
    their confirmation, by the channels each allows (club.notices, sent in the background).
    No query when nobody at the table has an account."""
    ids = {
        seat.player.user_id
        for seat in seats
        if seat.player.user_id is not None and seat.position != deal.entered_seat
    }
    if not ids:
        return
    link = table_links.table_url(token, request)

    def render(_user) -> tuple[str, str]:
        words = {"table": pulka.table, "number": deal.number}
        subject = _("Table %(table)s, deal %(number)s awaits your confirmation") % words
        return subject, _("%(subject)s: %(link)s") % {"subject": subject, "link": link}

    notices.queue(
        kind=notices.CONFIRM,
        topic=f"table-deal:{deal.pk}",
        users=get_user_model().objects.filter(pk__in=ids),
        render=render,
    )


def _entered(
    request: HttpRequest,
    pulka: Pulka,
    token: str,
    seat: int,
    deal: Deal,
    sheet: engine.Sheet,
    outcome: str,
) -> HttpResponse:
    """htmx answer to a deal entered at the table: a fresh form, the new sheet and the new
    line of the log (as the pulka page's deal-created); the table that the deal finished
    is shown whole, as it now is (its link has ended)."""
    if not pulka.is_running:
        return HttpResponseClientRedirect(reverse("scoring:table", args=[token]))
    names = pulka.names
    context = {
        "club": pulka.evening.club,
        "pulka": pulka,
        "names": names,
        "sheet": sheet,
        "rows": selectors.sheet_rows(sheet, names),
        "pool_sum": selectors.pool_sum(sheet),
        "drawing": None,
        "form": _new_form(token, names, sheet),
        "mode": "new",
        "urls": _urls(token),
        "token": token,
        "next_number": deal.number + 1,
        "rule": services.time_rule(pulka, deal.number + 1),
        "table_view": True,
        "offline_entry": True,
        "reason_max": DISPUTE_REASON_MAX,
        "item": _item(deal, sheet.snapshots[-1], names, seat),
        "notice": outcome,
    }
    return render_fragment(request, f"{PAGE}#entered", context)


def _checked(
    request: HttpRequest, pulka: Pulka, token: str, seat: int, deal: Deal, outcome: str
) -> HttpResponse:
    """After a confirmation or a dispute: for htmx that deal's line as it now is, saying
    the outcome; else the outcome flashed and back to the table (post-redirect-get)."""

    def line(outcome: str) -> HttpResponse:
        names = pulka.names
        sheet = selectors.pulka_sheet(pulka, names=names)
        context = {
            "names": names,
            "token": token,
            "reason_max": DISPUTE_REASON_MAX,
            "item": _item(deal, sheet.snapshots[deal.number - 1], names, seat),
            "notice": outcome,
        }
        return render_fragment(request, f"{PAGE}#checked", context)

    return after_action(request, outcome, url=reverse("scoring:table", args=[token]), fragment=line)


# --- the views ---------------------------------------------------------------------------------


@require_safe
@_answering
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The table: choose your seat, then the sheet, the next deal's form and the deals to
    confirm. The whole table for htmx."""
    pulka = _table(request, token)
    seats = _seats(pulka)
    seat = _seat(request, token, seats)
    if seat is None:
        seat = _recognised(request, pulka, token, seats)
    context = _context(request, pulka, token, seats, seat)
    response = _page(request, context)
    return queue.keep_for_entry(response) if context["offline_entry"] else response


@require_POST
@_answering
def table_seat(request: HttpRequest, token: str) -> HttpResponse:
    """Say which seat you are (`seat`: 1 to 4 as the buttons say), or leave it (empty): to
    hand the phone to another player of the table."""
    pulka = _table(request, token, attempt=True)
    seats = _seats(pulka)
    raw = request.POST.get("seat", "")
    if raw == "":
        request.session.pop(_key(token), None)
        return _after(
            request,
            pulka,
            token,
            _("Hand the phone on: the next player says which seat he is."),
            ok=True,
        )
    chosen = int_param(raw, low=1, high=len(seats))
    if chosen is None:
        return _after(request, pulka, token, _("Choose one of the table's seats."), ok=False)
    position = chosen - 1
    if not _free_for(seats[position], request):
        return _after(request, pulka, token, _taken(seats, position), ok=False)
    if request.user.is_authenticated and seats[position].player.user_id == request.user.pk:
        try:
            services.table_seat_claim(pulka=pulka, seat=position, user=request.user)
        except services.ScoringError as exc:
            return _after(request, pulka, token, exc.message, ok=False)
    request.session[_key(token)] = position
    return _after(
        request,
        pulka,
        token,
        _("You are %(who)s.") % {"who": selectors.seat_label(pulka.names, position)},
        ok=True,
    )


def _no_seat() -> str:
    return _("Say which seat you are first.")


@require_safe
@_answering
def table_deal_form(request: HttpRequest, token: str) -> HttpResponse:
    """Re-render the entry form for the choices made so far (htmx), without validating."""
    pulka = _table(request, token)
    if not wants_fragment(request):
        return redirect(reverse("scoring:table", args=[token]))
    seats = _seats(pulka)
    names = pulka.names
    sheet = selectors.pulka_sheet(pulka, names=names)
    context = {
        "club": pulka.evening.club,
        "pulka": pulka,
        "form": _new_form(token, names, sheet, data=request.GET),
        "urls": _urls(token),
        "mode": "new",
        "next_number": len(sheet.snapshots) + 1,
        "draft": True,
        "seats": seats,
        "offline_entry": True,
    }
    return render_fragment(request, "scoring/pulka_detail.html#deal-form", context)


@require_POST
@_answering
def table_deal_create(request: HttpRequest, token: str) -> HttpResponse:
    """Record the next deal as entered by this seat: it awaits another seat's confirmation.
    The same form posted twice records it once (its one-time key), as on the pulka page."""
    pulka = _table(request, token, attempt=True)
    seats = _seats(pulka)
    seat = _seat(request, token, seats)
    queued = queue.from_queue(request)
    if seat is None:
        if queued:
            return queue.answer(pulka, "refused", _no_seat())
        return _after(request, pulka, token, _no_seat(), ok=False)
    names = pulka.names
    form = DealForm.posted_entry(request.POST, pulka, names, _urls(token)["form"])
    if form.is_valid():
        try:
            deal, sheet = services.deal_record(
                pulka=pulka,
                data=form.deal_data,
                entered_by=request.user,
                number=form.cleaned_data["number"],
                entry_key=form.cleaned_data["entry_key"],
                seat=seat,
            )
        except services.DealAlreadyRecorded as exc:
            if queued:
                return queue.answer(pulka, "already", exc.message, number=exc.number)
            answer = _after(request, pulka, token, exc.message, ok=True)
            return queue.recorded(answer, exc.number)
        except services.DealNumberTaken as exc:
            if queued:
                return queue.answer(pulka, "refused", exc.message)
            return _after(request, pulka, token, exc.message, ok=False)
        except services.ScoringError as exc:
            form.add_error(None, exc.message)
        else:
            _ask_to_confirm(request, pulka, token, seats, deal)
            if queued:
                return queue.answer(
                    pulka, "recorded", number=deal.number, next_number=deal.number + 1
                )
            done = _("Deal %(number)s recorded: another player of the table confirms it.") % {
                "number": deal.number
            }
            answer = after_action(
                request,
                done,
                url=reverse("scoring:table", args=[token]),
                fragment=lambda outcome: _entered(
                    request, pulka, token, seat, deal, sheet, outcome
                ),
            )
            return queue.recorded(answer, deal.number)
    elif form.has_error(NON_FIELD_ERRORS, "outdated") and not queued:
        return _after(request, pulka, token, form.non_field_errors()[0], ok=False)
    if queued:
        return queue.refused(pulka, form)
    context = _context(request, pulka, token, seats, seat, form=form)
    if wants_fragment(request):
        return render_fragment(request, "scoring/pulka_detail.html#deal-form", context)
    return render_page(request, PAGE, context, fragment="table")


def _version(request: HttpRequest) -> int:
    # No usable version: no deal has it, so the service refuses it as stale.
    version = int_param(request.POST.get("version"), low=0, high=NUMBER_MAX)
    return -1 if version is None else version


def _seat_checks(
    request: HttpRequest, token: str, check: Callable[[Pulka, int], Deal], done: str
) -> HttpResponse:
    """A seat confirms or disputes a deal (`check(pulka, seat)`, a service): through the
    gate, as the seat this phone chose, answered with the deal's line."""
    pulka = _table(request, token, attempt=True)
    seat = _seat(request, token, _seats(pulka))
    if seat is None:
        return _after(request, pulka, token, _no_seat(), ok=False)
    try:
        deal = check(pulka, seat)
    except services.ScoringError as exc:
        return _after(request, pulka, token, exc.message, ok=False)
    return _checked(request, pulka, token, seat, deal, done)


@require_POST
@_answering
def table_confirm(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """This seat confirms deal `number`, entered by another seat of the table."""

    def confirm(pulka: Pulka, seat: int) -> Deal:
        return services.deal_confirm(
            pulka=pulka,
            number=number,
            expected_version=_version(request),
            seat=seat,
            user=request.user,
        )

    done = _("Deal %(number)s confirmed.") % {"number": number}
    return _seat_checks(request, token, confirm, done)


@require_POST
@_answering
def table_dispute(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """This seat disputes deal `number`, saying why: the judge resolves it."""

    def dispute(pulka: Pulka, seat: int) -> Deal:
        return services.deal_dispute(
            pulka=pulka,
            number=number,
            expected_version=_version(request),
            seat=seat,
            user=request.user,
            reason=request.POST.get("reason", ""),
        )

    done = _("Deal %(number)s is disputed: the judge will decide it.") % {"number": number}
    return _seat_checks(request, token, dispute, done)


@require_safe
@_answering
def table_live(request: HttpRequest, token: str) -> HttpResponse:
    """The table page's poll (?v=, the version it shows): 204 while nothing changed (one
    query), else the sheet, the deals and the clock, as another phone left them."""
    pulka = _table(request, token)
    if not wants_fragment(request):
        return redirect(reverse("scoring:table", args=[token]))
    if request.GET.get("v") == str(pulka.version):
        return private_poll(nothing_changed())
    seats = _seats(pulka)
    context = _context(request, pulka, token, seats, _seat(request, token, seats))
    # The poll sends the number of the deal its entry form is for (hx-include): a form
    # another phone has overtaken would only be refused, so a fresh one replaces it.
    held = int_param(request.GET.get("number", ""), low=1, high=NUMBER_MAX)
    context["fresh_entry"] = (
        context["seat"] is not None and held is not None and held != context["next_number"]
    )
    return private_poll(render_fragment(request, f"{PAGE}#live", context))
