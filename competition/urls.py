from django.urls import path

from competition import (
    background_views,
    file_views,
    league_views,
    profile_views,
    roster_views,
)

app_name = "competition"

L = "c/<slug:club_slug>/leagues/"

urlpatterns = [
    path("ratings/", profile_views.ratings_help, name="ratings-help"),
    path(L, league_views.league_list, name="leagues"),
    path(L + "new/", league_views.league_create, name="league-create"),
    path(L + "<int:league_id>/", league_views.league_detail, name="league-detail"),
    path(L + "<int:league_id>/edit/", league_views.league_edit, name="league-edit"),
    path(L + "<int:league_id>/export.<str:fmt>", league_views.league_export, name="league-export"),
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
]
