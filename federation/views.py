"""The federation's core pages: the federations, a federation's home, its officers, member
clubs and persons.

Every /f/<slug>/ view starts with the gate, get_federation_for_user(): reading is public,
changing needs an officer's role (a judge runs the persons, the owner also the officers and
the clubs); a club's owner answers for his club (invitations, leaving, link proposals).
Forms post-redirect-get without JavaScript; with htmx they swap their fragment (a refusal
comes back in it, status 200).
"""

from __future__ import annotations

import django_tables2 as tables
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import LoginRequired
from club.errors import ServiceError
from club.params import PAGE_MAX, int_param
from club.rendering import after_action, render_page, wants_fragment
from federation import persons, rating, selectors, services
from federation.access import FederationAccess, get_federation_for_user
from federation.forms import (
    ClubInviteForm,
    DecisionForm,
    FederationCreateForm,
    MemberActionForm,
    MergeForm,
    OfficerAddForm,
    OfficerRoleForm,
    PersonSearchForm,
    ProposeForm,
    SplitForm,
)
from federation.models import LinkProposal, MemberClub, Officer, OfficerRole, ProposalState

PERSONS_PER_PAGE = 25


def _context(access: FederationAccess, **extra) -> dict:
    return {"federation": access.federation, "access": access, **extra}


def _login(request: HttpRequest) -> None:
    if not request.user.is_authenticated:
        raise LoginRequired


# Federations


@require_safe
def federation_list(request: HttpRequest) -> HttpResponse:
    page = selectors.federations_page(int_param(request.GET.get("page"), low=1, high=PAGE_MAX))
    context = {
        "page": page,
        "invitations": selectors.invitations_awaiting(request.user),
        "proposals": selectors.proposals_awaiting(request.user),
        "offices": selectors.officer_federations(request.user),
    }
    return render_page(request, "federation/federation_list.html", context, fragment="federations")


@require_http_methods(["GET", "HEAD", "POST"])
def federation_create(request: HttpRequest) -> HttpResponse:
    _login(request)
    template = "federation/federation_create.html"
    if request.method != "POST":
        return render_page(request, template, {"form": FederationCreateForm()}, fragment="form")
    form = FederationCreateForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            federation = services.federation_create(
                name=data["name"], slug=data["slug"], place=data["place"], owner=request.user
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            outcome = _("%(name)s is open, and you are its owner.") % {"name": federation.name}
            return after_action(request, outcome, url=federation.get_absolute_url())
    return render_page(request, template, {"form": form}, fragment="form")


@require_safe
def federation_detail(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    federation = access.federation
    upcoming, recent = selectors.calendar(federation, request.user)
    context = _context(
        access,
        officers=selectors.officers(federation),
        clubs=selectors.member_clubs(federation),
        upcoming=upcoming,
        recent=recent,
        rating=selectors.rating_top(federation),
        series=selectors.series_list(federation),
    )
    return render_page(request, "federation/federation_detail.html", context, fragment="home")


# Officers


def _officers_page(
    request: HttpRequest,
    access: FederationAccess,
    *,
    form: OfficerAddForm | None = None,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    context = _context(
        access,
        officers=selectors.officers(access.federation),
        roles=OfficerRole.choices,
        form=form or OfficerAddForm(),
        notice=notice,
        error=error,
    )
    return render_page(request, "federation/officer_list.html", context, fragment="officers")


@require_http_methods(["GET", "HEAD", "POST"])
def officer_list(request: HttpRequest, slug: str) -> HttpResponse:
    writing = request.method == "POST"
    access = get_federation_for_user(request, slug, role=OfficerRole.OWNER if writing else None)
    if not writing:
        return _officers_page(request, access)
    form = OfficerAddForm(request.POST)
    if form.is_valid():
        try:
            officer = services.officer_add(
                federation=access.federation,
                to=form.cleaned_data["to"],
                role=form.cleaned_data["role"],
                actor=request.user,
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            notice = _("%(user)s is now %(role)s of the federation.") % {
                "user": officer.user.get_username(),
                "role": officer.get_role_display(),
            }
            return after_action(
                request,
                notice,
                url=reverse("federation:officers", args=[slug]),
                fragment=lambda said: _officers_page(request, access, notice=said),
            )
    return _officers_page(request, access, form=form)


@require_POST
def officer_update(request: HttpRequest, slug: str, officer_id: int) -> HttpResponse:
    """Change an officer's role, or remove him (`remove`); the last owner stays."""
    access = get_federation_for_user(request, slug, role=OfficerRole.OWNER)
    officer = get_object_or_404(
        Officer.objects.select_related("user", "federation"),
        pk=officer_id,
        federation=access.federation,
    )
    username = officer.user.get_username()
    url = reverse("federation:officers", args=[slug])
    try:
        if "remove" in request.POST:
            services.officer_remove(officer=officer)
            notice = _("%(user)s is no longer an officer.") % {"user": username}
        else:
            form = OfficerRoleForm(request.POST)
            if not form.is_valid():
                raise services.FederationError(_("Choose a role."), field="role")
            officer = services.officer_set_role(officer=officer, role=form.cleaned_data["role"])
            notice = _("%(user)s is now %(role)s of the federation.") % {
                "user": username,
                "role": officer.get_role_display(),
            }
    except ServiceError as exc:
        return after_action(
            request,
            exc.message,
            level=messages.ERROR,
            url=url,
            fragment=lambda said: _officers_page(request, access, error=said),
        )
    if officer.user_id == request.user.pk and not request.user.is_superuser:
        # He stepped down: the page's controls are no longer his.
        return after_action(request, notice, url=url)
    return after_action(
        request,
        notice,
        url=url,
        fragment=lambda said: _officers_page(
            request, get_federation_for_user(request, slug), notice=said
        ),
    )


# Member clubs


def _clubs_page(
    request: HttpRequest,
    access: FederationAccess,
    *,
    form: ClubInviteForm | None = None,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    federation = access.federation
    invited = selectors.invitations_open(federation) if access.can_manage else []
    context = _context(
        access,
        clubs=selectors.member_clubs(federation),
        invited=invited,
        mine=selectors.invitations_awaiting(request.user, federation),
        owned=selectors.owned_club_ids(request.user),
        form=form or ClubInviteForm(),
        notice=notice,
        error=error,
    )
    return render_page(request, "federation/club_list.html", context, fragment="clubs")


@require_http_methods(["GET", "HEAD", "POST"])
def club_list(request: HttpRequest, slug: str) -> HttpResponse:
    writing = request.method == "POST"
    access = get_federation_for_user(request, slug, role=OfficerRole.OWNER if writing else None)
    if not writing:
        return _clubs_page(request, access)
    form = ClubInviteForm(request.POST)
    if form.is_valid():
        try:
            member = services.club_invite(
                federation=access.federation, slug=form.cleaned_data["club"], actor=request.user
            )
        except ServiceError as exc:
            exc.add_to_form(form)
        else:
            notice = _("%(club)s is invited: it becomes a member when its owner accepts.") % {
                "club": member.club.name
            }
            return after_action(
                request,
                notice,
                url=reverse("federation:clubs", args=[slug]),
                fragment=lambda said: _clubs_page(request, access, notice=said),
            )
    return _clubs_page(request, access, form=form)


_MEMBER_DONE = {
    "accept": gettext_lazy("%(club)s is a member of %(federation)s."),
    "decline": gettext_lazy("%(club)s declined the invitation of %(federation)s."),
    "withdraw": gettext_lazy("The invitation of %(club)s is withdrawn."),
    "end": gettext_lazy("%(club)s is no longer a member of %(federation)s."),
    "leave": gettext_lazy("%(club)s is no longer a member of %(federation)s."),
}


@require_POST
def member_update(request: HttpRequest, slug: str, member_id: int) -> HttpResponse:
    """Answer or end a club's membership: its owner accepts, declines or leaves; the
    federation's owner withdraws an invitation or ends a membership."""
    access = get_federation_for_user(request, slug)
    _login(request)
    member = get_object_or_404(
        MemberClub.objects.select_related("club", "federation"),
        pk=member_id,
        federation=access.federation,
    )
    form = MemberActionForm(request.POST)
    back = reverse("federation:list") if request.POST.get("back") == "list" else None
    url = back or reverse("federation:clubs", args=[slug])
    if not form.is_valid():
        return after_action(
            request,
            _("Choose what to do."),
            level=messages.ERROR,
            url=url,
            fragment=lambda said: _clubs_page(request, access, error=said),
        )
    action = form.cleaned_data["action"]
    if action in ("withdraw", "end"):
        if not access.can_manage:
            raise PermissionDenied
    elif not selectors.owns_club(request.user, member.club):
        raise PermissionDenied
    do = {
        "accept": services.member_accept,
        "decline": services.member_decline,
        "withdraw": services.member_withdraw,
        "end": services.member_end,
        "leave": services.member_end,
    }[action]
    try:
        do(member=member, actor=request.user)
    except ServiceError as exc:
        return after_action(
            request,
            exc.message,
            level=messages.ERROR,
            url=url,
            fragment=lambda said: _clubs_page(request, access, error=said),
        )
    notice = str(_MEMBER_DONE[action]) % {
        "club": member.club.name,
        "federation": access.federation.name,
    }
    return after_action(
        request, notice, url=url, fragment=lambda said: _clubs_page(request, access, notice=said)
    )


# Persons


class PersonTable(tables.Table):
    """The federation's persons: name (to his page), number and roster names."""

    name = tables.Column(verbose_name=gettext_lazy("Person"), orderable=False)
    number = tables.Column(
        verbose_name=gettext_lazy("No."),
        accessor="pk",
        orderable=False,
        attrs={"td": {"class": "num"}},
    )
    names = tables.Column(
        verbose_name=gettext_lazy("Roster names"), orderable=False, attrs={"td": {"class": "num"}}
    )

    class Meta:
        attrs = {"class": "data", "id": "person-table"}
        empty_text = gettext_lazy("Nobody found.")
        orderable = False

    def render_name(self, record) -> str:
        return format_html('<a href="{}">{}</a>', record.get_absolute_url(), record.name)


@require_safe
def person_list(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    search = PersonSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    persons_qs = selectors.persons_search(access.federation, query).select_related("federation")
    table = PersonTable(persons_qs)
    table.paginate(per_page=PERSONS_PER_PAGE)
    table.page = table.paginator.get_page(
        int_param(request.GET.get("page"), low=1, high=PAGE_MAX) or 1
    )
    context = _context(access, table=table, search=search, query=query)
    return render_page(request, "federation/person_list.html", context, fragment="persons")


def _person_page(
    request: HttpRequest,
    access: FederationAccess,
    person,
    *,
    propose: ProposeForm | None = None,
    merge: MergeForm | None = None,
    split: SplitForm | None = None,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    federation = access.federation
    links = selectors.person_links(person)
    clubs = selectors.member_clubs_for_choice(federation)
    shown, history, hidden = selectors.private_names_hidden(
        links, selectors.person_history(person), request.user, officer=access.can_judge
    )
    context = _context(
        access,
        person=person,
        links=shown,
        hidden_names=hidden,
        events=selectors.person_events(person, request.user),
        history=history,
        **rating.person_rating_context(person),
        proposals=selectors.person_proposals(person),
        awaiting={
            a.proposal.pk: a.clubs
            for a in selectors.proposals_awaiting(
                request.user, federation=federation, person=person
            )
        },
        propose=propose or ProposeForm(clubs=clubs),
        merge=merge or MergeForm(),
        split=split or SplitForm(links=links),
        notice=notice,
        error=error,
    )
    return render_page(request, "federation/person_detail.html", context, fragment="person")


def _person(access: FederationAccess, person_id: int):
    person = selectors.person_in(access.federation, person_id)
    if person is None:
        raise Http404
    return person


@require_safe
def person_detail(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug)
    person = _person(access, person_id)
    if person.merged_into_id is not None:
        return redirect(selectors.merged_target(person).get_absolute_url())
    return _person_page(request, access, person)


def _person_action(request, access, person, do, *, form_name: str, form) -> HttpResponse:
    """Run a judge's action on the person's page; a refusal comes back on its form."""
    url = person.get_absolute_url()
    if form.is_valid():
        try:
            notice = do(form.cleaned_data)
        except ServiceError as exc:
            if not wants_fragment(request):
                messages.error(request, exc.message)
                return redirect(url)
            return _person_page(request, access, person, error=exc.message)
        person.refresh_from_db()
        if person.merged_into_id is not None:
            url = selectors.merged_target(person).get_absolute_url()
            return after_action(request, notice, url=url)
        return after_action(
            request,
            notice,
            url=url,
            fragment=lambda said: _person_page(request, access, person, notice=said),
        )
    if not wants_fragment(request):
        errors = " ".join(str(e) for errs in form.errors.values() for e in errs)
        messages.error(request, errors or _("Check the form."))
        return redirect(url)
    return _person_page(request, access, person, **{form_name: form})


def _proposal_notice(proposal: LinkProposal) -> str:
    if proposal.state == ProposalState.DONE:
        return _("%(name)s of %(club)s is now %(person)s's name.") % {
            "name": proposal.player.name,
            "club": proposal.player.club.name,
            "person": proposal.person.name,
        }
    return _("The proposal waits for the owners of the clubs concerned.")


@require_POST
def person_propose(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=OfficerRole.JUDGE)
    person = _person(access, person_id)
    form = ProposeForm(request.POST, clubs=selectors.member_clubs_for_choice(access.federation))

    def do(data: dict) -> str:
        proposal = persons.proposal_create(
            federation=access.federation, person=person, player=data["player"], actor=request.user
        )
        return _proposal_notice(proposal)

    return _person_action(request, access, person, do, form_name="propose", form=form)


@require_POST
def person_merge(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=OfficerRole.JUDGE)
    person = _person(access, person_id)
    form = MergeForm(request.POST)

    def do(data: dict) -> str:
        other = selectors.person_in(access.federation, data["other"])
        if other is None:
            raise persons.PersonError(
                _("The federation has no person No. %(number)s.") % {"number": data["other"]},
                field="other",
            )
        proposals = persons.persons_merge(
            federation=access.federation, person=person, other=other, actor=request.user
        )
        if all(p.state == ProposalState.DONE for p in proposals):
            return _("%(other)s is merged into %(person)s.") % {
                "other": other.name,
                "person": person.name,
            }
        return _("The merge waits for the owners of the clubs concerned.")

    return _person_action(request, access, person, do, form_name="merge", form=form)


@require_POST
def person_split(request: HttpRequest, slug: str, person_id: int) -> HttpResponse:
    access = get_federation_for_user(request, slug, role=OfficerRole.JUDGE)
    person = _person(access, person_id)
    if person.merged_into_id is not None:
        return redirect(selectors.merged_target(person).get_absolute_url())
    form = SplitForm(request.POST, links=selectors.person_links(person))

    def do(data: dict) -> str:
        new = persons.person_split(
            federation=access.federation, person=person, players=data["players"], actor=request.user
        )
        return _("The names split off are now the person %(name)s (No. %(number)s).") % {
            "name": new.name,
            "number": new.pk,
        }

    return _person_action(request, access, person, do, form_name="split", form=form)


@require_POST
def proposal_decide(request: HttpRequest, slug: str, proposal_id: int) -> HttpResponse:
    """A club's owner confirms or refuses a proposal; an officer withdraws it."""
    access = get_federation_for_user(request, slug)
    _login(request)
    proposal = get_object_or_404(
        LinkProposal.objects.select_related("person", "player__club", "federation"),
        pk=proposal_id,
        federation=access.federation,
    )
    form = DecisionForm(request.POST)
    decision = form.cleaned_data["decision"] if form.is_valid() else None
    if decision == "withdraw":
        if not access.can_judge:
            raise PermissionDenied
    elif not persons.owned_club_ids(request.user, proposal.clubs_awaiting):
        raise PermissionDenied
    person = selectors.merged_target(proposal.person)
    back = request.POST.get("back") == "list"
    url = reverse("federation:list") if back else person.get_absolute_url()
    try:
        if decision is None:
            raise services.FederationError(_("Confirm or refuse the proposal."))
        if decision == "withdraw":
            persons.proposal_withdraw(proposal=proposal, actor=request.user)
            notice = _("The proposal is withdrawn.")
        else:
            proposal = persons.proposal_decide(
                proposal=proposal, actor=request.user, confirm=decision == "confirm"
            )
            if decision == "refuse":
                notice = _("The proposal is refused.")
            else:
                notice = _proposal_notice(proposal)
    except ServiceError as exc:
        if back or not wants_fragment(request):
            messages.error(request, exc.message)
            return redirect(url)
        return _person_page(request, access, person, error=exc.message)
    person = selectors.merged_target(selectors.person_in(access.federation, person.pk))
    if back:
        return after_action(request, notice, url=url)
    return after_action(
        request,
        notice,
        url=person.get_absolute_url(),
        fragment=lambda said: _person_page(request, access, person, notice=said),
    )
