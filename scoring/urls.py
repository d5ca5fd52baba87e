from django.urls import path

from scoring import evening_views, exchange_views, views

app_name = "scoring"

C = "c/<slug:club_slug>/"
E = C + "s/<int:evening_id>/"
P = C + "p/<int:pulka_id>/"

urlpatterns = [
    path(C, evening_views.club_detail, name="club-detail"),
    path(C + "running/", evening_views.club_running, name="club-running"),
    path(C + "conventions/", evening_views.club_rules, name="club-rules"),
    path(C + "conventions/fields/", evening_views.rules_fields, name="rules-fields"),
    path(C + "evenings/new/", evening_views.evening_create, name="evening-create"),
    path(E, evening_views.evening_detail, name="evening-detail"),
    path(E + "edit/", evening_views.evening_edit, name="evening-edit"),
    path(E + "tables/new/", views.pulka_create, name="pulka-create"),
    path(P, views.pulka_detail, name="pulka-detail"),
    path(P + "deal-form/", views.deal_form, name="deal-form"),
    path(P + "deals/", views.deal_create, name="deal-create"),
    path(P + "deals/<int:number>/edit/", views.deal_edit, name="deal-edit"),
    path(P + "deals/<int:number>/delete/", views.deal_delete, name="deal-delete"),
    path(P + "history/", views.pulka_history, name="pulka-history"),
    path(P + "rules/", views.pulka_rules, name="pulka-rules"),
    path(P + "finish/", views.pulka_finish, name="pulka-finish"),
    path(P + "reopen/", views.pulka_reopen, name="pulka-reopen"),
    path(P + "abandon/", views.pulka_abandon, name="pulka-abandon"),
    path(P + "live/", views.pulka_live, name="pulka-live"),
    path(P + "drawing/", views.pulka_drawing_view, name="pulka-drawing"),
    path(P + "export/pulka.json", exchange_views.pulka_export, name="pulka-export"),
    path(P + "export/sheet.json", exchange_views.sheet_export, name="sheet-export"),
    path(E + "import/", exchange_views.pulka_import, name="pulka-import"),
]
