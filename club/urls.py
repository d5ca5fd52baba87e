from django.urls import path

from club import account_views, invitation_views, telegram_views, views

app_name = "club"

CLUB = "c/<slug:club_slug>/"

urlpatterns = [
    path("accounts/profile/", account_views.account, name="account"),
    path("accounts/delete/", account_views.account_delete, name="account-delete"),
    path("accounts/profile/notices/", account_views.account_notices, name="account-notices"),
    path("accounts/profile/telegram/link/", account_views.telegram_link, name="telegram-link"),
    path(
        "accounts/profile/telegram/unlink/", account_views.telegram_unlink, name="telegram-unlink"
    ),
    path("telegram/webhook/", telegram_views.webhook, name="telegram-webhook"),
    path("clubs/new/", views.club_create, name="create"),
    path(CLUB + "settings/", views.club_settings, name="settings"),
    path(CLUB + "members/", views.member_list, name="members"),
    path(CLUB + "members/<int:membership_id>/", views.member_update, name="member-update"),
    path(CLUB + "members/history/", invitation_views.member_events, name="member-events"),
    path(CLUB + "invitations/", invitation_views.invitation_list, name="invitations"),
    path(
        CLUB + "invitations/<int:invitation_id>/",
        invitation_views.invitation_detail,
        name="invitation-detail",
    ),
    path(
        CLUB + "invitations/<int:invitation_id>/qr.svg",
        invitation_views.invitation_qr,
        name="invitation-qr",
    ),
    path(
        CLUB + "invitations/<int:invitation_id>/revoke/",
        invitation_views.invitation_revoke,
        name="invitation-revoke",
    ),
    path(CLUB + "my-name/", invitation_views.roster_name, name="roster-name"),
    path(CLUB + "claims/", invitation_views.name_claims, name="name-claims"),
    path(
        CLUB + "claims/<int:claim_id>/",
        invitation_views.name_claim_decide,
        name="name-claim-decide",
    ),
    path("join/<str:token>/", invitation_views.invitation_accept, name="invitation-accept"),
    path(
        "join/<str:token>/decline/",
        invitation_views.invitation_decline,
        name="invitation-decline",
    ),
    path(CLUB + "players/", views.player_list, name="players"),
    path(CLUB + "players/<int:player_id>/edit/", views.player_edit, name="player-edit"),
]
