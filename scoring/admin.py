"""The admin of scoring, and of the club's conventions (club.Club.rules), which only the
engine can check: club imports nothing of scoring, so its Club admin is re-registered here
with a form that reads the conventions through the engine, as every other path does."""

from __future__ import annotations

from django.contrib import admin

from club.admin import ClubAdmin, ClubAdminForm
from club.models import Club
from scoring import engine
from scoring.messages import engine_problem_text
from scoring.models import Deal, DealRevision, Evening, Pulka, PulkaResultCache, Seat


class ClubConventionsForm(ClubAdminForm):
    """The Club admin's form: the default conventions must be ones the engine reads.

    They are kept resolved (every key, as club_rules_update keeps them), without
    pool_target, which has its own column and is checked with them. The short name is
    checked as club.admin's form checks it (an old link of another club is refused).
    """

    def clean(self) -> dict:
        cleaned = super().clean()
        rules, target = cleaned.get("rules"), cleaned.get("pool_target")
        if "rules" in self.errors or target is None:
            return cleaned
        if not isinstance(rules, dict) or "pool_target" in rules:
            # None would read as "the defaults"; pool_target belongs to its own field.
            problem = engine.PulkaError(
                "rules_not_object" if not isinstance(rules, dict) else "rules_unknown_key",
                **({"key": "pool_target"} if isinstance(rules, dict) else {}),
            )
            self.add_error("rules", engine_problem_text(problem))
            return cleaned
        try:
            resolved = engine.rules_to_dict(
                engine.rules_from_dict({**rules, "pool_target": target})
            )
        except engine.PulkaError as exc:
            field = "pool_target" if exc.code.startswith("rules_pool_target") else "rules"
            self.add_error(field, engine_problem_text(exc))
            return cleaned
        del resolved["pool_target"]
        cleaned["rules"] = resolved
        return cleaned


admin.site.unregister(Club)


@admin.register(Club)
class ClubWithConventionsAdmin(ClubAdmin):
    form = ClubConventionsForm


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
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

    def has_add_permission(self, request) -> bool:
        # A table is opened by scoring.services.pulka_create: seats, and conventions the
        # engine resolved (Pulka.clean checks them too).
        return False


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
