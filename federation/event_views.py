"""/f/<slug>/events/: the federation's open events.

An event's page and its standings are public (an open event is public by nature). Anyone
signed in registers. The organisers are the host club's secretaries and owners and the
federation's officers: they change the terms, read the registrations (names, accounts,
payments), check players in at the door and make the entries. Anonymous visitors are sent
to log in for anything that needs an account; a signed-in visitor without the role gets
403, and a check-in code of an event he does not organise is a 404 (as any unknown code).

Every change is a POST. Without JavaScript it redirects with a message (post-redirect-get);
with htmx it answers with the updated fragment (a registration's row, the check-in card).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import LoginRequired
from club.errors import ServiceError
from club.exports import export_response, safe_dataset
from club.printing import file_name, pdf_response
from club.rendering import after_action, render_fragment, render_page, wants_fragment
from competition.tournament import selectors as tournament_selectors
from competition.tournament.standings import StandingsPage
from competition.tournament.tables import TournamentStandingsTable
from federation import events
from federation.access import FederationAccess, get_federation_for_user
from federation.event_forms import (
    CategoryForm,
    OpenForm,
    PaidForm,
    RegisterForm,
    RegistrationStateForm,
    SettingsForm,
)
from federation.models import Category, OpenEvent, Registration, RegistrationState

LIST = "federation/event_list.html"
DETAIL = "federation/event_detail.html"
ME = "federation/event_me.html"
SETTINGS = "federation/event_settings.html"
REGISTRATIONS = "federation/event_registrations.html"
CHECK_IN = "federation/event_check_in.html"
CHECK_IN_CODE = "federation/event_check_in_code.html"
STANDINGS = "federation/event_standings.html"


def _url(name: str, event: OpenEvent, *args: object) -> str:
    return reverse(f"federation:{name}", args=[event.federation.slug, event.pk, *args])


def _gate(request: HttpRequest, slug: str, event_id: int) -> tuple[FederationAccess, OpenEvent]:
    fed = get_federation_for_user(request, slug)
    return fed, events.event_of(fed.federation, event_id)


def _is_organiser(request: HttpRequest, fed: FederationAccess, event: OpenEvent) -> bool:
    return fed.can_judge or events.organises_club(request.user, event.tournament.club)


def _organiser_gate(
    request: HttpRequest, slug: str, event_id: int
) -> tuple[FederationAccess, OpenEvent]:
    """The event, for its organisers only: anonymous to log in, anyone else 403."""
    fed, event = _gate(request, slug, event_id)
    if not request.user.is_authenticated:
        raise LoginRequired
    if not _is_organiser(request, fed, event):
        raise PermissionDenied
    return fed, event


def _context(fed: FederationAccess, event: OpenEvent | None = None, **extra) -> dict:
    context = {"federation": fed.federation, "fed": fed, **extra}
    if event is not None:
        context.update(event=event, tournament=event.tournament, host=event.tournament.club)
    return context


def _level(ok: bool) -> int:
    return messages.SUCCESS if ok else messages.ERROR


# --- the list, and opening a tournament -------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def event_list(request: HttpRequest, slug: str) -> HttpResponse:
    fed = get_federation_for_user(request, slug)
    federation = fed.federation
    if request.method == "POST" and not request.user.is_authenticated:
        raise LoginRequired
    tournaments = events.openable_tournaments(federation, request.user)[: events.OPENABLE_MAX]
    openable = list(tournaments)
    if request.method == "POST" and not openable:
        raise PermissionDenied
    form = None
    if openable:
        form = OpenForm(
            request.POST if request.method == "POST" else None,
            tournaments=events.openable_tournaments(federation, request.user).filter(
                pk__in=[one.pk for one in openable]
            ),
        )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event = events.event_open(
                federation=federation, tournament=data["tournament"], **form.terms()
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            event.federation = federation
            return after_action(
                request,
                _("%(tournament)s is open for registration.") % {"tournament": event.tournament},
                url=_url("event", event),
            )
    upcoming, past = events.events_of(federation)
    context = _context(fed, upcoming=upcoming, past=past, form=form)
    fragment = "open-form" if request.method == "POST" else "events"
    return render_page(request, LIST, context, fragment=fragment)


# --- an event's page, and registering ---------------------------------------------------------


def _detail_context(request: HttpRequest, fed: FederationAccess, event: OpenEvent, form=None):
    person = events.person_of(fed.federation, request.user)
    mine = events.live_registration(event, request.user)
    if form is None and request.user.is_authenticated and mine is None:
        form = RegisterForm(
            initial={"name": events.default_name(fed.federation, request.user)},
            categories=events.categories_for(event, person),
        )
    categories = [(one, events.category_rule_text(one)) for one in event.categories.all()]
    return _context(
        fed,
        event,
        places=events.places_of(event),
        fee=events.fee_text(event),
        categories=categories,
        mine=mine,
        waiting_place=events.waiting_place(mine) if mine else None,
        form=form,
        is_organiser=request.user.is_authenticated and _is_organiser(request, fed, event),
        closed=events.registration_closed(event),
    )


@require_http_methods(["GET", "HEAD", "POST"])
def event_detail(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    fed, event = _gate(request, slug, event_id)
    form = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise LoginRequired
        person = events.person_of(fed.federation, request.user)
        form = RegisterForm(request.POST, categories=events.categories_for(event, person))
        if form.is_valid():
            try:
                registration = events.registration_create(
                    event=event,
                    user=request.user,
                    name=form.cleaned_data["name"],
                    category=form.cleaned_data.get("category"),
                )
            except ServiceError as exc:
                exc.add_to_form(form)
            else:
                return after_action(
                    request, _registered_text(registration), url=_url("event-me", event)
                )
    context = _detail_context(request, fed, event, form)
    return render_page(request, DETAIL, context, fragment="event")


def _registered_text(registration: Registration) -> str:
    place = events.waiting_place(registration)
    if place is None:
        return _("You are registered. Your check-in code is on its way by mail, and here.")
    return _(
        "The places are taken: you are on the waiting list, number %(place)s. We will mail "
        "you if a place frees up."
    ) % {"place": place}


@require_safe
def event_me(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """His registration: its state, his place on the waiting list, the QR code to show at the
    door."""
    fed, event = _gate(request, slug, event_id)
    if not request.user.is_authenticated:
        raise LoginRequired
    registration = events.last_registration(event, request.user)
    live = registration is not None and registration.state in events.LIVE
    context = _context(
        fed,
        event,
        registration=registration,
        live=live,
        waiting_place=events.waiting_place(registration) if registration else None,
        qr=events.registration_qr_svg(registration, fed.federation) if live else "",
        fee=events.fee_text(event),
    )
    return render_page(request, ME, context, fragment="me")


@require_POST
def event_cancel(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    fed, event = _gate(request, slug, event_id)
    if not request.user.is_authenticated:
        raise LoginRequired
    registration = events.live_registration(event, request.user)
    if registration is None:
        raise Http404
    registration.event = event
    try:
        events.registration_cancel(registration=registration)
    except ServiceError as exc:
        return after_action(request, exc.message, url=_url("event-me", event), level=messages.ERROR)
    return after_action(request, _("Your registration is cancelled."), url=_url("event", event))


# --- the organiser's settings -----------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def event_settings(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    fed, event = _organiser_gate(request, slug, event_id)
    form = SettingsForm(request.POST if request.method == "POST" else None, event=event)
    if request.method == "POST" and form.is_valid():
        try:
            moved = events.event_update(event=event, **form.terms())
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            outcome = _("The event's settings are saved.")
            if moved:
                outcome += " " + ngettext(
                    "Moved up from the waiting list: %(names)s.",
                    "Moved up from the waiting list: %(names)s.",
                    len(moved),
                ) % {"names": ", ".join(one.name for one in moved)}
            return after_action(request, outcome, url=_url("event", event))
    context = _context(fed, event, form=form)
    return render_page(request, SETTINGS, context, fragment="form")


@require_POST
def event_registration_state(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Close registration, or open it again (open=1 / open=0)."""
    fed, event = _organiser_gate(request, slug, event_id)
    form = RegistrationStateForm(request.POST)
    if not form.is_valid():
        return after_action(
            request,
            _("Say whether to open or close it."),
            url=_url("event", event),
            level=messages.ERROR,
        )
    event = events.event_registration_set(event=event, open=form.cleaned_data["open"])
    outcome = (
        _("Registration is open.") if event.registration_open else _("Registration is closed.")
    )
    return after_action(request, outcome, url=_url("event", event))


# --- the registrations, the fee and the categories --------------------------------------------


def _registration(event: OpenEvent, registration_id: int) -> Registration:
    found = (
        Registration.objects.filter(event=event, pk=registration_id)
        .select_related("user", "category")
        .first()
    )
    if found is None:
        raise Http404
    found.event = event
    return found


@require_safe
def event_registrations(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    fed, event = _organiser_gate(request, slug, event_id)
    return _registrations_page(request, fed, event)


@require_POST
def registration_cancel(
    request: HttpRequest, slug: str, event_id: int, registration_id: int
) -> HttpResponse:
    """The organiser cancels someone's registration (he phoned to say he won't come); the
    first one waiting takes the place, as when he cancels it himself."""
    fed, event = _organiser_gate(request, slug, event_id)
    registration = _registration(event, registration_id)
    url = _url("event-registrations", event)
    try:
        moved = events.registration_cancel(registration=registration)
    except ServiceError as exc:
        return after_action(
            request,
            exc.message,
            url=url,
            level=messages.ERROR,
            fragment=lambda text: _registrations_page(request, fed, event, outcome=text),
        )
    outcome = _("The registration of %(name)s is cancelled.") % {"name": registration.name}
    if moved is not None:
        outcome += " " + _("%(name)s takes the place.") % {"name": moved.name}
    return after_action(
        request,
        outcome,
        url=url,
        fragment=lambda text: _registrations_page(request, fed, event, outcome=text),
    )


def _registrations_page(
    request: HttpRequest, fed: FederationAccess, event: OpenEvent, outcome: str = ""
) -> HttpResponse:
    rows = events.registrations_of(event)
    context = _context(
        fed,
        event,
        page_outcome=outcome,
        rows=rows,
        places=events.places_of(event),
        fee=events.fee_text(event),
        categories=list(event.categories.all()),
        has_published=events.has_published(event.tournament),
    )
    return render_page(request, REGISTRATIONS, context, fragment="registrations")


def _row(request: HttpRequest, fed, event, registration: Registration, outcome: str = ""):
    if registration.state == RegistrationState.WAITING:
        registration.waiting_place = events.waiting_place(registration)
    context = _context(
        fed,
        event,
        one=registration,
        categories=list(event.categories.all()),
        fee=events.fee_text(event),
        outcome=outcome,
    )
    return render_fragment(request, f"{REGISTRATIONS}#row", context)


@require_POST
def registration_paid(
    request: HttpRequest, slug: str, event_id: int, registration_id: int
) -> HttpResponse:
    fed, event = _organiser_gate(request, slug, event_id)
    registration = _registration(event, registration_id)
    form = PaidForm(request.POST)
    url = _url("event-registrations", event)
    if not form.is_valid():
        outcome = _("Say whether the fee is paid or due.")
        return after_action(
            request,
            outcome,
            url=url,
            level=messages.ERROR,
            fragment=lambda text: _row(request, fed, event, registration, text),
        )
    registration = events.registration_paid(
        registration=registration, paid=form.cleaned_data["paid"]
    )
    outcome = (
        _("%(name)s has paid.") if registration.paid else _("%(name)s has not paid yet.")
    ) % {"name": registration.name}
    return after_action(
        request,
        outcome,
        url=url,
        fragment=lambda text: _row(request, fed, event, registration, text),
    )


@require_POST
def registration_category(
    request: HttpRequest, slug: str, event_id: int, registration_id: int
) -> HttpResponse:
    fed, event = _organiser_gate(request, slug, event_id)
    registration = _registration(event, registration_id)
    form = CategoryForm(request.POST, event=event)
    url = _url("event-registrations", event)
    ok = form.is_valid()
    if ok:
        try:
            registration = events.registration_category_set(
                registration=registration, category=form.cleaned_data["category"]
            )
        except ServiceError as exc:
            ok, outcome = False, exc.message
        else:
            category = registration.category
            outcome = (
                _("%(name)s plays in %(category)s.")
                % {"name": registration.name, "category": category.name}
                if category
                else _("%(name)s is in no category.") % {"name": registration.name}
            )
    else:
        outcome = _("Choose one of this event's categories.")
    return after_action(
        request,
        outcome,
        url=url,
        level=_level(ok),
        fragment=lambda text: _row(request, fed, event, registration, text),
    )


@require_safe
def event_registrations_export(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The registrations as CSV: name, account, e-mail, state, category, paid, came."""
    _fed, event = _organiser_gate(request, slug, event_id)
    rows = [
        [
            one.position,
            one.name,
            one.user.get_username(),
            one.user.email,
            one.get_state_display(),
            getattr(one, "waiting_place", None),
            one.category.name if one.category else "",
            _("paid") if one.paid else _("due"),
            one.checked_in_at.isoformat() if one.checked_in_at else "",
        ]
        for one in events.registrations_of(event)
    ]
    headers = [
        _("No."),
        _("Name"),
        _("Account"),
        _("E-mail"),
        _("State"),
        _("Waiting list"),
        _("Category"),
        _("Fee"),
        _("Came"),
    ]
    data = safe_dataset(rows, headers=headers, title=_("Registrations"))
    name = _("%(tournament)s registrations") % {"tournament": event.tournament.name}
    return export_response(data.export("csv"), fmt="csv", name=name)


# --- at the door ------------------------------------------------------------------------------


def _typed_code(text: str) -> str:
    """The code of a check-in address or of a code typed alone ("" when it is neither)."""
    text = text.strip()
    if "/check-in/" in text:
        text = text.rstrip("/").rsplit("/", 1)[-1]
    allowed = all(char.isascii() and (char.isalnum() or char in "-_") for char in text)
    return text if text and len(text) <= 40 and allowed else ""


@require_safe
def event_check_in(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """The door: search by name (?q=), a typed code (?code=), the camera's scan."""
    fed, event = _organiser_gate(request, slug, event_id)
    typed = request.GET.get("code", "")
    if typed:
        code = _typed_code(typed)
        if code and Registration.objects.filter(event=event, code=code).exists():
            return redirect(_url("event-check-in-code", event, code))
        messages.error(request, _("No registration of this event has that code."))
    query = request.GET.get("q", "")[:60]
    context = _context(
        fed,
        event,
        query=query,
        found=events.registrations_found(event, query) if query.strip() else [],
        places=events.places_of(event),
        code_prefix=_url("event-check-in", event),
        has_published=events.has_published(event.tournament),
    )
    return render_page(request, CHECK_IN, context, fragment="search")


@require_http_methods(["GET", "HEAD", "POST"])
def event_check_in_code(request: HttpRequest, slug: str, event_id: int, code: str) -> HttpResponse:
    """A registration's check-in address (its QR code): the organiser sees the name big and
    marks him with the button (a POST; opening the address changes nothing). Anyone else:
    404, whether or not the code exists."""
    fed, event = _gate(request, slug, event_id)
    if not request.user.is_authenticated:
        raise LoginRequired
    if not _is_organiser(request, fed, event):
        raise Http404
    registration = events.registration_by_code(event, code)
    registration.event = event
    outcome, ok = "", True
    if request.method == "POST":
        try:
            marked = events.registration_check_in(registration=registration)
        except ServiceError as exc:
            outcome, ok = exc.message, False
        else:
            registration.refresh_from_db()
            outcome = (_("%(name)s came.") if marked else _("%(name)s was checked in already.")) % {
                "name": registration.name
            }
        if not wants_fragment(request):
            messages.add_message(request, _level(ok), outcome)
            return redirect(_url("event-check-in-code", event, code))
    context = _context(
        fed,
        event,
        registration=registration,
        waiting_place=events.waiting_place(registration),
        fee=events.fee_text(event),
        outcome=outcome,
        ok=ok,
        can_mark=registration.checked_in_at is None and registration.state in events.LIVE,
    )
    return render_page(request, CHECK_IN_CODE, context, fragment="card")


@require_POST
def event_close_door(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    """Withdraw the no-shows, move up the waiting ones who came, make the entries."""
    _fed, event = _organiser_gate(request, slug, event_id)
    url = _url("event-registrations", event)
    try:
        done = events.event_close_door(event=event)
    except ServiceError as exc:
        return after_action(request, exc.message, url=url, level=messages.ERROR)
    parts = [
        ngettext(
            "%(count)s no-show withdrawn.", "%(count)s no-shows withdrawn.", len(done.no_shows)
        )
        % {"count": len(done.no_shows)},
        ngettext(
            "%(count)s moved up from the waiting list.",
            "%(count)s moved up from the waiting list.",
            len(done.moved_up),
        )
        % {"count": len(done.moved_up)},
        ngettext("%(count)s entry made.", "%(count)s entries made.", len(done.entered))
        % {"count": len(done.entered)},
    ]
    return after_action(request, " ".join(parts), url=url)


# --- the categories' standings ----------------------------------------------------------------


@require_safe
def event_standings(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    fed, event = _gate(request, slug, event_id)
    tournament = event.tournament
    page = StandingsPage(tournament)
    lists = []
    for category in event.categories.all():
        players = events.category_players(category)
        lists.append(
            (category, TournamentStandingsTable(events.CategoryPage(page, category, players)))
        )
    context = _context(
        fed,
        event,
        page=page,
        rule=tournament_selectors.rule_words(tournament),
        overall=TournamentStandingsTable(page),
        lists=lists,
    )
    return render_page(request, STANDINGS, context, fragment="standings")


@require_safe
def event_category_pdf(
    request: HttpRequest, slug: str, event_id: int, category_id: int
) -> HttpResponse:
    """A category's standings as the tournament's standings printout."""
    _fed, event = _gate(request, slug, event_id)
    category = Category.objects.filter(event=event, pk=category_id).first()
    if category is None:
        raise Http404
    content = events.category_standings_pdf(event, category)
    return pdf_response(content, file_name(event.tournament.name, category.name))
