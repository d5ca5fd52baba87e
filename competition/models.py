"""Leagues (a club's seasons) and the ratings' history: what is computed across pulkas.

Competition is the top layer of the house: it reads scoring's result caches and club's
roster, and nothing below imports it. Both tables predate the app (see each Meta.db_table).
"""

from __future__ import annotations

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

    def __str__(self) -> str:
        return f"{self.club_id} from {self.since} ({self.state})"
