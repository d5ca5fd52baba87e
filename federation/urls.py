"""/f/<slug>/: a federation's pages (mounted by config/urls.py under f/).

Each part of the app adds its own block: the core (views), the rating list (rating_views),
open events (event_views), series (series_views) and results files (results_views).
"""

from django.urls import path  # noqa: F401  (the blocks below use it)

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

# --- series (federation.series_views) ---
from federation import series_views  # noqa: E402

SERIES = "<slug:slug>/series/"
ONE_SERIES = SERIES + "<int:series_id>/"
urlpatterns += [
    path(SERIES, series_views.series_list, name="series-list"),
    path(SERIES + "new/", series_views.series_create, name="series-create"),
    path(ONE_SERIES, series_views.series_detail, name="series"),
    path(ONE_SERIES + "settings/", series_views.series_settings, name="series-settings"),
    path(ONE_SERIES + "export.<str:fmt>", series_views.series_export, name="series-export"),
    path(ONE_SERIES + "print/", series_views.series_print, name="series-print"),
    path(ONE_SERIES + "stages/", series_views.series_stage_add, name="series-stage-add"),
    path(
        ONE_SERIES + "stages/<int:stage_id>/remove/",
        series_views.series_stage_remove,
        name="series-stage-remove",
    ),
    path(ONE_SERIES + "final/", series_views.series_final, name="series-final"),
    path(
        ONE_SERIES + "final/entries/",
        series_views.series_final_entries,
        name="series-final-entries",
    ),
]

# --- open events (federation.event_views) ---
from federation import event_views  # noqa: E402

EVENTS = "<slug:slug>/events/"
EVENT = EVENTS + "<int:event_id>/"
REGISTRATION = EVENT + "registrations/<int:registration_id>/"
urlpatterns += [
    path(EVENTS, event_views.event_list, name="events"),
    path(EVENT, event_views.event_detail, name="event"),
    path(EVENT + "me/", event_views.event_me, name="event-me"),
    path(EVENT + "me/cancel/", event_views.event_cancel, name="event-cancel"),
    path(EVENT + "settings/", event_views.event_settings, name="event-settings"),
    path(
        EVENT + "registration/",
        event_views.event_registration_state,
        name="event-registration-state",
    ),
    path(EVENT + "registrations/", event_views.event_registrations, name="event-registrations"),
    path(
        EVENT + "registrations.csv",
        event_views.event_registrations_export,
        name="event-registrations-export",
    ),
    path(REGISTRATION + "paid/", event_views.registration_paid, name="event-registration-paid"),
    path(
        REGISTRATION + "cancel/",
        event_views.registration_cancel,
        name="event-registration-cancel",
    ),
    path(
        REGISTRATION + "category/",
        event_views.registration_category,
        name="event-registration-category",
    ),
    path(EVENT + "check-in/", event_views.event_check_in, name="event-check-in"),
    path(
        EVENT + "check-in/<str:code>/",
        event_views.event_check_in_code,
        name="event-check-in-code",
    ),
    path(EVENT + "close-door/", event_views.event_close_door, name="event-close-door"),
    path(EVENT + "standings/", event_views.event_standings, name="event-standings"),
    path(
        EVENT + "standings/<int:category_id>.pdf",
        event_views.event_category_pdf,
        name="event-category-pdf",
    ),
]

# --- the rating list (federation.rating_views) ---
from federation import rating_views  # noqa: E402

urlpatterns += [
    path("<slug:slug>/rating/", rating_views.rating_list, name="rating"),
    path("<slug:slug>/rating/restart/", rating_views.rating_restart, name="rating-restart"),
    path("<slug:slug>/rating/export.<str:fmt>", rating_views.rating_export, name="rating-export"),
]

# --- results files (federation.results_views) ---
from federation import results_views  # noqa: E402

RESULTS = "<slug:slug>/results/"
IMPORTED = "<slug:slug>/imported/<int:imported_id>"
urlpatterns += [
    path(RESULTS, results_views.results_index, name="results"),
    path(RESULTS + "import/", results_views.results_import, name="results-import"),
    path(RESULTS + "<int:tournament_id>/", results_views.results_detail, name="results-detail"),
    path(
        RESULTS + "<int:tournament_id>.<str:fmt>",
        results_views.results_export,
        name="results-export",
    ),
    path(IMPORTED + "/", results_views.imported_detail, name="imported"),
    path(IMPORTED + ".<str:fmt>", results_views.imported_export, name="imported-export"),
]
