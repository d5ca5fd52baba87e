"""The roster's merge page: an owner folds a duplicate entry into the one kept.

Owners only (the tenant gate: others of the club get 403, outsiders 404). The form posts and
redirects without JavaScript; with htmx an invalid form or a refusal comes back in its
fragment (status 200) and a done merge follows an HX-Redirect to the roster.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from club import selectors
from club.access import get_club_for_user
from club.models import Role
from club.rendering import after_action, club_context, render_page
from competition.roster import services as roster


@require_http_methods(["GET", "HEAD", "POST"])
def roster_merge(request: HttpRequest, club_slug: str) -> HttpResponse:
    access = get_club_for_user(request, club_slug, role=Role.OWNER)
    club = access.club
    if request.method == "POST":
        form = roster.RosterMergeForm(request.POST, club=club)
        if form.is_valid():
            try:
                merge = roster.roster_merge(
                    club=club,
                    kept=form.cleaned_data["kept"],
                    duplicate=form.cleaned_data["duplicate"],
                    merged_by=request.user,
                )
            except roster.RosterMergeError as exc:
                exc.add_to_form(form)
            else:
                return after_action(
                    request,
                    _("%(removed)s is merged into %(kept)s.")
                    % {"removed": merge.removed_name, "kept": merge.kept_name},
                    url=reverse("club:players", args=[club.slug]),
                )
    else:
        form = roster.RosterMergeForm(club=club)
    context = club_context(access, form=form, merges=selectors.roster_merges(club))
    return render_page(request, "competition/roster_merge.html", context, fragment="merge")
