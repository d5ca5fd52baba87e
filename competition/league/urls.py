from django.urls import path

from competition.league import views

LEAGUES = "c/<slug:club_slug>/leagues/"
LEAGUE = LEAGUES + "<int:league_id>/"

urlpatterns = [
    path(LEAGUES, views.league_list, name="leagues"),
    path(LEAGUES + "new/", views.league_create, name="league-create"),
    path(LEAGUE, views.league_detail, name="league-detail"),
    path(LEAGUE + "edit/", views.league_edit, name="league-edit"),
    path(LEAGUE + "export.<str:fmt>", views.league_export, name="league-export"),
]
