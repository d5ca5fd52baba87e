from django.urls import path

from competition import (
    background_views,
    league_views,
    profile_views,
    roster_views,
    tournament_public_views,
)

app_name = "competition"

L = "c/<slug:club_slug>/leagues/"
T = "c/<slug:club_slug>/tournaments/"

urlpatterns = [
    path("ratings/", profile_views.ratings_help, name="ratings-help"),
    path(L, league_views.league_list, name="leagues"),
    path(L + "new/", league_views.league_create, name="league-create"),
    path(L + "<int:league_id>/", league_views.league_detail, name="league-detail"),
    path(L + "<int:league_id>/edit/", league_views.league_edit, name="league-edit"),
    path(L + "<int:league_id>/export.<str:fmt>", league_views.league_export, name="league-export"),
    path("c/<slug:club_slug>/background/", background_views.background_work, name="background"),
    path("c/<slug:club_slug>/players/merge/", roster_views.roster_merge, name="roster-merge"),
    path(
        "c/<slug:club_slug>/players/<int:player_id>/",
        profile_views.player_detail,
        name="player-detail",
    ),
    path(
        T + "<int:tournament_id>/find/",
        tournament_public_views.tournament_find,
        name="tournament-find",
    ),
    path(
        T + "<int:tournament_id>/screen/",
        tournament_public_views.tournament_screen,
        name="tournament-screen",
    ),
]
