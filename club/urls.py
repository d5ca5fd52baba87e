from django.urls import path

from club import account_views, views

app_name = "club"

urlpatterns = [
    path("accounts/profile/", account_views.account, name="account"),
    path("accounts/delete/", account_views.account_delete, name="account-delete"),
    path("clubs/new/", views.club_create, name="create"),
    path("c/<slug:club_slug>/settings/", views.club_settings, name="settings"),
    path("c/<slug:club_slug>/members/", views.member_list, name="members"),
    path(
        "c/<slug:club_slug>/members/<int:membership_id>/", views.member_update, name="member-update"
    ),
    path("c/<slug:club_slug>/players/", views.player_list, name="players"),
    path("c/<slug:club_slug>/players/<int:player_id>/edit/", views.player_edit, name="player-edit"),
]
