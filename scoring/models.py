"""Evenings, pulkas, their seats, the deals entered and every change to them.

The sheet is never stored as the truth: scoring.selectors.pulka_sheet() replays the deals
through scoring.engine on every read. PulkaResultCache is a cache of finished pulkas'
results, rebuilt by scoring.services whenever the deals or the status change.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player
from scoring import engine
from scoring.messages import engine_problem_text


class Evening(models.Model):
    """A club evening: one or more tables (pulkas) played on one date."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="evenings")
    date = models.DateField(_("date"), default=timezone.localdate)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    # Whether its pulkas count in the club's leagues and ratings (a tournament's rounds may
    # not). Copied into the result caches, which leagues and ratings read.
    counted = models.BooleanField(_("counts in leagues and ratings"), default=True)
    # The players record their own tables through each table's link (Pulka.table_token),
    # an opponent confirming every deal; a tournament's rounds always do.
    self_entry = models.BooleanField(_("players record their own tables"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        # The table of club.Evening, which this model was until the one-way house.
        db_table = "club_session"
        ordering = ["-date", "-id"]
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        indexes = [models.Index(fields=["club", "-date"], name="club_session_by_date")]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return reverse("scoring:evening-detail", args=[self.club.slug, self.pk])


class PulkaStatus(models.TextChoices):
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")
    ABANDONED = "abandoned", _("abandoned")


class Pulka(models.Model):
    """One table of an evening: 3 or 4 players in clockwise seat order, and their deals."""

    evening = models.ForeignKey(
        Evening, on_delete=models.CASCADE, related_name="pulkas", db_column="session_id"
    )
    table = models.PositiveSmallIntegerField(_("table"))
    # A snapshot of the conventions (every engine rules key), editable until the first deal.
    rules = models.JSONField(_("conventions"))
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat)"), default=0)
    # At most this many deals (a tournament's "at most 18 deals"): the table ends when the
    # last one is recorded, settled as unfinished if a pool is still open. None: no cap.
    deal_cap = models.PositiveSmallIntegerField(_("deal cap"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=PulkaStatus.choices, default=PulkaStatus.RUNNING
    )
    # Bumped by every change to the pulka or its deals: spectators poll it, and a stale
    # edit (made on an older version of a deal) is refused.
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set when the table's results are settled for good (a confirmed tournament round):
    # from then on only the club's owner changes it, as a judge, giving a reason.
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)
    # The table link /t/<token>/: its players enter and confirm its deals without an
    # account of the club. None: no link (a secretary records). Renewing it kills the old.
    table_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    # The table's clock, kept by the layer that runs it (a tournament round): its time runs
    # out at `ends_at`; while the clock is paused `ends_at` is None and `paused_left` holds
    # what is left. `deals_after_time`: how many deals may start once the time is out (1:
    # the deal in progress is the last); None: no rule, the judge ends the table.
    ends_at = models.DateTimeField(_("time runs out at"), null=True, blank=True)
    paused_left = models.DurationField(null=True, blank=True)
    deals_after_time = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["evening", "table"]
        verbose_name = _("pulka")
        verbose_name_plural = _("pulkas")
        constraints = [
            models.UniqueConstraint(fields=["evening", "table"], name="scoring_pulka_unique_table"),
            models.CheckConstraint(
                condition=models.Q(first_dealer__lte=3), name="scoring_pulka_first_dealer_seat"
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(table)s") % {"table": self.table}

    def get_absolute_url(self) -> str:
        return reverse("scoring:pulka-detail", args=[self.evening.club.slug, self.pk])

    @property
    def is_running(self) -> bool:
        return self.status == PulkaStatus.RUNNING

    @property
    def is_locked(self) -> bool:
        return self.locked_at is not None

    @cached_property
    def names(self) -> list[str]:
        """The players' names in seat order (clockwise): one small query, once per object."""
        return list(self.seats.order_by("position").values_list("player__name", flat=True))

    def engine_rules(self) -> engine.Rules:
        return engine.rules_from_dict(self.rules)

    def clean(self) -> None:
        """The conventions must be ones the engine reads; they are kept resolved."""
        if self.rules is None:
            return  # the field's own check says it is required
        try:
            self.rules = engine.rules_to_dict(engine.rules_from_dict(self.rules))
        except engine.PulkaError as exc:
            raise ValidationError({"rules": engine_problem_text(exc)}) from exc


class Seat(models.Model):
    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # The account that took this seat through the table link, being the player's own
    # (Player.user): from then on nobody else enters or confirms as this seat.
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["pulka", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["pulka", "position"], name="scoring_seat_unique_position"
            ),
            models.UniqueConstraint(fields=["pulka", "player"], name="scoring_seat_unique_player"),
            models.CheckConstraint(
                condition=models.Q(position__lte=3), name="scoring_seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position + 1}: {self.player}"


class DealKind(models.TextChoices):
    # The values are the engine's words (one spelling, in scoring.engine.words).
    GAME = engine.GAME, _("game")
    MISERE = engine.MISERE, _("misère")
    RASPASY = engine.RASPASY, _("raspasy")


# The most deals one pulka may hold. A real evening has well under 200; the bound keeps
# every replay (each entry replays the whole pulka) and every import file of bounded cost.
MAX_DEALS = 500


class DealCheck(models.TextChoices):
    """Where a deal entered at the table stands: an opponent confirms it, or disputes it
    and the judge (a secretary) resolves it. A secretary's entry needs no confirmation."""

    NONE = "", _("entered by a secretary")
    AWAITING = "awaiting", _("awaiting confirmation")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")


class Deal(models.Model):
    """One deal as entered: every field of a pulka/1 deal, players stored by seat."""

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField(_("deal"))
    kind = models.CharField(_("kind"), max_length=8, choices=DealKind.choices)
    declarer = models.PositiveSmallIntegerField(_("declarer (seat)"), null=True, blank=True)
    contract = models.CharField(_("contract"), max_length=4, blank=True)
    # {"<seat>": "whist" | "pass" | "half"} for the defenders of a game.
    calls = models.JSONField(_("calls"), default=dict, blank=True)
    # {"<seat>": tricks} as in pulka/1: every active player, only the declarer for misère.
    tricks = models.JSONField(_("tricks"), default=dict, blank=True)
    talon = models.CharField(_("talon"), max_length=8, blank=True)  # "AS KS"
    quick_tricks = models.PositiveSmallIntegerField(_("quick tricks"), null=True, blank=True)
    # Who dealt it, entered with the deal (the rotation by default): a deal deleted or
    # inserted before it leaves it dealt as it was played.
    dealer = models.PositiveSmallIntegerField(_("dealer (seat)"))
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now)
    # The one-time key of the entry form that recorded the deal: a form posted twice (a
    # phone retrying on bad Wi-Fi) records its deal once. None for imports and older rows.
    entry_key = models.UUIDField(null=True, blank=True, editable=False)
    # Entered at the table (through its link): by the player at `entered_seat`, confirmed by
    # another seat's player, or disputed with a reason. Null seats: not entered so.
    confirmation = models.CharField(
        _("confirmation"),
        max_length=10,
        choices=DealCheck.choices,
        default=DealCheck.NONE,
        blank=True,
    )
    entered_seat = models.PositiveSmallIntegerField(_("entered by (seat)"), null=True, blank=True)
    confirmed_seat = models.PositiveSmallIntegerField(
        _("confirmed by (seat)"), null=True, blank=True
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    disputed_seat = models.PositiveSmallIntegerField(_("disputed by (seat)"), null=True, blank=True)
    dispute_reason = models.CharField(_("why it is disputed"), max_length=200, blank=True)

    class Meta:
        ordering = ["pulka", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["pulka", "number"], name="scoring_deal_unique_number"),
            models.UniqueConstraint(
                fields=["pulka", "entry_key"], name="scoring_deal_unique_entry_key"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="scoring_deal_number"),
            models.CheckConstraint(
                condition=models.Q(dealer__lte=3), name="scoring_deal_dealer_seat"
            ),
        ]

    def __str__(self) -> str:
        return _("Deal %(number)s") % {"number": self.number}

    def to_pulka_dict(self, names: list[str]) -> dict:
        """The deal as a pulka/1 deal object, with player names for seats."""
        data: dict = {"kind": self.kind}
        if self.kind != DealKind.RASPASY:
            data["declarer"] = names[self.declarer]
        if self.kind == DealKind.GAME:
            data["contract"] = self.contract
            data["calls"] = {names[int(seat)]: call for seat, call in self.calls.items()}
        if self.tricks:
            data["tricks"] = {names[int(seat)]: n for seat, n in self.tricks.items()}
        if self.talon:
            data["talon"] = self.talon.split()
        if self.quick_tricks is not None:
            data["quick_tricks"] = self.quick_tricks
        if self.dealer is not None:
            data["dealer"] = names[self.dealer]
        return data

    def to_engine(self, names: list[str]) -> engine.Deal:
        return engine_deal(names, *(getattr(self, field) for field in ENGINE_FIELDS))

    def set_from_pulka_dict(self, data: dict, seats: dict[str, int]) -> None:
        """Fill the fields from a validated pulka/1 deal object (names mapped to seats)."""
        self.kind = data["kind"]
        self.declarer = seats[data["declarer"]] if data.get("declarer") else None
        self.contract = data.get("contract") or ""
        self.calls = {str(seats[name]): call for name, call in (data.get("calls") or {}).items()}
        self.tricks = {str(seats[name]): n for name, n in (data.get("tricks") or {}).items()}
        self.talon = " ".join(data.get("talon") or ())
        self.quick_tricks = data.get("quick_tricks")
        if data.get("dealer"):
            self.dealer = seats[data["dealer"]]


ENGINE_FIELDS = (
    "kind",
    "declarer",
    "contract",
    "calls",
    "tricks",
    "talon",
    "quick_tricks",
    "dealer",
)


def engine_deal(
    names: list[str],
    kind: str,
    declarer: int | None,
    contract: str,
    calls: dict,
    tricks: dict,
    talon: str,
    quick_tricks: int | None,
    dealer: int | None,
) -> engine.Deal:
    """A stored deal (fields in ENGINE_FIELDS order, players by seat) as the engine reads it."""
    return engine.Deal(
        kind=kind,
        declarer=None if declarer is None else names[declarer],
        contract=contract or None,
        calls={names[int(s)]: c for s, c in calls.items()} if calls else None,
        tricks={names[int(s)]: n for s, n in tricks.items()} if tricks else None,
        talon=tuple(talon.split()) if talon else None,
        quick_tricks=quick_tricks,
        dealer=None if dealer is None else names[dealer],
    )


class RevisionAction(models.TextChoices):
    CREATED = "created", _("entered")
    CHANGED = "changed", _("changed")
    DELETED = "deleted", _("deleted")
    INSERTED = "inserted", _("inserted")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")
    KEPT = "kept", _("kept by the judge")


class DealRevision(models.Model):
    """Every change to a deal: who, when, and the deal before and after (pulka/1 objects)."""

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="revisions")
    deal = models.ForeignKey(
        Deal, on_delete=models.SET_NULL, null=True, blank=True, related_name="revisions"
    )
    number = models.PositiveIntegerField(_("deal"))
    action = models.CharField(_("action"), max_length=10, choices=RevisionAction.choices)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    # A judge's correction of a locked pulka says why; empty for every other change.
    reason = models.TextField(_("reason"), blank=True)
    # The seat of the player who did it at the table (through the table link); None: a
    # secretary or the judge.
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)

    class Meta:
        ordering = ["pulka", "-at", "-id"]
        verbose_name = _("deal revision")
        verbose_name_plural = _("deal revisions")

    def __str__(self) -> str:
        return f"{self.pulka_id} #{self.number} {self.action}"


class StatusChange(models.Model):
    """A pulka finished, resumed or abandoned: by whom and when (its history shows them).

    `status` is the status the pulka went to; `user` is None when nobody did it by hand
    and no account is known (an import, say). A pulka that finishes because its last pool
    closed records the secretary whose deal closed it.
    """

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="status_changes")
    status = models.CharField(_("status"), max_length=16, choices=PulkaStatus.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    # As DealRevision.reason: why the judge ended or resumed a locked pulka.
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["pulka", "-at", "-id"]
        verbose_name = _("status change")
        verbose_name_plural = _("status changes")

    def __str__(self) -> str:
        return f"{self.pulka_id} {self.status}"


class PulkaResultCache(models.Model):
    """CACHE of a finished pulka's per-player result; never the truth.

    Rebuilt by scoring.services whenever a pulka finishes, reopens, is abandoned or has a
    deal corrected (and by the import). League pages and ratings read it instead of
    replaying pulkas. `club` and `date` repeat the evening's for the league queries.
    """

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="result_cache")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="result_cache")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    position = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()  # 3 or 4 at the table
    result = models.CharField(max_length=32)  # exact: an integer or "p/q"
    result_rounded = models.IntegerField()
    place = models.PositiveSmallIntegerField()  # 1 = best; ties share the place
    closed = models.BooleanField()  # every pool reached the target (else ended early)
    counted = models.BooleanField(default=True)  # Evening.counted: leagues and ratings read it
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pulka", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["pulka", "player"], name="scoring_pulkaresultcache_unique_player"
            ),
        ]
        indexes = [
            models.Index(fields=["club", "date"], name="scoring_result_club_date"),
            models.Index(fields=["player", "date"], name="scoring_result_player_date"),
        ]

    def __str__(self) -> str:
        return f"{self.pulka_id} {self.player_id}: {self.result}"


class PairResultCache(models.Model):
    """CACHE of the settlement between two players of a finished pulka (§10.3 net(i, j)).

    One row per ordered pair: `net` is what `player` won from `opponent` (negative: lost).
    Rebuilt with PulkaResultCache; read by head-to-head tables and the ratings.
    """

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="pair_cache")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    net = models.DecimalField(max_digits=12, decimal_places=4)
    counted = models.BooleanField(default=True)  # as PulkaResultCache.counted

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["pulka", "player", "opponent"], name="scoring_paircache_unique_pair"
            ),
        ]
        indexes = [models.Index(fields=["player", "opponent"], name="scoring_pair_players")]

    def __str__(self) -> str:
        return f"{self.pulka_id} {self.player_id}>{self.opponent_id}: {self.net}"
