from django.urls import path

from club import league_views, profile_views, views

app_name = "club"

urlpatterns = [
    path("clubs/new/", views.club_create, name="create"),
    path("c/<slug:club_slug>/", views.club_detail, name="detail"),
    path("c/<slug:club_slug>/running/", views.club_running, name="running"),
    path("c/<slug:club_slug>/settings/", views.club_settings, name="settings"),
    path("c/<slug:club_slug>/members/", views.member_list, name="members"),
    path(
        "c/<slug:club_slug>/members/<int:membership_id>/", views.member_update, name="member-update"
    ),
    path("c/<slug:club_slug>/players/", views.player_list, name="players"),
    path("c/<slug:club_slug>/players/<int:player_id>/edit/", views.player_edit, name="player-edit"),
    path("c/<slug:club_slug>/sessions/new/", views.session_create, name="session-create"),
    path("c/<slug:club_slug>/s/<int:session_id>/", views.session_detail, name="session-detail"),
    path("c/<slug:club_slug>/s/<int:session_id>/edit/", views.session_edit, name="session-edit"),
    path("ratings/", profile_views.ratings_help, name="ratings-help"),
    path("c/<slug:club_slug>/leagues/", league_views.league_list, name="leagues"),
    path("c/<slug:club_slug>/leagues/new/", league_views.league_create, name="league-create"),
    path(
        "c/<slug:club_slug>/leagues/<int:league_id>/",
        league_views.league_detail,
        name="league-detail",
    ),
    path(
        "c/<slug:club_slug>/leagues/<int:league_id>/edit/",
        league_views.league_edit,
        name="league-edit",
    ),
    path(
        "c/<slug:club_slug>/leagues/<int:league_id>/export.<str:fmt>",
        league_views.league_export,
        name="league-export",
    ),
    path(
        "c/<slug:club_slug>/players/<int:player_id>/",
        profile_views.player_detail,
        name="player-detail",
    ),
]
