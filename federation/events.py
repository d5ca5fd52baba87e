"""Open events: a member club's tournament that anyone with an account registers for.

- **Opening** (`event_open`, `event_update`): the host club's secretary or owner opens a
  tournament of a member club before its round 1 is published: a deadline, a cap (the
  rest wait in order), a fee, categories written one a line ("Мастер: rating 1200-").
- **Registering** (`registration_create`, `registration_cancel`): one live registration an
  account, before the deadline, while registration is open; past the cap on the waiting
  list. The event's row is locked while the places are counted and `position` numbered,
  so that registrations arriving together give exactly the cap. A place freed before the
  event's day goes to the first one waiting, who gets a mail.
- **At the door** (`registration_check_in`, `event_close_door`): the organiser marks who
  came; then one action withdraws the registered ones who did not come (NO_SHOW), moves
  the waiting ones who came up into the freed places in their order, and makes every
  registered one who came an entry of the tournament (competition's entries_add) under
  the host club's roster name for his person (a guest name for another club's player),
  with his category (EntryCategory). Done again, it adds only who is missing.
- **Categories' standings** (`category_lines`, `CategoryPage`, `category_standings_pdf`):
  the tournament's standings filtered to a category's entries, places renumbered within it.

Every service takes keyword arguments, runs in one transaction and refuses with an
EventError in the user's words, changing nothing.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from email.mime.image import MIMEImage
from functools import cached_property

import segno
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sites.models import Site
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Case, Count, Max, Q, QuerySet, Value, When
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from club import selectors as club_selectors
from club.errors import ServiceError
from club.mail import site_url
from club.models import Club, Currency, Membership, Role
from club.names import InvalidName, name_key, normalise_name
from club.params import parse_int
from club.printing import render_pdf
from club.qr import ERROR as QR_ERROR
from club.qr import qr_svg_inline
from competition.lib import tournament_scoring as ts
from competition.models import Entry, RoundState, Tournament
from competition.tournament import printouts
from competition.tournament.services import TournamentServiceError, entries_add
from competition.tournament.standings import StandingsPage
from federation import persons
from federation.models import (
    Category,
    Eligibility,
    EntryCategory,
    Federation,
    MemberClub,
    MemberState,
    OpenEvent,
    Person,
    RatingList,
    Registration,
    RegistrationState,
)
from scoring.money import Stake

log = logging.getLogger(__name__)

#: Categories an event may have, and the longest name of one.
CATEGORIES_MAX = 10
CATEGORY_NAME_MAX = Category._meta.get_field("name").max_length
#: The highest rating bound a category may name.
RATING_BOUND_MAX = 100_000
#: Live registrations (registered and waiting) an event holds: past it, nobody more.
REGISTRATIONS_MAX = 2000
#: Times one account may register for one event (cancelling between).
REGISTRATIONS_PER_ACCOUNT = 5
#: The most matches the check-in search shows, and the tournaments the opening form offers.
SEARCH_MAX = 20
OPENABLE_MAX = 100
#: The highest fee an event may ask.
FEE_MAX = Decimal("100000")
#: The events the list shows, upcoming and past each.
EVENTS_LISTED = 50

LIVE = (RegistrationState.REGISTERED, RegistrationState.WAITING)


class EventError(ServiceError):
    pass


# --- categories written as text -------------------------------------------------------------


@dataclass(frozen=True)
class CategorySpec:
    """A category as the organiser writes it: its name, who may enter, the rating bounds."""

    name: str
    eligibility: str = Eligibility.ANYONE
    rating_min: int | None = None
    rating_max: int | None = None


#: The rules' keywords, which the organiser may type in English or in the page's language.
_RULE_WORDS = {
    "anyone": pgettext_lazy("category rule", "anyone"),
    "chosen": pgettext_lazy("category rule", "chosen"),
    "rating": pgettext_lazy("category rule", "rating"),
}


def _keywords(english: str) -> set[str]:
    """A rule's keyword in English and in the active language."""
    return {english, str(_RULE_WORDS[english]).casefold()}


_BOUNDS = re.compile(r"(?P<low>[0-9]*)\s*-\s*(?P<high>[0-9]*)")


def _bound(text: str, line: int) -> int | None:
    if text == "":
        return None
    number = parse_int(text)
    if number is None or number > RATING_BOUND_MAX:
        raise EventError(
            _("Line %(line)s: a rating bound is a whole number up to %(max)s.")
            % {"line": line, "max": f"{RATING_BOUND_MAX:,}".replace(",", " ")},
            field="categories",
        )
    return number


def _rule(text: str, line: int) -> tuple[str, int | None, int | None]:
    """The part after the colon: "", "anyone", "chosen", "rating 1200-", "rating 1200-1500"."""
    words = text.casefold().split(None, 1)
    if not words or words[0] in _keywords("anyone"):
        if len(words) > 1:
            raise _not_understood(line)
        return Eligibility.ANYONE, None, None
    if words[0] in _keywords("chosen"):
        if len(words) > 1:
            raise _not_understood(line)
        return Eligibility.CHOSEN, None, None
    if words[0] in _keywords("rating") and len(words) == 2:
        found = _BOUNDS.fullmatch(words[1].strip())
        if found is None:
            raise _not_understood(line)
        low, high = _bound(found["low"], line), _bound(found["high"], line)
        if low is None and high is None:
            raise _not_understood(line)
        if low is not None and high is not None and low >= high:
            raise EventError(
                _("Line %(line)s: the rating range is empty (%(low)s to below %(high)s).")
                % {"line": line, "low": low, "high": high},
                field="categories",
            )
        return Eligibility.RATING, low, high
    raise _not_understood(line)


def _not_understood(line: int) -> EventError:
    return EventError(
        _(
            'Line %(line)s is not understood: write "Name", "Name: chosen", or "Name: '
            'rating 1200-" (from 1200), "Name: rating -1200" (below 1200), "Name: rating '
            '1200-1500".'
        )
        % {"line": line},
        field="categories",
    )


def categories_from_text(text: str) -> list[CategorySpec]:
    """The categories written one a line, in order (empty lines left out).

    >>> [(c.name, c.eligibility, c.rating_min, c.rating_max) for c in categories_from_text(
    ...     "Любитель: rating -1200\\nМастер: rating 1200-\\n\\nWomen: chosen\\nJuniors")]
    [('Любитель', 'rating', None, 1200), ('Мастер', 'rating', 1200, None), \
('Women', 'chosen', None, None), ('Juniors', 'anyone', None, None)]
    """
    lines = [(n, line) for n, line in enumerate(text.splitlines()[:1000], start=1) if line.strip()]
    if len(lines) > CATEGORIES_MAX:
        raise EventError(
            _("At most %(max)s categories.") % {"max": CATEGORIES_MAX}, field="categories"
        )
    specs: list[CategorySpec] = []
    seen: set[str] = set()
    for number, line in lines:
        name, _colon, rule = line.partition(":")
        try:
            name = normalise_name(name, max_length=CATEGORY_NAME_MAX)
        except InvalidName as exc:
            raise EventError(
                _("Line %(line)s: %(problem)s") % {"line": number, "problem": exc.message},
                field="categories",
            ) from exc
        key = name_key(name)
        if key in seen:
            raise EventError(
                _("Line %(line)s: the category %(name)s is named twice.")
                % {"line": number, "name": name},
                field="categories",
            )
        seen.add(key)
        eligibility, low, high = _rule(rule.strip(), number)
        specs.append(CategorySpec(name, eligibility, low, high))
    return specs


def categories_to_text(categories: Iterable[Category]) -> str:
    """The event's categories as the settings form shows them (categories_from_text reads it
    back)."""
    lines = []
    for category in categories:
        if category.eligibility == Eligibility.CHOSEN:
            lines.append(f"{category.name}: {pgettext('category rule', 'chosen')}")
        elif category.eligibility == Eligibility.RATING:
            low = "" if category.rating_min is None else category.rating_min
            high = "" if category.rating_max is None else category.rating_max
            lines.append(f"{category.name}: {pgettext('category rule', 'rating')} {low}-{high}")
        else:
            lines.append(category.name)
    return "\n".join(lines)


def category_rule_text(category: Category) -> str:
    """Who may enter the category, in words."""
    if category.eligibility == Eligibility.CHOSEN:
        return _("the organiser's choice")
    if category.eligibility == Eligibility.RATING:
        low, high = category.rating_min, category.rating_max
        if low is not None and high is not None:
            return _("federation rating from %(low)s to below %(high)s") % {
                "low": low,
                "high": high,
            }
        if low is not None:
            return _("federation rating from %(low)s") % {"low": low}
        return _("federation rating below %(high)s") % {"high": high}
    return _("anyone")


def is_eligible(category: Category, rating: float | None) -> bool:
    """Whether someone of this federation rating (None: unrated) may choose the category
    himself: ANYONE always, RATING within [rating_min, rating_max) (an unrated player not
    where there is a minimum), CHOSEN never (the organiser puts players in it).

    >>> rated = Category(eligibility=Eligibility.RATING, rating_min=1200)
    >>> is_eligible(rated, 1250.5), is_eligible(rated, 1199.9), is_eligible(rated, None)
    (True, False, False)
    >>> is_eligible(Category(eligibility=Eligibility.RATING, rating_max=1200), None)
    True
    """
    if category.eligibility == Eligibility.CHOSEN:
        return False
    if category.eligibility == Eligibility.RATING:
        if category.rating_min is not None and (rating is None or rating < category.rating_min):
            return False
        if category.rating_max is not None and rating is not None:
            return rating < category.rating_max
    return True


# --- who organises ---------------------------------------------------------------------------


def organises_club(user: AbstractBaseUser, club: Club) -> bool:
    """The club's secretary or owner (a superuser too)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(
        club=club, user=user, role__in=[Role.SECRETARY, Role.OWNER]
    ).exists()


def is_member_club(federation: Federation, club: Club) -> bool:
    return MemberClub.objects.filter(
        federation=federation, club=club, state=MemberState.MEMBER
    ).exists()


def has_published(tournament: Tournament) -> bool:
    return tournament.rounds.exclude(state=RoundState.DRAFT).exists()


# --- selectors -------------------------------------------------------------------------------


def events_of(federation: Federation) -> tuple[list[OpenEvent], list[OpenEvent]]:
    """The federation's open events: upcoming (soonest first) and past (latest first), at
    most EVENTS_LISTED each."""
    today = timezone.localdate()
    events = OpenEvent.objects.filter(federation=federation).select_related("tournament__club")
    upcoming = events.filter(tournament__start__gte=today).order_by("tournament__start", "pk")
    past = events.filter(tournament__start__lt=today).order_by("-tournament__start", "-pk")
    return list(upcoming[:EVENTS_LISTED]), list(past[:EVENTS_LISTED])


def event_of(federation: Federation, event_id: int) -> OpenEvent:
    """The federation's event (404 for another's, or none)."""
    event = (
        OpenEvent.objects.filter(federation=federation, pk=event_id)
        .select_related("tournament__club")
        .first()
    )
    if event is None:
        raise Http404
    event.federation = federation
    return event


def openable_tournaments(federation: Federation, user: AbstractBaseUser) -> QuerySet[Tournament]:
    """The tournaments this user may open to the federation: of member clubs where he is
    secretary or owner, not open yet, not over, round 1 not published; latest first."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    members = MemberClub.objects.filter(federation=federation, state=MemberState.MEMBER)
    tournaments = Tournament.objects.filter(
        club__in=members.values("club"), finished_at__isnull=True, open_event__isnull=True
    ).exclude(rounds__state__in=[RoundState.PUBLISHED, RoundState.PLAYING, RoundState.CONFIRMED])
    if not user.is_superuser:
        organised = Membership.objects.filter(
            user=user, role__in=[Role.SECRETARY, Role.OWNER]
        ).values("club")
        tournaments = tournaments.filter(club__in=organised)
    return tournaments.select_related("club").order_by("-start", "-pk").distinct()


@dataclass(frozen=True)
class Places:
    registered: int
    waiting: int
    cap: int | None

    @property
    def full(self) -> bool:
        return self.cap is not None and self.registered >= self.cap


def places_of(event: OpenEvent) -> Places:
    counts = Registration.objects.filter(event=event).aggregate(
        registered=_count(RegistrationState.REGISTERED), waiting=_count(RegistrationState.WAITING)
    )
    return Places(counts["registered"], counts["waiting"], event.cap)


def _count(state: str) -> Count:
    return Count("pk", filter=Q(state=state))


def live_registration(event: OpenEvent, user: AbstractBaseUser) -> Registration | None:
    if not user.is_authenticated:
        return None
    return (
        Registration.objects.filter(event=event, user=user, state__in=LIVE)
        .select_related("category")
        .first()
    )


def last_registration(event: OpenEvent, user: AbstractBaseUser) -> Registration | None:
    """His registration as it stands: the live one, else his latest (cancelled, no-show)."""
    if not user.is_authenticated:
        return None
    return (
        Registration.objects.filter(event=event, user=user)
        .select_related("category")
        .order_by(
            # The live one first, then the latest.
            Case(When(state__in=LIVE, then=Value(0)), default=Value(1)),
            "-position",
        )
        .first()
    )


def waiting_place(registration: Registration) -> int | None:
    """His place on the waiting list (1: the next to move up); None when not waiting."""
    if registration.state != RegistrationState.WAITING:
        return None
    ahead = Registration.objects.filter(
        event_id=registration.event_id,
        state=RegistrationState.WAITING,
        position__lt=registration.position,
    ).count()
    return ahead + 1


def registrations_of(event: OpenEvent) -> list[Registration]:
    """The registered (in order), then the waiting (in order), then the others (at most the
    latest 200): the organiser's list."""
    rows = Registration.objects.filter(event=event).select_related("user", "category")
    live = list(rows.filter(state__in=LIVE).order_by("position"))
    registered = [one for one in live if one.state == RegistrationState.REGISTERED]
    waiting = [one for one in live if one.state == RegistrationState.WAITING]
    for number, one in enumerate(waiting, start=1):
        one.waiting_place = number
    others = list(rows.exclude(state__in=LIVE).order_by("-position")[:200])
    return [*registered, *waiting, *others]


def registrations_found(event: OpenEvent, query: str) -> list[Registration]:
    """The live registrations whose name holds `query` (any case, any alphabet), at most
    SEARCH_MAX, in the order of the list."""
    key = name_key(query)
    if not key:
        return []
    rows = Registration.objects.filter(event=event, state__in=LIVE).select_related("category")
    found = []
    for one in rows.order_by("state", "position"):  # REGISTERED sorts before WAITING
        if key in name_key(one.name):
            found.append(one)
            if len(found) == SEARCH_MAX:
                break
    return found


def registration_by_code(event: OpenEvent, code: str) -> Registration:
    registration = (
        Registration.objects.filter(event=event, code=code[:40])
        .select_related("category", "user")
        .first()
    )
    if registration is None:
        raise Http404
    return registration


def rating_of(federation: Federation, person: Person | None) -> float | None:
    if person is None:
        return None
    return (
        RatingList.objects.filter(federation=federation, person=person)
        .values_list("rating", flat=True)
        .first()
    )


def person_of(federation: Federation, user: AbstractBaseUser) -> Person | None:
    """The user's person in the federation (not a merged one)."""
    if not user.is_authenticated:
        return None
    return Person.objects.filter(federation=federation, user=user, merged_into__isnull=True).first()


def categories_for(event: OpenEvent, person: Person | None) -> list[Category]:
    """The categories he may choose himself when he registers (is_eligible)."""
    rating = rating_of(event.federation, person)
    return [one for one in event.categories.all() if is_eligible(one, rating)]


def fee_text(event: OpenEvent) -> str:
    """ "150 ₴", or "" for a free event."""
    if event.fee is None:
        return ""
    return Stake(price=event.fee, currency=event.currency).price_text


def default_name(federation: Federation, user: AbstractBaseUser) -> str:
    """The name the registration form starts with: his person's, else his account's."""
    person = person_of(federation, user)
    name = person.name if person else (user.get_full_name() or user.get_username())
    try:
        return normalise_name(name)
    except InvalidName:
        return ""


def check_in_path(registration: Registration, federation: Federation | None = None) -> str:
    federation = federation or registration.event.federation
    return reverse(
        "federation:event-check-in-code",
        args=[federation.slug, registration.event_id, registration.code],
    )


def check_in_url(registration: Registration, federation: Federation | None = None) -> str:
    """What the registration's QR code carries: the check-in address on the site's domain."""
    return site_url(check_in_path(registration, federation))


def registration_qr_svg(registration: Registration, federation: Federation) -> SafeString:
    """The QR code of his check-in address, as markup for his page."""
    # segno escapes the title and writes the rest itself: the markup is safe to embed.
    return mark_safe(  # noqa: S308
        qr_svg_inline(check_in_url(registration, federation), title=_("Check-in code"))
    )


def registration_qr_png(url: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(url, error=QR_ERROR, micro=False).save(buffer, kind="png", scale=6, border=4)
    return buffer.getvalue()


# --- opening ---------------------------------------------------------------------------------


def _check_terms(
    *, deadline: datetime.datetime, cap: int | None, fee: Decimal | None, currency: str
) -> None:
    if cap is not None and not 3 <= cap <= 1000:
        raise EventError(_("The places are 3 to 1,000, or empty for no limit."), field="cap")
    if fee is not None and not Decimal("0.01") <= fee <= FEE_MAX:
        raise EventError(
            _("The fee is from 0.01 to %(max)s, or empty for a free event.") % {"max": FEE_MAX},
            field="fee",
        )
    if currency not in Currency.values:
        raise EventError(_("Choose a currency."), field="currency")
    if deadline is None:
        raise EventError(_("Say when registration closes."), field="deadline")


def _future(deadline: datetime.datetime) -> None:
    if deadline <= timezone.now():
        raise EventError(_("Registration must close later than now."), field="deadline")


def _lock_tournament(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    return locked


@transaction.atomic
def event_open(
    *,
    federation: Federation,
    tournament: Tournament,
    deadline: datetime.datetime,
    cap: int | None = None,
    fee: Decimal | None = None,
    currency: str = "",
    counts_for_federation: bool = True,
    categories: Sequence[CategorySpec] = (),
) -> OpenEvent:
    """Open a member club's tournament to the federation (before its round 1 is out)."""
    tournament = _lock_tournament(tournament)
    currency = currency or tournament.club.currency
    if not is_member_club(federation, tournament.club):
        raise EventError(
            _("%(club)s is not a member of %(federation)s.")
            % {"club": tournament.club.name, "federation": federation.name},
            field="tournament",
        )
    if OpenEvent.objects.filter(tournament=tournament).exists():
        raise EventError(_("This tournament is open already."), field="tournament")
    if tournament.finished_at is not None:
        raise EventError(_("This tournament is over."), field="tournament")
    if has_published(tournament):
        raise EventError(
            _("Round 1 of this tournament is published: it can no longer be opened."),
            field="tournament",
        )
    _check_terms(deadline=deadline, cap=cap, fee=fee, currency=currency)
    _future(deadline)
    _check_categories(categories)
    event = OpenEvent.objects.create(
        tournament=tournament,
        federation=federation,
        deadline=deadline,
        cap=cap,
        fee=fee,
        currency=currency,
        counts_for_federation=counts_for_federation,
    )
    Category.objects.bulk_create(
        Category(
            event=event,
            name=spec.name,
            eligibility=spec.eligibility,
            rating_min=spec.rating_min,
            rating_max=spec.rating_max,
            position=number,
        )
        for number, spec in enumerate(categories)
    )
    return event


def _check_categories(categories: Sequence[CategorySpec]) -> None:
    if len(categories) > CATEGORIES_MAX:
        raise EventError(
            _("At most %(max)s categories.") % {"max": CATEGORIES_MAX}, field="categories"
        )


def _lock(event: OpenEvent) -> OpenEvent:
    locked = OpenEvent.objects.select_for_update().get(pk=event.pk)
    locked.federation = event.federation
    locked.tournament = Tournament.objects.select_related("club").get(pk=locked.tournament_id)
    return locked


@transaction.atomic
def event_update(
    *,
    event: OpenEvent,
    deadline: datetime.datetime,
    cap: int | None,
    fee: Decimal | None,
    currency: str,
    counts_for_federation: bool,
    categories: Sequence[CategorySpec],
) -> list[Registration]:
    """Change the event's terms and categories. A cap below those registered, a category
    removed that someone is in, is refused. A cap raised before the event's day moves the
    waiting list up: those moved up are returned (and mailed)."""
    event = _lock(event)
    _check_terms(deadline=deadline, cap=cap, fee=fee, currency=currency)
    if deadline != event.deadline:
        _future(deadline)
    registered = Registration.objects.filter(
        event=event, state=RegistrationState.REGISTERED
    ).count()
    if cap is not None and cap < registered:
        raise EventError(
            ngettext(
                "%(count)s is registered: the places cannot be fewer.",
                "%(count)s are registered: the places cannot be fewer.",
                registered,
            )
            % {"count": registered},
            field="cap",
        )
    _check_categories(categories)
    _categories_sync(event, categories)
    event.deadline, event.cap, event.fee, event.currency = deadline, cap, fee, currency
    event.counts_for_federation = counts_for_federation
    event.save(update_fields=["deadline", "cap", "fee", "currency", "counts_for_federation"])
    return _move_up(event) if _before_the_day(event) else []


def _categories_sync(event: OpenEvent, specs: Sequence[CategorySpec]) -> None:
    existing = {name_key(one.name): one for one in event.categories.all()}
    wanted = {name_key(spec.name) for spec in specs}
    gone = [one for key, one in existing.items() if key not in wanted]
    for one in gone:
        if one.registrations.exists() or one.entries.exists():
            raise EventError(
                _("Players are in the category %(name)s: it cannot be removed.")
                % {"name": one.name},
                field="categories",
            )
    Category.objects.filter(pk__in=[one.pk for one in gone]).delete()
    for number, spec in enumerate(specs):
        one = existing.get(name_key(spec.name)) or Category(event=event)
        one.name, one.eligibility, one.position = spec.name, spec.eligibility, number
        one.rating_min, one.rating_max = spec.rating_min, spec.rating_max
        one.save()


@transaction.atomic
def event_registration_set(*, event: OpenEvent, open: bool) -> OpenEvent:
    """Close registration, or open it again."""
    event = _lock(event)
    event.registration_open = open
    event.save(update_fields=["registration_open"])
    return event


# --- registering -----------------------------------------------------------------------------


def person_for(federation: Federation, user: AbstractBaseUser, name: str) -> Person:
    """His person in the federation: the one with his account, else a new one of this name."""
    person, _created = Person.objects.get_or_create(
        federation=federation, user=user, merged_into=None, defaults={"name": name}
    )
    return person


def _before_the_day(event: OpenEvent) -> bool:
    return timezone.localdate() < event.tournament.start


def registration_closed(event: OpenEvent) -> str:
    """Why nobody can register now ("" while one can)."""
    if not event.registration_open:
        return _("Registration for this event is closed.")
    if timezone.now() >= event.deadline:
        return _("Registration for this event closed at its deadline.")
    if event.tournament.finished_at is not None or has_published(event.tournament):
        return _("This tournament has begun: registration is over.")
    return ""


@transaction.atomic
def registration_create(
    *, event: OpenEvent, user: AbstractBaseUser, name: str, category: Category | None = None
) -> Registration:
    """Register him: in a place while there is one, else on the waiting list. A mail with
    his check-in code follows once the registration is saved."""
    event = _lock(event)
    closed = registration_closed(event)
    if closed:
        raise EventError(closed)
    try:
        name = normalise_name(name)
    except InvalidName as exc:
        raise EventError(exc.message, field="name") from exc
    rows = Registration.objects.filter(event=event)
    if rows.filter(user=user, state__in=LIVE).exists():
        raise EventError(_("You are registered for this event already."))
    if rows.filter(user=user).count() >= REGISTRATIONS_PER_ACCOUNT:
        raise EventError(_("You have registered for this event too often."))
    if rows.filter(state__in=LIVE).count() >= REGISTRATIONS_MAX:
        raise EventError(_("The waiting list of this event is full."))
    person = person_for(event.federation, user, name)
    offered = categories_for(event, person)
    if category is not None and category.pk not in {one.pk for one in offered}:
        raise EventError(_("You may not enter that category."), field="category")
    if category is None and offered:
        raise EventError(_("Choose your category."), field="category")
    registered = rows.filter(state=RegistrationState.REGISTERED).count()
    full = event.cap is not None and registered >= event.cap
    position = (rows.aggregate(last=Max("position"))["last"] or 0) + 1
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                event=event,
                user=user,
                person=person,
                name=name,
                category=category,
                state=RegistrationState.WAITING if full else RegistrationState.REGISTERED,
                position=position,
            )
    except IntegrityError as exc:  # the lock makes this a bug, not a race
        raise EventError(_("You are registered for this event already.")) from exc
    registration.event = event
    _mail_later(registration.pk, MAIL_REGISTERED)
    return registration


def _locked_registration(registration: Registration) -> tuple[OpenEvent, Registration]:
    event = _lock(registration.event)
    found = Registration.objects.select_related("category").get(pk=registration.pk)
    found.event = event
    return event, found


@transaction.atomic
def registration_cancel(*, registration: Registration) -> Registration | None:
    """Cancel his registration. A place freed before the event's day goes to the first one
    waiting (returned, and mailed)."""
    event, registration = _locked_registration(registration)
    if registration.state not in LIVE:
        raise EventError(_("This registration is cancelled already."))
    freed = registration.state == RegistrationState.REGISTERED
    registration.state = RegistrationState.CANCELLED
    registration.save(update_fields=["state"])
    if freed and _before_the_day(event) and not has_published(event.tournament):
        moved = _move_up(event)
        return moved[0] if moved else None
    return None


def _move_up(event: OpenEvent) -> list[Registration]:
    """The waiting ones in order into the free places (the event's row is locked)."""
    waiting = Registration.objects.filter(event=event, state=RegistrationState.WAITING)
    if event.cap is None:
        moved = list(waiting.order_by("position"))
    else:
        registered = Registration.objects.filter(
            event=event, state=RegistrationState.REGISTERED
        ).count()
        moved = list(waiting.order_by("position")[: max(event.cap - registered, 0)])
    Registration.objects.filter(pk__in=[one.pk for one in moved]).update(
        state=RegistrationState.REGISTERED
    )
    for one in moved:
        one.state = RegistrationState.REGISTERED
        _mail_later(one.pk, MAIL_MOVED_UP)
    return moved


@transaction.atomic
def registration_paid(*, registration: Registration, paid: bool) -> Registration:
    _event, registration = _locked_registration(registration)
    registration.paid = paid
    registration.save(update_fields=["paid"])
    return registration


@transaction.atomic
def registration_category_set(
    *, registration: Registration, category: Category | None
) -> Registration:
    """The organiser puts him in a category (any of the event's, CHOSEN ones too) or none;
    once the entries are made, his entry's category follows."""
    event, registration = _locked_registration(registration)
    if category is not None and category.event_id != event.pk:
        raise EventError(_("Choose one of this event's categories."), field="category")
    old = registration.category
    registration.category = category
    registration.save(update_fields=["category"])
    entry = _entry_of(event, registration)
    if entry is not None:
        if old is not None:
            EntryCategory.objects.filter(entry=entry, category=old).delete()
        if category is not None:
            EntryCategory.objects.get_or_create(entry=entry, category=category)
    return registration


def _entry_of(event: OpenEvent, registration: Registration) -> Entry | None:
    if registration.player_id is None:
        return None
    return Entry.objects.filter(
        tournament_id=event.tournament_id, player_id=registration.player_id
    ).first()


@transaction.atomic
def registration_check_in(*, registration: Registration) -> bool:
    """Mark that he came (False: he was checked in already, nothing changed)."""
    _event, registration = _locked_registration(registration)
    if registration.state == RegistrationState.CANCELLED:
        raise EventError(_("This registration was cancelled."))
    if registration.state == RegistrationState.NO_SHOW:
        raise EventError(_("This player was withdrawn as a no-show."))
    if registration.checked_in_at is not None:
        return False
    registration.checked_in_at = timezone.now()
    registration.save(update_fields=["checked_in_at"])
    return True


@dataclass(frozen=True)
class DoorResult:
    no_shows: list[str]
    moved_up: list[str]
    entered: list[str]


@transaction.atomic
def event_close_door(*, event: OpenEvent) -> DoorResult:
    """Before round 1: the registered ones who did not come are withdrawn (NO_SHOW), the
    waiting ones who came move up into the freed places in their order (up to the cap), and
    every registered one who came becomes an entry of the tournament, with his category.
    Done again, it only adds who is missing."""
    event = _lock(event)
    tournament = event.tournament
    if has_published(tournament) or tournament.finished_at is not None:
        raise EventError(_("Round 1 is published: the entries are made on the tournament's page."))
    rows = Registration.objects.filter(event=event)
    absent = rows.filter(state=RegistrationState.REGISTERED, checked_in_at__isnull=True)
    no_shows = list(absent.order_by("position").values_list("name", flat=True))
    absent.update(state=RegistrationState.NO_SHOW)
    came = rows.filter(checked_in_at__isnull=False)
    waiting = came.filter(state=RegistrationState.WAITING).order_by("position")
    if event.cap is not None:
        free = event.cap - rows.filter(state=RegistrationState.REGISTERED).count()
        waiting = waiting[: max(free, 0)]
    moved = list(waiting)
    rows.filter(pk__in=[one.pk for one in moved]).update(state=RegistrationState.REGISTERED)
    entered = _make_entries(event, list(came.filter(state=RegistrationState.REGISTERED)))
    return DoorResult(no_shows, [one.name for one in moved], entered)


def _make_entries(event: OpenEvent, registrations: list[Registration]) -> list[str]:
    """Each registration's roster name of the host club (persons.roster_name_for), entered
    where it is not yet, and his category."""
    club = event.tournament.club
    for one in registrations:
        if one.player_id is None:
            person = one.person or person_for(event.federation, one.user, one.name)
            player = persons.roster_name_for(club=club, person=person, user=one.user)
            one.person, one.player = person, player
            one.save(update_fields=["person", "player"])
    entered = set(
        Entry.objects.filter(tournament=event.tournament).values_list("player_id", flat=True)
    )
    new = [one for one in registrations if one.player_id not in entered]
    if new:
        try:
            entries_add(tournament=event.tournament, names=[one.player.name for one in new])
        except TournamentServiceError as exc:
            raise EventError(exc.message) from exc
    entries = dict(
        Entry.objects.filter(
            tournament=event.tournament, player_id__in=[one.player_id for one in registrations]
        ).values_list("player_id", "pk")
    )
    EntryCategory.objects.bulk_create(
        [
            EntryCategory(entry_id=entries[one.player_id], category_id=one.category_id)
            for one in registrations
            if one.category_id is not None
        ],
        ignore_conflicts=True,
    )
    return [one.player.name for one in new]


# --- the mails -------------------------------------------------------------------------------

MAIL_REGISTERED = "registered"
MAIL_MOVED_UP = "moved_up"
QR_CID = "check-in-code"


def _mail_later(registration_id: int, kind: str) -> None:
    transaction.on_commit(lambda: send_registration_mail(registration_id, kind))


def send_registration_mail(registration_id: int, kind: str = MAIL_REGISTERED) -> bool:
    """Mail him his registration (in his language): the event, his state (with his place on
    the waiting list) and the QR code of his check-in address, attached inline. False when
    he has no address; a mail server that fails is logged, never raised."""
    registration = (
        Registration.objects.select_related(
            "user", "category", "event__federation", "event__tournament__club"
        )
        .filter(pk=registration_id)
        .first()
    )
    if registration is None or not registration.user.email:
        return False
    event = registration.event
    language = club_selectors.account_language(registration.user) or translation.get_language()
    link = check_in_url(registration, event.federation)
    with translation.override(language):
        context = {
            "registration": registration,
            "event": event,
            "tournament": event.tournament,
            "club": event.tournament.club,
            "federation": event.federation,
            "kind": kind,
            "waiting_place": waiting_place(registration),
            "fee": fee_text(event),
            "check_in_url": link,
            "page_url": site_url(
                reverse("federation:event-me", args=[event.federation.slug, event.pk])
            ),
            "qr_cid": QR_CID,
            "site_name": Site.objects.get_current().name,
        }
        subject = render_to_string("federation/mail/event_subject.txt", context).strip()
        text = render_to_string("federation/mail/event_message.txt", context)
        html = render_to_string("federation/mail/event_message.html", context)
    message = EmailMultiAlternatives(subject, text, None, [registration.user.email])
    message.mixed_subtype = "related"
    message.attach_alternative(html, "text/html")
    image = MIMEImage(registration_qr_png(link), "png")
    image.add_header("Content-ID", f"<{QR_CID}>")
    image.add_header("Content-Disposition", "inline", filename="check-in.png")
    message.attach(image)
    try:
        message.send()
    except OSError:
        log.exception("The registration %s could not be mailed", registration_id)
        return False
    return True


# --- categories' standings -------------------------------------------------------------------


def category_lines(lines: Sequence[ts.Line], players: set[int]) -> tuple[ts.Line, ...]:
    """The lines of these players, in the standings' order, their places renumbered from 1
    within them: tied lines (an equal place in the standings) keep an equal place.

    >>> from fractions import Fraction
    >>> def line(player, place):
    ...     return ts.Line(player, place, Fraction(0), Fraction(0), Fraction(0), Fraction(0), 0,
    ...                    Fraction(0), Fraction(0), lot=None, rounds={})
    >>> lines = [line(1, 1), line(2, 2), line(3, 2), line(4, 4), line(5, 5)]
    >>> [(one.player, one.place) for one in category_lines(lines, {2, 3, 5})]
    [(2, 1), (3, 1), (5, 3)]
    """
    kept: list[ts.Line] = []
    last_place = None  # the standings' place of the last line kept
    for line in lines:
        if line.player not in players:
            continue
        place = kept[-1].place if kept and line.place == last_place else len(kept) + 1
        kept.append(replace(line, place=place))
        last_place = line.place
    return tuple(kept)


def category_players(category: Category) -> set[int]:
    return set(category.entries.values_list("entry__player_id", flat=True))


class CategoryPage:
    """A tournament's StandingsPage seen through one category: the same columns and cells
    (competition.tournament.tables.TournamentStandingsTable reads it as a page), its lines
    filtered to the category's entries with places renumbered."""

    def __init__(self, page: StandingsPage, category: Category, players: set[int]) -> None:
        self._page = page
        self.category = category
        self.players = players

    def __getattr__(self, name: str):
        return getattr(self._page, name)

    @cached_property
    def standings(self) -> ts.TournamentStandings:
        whole = self._page.standings
        return replace(whole, lines=category_lines(whole.lines, self.players))


def category_standings_context(event: OpenEvent, category: Category) -> dict:
    """The tournament's standings printout (competition.tournament.printouts), its lines
    filtered to the category's entries and renumbered, the category in its title."""
    tournament = event.tournament
    context = printouts.standings_context(tournament)
    names = set(
        category.entries.values_list("entry__player__name", flat=True)
    )  # a name is one player in a club
    rows = [row for row in context["rows"] if row.name in names]
    renumbered = []
    for number, row in enumerate(rows):
        tied = number and rows[number - 1].place == row.place
        place = renumbered[-1].place if tied else number + 1
        renumbered.append(replace(row, place=place, first_outside=False))
    context.update(
        rows=renumbered,
        penalties=[one for one in context["penalties"] if one["name"] in names],
        title=_("%(category)s: %(title)s") % {"category": category.name, "title": context["title"]},
    )
    return context


def category_standings_pdf(event: OpenEvent, category: Category) -> bytes:
    """The category's printout, kept in the cache under the standings' version, the
    category's entries and the language (the same PDF until something it prints changes)."""
    tournament = event.tournament
    version = printouts.standings_version(tournament.club, tournament_id=tournament.pk)
    players = sorted(category_players(category))
    key = hashlib.blake2b(
        repr((version, category.pk, category.name, players, translation.get_language())).encode(),
        digest_size=16,
    ).hexdigest()
    cached = cache.get(f"event-category-pdf:{key}")
    if cached is not None:
        return cached
    content = render_pdf(
        "competition/print/standings.html",
        category_standings_context(event, category),
        stylesheet=printouts.STYLESHEET,
    )
    cache.set(f"event-category-pdf:{key}", content, 60 * 60)
    return content
