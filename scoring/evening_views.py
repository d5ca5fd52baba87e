"""The club's evenings: the club page with its running tables, an evening and its tables,
and the club's default conventions, which new tables copy.

Every view starts with the tenant gate and scopes each lookup by the club. Forms
post-redirect-get without JavaScript; with htmx they swap their fragment or follow an
HX-Redirect. Spectators' polls answer 204 while nothing changed.
"""

from __future__ import annotations

import copy

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods, require_safe

from club import selectors as club_selectors
from club.access import ClubAccess, get_club_for_user
from club.models import Role
from club.params import PAGE_MAX, int_param
from club.rendering import (
    after_action,
    club_context,
    is_poll,
    nothing_changed,
    private_poll,
    render_fragment,
    render_page,
    wants_fragment,
)
from scoring import live, selectors, services, table_links
from scoring.access import PUBLIC, poll_unchanged, public_access, public_answer, public_poll
from scoring.forms import EveningForm, PulkaCreateForm, PulkaImportForm, RulesForm
from scoring.models import Evening
from scoring.services import ScoringError

EVENINGS_PER_PAGE = 20


@require_safe
def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's home: its running tables, its evenings (paged with htmx) and the roster."""
    access = get_club_for_user(request, club_slug)
    club = access.club
    page = int_param(request.GET.get("page"), low=1, high=PAGE_MAX)
    evenings = Paginator(selectors.evenings_for_club(club), EVENINGS_PER_PAGE).get_page(page)
    context = club_context(access, evenings=evenings)
    if not wants_fragment(request):
        context["live_token"] = selectors.club_live_token(club)
        context["running_tables"] = selectors.running_tables_for_club(club)
        context["roster"] = club_selectors.club_roster(club)
        if access.can_record:
            context["form"] = EveningForm()
            context["pending_claims"] = club_selectors.pending_claim_count(club)
    return render_page(request, "scoring/club_detail.html", context, fragment="evenings")


@require_safe
@gzip_page
def club_running(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's running tables, for the club page's poll: 204 while nothing changed.

    An unchanged poll costs what poll_unchanged says: a public club's at most one query. A
    public poll with no session gets an answer any cache may share (see scoring.views
    pulka_live); a change is rendered once per token, language and audience.
    """
    held = request.GET.get("v", "")
    keys = live.club_keys(club_slug)
    read = lambda user: selectors.club_live_state(user, club_slug)  # noqa: E731
    watch = public_poll(request, keys, read)
    if watch is not None:

        def changed() -> tuple[HttpResponse, str] | None:
            state = read(None)
            if state is None or not state.club.is_public:
                return None
            access = public_access(state.club)
            token = selectors.club_live_token(state.club)
            return _running_tables(request, access, token, watch), token

        answer = public_answer(request, watch, held, changed)
        if answer is not None:
            return answer
    watch = live.Watch(keys)
    if wants_fragment(request) and poll_unchanged(request, keys, read, held, watch=watch):
        return private_poll(nothing_changed())
    access = get_club_for_user(request, club_slug)
    club = access.club
    if not wants_fragment(request):
        return redirect(club.get_absolute_url())
    token = selectors.club_live_token(club)
    if held == token:
        return private_poll(nothing_changed())
    return private_poll(_running_tables(request, access, token, watch))


def _running_tables(
    request: HttpRequest, access: ClubAccess, token: str, watch: live.Watch
) -> HttpResponse:
    def render() -> tuple[HttpResponse, bool]:
        tables = selectors.running_tables_for_club(access.club)
        context = club_context(access, live_token=token, running_tables=tables)
        page = render_page(request, "scoring/club_detail.html", context, fragment="running")
        return page, True

    key = watch.render_key(token, get_language(), access.role or PUBLIC)
    return live.rendered(key, render)


def _club_rules_page(
    request: HttpRequest, access: ClubAccess, form: RulesForm, notice: str | None = None
) -> HttpResponse:
    context = club_context(access, rules_form=form, notice=notice)
    return render_page(request, "scoring/club_rules.html", context, fragment="form")


@require_http_methods(["GET", "HEAD", "POST"])
def club_rules(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's default conventions: every new table starts with them."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    form = RulesForm(request.POST or None, prefix="rules", rules=club.default_rules())
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_rules_update(club=club, rules=form.rules)
        except ScoringError as exc:
            form.add_error(None, exc.message)
        else:
            return after_action(
                request,
                _("The club's conventions are saved."),
                url=reverse("scoring:club-rules", args=[club.slug]),
                fragment=lambda notice: _club_rules_page(
                    request, access, RulesForm(prefix="rules", rules=club.default_rules()), notice
                ),
            )
    return _club_rules_page(request, access, form)


@require_safe
def rules_fields(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The conventions' fields re-rendered for the choices made so far (htmx), wherever they
    are edited (the club's defaults, a new table, a table before its first deal): a chosen
    convention fills in every option; any other change shows which options then have no
    effect, and the summary. Nothing is validated or saved here."""
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    if not wants_fragment(request):
        return redirect(access.club.get_absolute_url())
    form = RulesForm(request.GET, prefix="rules", rules=access.club.default_rules())
    context = club_context(access, rules_form=form, open=True, draft=True)
    return render_fragment(request, "scoring/_rules_fields.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def evening_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    if request.method == "POST":
        form = EveningForm(request.POST)
        if form.is_valid():
            evening = services.evening_create(
                club=club,
                date=form.cleaned_data["date"],
                venue=form.cleaned_data["venue"],
                notes=form.cleaned_data["notes"],
                created_by=request.user,
                self_entry=form.cleaned_data["self_entry"],
            )
            return after_action(
                request,
                _("The evening is open: add its tables."),
                url=evening.get_absolute_url(),
            )
    else:
        form = EveningForm()
    context = club_context(access, form=form, evening=None)
    return render_page(request, "scoring/evening_form.html", context, fragment="form")


@require_safe
def evening_detail(request: HttpRequest, club_slug: str, evening_id: int) -> HttpResponse:
    """An evening, its summary (each player over all its tables, and the money at the
    club's stake) and its tables; the summary and the tables alone for htmx, which polls
    them (?v=): see _evening_poll."""
    if is_poll(request):
        return _gzipped(request, _evening_poll(request, club_slug, evening_id))
    access = get_club_for_user(request, club_slug)
    evening = selectors.evening_for_club(access.club, evening_id)
    return _tables_page(request, access, evening, selectors.evening_live_token(evening))


def _evening_poll(request: HttpRequest, club_slug: str, evening_id: int) -> HttpResponse:
    """The evening's poll: 204 as cheaply as poll_unchanged can; a public poll with no
    session gets an answer any cache may share (see scoring.views pulka_live); a change is
    rendered once per token, language and audience."""
    held = request.GET["v"]
    keys = live.evening_keys(evening_id, club_slug)
    read = lambda user: selectors.evening_live_state(user, club_slug, evening_id)  # noqa: E731
    watch = public_poll(request, keys, read)
    if watch is not None:

        def changed() -> tuple[HttpResponse, str] | None:
            state = read(None)
            if state is None or not state.club.is_public:
                return None
            evening = selectors.evening_for_club(state.club, evening_id)
            token = selectors.evening_live_token(evening)
            answer = _tables_page(request, public_access(state.club), evening, token, watch)
            return answer, token

        answer = public_answer(request, watch, held, changed)
        if answer is not None:
            return answer
    watch = live.Watch(keys)
    if poll_unchanged(request, keys, read, held, watch=watch):
        return private_poll(nothing_changed())
    access = get_club_for_user(request, club_slug)
    evening = selectors.evening_for_club(access.club, evening_id)
    token = selectors.evening_live_token(evening)
    if held == token:
        return private_poll(nothing_changed())
    return private_poll(_tables_page(request, access, evening, token, watch))


def _tables_page(
    request: HttpRequest,
    access: ClubAccess,
    evening: Evening,
    token: str,
    watch: live.Watch | None = None,
) -> HttpResponse:
    """The evening's page, or for htmx its tables; a poll's (`watch`) rendered once for
    everyone of the same audience and language."""

    def render() -> tuple[HttpResponse, bool]:
        tables = selectors.evening_tables(evening)
        context = club_context(
            access,
            evening=evening,
            tables=tables,
            any_running=any(table.pulka.is_running for table in tables),
            summary=selectors.evening_summary(evening, tables),
            live_token=token,
        )
        if access.can_record and evening.self_entry:
            _with_links(request, tables)
        if access.can_record and not wants_fragment(request):
            context["new_table_form"] = PulkaCreateForm(club=access.club)
            context["import_form"] = PulkaImportForm()
        page = render_page(request, "scoring/evening_detail.html", context, fragment="tables")
        return page, True

    if watch is None or not wants_fragment(request):
        return render()[0]
    key = watch.render_key(token, get_language(), access.role or PUBLIC)
    return live.rendered(key, render)


def _with_links(request: HttpRequest, tables: list) -> None:
    """Each running table's link and its QR code, for the secretaries' eyes only: the link
    is the players' credential (scoring.table_views)."""
    for table in tables:
        pulka = table.pulka
        if pulka.table_token and pulka.is_running:
            pulka.table_link = table_links.table_url(pulka.table_token, request)
            pulka.table_qr = table_links.table_qr_inline(pulka.table_link, pulka.table)


def _gzipped(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A poll's answer compressed (Django's GZipMiddleware, as gzip_page): only the polls,
    which carry no CSRF token; the page around them does (BREACH)."""
    return GZipMiddleware(lambda _request: response).process_response(request, response)


@require_http_methods(["GET", "HEAD", "POST"])
def evening_edit(request: HttpRequest, club_slug: str, evening_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    evening = selectors.evening_for_club(club, evening_id)
    if request.method == "POST":
        # A copy: an invalid form must not change the evening shown in the page.
        form = EveningForm(request.POST, instance=copy.copy(evening))
        if form.is_valid():
            evening = services.evening_update(
                evening=evening,
                date=form.cleaned_data["date"],
                venue=form.cleaned_data["venue"],
                notes=form.cleaned_data["notes"],
                self_entry=form.cleaned_data["self_entry"],
            )
            return after_action(request, _("The evening is saved."), url=evening.get_absolute_url())
    else:
        form = EveningForm(instance=evening)
    context = club_context(access, form=form, evening=evening)
    return render_page(request, "scoring/evening_form.html", context, fragment="form")
