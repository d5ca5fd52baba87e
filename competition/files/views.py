"""A prepared file's page (its state, polled while it is built) and its download, and the
club's background work page: what is waiting or has failed, and a restart (owner only).

Only the member who asked for a file and the club's members of the role it is for (the
owner: every file) may see it (competition.files.services).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from club.access import ClubAccess, LoginRequired, get_club_for_user
from club.errors import ServiceError
from club.models import Club, Role
from club.params import parse_int
from club.rendering import after_action, club_context, render_page
from competition.files import services as files
from competition.models import FileState, PreparedFile
from competition.rating import background
from competition.worker import worker_status

TEMPLATE = "competition/file_detail.html"
BACKGROUND_TEMPLATE = "competition/background.html"


def _gate(request: HttpRequest, club_slug: str) -> ClubAccess:
    access = get_club_for_user(request, club_slug)
    if not request.user.is_authenticated:
        raise LoginRequired  # a visitor of a public club: files are members' business
    return access


def _file_page(
    request: HttpRequest, access: ClubAccess, prepared: PreparedFile, outcome: str = ""
) -> HttpResponse:
    context = club_context(access, prepared=prepared, label=files.label(prepared), outcome=outcome)
    return render_page(request, TEMPLATE, context, fragment="file")


@require_http_methods(["GET", "HEAD", "POST"])
def file_detail(request: HttpRequest, club_slug: str, file_id: int) -> HttpResponse:
    access = _gate(request, club_slug)
    prepared = files.file_for_viewer(access, request.user, file_id)
    if request.method != "POST":
        return _file_page(request, access, prepared)
    try:
        files.file_restart(club=access.club, file_id=prepared.pk)
    except ServiceError as exc:
        outcome = exc.message
    else:
        outcome = _("The file is being prepared again.")
    return after_action(
        request,
        outcome,
        level=messages.INFO,
        url=prepared.get_absolute_url(),
        # The file as it is now (restarted, or built already by an immediate worker).
        fragment=lambda said: _file_page(
            request, access, files.file_for_viewer(access, request.user, file_id), said
        ),
    )


@require_safe
def file_download(request: HttpRequest, club_slug: str, file_id: int) -> HttpResponse:
    access = _gate(request, club_slug)
    prepared = files.file_for_viewer(access, request.user, file_id, content=True)
    if prepared.state != FileState.READY:
        return redirect(prepared.get_absolute_url())  # not yet: its page says how it goes
    built = files.BuiltFile(prepared.filename, prepared.content_type, bytes(prepared.content))
    return files.file_response(built)


def _restart(club: Club, what: str, file_id: object) -> str:
    """Start the named work again; the outcome, as the page says it."""
    try:
        if what == "file":
            number = parse_int(file_id)
            if number is None:
                raise ServiceError(_("This file has not failed: there is nothing to start again."))
            files.file_restart(club=club, file_id=number)
            return _("The file is being prepared again.")
        background.refresh_restart(club=club)
    except ServiceError as exc:
        return exc.message
    return _("The ratings update was started again.")


def _work_page(request: HttpRequest, access: ClubAccess, outcome: str = "") -> HttpResponse:
    club = access.club
    context = club_context(
        access,
        refresh=background.pending_refresh(club),
        prepared_files=[(row, files.label(row)) for row in files.club_files(club)],
        worker=worker_status(),
        outcome=outcome,
    )
    return render_page(request, BACKGROUND_TEMPLATE, context, fragment="work")


@require_http_methods(["GET", "HEAD", "POST"])
def background_work(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    if request.method != "POST":
        return _work_page(request, access)
    return after_action(
        request,
        _restart(club, request.POST.get("restart", ""), request.POST.get("file")),
        level=messages.INFO,
        url=reverse("competition:background", args=[club.slug]),
        fragment=lambda said: _work_page(request, access, said),
    )
