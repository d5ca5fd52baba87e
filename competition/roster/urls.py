from django.urls import path

from competition.roster import views

urlpatterns = [
    path("c/<slug:club_slug>/players/merge/", views.roster_merge, name="roster-merge"),
]
