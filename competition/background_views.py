"""The club's background work: what is waiting or has failed, a restart, and the club's backup
(owner only)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.access import get_club_for_user
from club.errors import ServiceError
from club.models import Club, Role
from club.params import parse_int
from club.rendering import club_context, redirect_after_form, render_page
from competition import background, backup, files

TEMPLATE = "competition/background.html"


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


@require_http_methods(["GET", "POST"])
def background_work(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    outcome = ""
    if request.method == "POST":
        outcome = _restart(club, request.POST.get("restart", ""), request.POST.get("file"))
        if not request.htmx:
            messages.info(request, outcome)
            return redirect_after_form(request, reverse("competition:background", args=[club.slug]))
    # htmx: the fragment says what happened (a message would wait for the next page).
    context = club_context(
        access,
        refresh=background.pending_refresh(club),
        prepared_files=[(row, files.label(row)) for row in files.club_files(club)],
        outcome=outcome,
    )
    return render_page(request, TEMPLATE, context, fragment="work")


@require_POST
def club_backup(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's backup (pulka-club/1 JSON): at once for a small club, else prepared."""
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    return files.respond_or_prepare(
        request,
        access,
        kind=backup.BACKUP_KIND,
        params={},
        size=backup.backup_size(access.club),
        threshold=backup.BACKUP_THRESHOLD_DEALS,
    )
