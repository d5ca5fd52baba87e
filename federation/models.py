"""A federation above the clubs: its officers, member clubs, persons across the clubs' rosters,
its rating list, open events and series.

Nothing below imports this app (tests/test_layers.py); it reads the clubs' rosters, pulkas and
tournaments, and hears of changed results through scoring.signals.results_changed.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club, Currency, Player
from club.names import NAME_MAX_LENGTH, SORT_KEY_MAX_LENGTH, name_key, sort_key
from competition.models import RefreshState, Tournament, _stale
from scoring.models import Pulka

#: The stage points table offered first (place -> points): the Moscow Cup's shape.
POINTS_PRESET = (100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8)
POINTS_MAX_PLACES = 200
RATING_MIN_PULKAS = 10


def new_code() -> str:
    return secrets.token_urlsafe(16)


class Federation(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name in links"), max_length=60, unique=True)
    place = models.CharField(_("city or country"), max_length=120, blank=True)
    # The rating list shows persons with at least this many rated pulkas.
    rating_min_pulkas = models.PositiveSmallIntegerField(
        _("pulkas to be listed in the rating"),
        default=RATING_MIN_PULKAS,
        validators=[MaxValueValidator(10_000)],
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("federation")
        verbose_name_plural = _("federations")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("federation:detail", args=[self.slug])


class OfficerRole(models.TextChoices):
    OWNER = "owner", _("owner")
    JUDGE = "judge", _("judge")


OFFICER_RANK = {OfficerRole.JUDGE: 1, OfficerRole.OWNER: 2}


class Officer(models.Model):
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="officers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="federation_offices"
    )
    role = models.CharField(
        _("role"), max_length=8, choices=OfficerRole.choices, default=OfficerRole.JUDGE
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["federation", "user__username"]
        verbose_name = _("officer")
        verbose_name_plural = _("officers")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "user"], name="federation_officer_one_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.federation} ({self.get_role_display()})"


class MemberState(models.TextChoices):
    INVITED = "invited", _("invited")
    MEMBER = "member", _("member")
    DECLINED = "declined", _("declined")
    CANCELLED = "cancelled", _("invitation withdrawn")
    LEFT = "left", _("left")


class MemberClub(models.Model):
    """A club's membership of a federation, from the invitation to its end.

    A club that leaves keeps its row (state LEFT, `left_on`): its pulkas dated `left_on` or
    later stop counting for the federation. A club may be invited again: a new row. Pulkas
    count from `counts_from` on (None: the club's whole history before it joined, for its
    first membership; a rejoining club counts from the day it joined again).
    """

    federation = models.ForeignKey(
        Federation, on_delete=models.CASCADE, related_name="member_clubs"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="federation_memberships")
    state = models.CharField(
        _("state"), max_length=10, choices=MemberState.choices, default=MemberState.INVITED
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    invited_at = models.DateTimeField(default=timezone.now)
    joined_on = models.DateField(_("joined"), null=True, blank=True)
    counts_from = models.DateField(null=True, blank=True)
    left_on = models.DateField(_("left"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["federation", "club__name", "-invited_at"]
        verbose_name = _("member club")
        verbose_name_plural = _("member clubs")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "club"],
                condition=models.Q(state__in=["invited", "member"]),
                name="federation_memberclub_one_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club_id} in {self.federation_id} ({self.state})"


class Person(models.Model):
    """One player of the federation, across its clubs' rosters (PersonLink).

    A person merged into another keeps his row with `merged_into` set (his links moved);
    lists show only persons with `merged_into` empty. `name` goes through
    club.names.normalise_name like every roster name; `name_key`/`sort_key` follow it.
    """

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="persons")
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    name_key = models.CharField(max_length=255, editable=False)
    sort_key = models.CharField(max_length=SORT_KEY_MAX_LENGTH, editable=False, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="federation_persons",
        verbose_name=_("user account"),
    )
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="merged"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["sort_key", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "user"],
                condition=models.Q(user__isnull=False, merged_into__isnull=True),
                name="federation_person_one_per_user",
            ),
        ]
        indexes = [models.Index(fields=["federation", "name_key"], name="federation_person_key")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        self.sort_key = sort_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key", "sort_key"}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("federation:person", args=[self.federation.slug, self.pk])


class PersonLink(models.Model):
    """A roster name of a member club that is this person: one per roster name and
    federation. Made at once where the accounts are the same (or for a roster name the
    federation meets for the first time: a person of its own); joining names of different
    accounts or of none goes through a LinkProposal that the clubs' owners confirm."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="links")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="person_links")
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    linked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["person", "player__club__name"]
        verbose_name = _("person's roster name")
        verbose_name_plural = _("persons' roster names")
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "player"], name="federation_personlink_one_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} is {self.person_id}"


class ProposalState(models.TextChoices):
    OPEN = "open", _("awaiting the clubs' confirmation")
    DONE = "done", _("confirmed")
    REFUSED = "refused", _("refused")
    WITHDRAWN = "withdrawn", _("withdrawn")


class LinkProposal(models.Model):
    """An officer's proposal that a roster name is this person. The owner of every club
    concerned (the name's club and the clubs of the person's names) confirms it; one refusal
    refuses it. Confirmed: the name's link moves to the person (a person left with no names
    is merged into him)."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="proposals")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="proposals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    state = models.CharField(
        _("state"), max_length=10, choices=ProposalState.choices, default=ProposalState.OPEN
    )
    # Club ids whose owner must still confirm, and those who did.
    clubs_awaiting = models.JSONField(default=list)
    clubs_confirmed = models.JSONField(default=list)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "player"],
                condition=models.Q(state="open"),
                name="federation_proposal_one_open_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} is {self.person_id}? ({self.state})"


class LinkAction(models.TextChoices):
    AUTO = "auto", _("linked by the account")
    PROPOSED = "proposed", _("proposed")
    CONFIRMED = "confirmed", _("confirmed by the club")
    REFUSED = "refused", _("refused by the club")
    UNLINKED = "unlinked", _("unlinked")
    MERGED = "merged", _("merged")
    SPLIT = "split", _("split off")


class LinkEvent(models.Model):
    """The history of a person's links: who linked, confirmed, refused, unlinked, merged or
    split off which roster name, and when. Never edited."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="link_events")
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The name as it stood then (the roster name may be renamed or deleted later).
    player_name = models.CharField(max_length=NAME_MAX_LENGTH, blank=True)
    club_name = models.CharField(max_length=120, blank=True)
    action = models.CharField(max_length=10, choices=LinkAction.choices)
    # The other person of a merge or a split.
    other = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.person_id}: {self.action} {self.player_name}"


# --- the rating list -------------------------------------------------------------------------


class PersonRating(models.Model):
    """CACHE: a person's federation rating after one counted pulka (federation.rating replays
    them with competition.rating.ratings.rate_table); `seq` orders the federation's pulkas."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="ratings")
    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    date = models.DateField()
    seq = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    delta = models.FloatField()

    class Meta:
        ordering = ["federation", "seq"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "pulka", "person"], name="federation_rating_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["person", "seq"], name="federation_rating_person_seq"),
            models.Index(fields=["federation", "seq"], name="federation_rating_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.person_id} after {self.pulka_id}: {self.rating:.1f}"


class RatingList(models.Model):
    """The federation's rating list as last built, one row per listed person, and the state
    of its rebuild (FederationRefresh). Read by the list page in one query."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveIntegerField()
    rating = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    pulkas = models.PositiveIntegerField()
    last_date = models.DateField()
    # The clubs the person played for, by id, and their cities, for the list's filters.
    clubs = models.JSONField(default=list)
    cities = models.JSONField(default=list)

    class Meta:
        ordering = ["federation", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "person"], name="federation_ratinglist_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.person_id}: {self.rating:.1f}"


class FederationRefresh(models.Model):
    """The federation's rating list is owed a rebuild (as competition.RatingRefresh for a
    club): one row per federation, merged by later requests; `calculated_on` and `built_at`
    say what the published list is."""

    federation = models.OneToOneField(Federation, on_delete=models.CASCADE, related_name="refresh")
    requested_at = models.DateTimeField(default=timezone.now)
    generation = models.PositiveIntegerField(default=1)
    state = models.CharField(max_length=10, choices=RefreshState, default=RefreshState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=64, blank=True)
    # The last finished build: the list holds every counted pulka up to this date.
    built_generation = models.PositiveIntegerField(default=0)
    calculated_on = models.DateField(null=True, blank=True)
    built_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.federation_id} ({self.state})"

    @property
    def is_stale(self) -> bool:
        return _stale(self.state == RefreshState.RUNNING, self.started_at)

    @property
    def can_restart(self) -> bool:
        return self.state == RefreshState.FAILED or self.is_stale


# --- open events -----------------------------------------------------------------------------


class OpenEvent(models.Model):
    """A member club's tournament open to anyone with an account: online registration up to
    `deadline`, at most `cap` entrants (the rest wait in order), a fee the organiser marks
    paid, categories. Listed in the federation's calendar."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="open_event"
    )
    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="events")
    counts_for_federation = models.BooleanField(
        _("counts for the federation"),
        default=True,
        help_text=_("Its tables count in the federation's rating list."),
    )
    registration_open = models.BooleanField(_("registration is open"), default=True)
    deadline = models.DateTimeField(_("registration closes"))
    cap = models.PositiveSmallIntegerField(
        _("places"),
        null=True,
        blank=True,
        validators=[MinValueValidator(3), MaxValueValidator(1000)],
        help_text=_("Empty: no limit. Who registers later waits for a place."),
    )
    fee = models.DecimalField(
        _("entry fee"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text=_("Empty: free."),
    )
    currency = models.CharField(
        _("currency"), max_length=3, choices=Currency.choices, default=Currency.UAH
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-tournament__start", "-pk"]
        verbose_name = _("open event")
        verbose_name_plural = _("open events")

    def __str__(self) -> str:
        return f"{self.tournament} (open)"


class Eligibility(models.TextChoices):
    ANYONE = "anyone", _("anyone")
    RATING = "rating", _("by federation rating")
    CHOSEN = "chosen", _("the organiser's choice")


class Category(models.Model):
    """A category of an open event (Любитель, Мастер, women, juniors): its own standings.

    RATING: eligible with a federation rating in [rating_min, rating_max) (either open);
    CHOSEN: the organiser puts entrants in it."""

    event = models.ForeignKey(OpenEvent, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("name"), max_length=60)
    eligibility = models.CharField(
        _("who may enter"), max_length=8, choices=Eligibility.choices, default=Eligibility.ANYONE
    )
    rating_min = models.PositiveIntegerField(_("rating from"), null=True, blank=True)
    rating_max = models.PositiveIntegerField(_("rating below"), null=True, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "position", "pk"]
        verbose_name = _("category")
        verbose_name_plural = _("categories")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="federation_category_name"),
        ]

    def __str__(self) -> str:
        return self.name


class RegistrationState(models.TextChoices):
    REGISTERED = "registered", _("registered")
    WAITING = "waiting", _("waiting list")
    CANCELLED = "cancelled", _("cancelled")
    NO_SHOW = "no_show", _("did not come")


class Registration(models.Model):
    """Someone's registration for an open event. `position` orders arrivals (the waiting
    list moves up in it); `code` is what the QR code of the registration mail carries."""

    event = models.ForeignKey(OpenEvent, on_delete=models.CASCADE, related_name="registrations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations"
    )
    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="registrations"
    )
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    category = models.ForeignKey(
        Category, on_delete=models.SET_NULL, null=True, blank=True, related_name="registrations"
    )
    state = models.CharField(
        _("state"),
        max_length=10,
        choices=RegistrationState.choices,
        default=RegistrationState.REGISTERED,
    )
    position = models.PositiveIntegerField()
    paid = models.BooleanField(_("paid"), default=False)
    code = models.CharField(max_length=32, unique=True, default=new_code, editable=False)
    checked_in_at = models.DateTimeField(_("came"), null=True, blank=True)
    # The host club's roster name he plays under (a guest name for another club's player).
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["event", "position"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=models.Q(state__in=["registered", "waiting"]),
                name="federation_registration_one_per_user",
            ),
            models.UniqueConstraint(
                fields=["event", "position"], name="federation_registration_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} for {self.event_id} ({self.state})"


class EntryCategory(models.Model):
    """The category an entry of an open event plays in (an entry may be in several: a woman
    master is in "Мастер" and in "women")."""

    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="entries")
    entry = models.ForeignKey(
        "competition.Entry", on_delete=models.CASCADE, related_name="categories"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["category", "entry"], name="federation_entrycategory_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} in {self.category_id}"


# --- series ----------------------------------------------------------------------------------


class Series(models.Model):
    """A cup or grand prix: stages (tournaments of member clubs), a points table by place,
    the best `best_of` stages counted with at least `min_stages` played, and the rule that
    draws the final's field."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="series")
    name = models.CharField(_("name"), max_length=120)
    season = models.CharField(_("season"), max_length=20, blank=True)
    # Points by place: [100, 80, 65, ...]; places beyond the list score 0.
    points = models.JSONField(_("points by place"), default=list)
    best_of = models.PositiveSmallIntegerField(
        _("stages counted"), null=True, blank=True, help_text=_("Empty: every stage counts.")
    )
    min_stages = models.PositiveSmallIntegerField(_("stages to be placed"), default=1)
    # Series tie-breaks, in order (federation.series.TIE_BREAKS keys).
    tie_breaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    # The final's field: the defending winner, then the top `final_from_series` of the series
    # standings and the top `final_from_rating` of the federation rating list; a place taken
    # twice passes down its list.
    final = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    final_from_series = models.PositiveSmallIntegerField(
        _("finalists from the series"), default=0, validators=[MaxValueValidator(500)]
    )
    final_from_rating = models.PositiveSmallIntegerField(
        _("finalists by rating"), default=0, validators=[MaxValueValidator(500)]
    )
    defending_winner = models.ForeignKey(
        Person,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("defending winner"),
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["federation", "-created_at"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("federation:series", args=[self.federation.slug, self.pk])


class Stage(models.Model):
    """A stage of a series: a member club's tournament here, or one played on another site
    and imported from its results file (exactly one of the two)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="stages")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    imported = models.ForeignKey(
        "ImportedResult", on_delete=models.CASCADE, null=True, blank=True, related_name="stages"
    )
    number = models.PositiveSmallIntegerField(_("stage"))

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="federation_stage_once"),
            models.UniqueConstraint(fields=["series", "number"], name="federation_stage_number"),
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=True) ^ models.Q(imported__isnull=True),
                name="federation_stage_one_source",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series_id} #{self.number}"


class ImportedResult(models.Model):
    """A tournament's results file (pulka-tournament/1) imported from another site or a file:
    kept as it came, shown on the federation's calendar, its persons matched by name."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="imports")
    name = models.CharField(_("name"), max_length=120)
    start = models.DateField(_("date"))
    source = models.CharField(_("from"), max_length=500, blank=True)
    document = models.JSONField()
    # The file's persons matched to the federation's: {"<the file's person key>": person id}.
    persons = models.JSONField(default=dict)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    imported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["federation", "-start", "-pk"]

    def __str__(self) -> str:
        return self.name
