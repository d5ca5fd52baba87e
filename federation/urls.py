"""/f/<slug>/: a federation's pages (mounted by config/urls.py under f/).

Each part of the app adds its own block: the core (views), the rating list (rating_views),
open events (event_views), series (series_views) and results files (results_views).
"""

from django.urls import path

app_name = "federation"

urlpatterns: list = []

# --- the core: federations, officers, member clubs, persons (federation.views) ---------------
from federation import views  # noqa: E402

urlpatterns += [
    path("", views.federation_list, name="list"),
    path("new/", views.federation_create, name="create"),
    path("<slug:slug>/", views.federation_detail, name="detail"),
    path("<slug:slug>/officers/", views.officer_list, name="officers"),
    path(
        "<slug:slug>/officers/<int:officer_id>/",
        views.officer_update,
        name="officer-update",
    ),
    path("<slug:slug>/clubs/", views.club_list, name="clubs"),
    path("<slug:slug>/clubs/<int:member_id>/", views.member_update, name="member-update"),
    path("<slug:slug>/persons/", views.person_list, name="persons"),
    path("<slug:slug>/persons/<int:person_id>/", views.person_detail, name="person"),
    path(
        "<slug:slug>/persons/<int:person_id>/propose/",
        views.person_propose,
        name="person-propose",
    ),
    path(
        "<slug:slug>/persons/<int:person_id>/merge/",
        views.person_merge,
        name="person-merge",
    ),
    path(
        "<slug:slug>/persons/<int:person_id>/split/",
        views.person_split,
        name="person-split",
    ),
    path(
        "<slug:slug>/proposals/<int:proposal_id>/",
        views.proposal_decide,
        name="proposal-decide",
    ),
]
