"""A prepared file's page (its state, polled while it is built) and its download.

Only the member who asked for the file and the club's owner may see them (competition.files).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from club.access import ClubAccess, LoginRequired, get_club_for_user
from club.errors import ServiceError
from club.rendering import club_context, redirect_after_form, render_page
from competition import files
from competition.models import FileState

TEMPLATE = "competition/file_detail.html"


def _gate(request: HttpRequest, club_slug: str) -> ClubAccess:
    access = get_club_for_user(request, club_slug)
    if not request.user.is_authenticated:
        raise LoginRequired  # a visitor of a public club: files are members' business
    return access


@require_http_methods(["GET", "POST"])
def file_detail(request: HttpRequest, club_slug: str, file_id: int) -> HttpResponse:
    access = _gate(request, club_slug)
    prepared = files.file_for_viewer(access, request.user, file_id)
    outcome = ""
    if request.method == "POST":
        try:
            files.file_restart(club=access.club, file_id=prepared.pk)
        except ServiceError as exc:
            outcome = exc.message
        else:
            outcome = _("The file is being prepared again.")
        if not request.htmx:
            messages.info(request, outcome)
            return redirect_after_form(request, prepared.get_absolute_url())
        prepared = files.file_for_viewer(access, request.user, file_id)
    context = club_context(access, prepared=prepared, label=files.label(prepared), outcome=outcome)
    return render_page(request, TEMPLATE, context, fragment="file")


@require_GET
def file_download(request: HttpRequest, club_slug: str, file_id: int) -> HttpResponse:
    access = _gate(request, club_slug)
    prepared = files.file_for_viewer(access, request.user, file_id, content=True)
    if prepared.state != FileState.READY:
        return redirect(prepared.get_absolute_url())  # not yet: its page says how it goes
    built = files.BuiltFile(prepared.filename, prepared.content_type, bytes(prepared.content))
    return files.file_response(built)
