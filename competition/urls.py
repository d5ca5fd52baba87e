from django.urls import path

from competition import (
    background_views,
    league_views,
    printout_views,
    profile_views,
    roster_views,
)

app_name = "competition"

L = "c/<slug:club_slug>/leagues/"
T = "c/<slug:club_slug>/tournaments/"
P = T + "<int:tournament_id>/print/"

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
    # The organisers' printouts (PDF downloads).
    path(
        P + "rounds/<int:number>/seating/",
        printout_views.print_seating,
        name="tournament-print-seating",
    ),
    path(
        P + "rounds/<int:number>/protocols/",
        printout_views.print_protocols,
        name="tournament-print-protocols",
    ),
    # The same name: reverse() picks this one when given the table.
    path(
        P + "rounds/<int:number>/protocols/<int:table>/",
        printout_views.print_protocols,
        name="tournament-print-protocols",
    ),
    path(P + "standings/", printout_views.print_standings, name="tournament-print-standings"),
    path(P + "teams/", printout_views.print_teams, name="tournament-print-teams"),
]
