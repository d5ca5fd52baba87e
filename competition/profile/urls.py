from django.urls import path

from competition.profile import views

urlpatterns = [
    path(
        "c/<slug:club_slug>/players/<int:player_id>/",
        views.player_detail,
        name="player-detail",
    ),
]
