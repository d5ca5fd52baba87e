"""A player's profile.

The profile reads only the result caches and rating snapshots (competition.profile.selectors),
so its query count does not grow with the pulkas played.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from club.access import get_club_for_user
from club.params import PAGE_MAX, int_param
from club.rendering import club_context, render_page, wants_fragment
from competition.profile import charts
from competition.profile import selectors as profile
from competition.rating import background
from competition.tournament import selectors as tournament_selectors

PULKAS_PER_PAGE = 25


@require_safe
def player_detail(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    access = get_club_for_user(request, club_slug)
    club = access.club
    player = profile.player_for_club(club, player_id)
    page = int_param(request.GET.get("page"), low=1, high=PAGE_MAX)
    pulkas = Paginator(profile.player_pulkas(club, player), PULKAS_PER_PAGE).get_page(page)
    context = club_context(
        access,
        player=player,
        pulkas=pulkas,
        rows=profile.pulka_rows(club, player, pulkas.object_list),
        rerating=background.pending_refresh(club),
    )
    if not wants_fragment(request):
        context.update(
            summary=profile.player_summary(club, player),
            whists_chart=charts.line_chart(profile.whists_series(club, player), include_zero=True),
            rating_chart=charts.line_chart(profile.rating_series(player), decimals=0),
            head_to_head=profile.head_to_head(club, player),
            tournaments=tournament_selectors.player_rounds(player),
        )
    return render_page(request, "competition/player_detail.html", context, fragment="pulkas")
