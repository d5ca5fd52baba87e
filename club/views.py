"""Club pages: the home page, clubs, members, the roster and evenings (sessions).

Every club view starts with the tenant gate, get_club_for_user(), and scopes each lookup by
the club. Forms post-redirect-get without JavaScript; with htmx they swap their fragment
(an invalid form comes back with its errors, status 200) or follow an HX-Redirect.
"""

from __future__ import annotations

import copy

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from club import selectors, services
from club.access import ClubAccess, LoginRequired, get_club_for_user
from club.forms import (
    ClubCreateForm,
    ClubSettingsForm,
    MemberAddForm,
    MemberRoleForm,
    PlayerAddForm,
    PlayerEditForm,
    SessionForm,
)
from club.models import Membership, Player, Role
from club.rendering import render_page, wants_fragment
from club.services import ClubError
from scoring.forms import PulkaCreateForm, PulkaImportForm, RulesForm
from scoring.selectors import (
    club_live_token,
    running_tables_for_club,
    session_for_club,
    session_live_token,
    session_tables,
)

SESSIONS_PER_PAGE = 20


def _redirect(request: HttpRequest, url: str) -> HttpResponse:
    """After a valid form: a redirect, or for htmx a client-side one (never a 302 to htmx)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _add_error(form, exc: ClubError) -> None:
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)


def _context(access: ClubAccess, **extra) -> dict:
    """What every club page shows: the club (in the header) and the visitor's role."""
    role_label = Role(access.role).label if access.role else ""
    return {"club": access.club, "access": access, "role_label": role_label, **extra}


def home(request: HttpRequest) -> HttpResponse:
    context = {
        "public_clubs": selectors.public_clubs(),
        "my_memberships": selectors.memberships_for_user(request.user),
    }
    return render(request, "club/home.html", context)


# Clubs


@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        raise LoginRequired
    template = "club/club_create.html"
    if request.method == "POST":
        form = ClubCreateForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                club = services.club_create(
                    name=data["name"],
                    slug=data["slug"],
                    city=data["city"],
                    is_public=data["is_public"],
                    owner=request.user,
                )
            except ClubError as exc:
                _add_error(form, exc)
            else:
                messages.success(
                    request, _("%(club)s is open, and you are its owner.") % {"club": club.name}
                )
                return _redirect(request, club.get_absolute_url())
        return render_page(request, template, {"form": form}, fragment="form")
    if wants_fragment(request) and "name" in request.GET:
        # The name is being typed: suggest the short name for the links.
        suggestion = ClubCreateForm(request.GET).suggestion()
        form = ClubCreateForm(initial=suggestion)
        return render_page(request, template, {"form": form}, fragment="slug")
    return render_page(request, template, {"form": ClubCreateForm()}, fragment="form")


def club_detail(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    club = access.club
    sessions = Paginator(selectors.club_sessions(club), SESSIONS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = _context(access, sessions=sessions)
    if not wants_fragment(request):
        context["live_token"] = club_live_token(club)
        context["running_tables"] = running_tables_for_club(club)
        context["roster"] = selectors.club_roster(club)
        if access.can_record:
            context["form"] = SessionForm()
    return render_page(request, "club/club_detail.html", context, fragment="sessions")


@require_GET
def club_running(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's running tables, for the club page's poll: 204 while nothing changed."""
    access = get_club_for_user(request, club_slug)
    if not wants_fragment(request):
        return redirect(access.club.get_absolute_url())
    token = club_live_token(access.club)
    if request.GET.get("v") == token:
        return HttpResponse(status=204)
    context = _context(
        access, live_token=token, running_tables=running_tables_for_club(access.club)
    )
    return render_page(request, "club/club_detail.html", context, fragment="running")


@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    notice = None
    if request.method == "POST":
        # A copy: an invalid form must not rename the club in the page header.
        form = ClubSettingsForm(request.POST, instance=copy.copy(club))
        rules_form = RulesForm(request.POST, prefix="rules", rules=club.default_rules())
        if form.is_valid() and rules_form.is_valid():
            try:
                club = services.club_update(
                    club=club,
                    name=form.cleaned_data["name"],
                    city=form.cleaned_data["city"],
                    is_public=form.cleaned_data["is_public"],
                    rules=rules_form.rules,
                )
            except ClubError as exc:
                rules_form.add_error(None, exc.message)
            else:
                notice = _("The club's settings are saved.")
                if not wants_fragment(request):
                    messages.success(request, notice)
                    return redirect("club:settings", club.slug)
                form = ClubSettingsForm(instance=club)
                rules_form = RulesForm(prefix="rules", rules=club.default_rules())
    else:
        form = ClubSettingsForm(instance=club)
        rules_form = RulesForm(prefix="rules", rules=club.default_rules())
    context = _context(access, form=form, rules_form=rules_form, notice=notice)
    context["club"] = club  # as saved
    return render_page(request, "club/club_settings.html", context, fragment="form")


# Members and roles


def _members_page(
    request: HttpRequest,
    access: ClubAccess,
    *,
    form: MemberAddForm | None = None,
    notice: str | None = None,
    error: str | None = None,
) -> HttpResponse:
    context = _context(
        access,
        members=selectors.club_members(access.club),
        roles=Role.choices,
        form=form or MemberAddForm(),
        notice=notice,
        error=error,
    )
    return render_page(request, "club/member_list.html", context, fragment="members")


@require_http_methods(["GET", "POST"])
def member_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    if request.method != "POST":
        return _members_page(request, access)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            membership = services.member_add(
                club=club, user=form.cleaned_data["username"], role=form.cleaned_data["role"]
            )
        except ClubError as exc:
            _add_error(form, exc)
        else:
            notice = _("%(user)s is now a member (%(role)s).") % {
                "user": membership.user.get_username(),
                "role": membership.get_role_display(),
            }
            if not wants_fragment(request):
                messages.success(request, notice)
                return redirect("club:members", club.slug)
            return _members_page(request, access, notice=notice)
    return _members_page(request, access, form=form)


@require_POST
def member_update(request: HttpRequest, club_slug: str, membership_id: int) -> HttpResponse:
    """Change a member's role, or remove him (`remove` in the form); the last owner stays."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, club=club
    )
    username = membership.user.get_username()
    is_self = membership.user_id == request.user.pk
    removing = "remove" in request.POST
    try:
        if removing:
            services.member_remove(membership=membership)
            notice = _("%(user)s is no longer a member.") % {"user": username}
        else:
            role_form = MemberRoleForm(request.POST)
            if not role_form.is_valid():
                raise ClubError(" ".join(role_form.errors["role"]), field="role")
            membership = services.member_set_role(
                membership=membership, role=role_form.cleaned_data["role"]
            )
            notice = _("%(user)s is now %(role)s.") % {
                "user": username,
                "role": membership.get_role_display(),
            }
    except ClubError as exc:
        if not wants_fragment(request):
            messages.error(request, exc.message)
            return redirect("club:members", club.slug)
        return _members_page(request, access, error=exc.message)
    if is_self and not request.user.is_superuser:
        # The owner stepped down or left: the members page is no longer his.
        messages.success(request, notice)
        if removing:
            return _redirect(request, reverse("home"))
        return _redirect(request, club.get_absolute_url())
    if not wants_fragment(request):
        messages.success(request, notice)
        return redirect("club:members", club.slug)
    return _members_page(request, access, notice=notice)


# The roster


@require_http_methods(["GET", "POST"])
def player_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    writing = request.method == "POST"
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY if writing else None)
    club = access.club
    form = PlayerAddForm(request.POST) if writing else PlayerAddForm()
    notice = None
    if writing and form.is_valid():
        try:
            player = services.player_add(club=club, name=form.cleaned_data["name"])
        except ClubError as exc:
            _add_error(form, exc)
        else:
            notice = _("%(name)s is on the roster.") % {"name": player.name}
            if not wants_fragment(request):
                messages.success(request, notice)
                return redirect("club:players", club.slug)
            form = PlayerAddForm()
    context = _context(
        access,
        players=selectors.club_roster(club, active_only=not access.can_record),
        form=form,
        notice=notice,
    )
    return render_page(request, "club/player_list.html", context, fragment="roster")


@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id, club=club)
    if request.method == "POST":
        form = PlayerEditForm.for_player(player, request.POST)
        if form.is_valid():
            try:
                player = services.player_update(
                    player=player,
                    name=form.cleaned_data["name"],
                    user=form.cleaned_data["username"],
                    is_active=form.cleaned_data["is_active"],
                )
            except ClubError as exc:
                _add_error(form, exc)
            else:
                messages.success(request, _("%(name)s is saved.") % {"name": player.name})
                return _redirect(request, reverse("club:players", args=[club.slug]))
    else:
        form = PlayerEditForm.for_player(player)
    context = _context(access, player=player, form=form)
    return render_page(request, "club/player_edit.html", context, fragment="form")


# Evenings


@require_http_methods(["GET", "POST"])
def session_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    if request.method == "POST":
        form = SessionForm(request.POST)
        if form.is_valid():
            session = services.session_create(
                club=club,
                date=form.cleaned_data["date"],
                venue=form.cleaned_data["venue"],
                notes=form.cleaned_data["notes"],
                created_by=request.user,
            )
            messages.success(request, _("The evening is open: add its tables."))
            return _redirect(request, session.get_absolute_url())
    else:
        form = SessionForm()
    context = _context(access, form=form, session=None)
    return render_page(request, "club/session_form.html", context, fragment="form")


def session_detail(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    club = access.club
    session = session_for_club(club, session_id)
    token = session_live_token(session)
    if wants_fragment(request) and request.GET.get("v") == token:
        # A spectator's poll and nothing changed: no replay, nothing to swap.
        return HttpResponse(status=204)
    tables = session_tables(session)
    context = _context(
        access,
        session=session,
        tables=tables,
        any_running=any(table.pulka.is_running for table in tables),
        live_token=token,
    )
    if access.can_record and not wants_fragment(request):
        context["new_table_form"] = PulkaCreateForm(club=club)
        context["import_form"] = PulkaImportForm()
    return render_page(request, "club/session_detail.html", context, fragment="tables")


@require_http_methods(["GET", "POST"])
def session_edit(request: HttpRequest, club_slug: str, session_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    session = session_for_club(club, session_id)
    if request.method == "POST":
        # A copy: an invalid form must not change the evening shown in the page.
        form = SessionForm(request.POST, instance=copy.copy(session))
        if form.is_valid():
            session = services.session_update(
                session=session,
                date=form.cleaned_data["date"],
                venue=form.cleaned_data["venue"],
                notes=form.cleaned_data["notes"],
            )
            messages.success(request, _("The evening is saved."))
            return _redirect(request, session.get_absolute_url())
    else:
        form = SessionForm(instance=session)
    context = _context(access, form=form, session=session)
    return render_page(request, "club/session_form.html", context, fragment="form")
