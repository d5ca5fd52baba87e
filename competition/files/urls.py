from django.urls import path

from competition.files import views

FILE = "c/<slug:club_slug>/files/<int:file_id>/"

urlpatterns = [
    path("c/<slug:club_slug>/background/", views.background_work, name="background"),
    path(FILE, views.file_detail, name="file"),
    path(FILE + "download/", views.file_download, name="file-download"),
]
