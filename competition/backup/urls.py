from django.urls import path

from competition.backup import views

urlpatterns = [
    path("c/<slug:club_slug>/backup/", views.club_backup, name="club-backup"),
]
