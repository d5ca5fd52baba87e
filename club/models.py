"""Clubs, their members and roles, the roster of players, and club evenings (sessions)."""

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
        return reverse("club:detail", args=[self.slug])

    def default_rules(self) -> dict:
        return {**self.rules, "pool_target": self.pool_target}


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


class Session(models.Model):
    """A club evening: one or more tables (pulkas) played on one date."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    date = models.DateField(_("date"), default=timezone.localdate)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        indexes = [models.Index(fields=["club", "-date"], name="club_session_by_date")]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("club:session-detail", args=[self.club.slug, self.pk])


class CountingRule(models.TextChoices):
    SUM = "sum", _("the sum of whists")
    AVERAGE = "average", _("the average per pulka")
    BEST = "best", _("the best pulkas")


class League(models.Model):
    """A season of a club: which finished pulkas count, and how."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=120)
    start = models.DateField(_("first evening"))
    end = models.DateField(_("last evening"))
    rule = models.CharField(
        _("counting rule"), max_length=8, choices=CountingRule.choices, default=CountingRule.SUM
    )
    best_count = models.PositiveSmallIntegerField(
        _("best pulkas counted"), null=True, blank=True, help_text=_("For the best pulkas rule.")
    )
    cap = models.PositiveIntegerField(
        _("cap"),
        null=True,
        blank=True,
        help_text=_("Whists of one pulka beyond this count at half (either way). Empty: no cap."),
    )
    min_pulkas = models.PositiveSmallIntegerField(_("pulkas needed to be ranked"), default=1)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-start", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="club_league_ends_after_start"
            ),
            models.CheckConstraint(
                condition=models.Q(cap__isnull=True) | models.Q(cap__gte=1),
                name="club_league_cap_positive",
            ),
            models.CheckConstraint(
                condition=~models.Q(rule="best") | models.Q(best_count__gte=1),
                name="club_league_best_count",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club:league-detail", args=[self.club.slug, self.pk])
