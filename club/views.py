"""Club pages: the home page, opening a club, its settings, members and the roster.

Every club view starts with the tenant gate, get_club_for_user(), and scopes each lookup by
the club. Forms post-redirect-get without JavaScript; with htmx they swap their fragment
(an invalid form comes back with its errors, status 200) or follow an HX-Redirect.
"""

from __future__ import annotations

import copy
import dataclasses

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import invitations, selectors, services
from club.access import ClubAccess, LoginRequired, get_club_for_user
from club.forms import (
    ClubCreateForm,
    ClubSettingsForm,
    MemberAddForm,
    MemberRoleForm,
    PlayerAddForm,
    PlayerEditForm,
)
from club.models import Membership, Player, Role
from club.rendering import after_action, club_context, render_page, wants_fragment
from club.services import ClubError


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "public_clubs": selectors.public_clubs(),
        "my_memberships": selectors.memberships_for_user(request.user),
        "my_invitations": selectors.invitations_for_user(request.user),
    }
    return render(request, "club/home.html", context)


# Clubs


@require_http_methods(["GET", "HEAD", "POST"])
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
                exc.add_to_form(form)
            else:
                outcome = _("%(club)s is open, and you are its owner.") % {"club": club.name}
                return after_action(request, outcome, url=club.get_absolute_url())
        return render_page(request, template, {"form": form}, fragment="form")
    if wants_fragment(request) and "name" in request.GET:
        # The name is being typed: suggest the short name for the links.
        suggestion = ClubCreateForm(request.GET).suggestion()
        form = ClubCreateForm(initial=suggestion)
        return render_page(request, template, {"form": form}, fragment="slug")
    return render_page(request, template, {"form": ClubCreateForm()}, fragment="form")


def _settings_page(
    request: HttpRequest, access: ClubAccess, form: ClubSettingsForm, notice: str | None = None
) -> HttpResponse:
    context = club_context(access, form=form, notice=notice)
    return render_page(request, "club/club_settings.html", context, fragment="form")


@require_http_methods(["GET", "HEAD", "POST"])
def club_settings(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's name, city, visibility and stake (its default conventions have their own
    page)."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    if request.method != "POST":
        return _settings_page(request, access, ClubSettingsForm(instance=club))
    # A copy: an invalid form must not rename the club in the page header.
    form = ClubSettingsForm(request.POST, instance=copy.copy(club))
    if not form.is_valid():
        return _settings_page(request, access, form)
    club = services.club_update(
        club=club,
        name=form.cleaned_data["name"],
        city=form.cleaned_data["city"],
        is_public=form.cleaned_data["is_public"],
    )
    club = services.club_stake_update(
        club=club,
        whist_price=form.cleaned_data["whist_price"],
        currency=form.cleaned_data["currency"],
    )
    access = dataclasses.replace(access, club=club)  # the header shows the club as saved
    return after_action(
        request,
        _("The club's settings are saved."),
        url=reverse("club:settings", args=[club.slug]),
        fragment=lambda notice: _settings_page(
            request, access, ClubSettingsForm(instance=club), notice
        ),
    )


# Members and roles


def _members_page(
    request: HttpRequest,
    access: ClubAccess,
    *,
    form: MemberAddForm | None = None,
    notice: str | None = None,
    error: str | None = None,
) -> HttpResponse:
    context = club_context(
        access,
        members=selectors.club_members(access.club),
        roles=Role.choices,
        form=form or MemberAddForm(),
        notice=notice,
        error=error,
    )
    if not wants_fragment(request):
        # Beside the list, on the full page only: the links and the requests for a name.
        links = selectors.club_invitations(access.club).prefetch_related(None)
        context["pending_invitations"] = [link for link in links if link.is_pending]
        context["claims"] = selectors.pending_claims(access.club)
    return render_page(request, "club/member_list.html", context, fragment="members")


@require_http_methods(["GET", "HEAD", "POST"])
def member_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    if request.method != "POST":
        return _members_page(request, access)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            invitation = invitations.invitation_address(
                club=club,
                to=form.cleaned_data["to"],
                role=form.cleaned_data["role"],
                created_by=request.user,
            )
        except ClubError as exc:
            exc.add_to_form(form)
        else:
            # The same words whether or not an account goes by that name.
            notice = _(
                "An invitation to join as %(role)s is on its way to %(to)s: they become a "
                "member when they accept it."
            ) % {"role": invitation.get_role_display(), "to": invitation.addressed_to}
            return after_action(
                request,
                notice,
                url=reverse("club:members", args=[club.slug]),
                fragment=lambda said: _members_page(request, access, notice=said),
            )
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
            services.member_remove(membership=membership, actor=request.user)
            notice = _("%(user)s is no longer a member.") % {"user": username}
        else:
            role_form = MemberRoleForm(request.POST)
            if not role_form.is_valid():
                raise ClubError(" ".join(role_form.errors["role"]), field="role")
            membership = services.member_set_role(
                membership=membership, role=role_form.cleaned_data["role"], actor=request.user
            )
            notice = _("%(user)s is now %(role)s.") % {
                "user": username,
                "role": membership.get_role_display(),
            }
    except ClubError as exc:
        return after_action(
            request,
            exc.message,
            level=messages.ERROR,
            url=reverse("club:members", args=[club.slug]),
            fragment=lambda said: _members_page(request, access, error=said),
        )
    if is_self and not request.user.is_superuser:
        # The owner stepped down or left: the members page is no longer his.
        return after_action(
            request, notice, url=reverse("home") if removing else club.get_absolute_url()
        )
    return after_action(
        request,
        notice,
        url=reverse("club:members", args=[club.slug]),
        fragment=lambda said: _members_page(request, access, notice=said),
    )


# The roster

MERGES_SHOWN = 10  # the roster page lists the latest merges; the merge page lists them all


def _roster_page(
    request: HttpRequest, access: ClubAccess, form: PlayerAddForm, notice: str | None = None
) -> HttpResponse:
    club = access.club
    context = club_context(
        access,
        players=selectors.club_roster(club, active_only=not access.can_record),
        form=form,
        notice=notice,
        merges=selectors.roster_merges(club)[:MERGES_SHOWN] if access.can_manage else (),
    )
    return render_page(request, "club/player_list.html", context, fragment="roster")


@require_http_methods(["GET", "HEAD", "POST"])
def player_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    writing = request.method == "POST"
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY if writing else None)
    if not writing:
        return _roster_page(request, access, PlayerAddForm())
    form = PlayerAddForm(request.POST)
    if form.is_valid():
        try:
            addition = services.players_add(club=access.club, names=form.cleaned_data["name"])
        except ClubError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _addition_notice(addition),
                url=reverse("club:players", args=[access.club.slug]),
                fragment=lambda said: _roster_page(request, access, PlayerAddForm(), said),
            )
    return _roster_page(request, access, form)


def _addition_notice(addition: services.RosterAddition) -> str:
    """What players_add did, in the secretary's words: who is added, who was left as is."""
    added = [player.name for player in addition.added]
    if len(added) == 1:
        said = [_("%(name)s is on the roster.") % {"name": added[0]}]
    else:
        said = [
            ngettext(
                "%(count)s player added to the roster: %(names)s.",
                "%(count)s players added to the roster: %(names)s.",
                len(added),
            )
            % {"count": len(added), "names": ", ".join(added)}
        ]
    if addition.on_roster:
        said.append(
            _("Already on the roster, not added again: %(names)s.")
            % {"names": ", ".join(player.name for player in addition.on_roster)}
        )
    if addition.repeated:
        said.append(
            _("Named twice in the list, added once: %(names)s.")
            % {"names": ", ".join(addition.repeated)}
        )
    return " ".join(said)


@transaction.atomic
def _player_save(request: HttpRequest, player: Player, data: dict):
    """Save the roster name's form: its name and place on the roster, an unlink, and an
    invitation to the person it names (one transaction: all or nothing)."""
    user = None if data.get("unlink") else player.user
    player = services.player_update(
        player=player, name=data["name"], user=user, is_active=data["is_active"]
    )
    invited = None
    if data.get("member") is not None:
        invited = invitations.invitation_to_name(
            player=player, membership=data["member"], created_by=request.user
        )
    elif data.get("invite"):
        invited = invitations.invitation_address(
            club=player.club,
            to=data["invite"],
            role=Role.PLAYER,
            created_by=request.user,
            player=player,
        )
    return player, invited


@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    player = get_object_or_404(Player.objects.select_related("user"), pk=player_id, club=club)
    can_invite = access.role == Role.OWNER
    if request.method == "POST":
        form = PlayerEditForm.for_player(player, request.POST, can_invite=can_invite)
        if form.is_valid():
            data = form.cleaned_data
            try:
                player, invited = _player_save(request, player, data)
            except ClubError as exc:
                exc.add_to_form(form)
            else:
                notice = _("%(name)s is saved.") % {"name": player.name}
                if invited is not None:
                    # A member picked from the list is named as the list names him.
                    to = invited.addressed_to
                    if data.get("member") is not None:
                        to = selectors.member_shown_name(data["member"].user)
                    notice = _(
                        "%(name)s is saved. An invitation to take this name is on its way to "
                        "%(to)s: the account is linked when they accept it."
                    ) % {"name": player.name, "to": to}
                return after_action(request, notice, url=reverse("club:players", args=[club.slug]))
    else:
        form = PlayerEditForm.for_player(player, can_invite=can_invite)
    context = club_context(access, player=player, form=form)
    return render_page(request, "club/player_edit.html", context, fragment="form")
