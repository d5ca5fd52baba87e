from django.contrib import admin

from club.models import Club, Membership, Player


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
