from django.urls import path

from competition import (
    background_views,
    file_views,
    league_views,
    printout_views,
    profile_views,
    roster_views,
    standings_views,
    tournament_public_views,
    tournament_views,
)

app_name = "competition"

L = "c/<slug:club_slug>/leagues/"
T = "c/<slug:club_slug>/tournaments/"
TI = T + "<int:tournament_id>/"
TE = TI + "entries/<int:entry_id>/"
TR = TI + "rounds/<int:number>/"
P = T + "<int:tournament_id>/print/"

urlpatterns = [
    path("ratings/", profile_views.ratings_help, name="ratings-help"),
    path(L, league_views.league_list, name="leagues"),
    path(L + "new/", league_views.league_create, name="league-create"),
    path(L + "<int:league_id>/", league_views.league_detail, name="league-detail"),
    path(L + "<int:league_id>/edit/", league_views.league_edit, name="league-edit"),
    path(L + "<int:league_id>/export.<str:fmt>", league_views.league_export, name="league-export"),
    path(
        T + "<int:tournament_id>/standings/",
        standings_views.tournament_standings,
        name="tournament-standings",
    ),
    path(
        T + "<int:tournament_id>/standings.<str:fmt>",
        standings_views.tournament_standings_export,
        name="tournament-standings-export",
    ),
    path("c/<slug:club_slug>/background/", background_views.background_work, name="background"),
    path("c/<slug:club_slug>/backup/", background_views.club_backup, name="club-backup"),
    path("c/<slug:club_slug>/files/<int:file_id>/", file_views.file_detail, name="file"),
    path(
        "c/<slug:club_slug>/files/<int:file_id>/download/",
        file_views.file_download,
        name="file-download",
    ),
    path("c/<slug:club_slug>/players/merge/", roster_views.roster_merge, name="roster-merge"),
    path(
        "c/<slug:club_slug>/players/<int:player_id>/",
        profile_views.player_detail,
        name="player-detail",
    ),
    # The organiser's tournament pages (competition.tournament_views).
    path(T, tournament_views.tournament_list, name="tournament-list"),
    path(T + "new/", tournament_views.tournament_create, name="tournament-create"),
    path(TI, tournament_views.tournament_detail, name="tournament-detail"),
    path(TI + "edit/", tournament_views.tournament_edit, name="tournament-edit"),
    path(TI + "entries/", tournament_views.tournament_entries, name="tournament-entries"),
    path(TE + "withdraw/", tournament_views.entry_withdraw, name="entry-withdraw"),
    path(TE + "restore/", tournament_views.entry_restore, name="entry-restore"),
    path(TE + "team/", tournament_views.entry_team, name="entry-team"),
    path(TI + "entries/substitute/", tournament_views.entry_substitute, name="entry-substitute"),
    path(TI + "penalties/", tournament_views.tournament_penalties, name="tournament-penalties"),
    path(TI + "rounds/new/", tournament_views.round_draw, name="round-draw"),
    path(TR, tournament_views.round_detail, name="round-detail"),
    path(TR + "swap/", tournament_views.round_swap, name="round-swap"),
    path(TR + "lock/", tournament_views.round_lock, name="round-lock"),
    path(TR + "redraw/", tournament_views.round_redraw, name="round-redraw"),
    path(TR + "discard/", tournament_views.round_discard, name="round-discard"),
    path(TR + "publish/", tournament_views.round_publish, name="round-publish"),
    path(TR + "start/", tournament_views.round_start, name="round-start"),
    path(TR + "end/", tournament_views.round_end_table, name="round-end-table"),
    path(TR + "reseat/", tournament_views.round_reseat, name="round-reseat"),
    path(TR + "confirm/", tournament_views.round_confirm, name="round-confirm"),
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
