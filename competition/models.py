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

from club.models import Club, Player, Role
from competition.lib.standings import Counting
from scoring.messages import PRESET_LABELS
from scoring.models import Pulka

#: What a league's `convention` may be: blank (any) or one of the engine's presets.
CONVENTION_CHOICES = [("", _("any convention")), *PRESET_LABELS.items()]


class CountingRule(models.TextChoices):
    """The standings core's counting rules (competition.lib.standings.Counting), for a form."""

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
    """CACHE: a player's rating after one finished pulka (competition.rating.ratings replays them).

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


#: A worker that has not written its heartbeat for this long is taken for dead: what it was
#: running is queued again (competition.worker).
WORKER_LOST_AFTER = datetime.timedelta(minutes=1)
#: The owner's background page says the worker is not running once its last heartbeat is
#: this old (it writes one every WORKER_HEARTBEAT seconds).
WORKER_SILENT_AFTER = datetime.timedelta(minutes=3)


class WorkerHeartbeat(models.Model):
    """A background worker (`manage.py pulka_worker`) saying it is alive: one row per worker
    name, written when it starts and about every half minute while it runs."""

    name = models.CharField(max_length=64, unique=True)
    queues = models.CharField(max_length=200)
    host = models.CharField(max_length=200, blank=True)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(default=timezone.now)
    stopped_at = models.DateTimeField(null=True, blank=True)  # a clean stop (SIGTERM)

    def __str__(self) -> str:
        return f"{self.name} ({self.queues}) seen {self.seen_at:%Y-%m-%d %H:%M:%S}"


def _stale(running: bool, started_at: datetime.datetime | None) -> bool:
    return running and started_at is not None and started_at < timezone.now() - STALE_AFTER


class RefreshState(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Running")
    FAILED = "failed", _("Failed")


class RatingRefresh(models.Model):
    """A re-rate the club is owed: "replay the ratings from `since` on"
    (competition.rating.background).

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
    # The worker (WorkerHeartbeat.name) running it; blank in a request (immediate backend).
    worker = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"{self.club_id} from {self.since} ({self.state})"

    @property
    def is_stale(self) -> bool:
        """Running for longer than STALE_AFTER: its worker died; the owner may restart it."""
        return _stale(self.state == RefreshState.RUNNING, self.started_at)

    @property
    def can_restart(self) -> bool:
        return self.state == RefreshState.FAILED or self.is_stale


# --- tournaments ----------------------------------------------------------------------------


class Scoring(models.TextChoices):
    """What a tournament round's result counts (competition.lib.tournament_scoring.Method)."""

    WHISTS = "whists", _("plain whists")
    CAPS = "caps", _("whists with caps")
    PLACES = "places", _("place points")


class SeatingMethod(models.TextChoices):
    """How the rounds after the first are seated (the first is drawn by rating)."""

    SWISS = "swiss", _("Swiss: players close in the standings sit together")
    MIXING = "mixing", _("maximum mixing")
    SCHEDULE = "schedule", _("a schedule published in advance")


class TableSizes(models.TextChoices):
    """Which tables a tournament's rounds have (competition.lib.seating.Tables; the tables of
    4 only are for the command line, not a tournament's choice)."""

    MIXED = "mixed", _("tables of 4, and of 3 where needed")
    THREES = "3", _("tables of 3 only")


#: The most pairs of players a tournament may keep apart.
APART_MAX = 100


class LastDeal(models.TextChoices):
    """What happens at a table when the round's time runs out (Pulka.deals_after_time)."""

    NONE = "", _("no rule: the judge ends the tables")
    CURRENT = "current", _("the deal in progress is the last")
    MORE = "more", _("a number of deals more after it")


#: The longest round a tournament may set, and the most deals "more" may allow after time.
ROUND_MINUTES_MAX = 600
MORE_DEALS_MAX = 20


class Tournament(models.Model):
    """A club's tournament: entries, rounds of tables (ordinary pulkas), and standings.

    The rule, the tie-breaks and the stage are fixed when the first round is published;
    so are the table sizes (`tables`), while the pairs kept apart (`apart`) may change at
    any time (the rounds drawn after follow). The convention (`rules`, every engine rules
    key) is the same at every table.
    """

    #: What the organiser sets, in the order of the settings page. The settings form, the
    #: services' checks, a backup's copy and the standings' cache version all read this list;
    #: tests/competition/test_tournament_settings.py fails when a new column is neither here
    #: nor named there as something else (the seed, a stamp), or when the standings miss one.
    SETTINGS = (
        "name",
        "start",
        "round_count",
        "deal_cap",
        "rules",
        "seating",
        "tables",
        "apart",
        "scoring",
        "caps",
        "caps_mirror",
        "floor",
        "bye_score",
        "tie_breaks",
        "lot",
        "team_best",
        "stage_after",
        "stage_top",
        "stage_keep_totals",
        "counted",
        "round_minutes",
        "last_deal",
        "more_deals",
    )

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=120)
    start = models.DateField(_("date"), default=timezone.localdate)
    rules = models.JSONField(_("conventions"))
    round_count = models.PositiveSmallIntegerField(_("rounds"), default=5)
    deal_cap = models.PositiveSmallIntegerField(
        _("deals per table at most"), null=True, blank=True, help_text=_("Empty: no cap.")
    )
    seating = models.CharField(
        _("seating after round 1"),
        max_length=8,
        choices=SeatingMethod.choices,
        default=SeatingMethod.SWISS,
    )
    tables = models.CharField(
        _("tables"), max_length=5, choices=TableSizes.choices, default=TableSizes.MIXED
    )
    # Pairs of players never seated together where it can be helped (spouses, a coach and his
    # pupil): [[player id, player id], ...], the smaller id first, each pair once.
    apart = models.JSONField(_("keep apart"), default=list, blank=True)
    scoring = models.CharField(
        _("round result"), max_length=8, choices=Scoring.choices, default=Scoring.CAPS
    )
    # The caps' steps: [[from whists, factor as "p/q"], ...], the first from 0.
    caps = models.JSONField(_("caps"), default=list, blank=True)
    caps_mirror = models.BooleanField(_("losses are capped like wins"), default=True)
    floor = models.IntegerField(
        _("floor"),
        null=True,
        blank=True,
        help_text=_("A round below this many whists is flagged for the judge. Empty: none."),
    )
    bye_score = models.IntegerField(_("a round sat out counts"), default=0)
    tie_breaks = models.JSONField(_("tie-breaks"), default=list)
    lot = models.BooleanField(_("a lot settles full ties"), default=True)
    seed = models.BigIntegerField(_("seed"))
    team_best = models.PositiveSmallIntegerField(
        _("team score: best members"),
        null=True,
        blank=True,
        help_text=_("Teams of 3 to 5: a team's round counts its best members. Empty: no teams."),
    )
    stage_after = models.PositiveSmallIntegerField(
        _("final after round"), null=True, blank=True, help_text=_("Empty: no final.")
    )
    stage_top = models.PositiveSmallIntegerField(_("players in the final"), null=True, blank=True)
    stage_keep_totals = models.BooleanField(_("the final keeps the totals"), default=True)
    counted = models.BooleanField(
        _("count in the club's leagues and ratings"),
        default=False,
        help_text=_("The tables then count like any evening of the club."),
    )
    # The round clock: every round lasts this long from its start (None: untimed), and when
    # its time runs out the tables play on by `last_deal` (with `more_deals` for "more").
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes a round"), null=True, blank=True, help_text=_("Empty: the rounds are untimed.")
    )
    last_deal = models.CharField(
        _("when the time is out"),
        max_length=8,
        choices=LastDeal.choices,
        default=LastDeal.NONE,
        blank=True,
    )
    more_deals = models.PositiveSmallIntegerField(
        _("deals more after the one in progress"),
        null=True,
        blank=True,
        help_text=_("For the rule of a number of deals more."),
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-start", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(round_count__gte=1, round_count__lte=15),
                name="competition_tournament_rounds",
            ),
            models.CheckConstraint(
                condition=models.Q(round_minutes__isnull=True)
                | models.Q(round_minutes__gte=1, round_minutes__lte=ROUND_MINUTES_MAX),
                name="competition_tournament_round_minutes",
            ),
            models.CheckConstraint(
                condition=~models.Q(last_deal=LastDeal.MORE)
                | models.Q(more_deals__gte=1, more_deals__lte=MORE_DEALS_MAX),
                name="competition_tournament_more_deals",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("competition:tournament-detail", args=[self.club.slug, self.pk])


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("playing")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Entry(models.Model):
    """A player entered in a tournament, from round `first_round` on (a late entry starts
    later); a withdrawn player keeps the rounds he played; a substitute has his own entry."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    team = models.CharField(_("team"), max_length=60, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE
    )
    first_round = models.PositiveSmallIntegerField(_("from round"), default=1)
    # Withdrawn: the last round he played (0: none).
    last_round = models.PositiveSmallIntegerField(_("last round"), null=True, blank=True)
    substitute_for = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="substitutes",
        verbose_name=_("plays for"),
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "player__sort_key"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="competition_entry_unique_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.player_id}"

    @property
    def is_active(self) -> bool:
        return self.status == EntryStatus.ACTIVE


class RoundState(models.TextChoices):
    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")
    PLAYING = "playing", _("playing")
    CONFIRMED = "confirmed", _("confirmed")


class Round(models.Model):
    """A tournament's round: a seating (a draft until published), then a table (pulka) per
    group in an evening of its own.

    `seating` is competition.lib.seating.Seating as JSON: {"tables": [{"number", "seats"
    (player ids clockwise), "first_dealer", "locked"}], "byes": [{"player", "reason"}]}.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(
        _("state"), max_length=10, choices=RoundState.choices, default=RoundState.DRAFT
    )
    method = models.CharField(_("seating"), max_length=8)
    seed = models.BigIntegerField(_("seed"))
    seating = models.JSONField(default=dict)
    evening = models.OneToOneField(
        "scoring.Evening",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_round",
    )
    published_at = models.DateTimeField(null=True, blank=True)
    # When the organiser plans to start it (said when publishing): the round page, "find
    # your table", the projector and the players' notices show it.
    starts_at = models.DateTimeField(_("planned start"), null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # The round's clock, as a whole (its tables each keep theirs: Pulka.ends_at, which one
    # table's extra minutes move on): its time runs out at `ends_at`; while it is paused
    # `ends_at` is None and `paused_left` holds what is left. Both None: no clock.
    ends_at = models.DateTimeField(_("time runs out at"), null=True, blank=True)
    paused_left = models.DurationField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="competition_round_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}

    def get_absolute_url(self) -> str:
        return reverse(
            "competition:round-detail",
            args=[self.tournament.club.slug, self.tournament_id, self.number],
        )


class RoundTable(models.Model):
    """A published round's table: its pulka, recorded on the ordinary entry page."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    pulka = models.OneToOneField(Pulka, on_delete=models.PROTECT, related_name="tournament_table")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="competition_table_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}/{self.number}"


class PenaltyUnit(models.TextChoices):
    WHISTS = "whists", _("whists")
    POINTS = "points", _("points")


class Penalty(models.Model):
    """A judge's penalty: whists or points taken away in a round, with the reason. Never
    deleted: a penalty is withdrawn by one of the opposite amount, so the history stays."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    round = models.PositiveSmallIntegerField(_("round"))
    amount = models.IntegerField(_("taken away"))
    unit = models.CharField(
        _("unit"), max_length=8, choices=PenaltyUnit.choices, default=PenaltyUnit.WHISTS
    )
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "round", "created_at"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"{self.player_id} r{self.round}: {self.amount} {self.unit}"


class FileState(models.TextChoices):
    PENDING = "pending", _("Waiting")
    RUNNING = "running", _("Being prepared")
    READY = "ready", _("Ready")
    FAILED = "failed", _("Failed")


class PreparedFile(models.Model):
    """A file built in the background for the members who may have it
    (competition.files.services).

    `kind` names its builder and `params` its arguments; `params_key` is their canonical
    hash, and `version` the version of the data the file is built from (blank for a kind
    that has none): one row per file and version, which every member of at least the role
    `readers` (and the member who asked) shares while it is on its way or ready. The content
    is kept in the row until `expires_at`, then pruned.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    params_key = models.CharField(max_length=64)
    version = models.CharField(max_length=64, blank=True)
    # The least role that may download it: what the page offering the file asks for.
    readers = models.CharField(max_length=16, choices=Role.choices, default=Role.OWNER)
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
    # The worker (WorkerHeartbeat.name) building it; blank in a request (immediate backend).
    worker = models.CharField(max_length=64, blank=True)
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
            # The hourly limit of a member counts the builds he asked for lately.
            models.Index(fields=["requested_by", "requested_at"], name="competition_file_asker"),
        ]
        constraints = [
            # A file of a versioned kind is built once per version of its data.
            models.UniqueConstraint(
                fields=["club", "kind", "params_key", "version", "readers"],
                condition=~models.Q(version=""),
                name="competition_preparedfile_one_per_version",
            ),
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
