from django.urls import path

from scoring import evening_views, exchange_views, print_views, table_views, views

app_name = "scoring"

CLUB = "c/<slug:club_slug>/"
EVENING = CLUB + "s/<int:evening_id>/"
PULKA = CLUB + "p/<int:pulka_id>/"
TABLE = "t/<str:token>/"

urlpatterns = [
    path(CLUB, evening_views.club_detail, name="club-detail"),
    path(CLUB + "running/", evening_views.club_running, name="club-running"),
    path(CLUB + "conventions/", evening_views.club_rules, name="club-rules"),
    path(CLUB + "conventions/fields/", evening_views.rules_fields, name="rules-fields"),
    path(CLUB + "evenings/new/", evening_views.evening_create, name="evening-create"),
    path(EVENING, evening_views.evening_detail, name="evening-detail"),
    path(EVENING + "edit/", evening_views.evening_edit, name="evening-edit"),
    path(EVENING + "tables/new/", views.pulka_create, name="pulka-create"),
    path(PULKA, views.pulka_detail, name="pulka-detail"),
    path(PULKA + "deal-form/", views.deal_form, name="deal-form"),
    path(PULKA + "deals/", views.deal_create, name="deal-create"),
    path(PULKA + "deals/<int:number>/edit/", views.deal_edit, name="deal-edit"),
    path(PULKA + "deals/<int:number>/delete/", views.deal_delete, name="deal-delete"),
    path(PULKA + "deals/<int:number>/insert/", views.deal_insert, name="deal-insert"),
    path(PULKA + "deals/<int:number>/keep/", views.deal_keep, name="deal-keep"),
    path(PULKA + "history/", views.pulka_history, name="pulka-history"),
    path(PULKA + "rules/", views.pulka_rules, name="pulka-rules"),
    path(PULKA + "finish/", views.pulka_finish, name="pulka-finish"),
    path(PULKA + "reopen/", views.pulka_reopen, name="pulka-reopen"),
    path(PULKA + "abandon/", views.pulka_abandon, name="pulka-abandon"),
    path(PULKA + "live/", views.pulka_live, name="pulka-live"),
    path(PULKA + "drawing/", views.pulka_drawing_view, name="pulka-drawing"),
    path(PULKA + "export/pulka.json", exchange_views.pulka_export, name="pulka-export"),
    path(PULKA + "export/sheet.json", exchange_views.sheet_export, name="sheet-export"),
    path(EVENING + "import/", exchange_views.pulka_import, name="pulka-import"),
]
urlpatterns += [
    # The table link: its players' own entry (scoring.table_views).
    path(TABLE, table_views.table_page, name="table"),
    path(TABLE + "seat/", table_views.table_seat, name="table-seat"),
    path(TABLE + "deal-form/", table_views.table_deal_form, name="table-deal-form"),
    path(TABLE + "deals/", table_views.table_deal_create, name="table-deal-create"),
    path(TABLE + "deals/<int:number>/confirm/", table_views.table_confirm, name="table-confirm"),
    path(TABLE + "deals/<int:number>/dispute/", table_views.table_dispute, name="table-dispute"),
    path(TABLE + "live/", table_views.table_live, name="table-live"),
]
urlpatterns += [
    path(PULKA + "print/", print_views.pulka_print, name="pulka-print"),
    path(EVENING + "print/", print_views.evening_print, name="evening-print"),
]
