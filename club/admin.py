from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from club import selectors, services
from club.models import (
    AccountSettings,
    Club,
    ClubSlug,
    Invitation,
    Membership,
    MembershipEvent,
    NameClaim,
    Notice,
    Player,
    RosterMerge,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class ClubSlugInline(admin.TabularInline):
    """The club's old links: they redirect to its current one; deleting one frees the name."""

    model = ClubSlug
    extra = 0
    fields = ["slug", "created_at"]
    readonly_fields = ["slug", "created_at"]
    can_delete = True

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # old links come from renaming the club, never by hand


class ClubAdminForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "slug", "city", "is_public", "pool_target", "rules"]

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        club = self.instance if self.instance.pk else None
        if club is not None and slug == club.slug:
            return slug
        if selectors.slug_is_taken(slug, exclude=club):
            raise forms.ValidationError(
                _(
                    "Another club uses this short name in its links, now or as an old link "
                    "that still leads to it."
                )
            )
        return slug


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    form = ClubAdminForm
    list_display = ["name", "slug", "city", "is_public", "pool_target", "created_at"]
    list_filter = ["is_public"]
    search_fields = ["name", "slug", "city", "old_slugs__slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, ClubSlugInline]

    def save_model(self, request: HttpRequest, obj: Club, form, change: bool) -> None:
        """A new short name goes through club_set_slug, which keeps the old one redirecting."""
        new_slug = obj.slug
        if change and "slug" in form.changed_data:
            obj.slug = form.initial["slug"]
        super().save_model(request, obj, form, change)
        if new_slug != obj.slug:
            obj.slug = services.club_set_slug(club=obj, slug=new_slug).slug


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
    """The roster's history: read here, written only by competition.roster.services.roster_merge."""

    list_display = ["removed_name", "kept_name", "club", "pulkas", "merged_by", "merged_at"]
    list_select_related = ["club", "merged_by"]
    search_fields = ["removed_name", "kept_name", "club__name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# Invitations, roster name requests and the membership history: for staff to look at.
# Links are made, accepted and revoked on the site (club.invitations writes the history),
# so the admin only reads them; the history is never edited.


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    # Not the verifier: the admin is no place to copy a working link from.
    fields = [
        "club", "role", "player", "created_by", "created_at", "expires_at",
        "max_uses", "uses", "revoked_at", "revoked_by",
    ]  # fmt: skip
    list_display = ["club", "role", "player", "uses", "max_uses", "expires_at", "revoked_at"]
    list_filter = ["role"]
    search_fields = ["club__name", "player__name"]


@admin.register(NameClaim)
class NameClaimAdmin(ReadOnlyAdmin):
    list_display = ["club", "user", "player", "status", "created_at", "decided_at"]
    list_filter = ["status"]
    search_fields = ["club__name", "player__name", "user__username"]


@admin.register(MembershipEvent)
class MembershipEventAdmin(ReadOnlyAdmin):
    list_display = ["at", "club", "action", "actor", "subject", "role", "detail"]
    list_filter = ["action"]
    search_fields = ["club__name", "detail"]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(AccountSettings)
class AccountSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username", "user__email"]
    autocomplete_fields = ["user"]


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    """The notices sent and failing (club.notices): to look, not to edit."""

    list_display = ["topic", "kind", "user", "channel", "state", "attempts", "sent_at"]
    list_filter = ["state", "channel", "kind"]
    search_fields = ["topic", "user__username", "user__email"]
    readonly_fields = [field.name for field in Notice._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
