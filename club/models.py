"""Clubs, their members and roles, and the roster of players.

The lowest layer of the house: club imports neither scoring nor competition.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name in links"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone can read a public club's sheets.")
    )
    pool_target = models.PositiveSmallIntegerField(_("pool target"), default=20)
    # The club's default conventions: engine rule options (scoring.engine.rules_to_dict keys),
    # without pool_target, which has its own column. New tables copy them.
    rules = models.JSONField(_("conventions"), default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pool_target__gte=1), name="club_club_pool_target_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("scoring:club-detail", args=[self.slug])

    def default_rules(self) -> dict:
        return {**self.rules, "pool_target": self.pool_target}


class ClubSlug(models.Model):
    """A short name a club's links used before it was renamed (club.services.club_set_slug).

    /c/<slug>/... answers with a permanent redirect to the club's current links (the tenant
    gate, club.access). While it redirects, no other club can take it: links already printed
    or sent keep leading to the club they were made for. Deleting the row (in the admin)
    ends the redirect and frees the name.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="old_slugs")
    slug = models.SlugField(_("old short name in links"), max_length=60, unique=True)
    created_at = models.DateTimeField(_("renamed at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("old link")
        verbose_name_plural = _("old links")

    def __str__(self) -> str:
        return self.slug


class Role(models.TextChoices):
    OWNER = "owner", _("owner")
    SECRETARY = "secretary", _("secretary")
    PLAYER = "player", _("player")


ROLE_RANK = {Role.PLAYER: 1, Role.SECRETARY: 2, Role.OWNER: 3}


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["club", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_membership_one_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.get_role_display()})"


class Player(models.Model):
    """A person on the club roster; the same player plays many evenings."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("user account"),
    )
    is_active = models.BooleanField(_("on the roster"), default=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="club_player_unique_name"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="club_player_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name
