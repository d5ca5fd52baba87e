"""Invitation links, joining by one, requests for a roster name, and the membership history.

The owner's pages start with the tenant gate (get_club_for_user, role OWNER) and scope every
lookup by the club. The accept page (/join/<token>/) is the exception: it is reached by the
link alone, which is the proof of the invitation, so it shows the club's name, the role and
the roster name to whoever holds a valid link, member or not, logged in or not.

Statuses of the accept page: 404 for a token no link has (mistyped, forged, deleted), 410
Gone for a link that no longer works for anyone (expired, used up, revoked), 409 Conflict
for a POST refused for this account only (the roster name is someone else's, or his account
has another name); the page names the problem in each case, and nothing changes.
"""

from __future__ import annotations

from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render, resolve_url
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import invitations, selectors
from club.access import ClubAccess, LoginRequired, get_club_for_user
from club.forms import ClaimDecisionForm, InvitationForm, NameClaimForm
from club.invitations import InvitationError
from club.models import Invitation, NameClaim, Role
from club.params import PAGE_MAX, int_param
from club.qr import qr_svg_document, qr_svg_inline
from club.rendering import after_action, club_context, render_page
from club.services import ClubError

# Invitation links


def _invitations_page(
    request: HttpRequest,
    access: ClubAccess,
    *,
    form: InvitationForm | None = None,
    notice: str | None = None,
    error: str | None = None,
) -> HttpResponse:
    links = list(selectors.club_invitations(access.club))
    for link in links:
        link.share_url = request.build_absolute_uri(link.get_absolute_url())
    context = club_context(
        access,
        form=form or InvitationForm(club=access.club),
        pending=[link for link in links if link.is_pending],
        past=[link for link in links if not link.is_pending],
        notice=notice,
        error=error,
    )
    return render_page(request, "club/invitation_list.html", context, fragment="invitations")


@require_http_methods(["GET", "HEAD", "POST"])
def invitation_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's invitation links (pending, then used, expired and revoked) and a form to
    make a new one; a new link opens its page, with the link to copy and its QR code."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    if request.method != "POST":
        return _invitations_page(request, access)
    form = InvitationForm(request.POST, club=club)
    if form.is_valid():
        data = form.cleaned_data
        try:
            invitation = invitations.invitation_create(
                club=club,
                role=data["role"],
                player=data["player"],
                valid_days=data["valid_days"],
                max_uses=data["max_uses"],
                created_by=request.user,
            )
        except ClubError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("The invitation link is ready: send it or show its code."),
                url=reverse("club:invitation-detail", args=[club.slug, invitation.pk]),
            )
    return _invitations_page(request, access, form=form)


def _club_invitation(access: ClubAccess, invitation_id: int) -> Invitation:
    return get_object_or_404(
        Invitation.objects.select_related("player", "created_by", "revoked_by"),
        pk=invitation_id,
        club=access.club,
    )


@require_safe
def invitation_detail(request: HttpRequest, club_slug: str, invitation_id: int) -> HttpResponse:
    """One link to share: the address to copy, its QR code, a printable card, and who has
    accepted it."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    invitation = _club_invitation(access, invitation_id)
    link = request.build_absolute_uri(invitation.get_absolute_url())
    context = club_context(
        access,
        invitation=invitation,
        link=link,
        # segno escapes the title and writes the rest itself: the markup is safe to embed.
        qr=mark_safe(  # noqa: S308
            qr_svg_inline(link, title=_("Invitation to %(club)s") % {"club": access.club.name})
        ),
        acceptances=invitation.acceptances.select_related("user"),
    )
    return render_page(request, "club/invitation_detail.html", context, fragment="invitation")


@require_safe
def invitation_qr(request: HttpRequest, club_slug: str, invitation_id: int) -> HttpResponse:
    """The link's QR code as an SVG file, to download and print."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    invitation = _club_invitation(access, invitation_id)
    link = request.build_absolute_uri(invitation.get_absolute_url())
    title = _("Invitation to %(club)s") % {"club": access.club.name}
    response = HttpResponse(qr_svg_document(link, title=title), content_type="image/svg+xml")
    response["Content-Disposition"] = (
        f'inline; filename="invitation-{access.club.slug}-{invitation.pk}.svg"'
    )
    return response


@require_POST
def invitation_revoke(request: HttpRequest, club_slug: str, invitation_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    invitation = _club_invitation(access, invitation_id)
    url = reverse("club:invitations", args=[access.club.slug])
    try:
        invitations.invitation_revoke(invitation=invitation, actor=request.user)
    except ClubError as exc:
        return after_action(
            request,
            exc.message,
            level=messages.ERROR,
            url=url,
            fragment=lambda said: _invitations_page(request, access, error=said),
        )
    return after_action(
        request,
        _("The link is revoked: nobody can join by it any more."),
        url=url,
        fragment=lambda said: _invitations_page(request, access, notice=said),
    )


# Accepting a link


def _login_url(next_url: str) -> str:
    return f"{resolve_url(settings.LOGIN_URL)}?next={quote(next_url, safe='/')}"


def _accept_page(
    request: HttpRequest,
    *,
    invitation: Invitation | None,
    problem: InvitationError | None = None,
    plan: invitations.AcceptPlan | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        # Not `club`: the page header would link to a private club the visitor cannot read.
        "invited_club": invitation.club if invitation is not None else None,
        "invitation": invitation,
        "problem": problem,
        "plan": plan,
        "next_path": request.path,
        "login_url": _login_url(request.path),
    }
    return render(request, "club/invitation_accept.html", context, status=status)


def _problem_status(problem: InvitationError) -> int:
    if problem.code == InvitationError.UNKNOWN:
        return 404
    if problem.code == InvitationError.NOT_YOURS:
        return 403
    return 410 if problem.link_is_dead else 409


@require_http_methods(["GET", "HEAD", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Whoever opens the link sees the club, the role and the roster name, logs in (or signs
    up) if he has to, and confirms with a POST."""
    invitation = invitations.find_invitation(token)
    if invitation is None:
        problem = invitations.unknown_link()
        return _accept_page(request, invitation=None, problem=problem, status=404)
    problem = invitations.link_state_error(invitation)
    if problem is not None:
        return _accept_page(request, invitation=invitation, problem=problem, status=410)
    if not request.user.is_authenticated:
        if request.method == "POST":
            raise LoginRequired
        return _accept_page(request, invitation=invitation)
    if request.method != "POST":
        try:
            plan = invitations.plan_acceptance(invitation, request.user)
        except InvitationError as exc:
            status = 403 if exc.code == InvitationError.NOT_YOURS else 200
            return _accept_page(request, invitation=invitation, problem=exc, status=status)
        return _accept_page(request, invitation=invitation, plan=plan)
    try:
        plan = invitations.invitation_accept(token=token, user=request.user)
    except InvitationError as exc:
        return _accept_page(
            request, invitation=invitation, problem=exc, status=_problem_status(exc)
        )
    club = invitation.club
    if not plan.changes_anything:
        return after_action(
            request,
            _("You are already a member of %(club)s.") % {"club": club.name},
            level=messages.INFO,
            url=club.get_absolute_url(),
        )
    role = Role(plan.role_after).label
    if plan.link_player is not None:
        text = _(
            "Welcome to %(club)s: you are its %(role)s, and the roster name %(name)s is yours."
        ) % {"club": club.name, "role": role, "name": plan.link_player.name}
    else:
        text = _("Welcome to %(club)s: you are its %(role)s.") % {"club": club.name, "role": role}
    return after_action(request, text, url=club.get_absolute_url())


@require_POST
def invitation_decline(request: HttpRequest, token: str) -> HttpResponse:
    """The person an invitation is addressed to says no (from his home page or the link)."""
    if not request.user.is_authenticated:
        raise LoginRequired
    try:
        invitation = invitations.invitation_decline(token=token, user=request.user)
    except InvitationError as exc:
        found = invitations.find_invitation(token)
        return _accept_page(request, invitation=found, problem=exc, status=_problem_status(exc))
    return after_action(
        request,
        _("You declined the invitation to %(club)s.") % {"club": invitation.club.name},
        level=messages.INFO,
        url=reverse("home"),
    )


# Requests for a roster name


def _roster_name_page(
    request: HttpRequest,
    access: ClubAccess,
    *,
    form: NameClaimForm | None = None,
    notice: str | None = None,
) -> HttpResponse:
    state = selectors.roster_name_state(access.club, request.user)
    context = club_context(
        access, state=state, form=form or NameClaimForm(club=access.club), notice=notice
    )
    return render_page(request, "club/roster_name.html", context, fragment="name")


@require_http_methods(["GET", "HEAD", "POST"])
def roster_name(request: HttpRequest, club_slug: str) -> HttpResponse:
    """A member's name on the club's roster: the one he is linked to, his request waiting
    for an answer, or a form to ask for one of the unclaimed names."""
    access = get_club_for_user(request, club_slug, role=Role.PLAYER)
    club = access.club
    if request.method != "POST":
        return _roster_name_page(request, access)
    form = NameClaimForm(request.POST, club=club)
    if form.is_valid():
        try:
            claim = invitations.name_claim_create(
                club=club, user=request.user, player=form.cleaned_data["player"]
            )
        except ClubError as exc:
            exc.add_to_form(form)
        else:
            return after_action(
                request,
                _("You asked to be linked to %(name)s: a secretary or the owner will answer.")
                % {"name": claim.player.name},
                url=reverse("club:roster-name", args=[club.slug]),
                fragment=lambda said: _roster_name_page(request, access, notice=said),
            )
    return _roster_name_page(request, access, form=form)


def _claims_page(
    request: HttpRequest,
    access: ClubAccess,
    *,
    notice: str | None = None,
    error: str | None = None,
) -> HttpResponse:
    context = club_context(
        access, claims=selectors.pending_claims(access.club), notice=notice, error=error
    )
    return render_page(request, "club/name_claims.html", context, fragment="claims")


@require_safe
def name_claims(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The requests for a roster name that wait for an answer."""
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    return _claims_page(request, access)


@require_POST
def name_claim_decide(request: HttpRequest, club_slug: str, claim_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.SECRETARY)
    club = access.club
    claim = get_object_or_404(
        NameClaim.objects.select_related("user", "player"), pk=claim_id, club=club
    )
    url = reverse("club:name-claims", args=[club.slug])
    form = ClaimDecisionForm(request.POST)
    try:
        if not form.is_valid():
            raise ClubError(" ".join(form.errors["decision"]))
        approve = form.cleaned_data["decision"] == "approve"
        invitations.name_claim_decide(claim=claim, actor=request.user, approve=approve)
    except ClubError as exc:
        return after_action(
            request,
            exc.message,
            level=messages.ERROR,
            url=url,
            fragment=lambda said: _claims_page(request, access, error=said),
        )
    who = claim.user.get_full_name() or claim.user.get_username()
    words = {"user": who, "name": claim.player.name}
    if approve:
        notice = _("%(user)s is linked to the roster name %(name)s.") % words
    else:
        notice = _("The request of %(user)s for %(name)s is declined.") % words
    return after_action(
        request,
        notice,
        url=url,
        fragment=lambda said: _claims_page(request, access, notice=said),
    )


# The membership history

EVENTS_PER_PAGE = 50


@require_safe
def member_events(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Who joined, left, changed roles, made or revoked links, and when: newest first."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    page = int_param(request.GET.get("page"), low=1, high=PAGE_MAX)
    events = Paginator(selectors.membership_events(access.club), EVENTS_PER_PAGE).get_page(page)
    context = club_context(access, events=events)
    return render_page(request, "club/member_events.html", context, fragment="events")
