from django.urls import path

from competition.tournament.views import organiser, printouts, public, standings

TOURNAMENTS = "c/<slug:club_slug>/tournaments/"
TOURNAMENT = TOURNAMENTS + "<int:tournament_id>/"
ENTRY = TOURNAMENT + "entries/<int:entry_id>/"
ROUND = TOURNAMENT + "rounds/<int:number>/"
PRINT = TOURNAMENT + "print/"

urlpatterns = [
    # The organiser's pages (views.organiser).
    path(TOURNAMENTS, organiser.tournament_list, name="tournament-list"),
    path(TOURNAMENTS + "new/", organiser.tournament_create, name="tournament-create"),
    path(TOURNAMENT, organiser.tournament_detail, name="tournament-detail"),
    path(TOURNAMENT + "edit/", organiser.tournament_edit, name="tournament-edit"),
    path(TOURNAMENT + "entries/", organiser.tournament_entries, name="tournament-entries"),
    path(ENTRY + "withdraw/", organiser.entry_withdraw, name="entry-withdraw"),
    path(ENTRY + "restore/", organiser.entry_restore, name="entry-restore"),
    path(ENTRY + "team/", organiser.entry_team, name="entry-team"),
    path(TOURNAMENT + "entries/substitute/", organiser.entry_substitute, name="entry-substitute"),
    path(TOURNAMENT + "penalties/", organiser.tournament_penalties, name="tournament-penalties"),
    path(TOURNAMENT + "rounds/new/", organiser.round_draw, name="round-draw"),
    path(ROUND, organiser.round_detail, name="round-detail"),
    path(ROUND + "swap/", organiser.round_swap, name="round-swap"),
    path(ROUND + "lock/", organiser.round_lock, name="round-lock"),
    path(ROUND + "redraw/", organiser.round_redraw, name="round-redraw"),
    path(ROUND + "discard/", organiser.round_discard, name="round-discard"),
    path(ROUND + "publish/", organiser.round_publish, name="round-publish"),
    path(ROUND + "start/", organiser.round_start, name="round-start"),
    path(ROUND + "end/", organiser.round_end_table, name="round-end-table"),
    path(ROUND + "clock/add/", organiser.round_clock_add, name="round-clock-add"),
    path(ROUND + "clock/pause/", organiser.round_clock_pause, name="round-clock-pause"),
    path(ROUND + "clock/resume/", organiser.round_clock_resume, name="round-clock-resume"),
    path(ROUND + "end-at-time/", organiser.round_end_at_time, name="round-end-at-time"),
    path(ROUND + "link/", organiser.round_link_renew, name="round-link-renew"),
    path(ROUND + "reseat/", organiser.round_reseat, name="round-reseat"),
    path(ROUND + "confirm/", organiser.round_confirm, name="round-confirm"),
    # Everyone who reads the club (views.standings, views.public).
    path(TOURNAMENT + "standings/", standings.tournament_standings, name="tournament-standings"),
    path(
        TOURNAMENT + "standings.<str:fmt>",
        standings.tournament_standings_export,
        name="tournament-standings-export",
    ),
    path(TOURNAMENT + "find/", public.tournament_find, name="tournament-find"),
    path(TOURNAMENT + "screen/", public.tournament_screen, name="tournament-screen"),
    # The printouts, PDF downloads (views.printouts).
    path(
        PRINT + "rounds/<int:number>/seating/",
        printouts.print_seating,
        name="tournament-print-seating",
    ),
    path(
        PRINT + "rounds/<int:number>/protocols/",
        printouts.print_protocols,
        name="tournament-print-protocols",
    ),
    # The same name: reverse() picks this one when given the table.
    path(
        PRINT + "rounds/<int:number>/protocols/<int:table>/",
        printouts.print_protocols,
        name="tournament-print-protocols",
    ),
    path(PRINT + "standings/", printouts.print_standings, name="tournament-print-standings"),
    path(PRINT + "teams/", printouts.print_teams, name="tournament-print-teams"),
]
