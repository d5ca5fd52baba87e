from django.contrib import admin

from scoring.models import Deal, DealRevision, Evening, Pulka, PulkaResultCache, Seat


@admin.register(Evening)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "venue", "created_by"]
    list_select_related = ["club", "created_by"]
    search_fields = ["club__name", "venue"]
    date_hierarchy = "date"
    autocomplete_fields = ["club"]
    readonly_fields = ["created_by", "created_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ["number", "kind", "declarer", "contract", "calls", "tricks", "talon", "dealer"]
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        # Deals are written by the services only, which replay the pulka through the engine.
        return False


@admin.register(Pulka)
class PulkaAdmin(admin.ModelAdmin):
    list_display = ["__str__", "evening", "status", "created_at", "finished_at"]
    list_filter = ["status", "evening__club"]
    search_fields = ["evening__club__name", "seats__player__name"]
    readonly_fields = ["version", "created_at", "finished_at", "rules"]
    inlines = [SeatInline, DealInline]


@admin.register(DealRevision)
class DealRevisionAdmin(admin.ModelAdmin):
    list_display = ["pulka", "number", "action", "user", "at"]
    list_filter = ["action"]
    readonly_fields = ["pulka", "deal", "number", "action", "before", "after", "user", "at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PulkaResultCache)
class PulkaResultCacheAdmin(admin.ModelAdmin):
    list_display = ["pulka", "player", "result", "result_rounded", "place", "closed"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
