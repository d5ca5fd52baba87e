"""Leagues (a club's seasons) and the ratings' history: what is computed across pulkas.

Competition is the top layer of the house: it reads scoring's result caches and club's
roster, and nothing below imports it. Both tables predate the app (see each Meta.db_table).
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player
from competition.standings import Counting
from scoring.messages import PRESET_LABELS
from scoring.models import Pulka

#: What a league's `convention` may be: blank (any) or one of the engine's presets.
CONVENTION_CHOICES = [("", _("any convention")), *PRESET_LABELS.items()]


class CountingRule(models.TextChoices):
    """The standings core's counting rules (competition.standings.Counting), for a form."""

    SUM = Counting.SUM.value, _("the sum of whists")
    AVERAGE = Counting.AVERAGE.value, _("the average per pulka")
    BEST = Counting.BEST.value, _("the best pulkas")


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
    # Blank: pulkas of every convention count; else only pulkas played by that preset.
    convention = models.CharField(
        _("convention"),
        max_length=16,
        blank=True,
        default="",
        choices=CONVENTION_CHOICES,
        help_text=_("Only pulkas played by this convention count; any convention if not set."),
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        db_table = "club_league"  # it was club.League before the one-way house
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
            models.CheckConstraint(
                condition=models.Q(convention__in=[value for value, _ in CONVENTION_CHOICES]),
                name="club_league_convention_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("competition:league-detail", args=[self.club.slug, self.pk])


class RatingSnapshot(models.Model):
    """CACHE: a player's rating after one finished pulka (competition.ratings replays them).

    Rebuilt from the changed pulka's date on whenever a result cache changes, or in full by
    `manage.py rebuild_ratings`; `seq` orders the club's finished pulkas.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="ratings")
    date = models.DateField()
    seq = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()  # what the pages show: a conservative estimate
    delta = models.FloatField()  # the change this pulka made to `rating`

    class Meta:
        db_table = "scoring_ratingsnapshot"  # it was scoring.RatingSnapshot before
        ordering = ["club", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["pulka", "player"], name="scoring_ratingsnapshot_unique_player"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "seq"], name="scoring_rating_player_seq"),
            models.Index(fields=["club", "date"], name="scoring_rating_club_date"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.pulka_id}: {self.rating:.1f}"


#: A task that has been running this long without finishing is taken for dead (its worker
#: was killed, or the machine restarted): the owner may start its work again.
STALE_AFTER = datetime.timedelta(minutes=15)


def _stale(running: bool, started_at: datetime.datetime | None) -> bool:
    return running and started_at is not None and started_at < timezone.now() - STALE_AFTER


class RefreshState(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Running")
    FAILED = "failed", _("Failed")


class RatingRefresh(models.Model):
    """A re-rate the club is owed: "replay the ratings from `since` on" (competition.background).

    One row per club at most: a new request merges into it by keeping the earlier date. The
    row is deleted when a re-rate that saw its latest request (`generation`) has finished; a
    row that stays `failed` is shown to the owner, who can start it again.
    """

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="+")
    since = models.DateField()
    requested_at = models.DateTimeField(default=timezone.now)
    # Bumped by every request: a re-rate that claimed generation n may delete the row only if
    # no request came in while it ran (else that request's task still has work to do).
    generation = models.PositiveIntegerField(default=1)
    state = models.CharField(max_length=10, choices=RefreshState, default=RefreshState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)  # when the last attempt began

    def __str__(self) -> str:
        return f"{self.club_id} from {self.since} ({self.state})"

    @property
    def is_stale(self) -> bool:
        """Running for longer than STALE_AFTER: its worker died; the owner may restart it."""
        return _stale(self.state == RefreshState.RUNNING, self.started_at)

    @property
    def can_restart(self) -> bool:
        return self.state == RefreshState.FAILED or self.is_stale


class FileState(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Being prepared")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class PreparedFile(models.Model):
    """A file built in the background for a member who asked for it (competition.files).

    `kind` names its builder and `params` its arguments; `params_key` is their canonical
    hash, so that a second request for the same file finds the one being built. The
    content is kept in the row until `expires_at`, then pruned.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    params_key = models.CharField(max_length=64)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    requested_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    state = models.CharField(max_length=10, choices=FileState, default=FileState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)  # since it was last (re)started
    # Every build ever started, never reset: a build may store its result only if no newer
    # one was started meanwhile (a restart of a build taken for dead).
    runs = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    content = models.BinaryField(null=True, blank=True)
    size = models.PositiveBigIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(fields=["club", "kind", "params_key"], name="competition_file_lookup"),
            models.Index(fields=["expires_at"], name="competition_file_expiry"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.club_id} ({self.state})"

    def get_absolute_url(self) -> str:
        return reverse("competition:file", args=[self.club.slug, self.pk])

    @property
    def is_stale(self) -> bool:
        """Being built for longer than STALE_AFTER: its worker died; it may be restarted."""
        return _stale(self.state == FileState.RUNNING, self.started_at)

    @property
    def is_waiting(self) -> bool:
        """Waiting or being built (and not taken for dead): its page keeps asking."""
        return self.state in (FileState.PENDING, FileState.RUNNING) and not self.is_stale

    @property
    def can_restart(self) -> bool:
        return self.state == FileState.FAILED or self.is_stale
