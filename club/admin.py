from django.contrib import admin

from club.models import Club, Membership, Player, RosterMerge


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "is_public", "pool_target", "created_at"]
    list_filter = ["is_public"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role"]
    list_select_related = ["user", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "is_active"]
    list_filter = ["is_active"]
    list_select_related = ["club", "user"]
    search_fields = ["name", "club__name", "user__username"]
    autocomplete_fields = ["club", "user"]


@admin.register(RosterMerge)
class RosterMergeAdmin(admin.ModelAdmin):
    """The roster's history: read here, written only by competition.roster.roster_merge."""

    list_display = ["removed_name", "kept_name", "club", "pulkas", "merged_by", "merged_at"]
    list_select_related = ["club", "merged_by"]
    search_fields = ["removed_name", "kept_name", "club__name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
