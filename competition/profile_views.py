"""A player's profile, and the page that explains the rating.

The profile reads only the result caches and rating snapshots (competition.profile), so its query
count does not grow with the pulkas played. The rating page is for everyone, club or not.
"""

from __future__ import annotations

from django import forms
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from club.access import get_club_for_user
from club.models import Role
from club.params import PAGE_MAX, IntegerField, int_param
from club.rendering import render_page, wants_fragment
from competition import background, profile, tournament_selectors

PULKAS_PER_PAGE = 25


def player_detail(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    club = access.club
    player = profile.player_for_club(club, player_id)
    page = int_param(request.GET.get("page"), low=1, high=PAGE_MAX)
    pulkas = Paginator(profile.player_pulkas(club, player), PULKAS_PER_PAGE).get_page(page)
    context = {
        "club": club,
        "access": access,
        "role_label": Role(access.role).label if access.role else "",
        "player": player,
        "pulkas": pulkas,
        "rows": profile.pulka_rows(club, player, pulkas.object_list),
        "rerating": background.pending_refresh(club),
    }
    if not wants_fragment(request):
        context.update(
            summary=profile.player_summary(club, player),
            whists_chart=profile.line_chart(profile.whists_series(club, player), include_zero=True),
            rating_chart=profile.line_chart(profile.rating_series(player), decimals=0),
            head_to_head=profile.head_to_head(club, player),
            tournaments=tournament_selectors.player_rounds(player),
        )
    return render_page(request, "competition/player_detail.html", context, fragment="pulkas")


class MarginForm(forms.Form):
    """The margin calculator of the ratings page: net whists won from each opponent."""

    whists = IntegerField(
        label=_("Whists won from each opponent"),
        min_value=-5000,
        max_value=5000,
        initial=150,
        help_text=_("Negative: whists lost."),
    )


def ratings_help(request: HttpRequest) -> HttpResponse:
    """How ratings work, with a worked example and a margin calculator (htmx: the result)."""
    form = MarginForm(request.GET if "whists" in request.GET else None)
    if form.is_bound:
        effect = profile.margin_effect(form.cleaned_data["whists"]) if form.is_valid() else None
    else:
        effect = profile.margin_effect(MarginForm.base_fields["whists"].initial)
    context = {"example": profile.rating_example(), "form": form, "effect": effect}
    return render_page(request, "competition/ratings_help.html", context, fragment="calculator")
