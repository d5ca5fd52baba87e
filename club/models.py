"""Clubs, their members and roles, and the roster of players.

The lowest layer of the house: club imports neither scoring nor competition.
"""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.names import (
    NAME_MAX_LENGTH,
    SORT_KEY_MAX_LENGTH,
    InvalidName,
    name_key,
    normalise_name,
    sort_key,
)


class Currency(models.TextChoices):
    """What a club plays for (Club.currency): the ISO 4217 code, shown by its sign."""

    UAH = "UAH", _("hryvnia (₴)")
    EUR = "EUR", _("euro (€)")
    USD = "USD", _("US dollar ($)")
    PLN = "PLN", _("złoty (zł)")


#: The sign written after an amount ("120 ₴"), by currency.
CURRENCY_SIGNS = {Currency.UAH: "₴", Currency.EUR: "€", Currency.USD: "$", Currency.PLN: "zł"}
#: The minor units in one unit of each currency (kopiykas in a hryvnia, cents in a euro).
CURRENCY_MINOR = {Currency.UAH: 100, Currency.EUR: 100, Currency.USD: 100, Currency.PLN: 100}
WHIST_PRICE_MAX = Decimal("10000.00")


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
    # Bumped (club.services.club_results_bump) whenever the club's results or ratings
    # change: the computed rankings of its leagues are cached by it.
    results_version = models.PositiveIntegerField(default=0, editable=False)
    # The club's stake: what a whist is worth, in `currency` (None: the club plays for whists
    # only). Its pulkas and evenings then show each player's amount and who pays whom.
    whist_price = models.DecimalField(
        _("price of a whist"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01")), MaxValueValidator(WHIST_PRICE_MAX)],
        help_text=_("Leave it empty to play for whists only."),
    )
    currency = models.CharField(
        _("currency"), max_length=3, choices=Currency.choices, default=Currency.UAH
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(pool_target__gte=1), name="club_club_pool_target_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(whist_price__isnull=True) | models.Q(whist_price__gt=0),
                name="club_club_whist_price_positive",
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
# The roles a member may hand out by an invitation link, by his own role: only owners invite.
# A link stays good only while its maker may still grant its role (club.invitations).
GRANTABLE: dict[str, frozenset[str]] = {Role.OWNER: frozenset(Role.values)}


def may_grant(maker_role: str | None, role: str) -> bool:
    """Whether a member of `maker_role` (None: no member) may invite people as `role`."""
    return role in GRANTABLE.get(maker_role or "", frozenset())


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


class PlayerQuerySet(models.QuerySet):
    def bulk_create(self, objs, *args, **kwargs):
        """As QuerySet.bulk_create, with each player's name_key filled (save() is skipped)."""
        objs = list(objs)
        for player in objs:
            player.name_key = name_key(player.name)
            player.sort_key = sort_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    """A person on the club roster; the same player plays many evenings.

    `name` is written through club.names.normalise_name by every service; `name_key` is
    derived from it on every save (club.names.name_key) and is what is unique in a club.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=NAME_MAX_LENGTH)
    # Case folding can lengthen a name (ß -> ss; at most three characters for one), and the
    # migration that filled the keys may have marked a clash with a suffix.
    name_key = models.CharField(max_length=255, editable=False)
    # The alphabetical order of names (club.names.collation_key), derived like name_key:
    # every list of names sorts by it, in the database as in Python.
    sort_key = models.CharField(max_length=SORT_KEY_MAX_LENGTH, editable=False, default="")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("user account"),
    )
    is_active = models.BooleanField(_("on the roster"), default=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["sort_key", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name_key"], name="club_player_unique_name_key"
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="club_player_one_per_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        self.name_key = name_key(self.name)
        self.sort_key = sort_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key", "sort_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """The roster's rules for forms outside the services (the admin): one spelling, and
        no second player with the same key (the key itself is not a form field)."""
        try:
            self.name = normalise_name(self.name or "")
        except InvalidName as exc:
            raise ValidationError({"name": exc.message}) from exc
        self.name_key = name_key(self.name)
        if self.club_id is not None:
            players = Player.objects.filter(club_id=self.club_id, name_key=self.name_key)
            taken = players.exclude(pk=self.pk).first()
            if taken is not None:
                raise ValidationError(
                    {"name": _("There is already a player called %(name)s.") % {"name": taken.name}}
                )


class RosterMerge(models.Model):
    """The history of the roster: an owner folded a duplicate entry into the player kept.

    The duplicate's row is gone (its seats and results now belong to the kept player), so
    its name and id are kept here as text.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roster_merges")
    kept = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="merges"
    )
    kept_name = models.CharField(_("kept"), max_length=NAME_MAX_LENGTH)
    removed_name = models.CharField(_("merged into it"), max_length=NAME_MAX_LENGTH)
    removed_id = models.PositiveIntegerField()
    pulkas = models.PositiveIntegerField(_("pulkas moved"), default=0)
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    merged_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-merged_at", "-id"]
        verbose_name = _("roster merge")
        verbose_name_plural = _("roster merges")

    def __str__(self) -> str:
        return f"{self.removed_name} -> {self.kept_name}"


class Invitation(models.Model):
    """A link an owner hands out: whoever opens it may join the club with `role`.

    The link is /join/<selector><verifier>/. The selector finds the row (unique, indexed);
    the verifier is compared in constant time (club.invitations.find_invitation), so a
    forged link learns nothing from the time the answer takes. Both are kept as they are,
    not hashed: the owner must be able to show the link and its QR code again until it
    is used up, as the issue asks, like a session key that Django keeps in its table.

    Bound to `player`, the link is for one roster name: accepting links the account to it.
    A bound link is for one person, so it has one use.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.PLAYER)
    # Deleted with the roster name (a roster merge folds it into another): a link for a
    # name that is gone would link nobody; the history keeps that it was made.
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations",
        verbose_name=_("roster name"),
    )
    selector = models.CharField(max_length=16, unique=True, editable=False)
    verifier = models.CharField(max_length=64, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(_("valid until"))
    max_uses = models.PositiveIntegerField(_("uses"), default=1)
    uses = models.PositiveIntegerField(_("used"), default=0)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # An invitation addressed to one person (club.invitations.invitation_address): what the
    # owner typed, a username or an address, and the account it names, if any. Only that
    # person may accept it, or decline it; an open link (addressed_to "") is anybody's.
    addressed_to = models.CharField(_("addressed to"), max_length=254, blank=True)
    addressed_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="invitations_received",
    )
    declined_at = models.DateTimeField(_("declined at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_uses__gte=1), name="club_invitation_max_uses_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(uses__lte=models.F("max_uses")),
                name="club_invitation_uses_within_max",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=True) | models.Q(max_uses=1),
                name="club_invitation_bound_single_use",
            ),
            models.CheckConstraint(
                condition=models.Q(addressed_to="") | models.Q(max_uses=1),
                name="club_invitation_addressed_single_use",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.get_role_display()}"

    def get_absolute_url(self) -> str:
        return reverse("club:invitation-accept", args=[self.token])

    @property
    def token(self) -> str:
        return self.selector + self.verifier

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()

    @property
    def is_used_up(self) -> bool:
        return self.uses >= self.max_uses

    @property
    def is_declined(self) -> bool:
        return self.declined_at is not None

    @property
    def is_addressed(self) -> bool:
        return bool(self.addressed_to)

    @property
    def is_pending(self) -> bool:
        """Still opens the door: neither revoked, nor declined, nor expired, nor used up."""
        return not (self.is_revoked or self.is_declined or self.is_expired or self.is_used_up)


class InvitationUse(models.Model):
    """Who accepted an invitation, and when: one row per account and link."""

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="acceptances")
    # Kept when the account is deleted: the use was spent all the same.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["accepted_at", "id"]
        verbose_name = _("accepted invitation")
        verbose_name_plural = _("accepted invitations")
        constraints = [
            models.UniqueConstraint(
                fields=["invitation", "user"],
                condition=models.Q(user__isnull=False),
                name="club_invitationuse_once_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.invitation}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("waiting")
    APPROVED = "approved", _("approved")
    DECLINED = "declined", _("declined")


class NameClaim(models.Model):
    """A member asks to be linked to an unclaimed name of the club's roster; a secretary
    or an owner approves (club.invitations.name_claim_decide links Player.user) or declines."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="name_claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="name_claims"
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="claims", verbose_name=_("roster name")
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    status = models.CharField(
        _("status"), max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("roster name request")
        verbose_name_plural = _("roster name requests")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="club_nameclaim_one_pending_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} -> {self.player}"


class MembershipAction(models.TextChoices):
    ADDED = "added", _("added")
    INVITED = "invited", _("invitation link made")
    REVOKED = "revoked", _("invitation link revoked")
    LINK_LAPSED = "link_lapsed", _("invitation link ended with its maker's role")
    DECLINED = "declined", _("invitation declined")
    ACCEPTED = "accepted", _("joined by a link")
    ROLE_CHANGED = "role_changed", _("role changed")
    REMOVED = "removed", _("removed")
    CLAIM_REQUESTED = "claim_requested", _("asked for a roster name")
    CLAIM_APPROVED = "claim_approved", _("roster name request approved")
    CLAIM_DECLINED = "claim_declined", _("roster name request declined")


class MembershipEvent(models.Model):
    """The club's membership history: who did what to whose membership, and when.

    Written by the services that change members, roles, invitations and roster names, in
    the same transaction as the change; read by the owner (club:member-events). Names are
    kept as text in `detail` where the row they name may be deleted later.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="membership_events")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(_("what"), max_length=20, choices=MembershipAction.choices)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, blank=True)
    detail = models.CharField(_("detail"), max_length=300, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("membership event")
        verbose_name_plural = _("membership events")
        indexes = [models.Index(fields=["club", "-at"], name="club_memberevent_club_at")]

    def __str__(self) -> str:
        return f"{self.club} · {self.get_action_display()}"


class AccountSettings(models.Model):
    """What an account chose for itself: the language of the pages and of its notices, which
    notices it gets by mail and by Telegram (club.notices), and its linked Telegram chat.

    One row per account that chose something (club.services.account_update); none means
    the defaults (the browser's language, the notices as the field defaults say, no chat).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_settings"
    )
    # Empty: as the browser asks (Accept-Language), or the last language picked on the page.
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    seating_by_mail = models.BooleanField(_("round seating by mail"), default=True)
    seating_by_telegram = models.BooleanField(_("round seating in Telegram"), default=True)
    # A deal awaiting one's confirmation is news at the table, not in the inbox.
    confirm_by_mail = models.BooleanField(_("deals to confirm by mail"), default=False)
    confirm_by_telegram = models.BooleanField(_("deals to confirm in Telegram"), default=True)
    # The Telegram chat the account linked from its page (club.telegram); None: none.
    telegram_chat_id = models.BigIntegerField(null=True, blank=True, unique=True)
    telegram_linked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("account settings")
        verbose_name_plural = _("account settings")

    def __str__(self) -> str:
        return f"{self.user}: {self.language or '-'}"


class TelegramCode(models.Model):
    """A one-time code linking a Telegram chat to an account: the account page makes it, the
    bot's deep link (t.me/<bot>?start=<code>) carries it, the webhook spends it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_codes"
    )
    code = models.CharField(max_length=43, unique=True)
    expires_at = models.DateTimeField()

    class Meta:
        verbose_name = _("Telegram link code")
        verbose_name_plural = _("Telegram link codes")

    def __str__(self) -> str:
        return f"{self.user}: {self.expires_at:%Y-%m-%d %H:%M}"


class NoticeChannel(models.TextChoices):
    MAIL = "mail", _("mail")
    TELEGRAM = "telegram", _("Telegram")
    # The recipient has no address or channel he allows: kept so that pages can count him.
    NONE = "none", _("no address or channel")


class NoticeKind(models.TextChoices):
    SEATING = "seating", _("round seating")
    CONFIRM = "confirm", _("a deal to confirm")


class NoticeState(models.TextChoices):
    PENDING = "pending", _("waiting to be sent")
    SENDING = "sending", _("being sent")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")
    UNREACHABLE = "unreachable", _("no address or channel")


class Notice(models.Model):
    """One notice to one account by one channel about one topic ("round:<id>"), written in
    the recipient's language when queued (club.notices.queue) and sent by a background task.

    Queued again for the same topic (a correction), the row takes the new text and is pending
    again; `queued_at` tells that text from the one a task may be sending at that moment.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=10, choices=NoticeChannel.choices)
    kind = models.CharField(max_length=10, choices=NoticeKind.choices)
    topic = models.CharField(max_length=64)
    subject = models.CharField(max_length=200, blank=True)
    text = models.TextField(blank=True)
    state = models.CharField(
        max_length=12, choices=NoticeState.choices, default=NoticeState.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    queued_at = models.DateTimeField(default=timezone.now)
    # A failed attempt waits until then before the next one (None: at once).
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "channel", "kind", "topic"], name="club_notice_unique_topic"
            ),
        ]
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="club_notice_due"),
            models.Index(fields=["topic", "kind"], name="club_notice_topic"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.topic} to {self.user} by {self.channel}: {self.state}"
