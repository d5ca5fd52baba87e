"""The club's background work: what is waiting or has failed, and a restart (owner only)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club.access import get_club_for_user
from club.errors import ServiceError
from club.models import Role
from club.rendering import club_context, redirect_after_form, render_page
from competition import background

TEMPLATE = "competition/background.html"


@require_http_methods(["GET", "POST"])
def background_work(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    outcome = ""
    if request.method == "POST":
        try:
            background.refresh_restart(club=club)
        except ServiceError as exc:
            outcome = exc.message
        else:
            outcome = _("The ratings update was started again.")
        if not request.htmx:
            messages.info(request, outcome)
            return redirect_after_form(request, reverse("competition:background", args=[club.slug]))
    # htmx: the fragment says what happened (a message would wait for the next page).
    context = club_context(access, refresh=background.pending_refresh(club), outcome=outcome)
    return render_page(request, TEMPLATE, context, fragment="work")
