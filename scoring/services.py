"""Writes to pulkas and deals: the only code that changes them.

Each service takes keyword-only arguments, runs in one transaction, locks the pulka row,
validates by replaying every deal (plus the change) through scoring.engine, then saves,
writes the revision row, bumps the pulka's version and rebuilds the result cache.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from club import selectors as club_selectors
from club.errors import ServiceError
from club.models import Club, Membership, Player, Role
from club.services import ClubError, club_results_bump, roster_players_for_names
from scoring import engine, live, selectors
from scoring.clock import TimeRule, last_deal
from scoring.messages import engine_problem_text
from scoring.models import (
    MAX_DEALS,
    Deal,
    DealCheck,
    DealRevision,
    Evening,
    PairResultCache,
    Pulka,
    PulkaResultCache,
    PulkaStatus,
    RevisionAction,
    Seat,
    StatusChange,
)
from scoring.signals import results_changed


class ScoringError(ServiceError):
    """A change the rules or the pulka's state refuse, in words for the secretary."""


class DealAlreadyRecorded(ScoringError):
    """The same entry form came again (a retry, a double post): its deal is recorded once.

    Not a mistake of the secretary's: the answer is the sheet as it stands, with a notice.
    """

    def __init__(self, number: int) -> None:
        super().__init__(_("Deal %(number)s is already recorded.") % {"number": number})
        self.number = number


class DealNumberTaken(ScoringError):
    """Another entry recorded this deal number first: the secretary checks it before going on."""


def _user(user: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def _who(pulka: Pulka, user_id: int | None) -> str:
    """How the club's pages name the account that did something: as the deal log does
    (club.selectors.display_names), never by its login."""
    if user_id is None:
        return str(club_selectors.ROLE_WORDS[None])
    return club_selectors.display_names(pulka.evening.club, [user_id])[user_id]


def _announce(pulka: Pulka) -> None:
    """Tell the spectators' polls that this pulka changed (scoring.live).

    `pulka` is the caller's object: the views read it with its evening and club, so this
    costs no query there.
    """
    live.table_changed(
        pulka_id=pulka.pk, evening_id=pulka.evening_id, club_slug=pulka.evening.club.slug
    )


def _locked(pulka: Pulka) -> tuple[Pulka, list[str], list[Deal]]:
    """Lock the pulka row and read its seats and deals as they are now."""
    locked = Pulka.objects.select_for_update().get(pk=pulka.pk)
    names = list(
        Seat.objects.filter(pulka=locked)
        .order_by("position")
        .values_list("player__name", flat=True)
    )
    deals = list(Deal.objects.filter(pulka=locked).order_by("number"))
    return locked, names, deals


def _replay(
    pulka: Pulka,
    names: list[str],
    deals: Sequence[engine.Deal],
    describe: Callable[[engine.PulkaError], str] | None = None,
) -> engine.Sheet:
    """The sheet of these deals, or a ScoringError in the secretary's words (`describe`
    says an engine problem when the deals are numbered otherwise than on her screen)."""
    try:
        return engine.compute_sheet(
            pulka.engine_rules(), names, deals, first_dealer=names[pulka.first_dealer]
        )
    except engine.PulkaError as exc:
        raise ScoringError((describe or engine_message)(exc)) from exc


def _after_correction(number: int) -> Callable[[engine.PulkaError], str]:
    """A problem found replaying the pulka with deal `number` corrected."""

    def describe(exc: engine.PulkaError) -> str:
        if exc.deal_number is None or exc.deal_number <= number:
            return engine_message(exc)
        return _(
            "Deal %(number)s cannot be corrected so: with the correction, "
            "deal %(later)s breaks the rules: %(problem)s"
        ) % {"number": number, "later": exc.deal_number, "problem": engine_problem_text(exc)}

    return describe


def _after_deletion(number: int) -> Callable[[engine.PulkaError], str]:
    """A problem found replaying the pulka without deal `number`: the later deals are
    named by the numbers the secretary sees (each one more than in the replay)."""

    def describe(exc: engine.PulkaError) -> str:
        if exc.deal_number is None or exc.deal_number < number:
            return engine_message(exc)
        return _(
            "Deal %(number)s cannot be deleted: without it, deal %(later)s breaks the rules: "
            "%(problem)s"
        ) % {"number": number, "later": exc.deal_number + 1, "problem": engine_problem_text(exc)}

    return describe


def _after_insertion(before: int) -> Callable[[engine.PulkaError], str]:
    """A problem found replaying the pulka with a deal inserted before deal `before`: the
    new deal is named as such, the later ones by the numbers the secretary sees now."""

    def describe(exc: engine.PulkaError) -> str:
        problem = engine_problem_text(exc)
        if exc.deal_number is None or exc.deal_number < before:
            return engine_message(exc)
        if exc.deal_number == before:
            return _("The deal to insert before deal %(before)s: %(problem)s") % {
                "before": before,
                "problem": problem,
            }
        return _(
            "The deal cannot be inserted before deal %(before)s: with it, deal %(later)s "
            "breaks the rules: %(problem)s"
        ) % {"before": before, "later": exc.deal_number - 1, "problem": problem}

    return describe


# The longest reason a judge's correction keeps.
REASON_MAX = 500


def _judge_reason(pulka: Pulka, user: AbstractBaseUser | None, reason: str) -> str:
    """The reason a change of a locked pulka is kept with ("" when it is not locked).

    A locked pulka (its results are settled for good: a confirmed round) is changed only by
    the club's owner, as a judge, who says why; `user` None is the system (a script).
    """
    if pulka.locked_at is None:
        return ""
    if user is not None and not (
        user.is_authenticated
        and Membership.objects.filter(
            club=pulka.evening.club_id, user=user.pk, role=Role.OWNER
        ).exists()
    ):
        raise ScoringError(
            _(
                "This table is locked: its results are confirmed. Only the club's owner can "
                "change it, as a judge's correction with its reason."
            )
        )
    reason = (reason or "").strip()
    if not reason:
        raise ScoringError(
            _(
                "Say why: a change to a locked table is a judge's correction, and its "
                "history keeps the reason."
            )
        )
    if len(reason) > REASON_MAX:
        raise ScoringError(
            _("The reason can be at most %(max)s characters long.") % {"max": REASON_MAX}
        )
    return reason


def _with_dealers(deals: list[Deal], sheet: engine.Sheet, names: list[str]) -> None:
    """Give each deal the dealer the replay found for it (the rotation, where none was
    entered): every stored deal keeps who dealt it."""
    seat = {name: i for i, name in enumerate(names)}
    for deal, snapshot in zip(deals, sheet.snapshots, strict=False):
        deal.dealer = seat[snapshot.dealer]


def engine_message(exc: engine.PulkaError) -> str:
    """The engine's problem for the secretary, in her language, with the deal it is about."""
    problem = engine_problem_text(exc)
    if exc.deal_number is None:
        return problem
    return _("Deal %(number)s: %(problem)s") % {"number": exc.deal_number, "problem": problem}


def _parse_deal(data: dict, number: int) -> engine.Deal:
    try:
        return engine.deal_from_dict(data, number)
    except engine.PulkaError as exc:
        raise ScoringError(engine_message(exc)) from exc


def _places(result: dict[str, Fraction], names: list[str]) -> dict[str, int]:
    """Competition ranking: 1 is the best result, equal results share a place."""
    return {name: 1 + sum(1 for other in names if result[other] > result[name]) for name in names}


def result_cache_rebuild(
    pulka: Pulka, names: list[str], sheet: engine.Sheet, *, announce: bool = True
) -> None:
    """Rebuild the caches of a pulka's results, and say that the club's results changed.

    Every write that changes a pulka's results or status ends here; rebuild_ratings
    --results calls it too (with `announce=False`: it re-rates the whole club afterwards).
    """
    had_results = PulkaResultCache.objects.filter(pulka=pulka).exists()
    PulkaResultCache.objects.filter(pulka=pulka).delete()
    PairResultCache.objects.filter(pulka=pulka).delete()
    evening = pulka.evening
    if pulka.status == PulkaStatus.FINISHED:
        players = dict(Seat.objects.filter(pulka=pulka).values_list("position", "player_id"))
        ids = {name: players[position] for position, name in enumerate(names)}
        places = _places(sheet.result, names)
        PulkaResultCache.objects.bulk_create(
            PulkaResultCache(
                pulka=pulka,
                player_id=ids[name],
                club_id=evening.club_id,
                date=evening.date,
                position=position,
                players=len(names),
                result=str(engine.format_score(sheet.result[name])),
                result_rounded=sheet.result_rounded[name],
                place=places[name],
                closed=sheet.closed,
                counted=evening.counted,
            )
            for position, name in enumerate(names)
        )
        nets = engine.pair_nets(
            names,
            sheet.pool,
            sheet.mountain,
            sheet.whists,
            sheet.rules.pool_target,
            sheet.rules.pool_point_value,
        )
        PairResultCache.objects.bulk_create(
            PairResultCache(
                pulka=pulka,
                player_id=ids[name],
                opponent_id=ids[other],
                club_id=evening.club_id,
                date=evening.date,
                net=_decimal(net),
                counted=evening.counted,
            )
            for name in names
            for other, net in nets[name].items()
        )
    elif not had_results:
        return
    club_results_bump(club_id=evening.club_id)
    # The club's ratings read only the results that count: an evening that does not count (a
    # tournament's, unless its organiser says so) is announced as such (a federation counts
    # the tables of its open events whatever their club does).
    if announce:
        results_changed.send(
            sender=Pulka, club=evening.club, since=evening.date, counted=evening.counted
        )


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.0001"))


def _bump(pulka: Pulka, *fields: str) -> None:
    # The row is locked (select_for_update), so a plain increment cannot lose an update.
    pulka.version += 1
    pulka.save(update_fields=["version", *fields])


def _set_status(
    pulka: Pulka, status: str, user: AbstractBaseUser | None, reason: str = ""
) -> list[str]:
    """Give the pulka its new status and write the line of its history; returns the fields."""
    pulka.status = status
    pulka.finished_at = None if status == PulkaStatus.RUNNING else timezone.now()
    StatusChange.objects.create(pulka=pulka, status=status, user=user, reason=reason)
    return ["status", "finished_at"]


def _at_cap(pulka: Pulka, deals: int) -> bool:
    """Whether the pulka has played all the deals its cap allows (a tournament table)."""
    return pulka.deal_cap is not None and deals >= pulka.deal_cap


def _settle_status(
    pulka: Pulka,
    sheet: engine.Sheet,
    *,
    deals: int,
    was_done: bool,
    user: AbstractBaseUser | None,
    reason: str = "",
) -> list[str]:
    """The status follows the deals where the deals decide it: a pulka whose last pool
    closed, or that reached its deal cap, is finished (at the cap, settled as unfinished);
    one that a correction took back (a pool open again, a deal deleted below the cap)
    is running again. A pulka someone ended early stays ended: `was_done` is False for it.
    """
    done = sheet.closed or _at_cap(pulka, deals)
    if done and pulka.status == PulkaStatus.RUNNING:
        return _set_status(pulka, PulkaStatus.FINISHED, user, reason)
    if not done and was_done and pulka.status == PulkaStatus.FINISHED:
        return _set_status(pulka, PulkaStatus.RUNNING, user, reason)
    return []


@transaction.atomic
def pulka_create(
    *,
    evening: Evening,
    players: Sequence[Player],
    first_dealer: Player,
    rules: dict,
    created_by: AbstractBaseUser | None,
    table: int | None = None,
    deal_cap: int | None = None,
) -> Pulka:
    """Open a new table in a evening: 3 or 4 players of the club, clockwise (numbered after
    the evening's last table unless `table` says which; at most `deal_cap` deals if given)."""
    players = list(players)
    if len(players) not in (3, 4):
        raise ScoringError(_("A pulka is played by 3 or 4 players."))
    if len({p.pk for p in players}) != len(players):
        raise ScoringError(_("Each player can take only one seat."))
    if any(p.club_id != evening.club_id for p in players):
        raise ScoringError(_("Every player must be on this club's roster."))
    if first_dealer not in players:
        raise ScoringError(_("The first dealer must be one of the players at the table."))
    try:
        resolved = engine.rules_to_dict(engine.rules_from_dict(rules))
    except engine.PulkaError as exc:
        raise ScoringError(engine_message(exc)) from exc
    if table is None:
        table = (
            Pulka.objects.select_for_update()
            .filter(evening=evening)
            .order_by("-table")
            .values_list("table", flat=True)
            .first()
            or 0
        ) + 1
    pulka = Pulka.objects.create(
        evening=evening,
        table=table,
        rules=resolved,
        first_dealer=players.index(first_dealer),
        deal_cap=deal_cap,
        created_by=_user(created_by),
    )
    Seat.objects.bulk_create(
        Seat(pulka=pulka, position=i, player=player) for i, player in enumerate(players)
    )
    if evening.self_entry:
        # Its players record it themselves: the table gets its link at once.
        pulka.table_token = _new_token()
        pulka.save(update_fields=["table_token"])
    _announce(pulka)
    return pulka


@transaction.atomic
def pulka_update_rules(*, pulka: Pulka, rules: dict, first_dealer: int | None = None) -> Pulka:
    """Change the conventions (and the first dealer) of a pulka that has no deal yet."""
    locked, names, deals = _locked(pulka)
    if deals:
        raise ScoringError(_("The conventions can be changed only before the first deal."))
    try:
        locked.rules = engine.rules_to_dict(engine.rules_from_dict(rules))
    except engine.PulkaError as exc:
        raise ScoringError(engine_message(exc)) from exc
    if first_dealer is not None:
        if not 0 <= first_dealer < len(names):
            raise ScoringError(_("The first dealer must be one of the players at the table."))
        locked.first_dealer = first_dealer
    _bump(locked, "rules", "first_dealer")
    _announce(pulka)
    return locked


@transaction.atomic
def pulka_seat(*, pulka: Pulka, players: Sequence[Player], first_dealer: Player) -> Pulka:
    """Seat other players (or the same in another order) at a running pulka with no deal
    yet: a tournament's re-seat before a table starts. The spectators' pages follow."""
    locked, names, deals = _locked(pulka)
    if deals or locked.status != PulkaStatus.RUNNING:
        raise ScoringError(_("This table has started: its players stay."))
    players = list(players)
    if len(players) != len(names):
        raise ScoringError(_("This table has %(seats)s seats.") % {"seats": len(names)})
    if len({p.pk for p in players}) != len(players):
        raise ScoringError(_("Each player can take only one seat."))
    if any(p.club_id != pulka.evening.club_id for p in players):
        raise ScoringError(_("Every player must be on this club's roster."))
    if first_dealer not in players:
        raise ScoringError(_("The first dealer must be one of the players at the table."))
    # Deleted and written again: seat by seat, an exchange within the table would put one
    # player at two seats for a moment (the unique constraint refuses it).
    Seat.objects.filter(pulka=locked).delete()
    Seat.objects.bulk_create(
        Seat(pulka=locked, position=i, player=player) for i, player in enumerate(players)
    )
    locked.first_dealer = players.index(first_dealer)
    _bump(locked, "first_dealer")
    pulka.first_dealer, pulka.version = locked.first_dealer, locked.version
    pulka.__dict__.pop("names", None)  # the cached_property: the names changed
    _announce(pulka)
    return locked


@transaction.atomic
def deal_record(
    *,
    pulka: Pulka,
    data: dict,
    entered_by: AbstractBaseUser | None,
    number: int | None = None,
    entry_key: uuid.UUID | None = None,
    reason: str = "",
    seat: int | None = None,
) -> tuple[Deal, engine.Sheet]:
    """Add the next deal (a pulka/1 deal object, players by name) and return the new sheet.

    `number` is the deal the entry form was rendered for and `entry_key` the form's one-time
    key. Under the pulka's row lock, so it holds for requests at the same moment:

    - a key already used raises DealAlreadyRecorded (the same form came twice: a retry on
      bad Wi-Fi, five posts at once) and saves nothing;
    - a number already recorded raises DealNumberTaken, naming who recorded it (a second
      secretary at the same table), and saves nothing;
    - the unique key per pulka in the database is the last line of defence.

    Scripts that add deals one after another (the demo, tests) may leave both out. The deal
    is stored with its dealer: the one in `data`, else the rotation's. On a locked pulka
    only the club's owner records, giving a `reason` (a judge's correction).

    `seat`: entered at the table, through its link, by the player at that seat (Seat.position,
    `entered_by` his account or None): the deal awaits another seat's confirmation
    (deal_confirm), and never lands on a locked pulka. Once the table's time is out, its
    "last deal" rule (scoring.clock.last_deal) refuses the deals beyond the last, whoever
    enters them.
    """
    # One statement locks the row, bumps the version and checks the pulka is running (and
    # not locked: the usual case costs no more); if the deal is refused below, the
    # transaction rolls the bump back.
    running = Pulka.objects.filter(pk=pulka.pk, status=PulkaStatus.RUNNING)
    locked = running.filter(locked_at__isnull=True).update(version=F("version") + 1)
    judged = False
    if not locked:
        locked = judged = bool(running.update(version=F("version") + 1))
    if entry_key is not None:
        # Before the "is it running" answer: the repeat of the deal that closed the last
        # pool finds the pulka finished, and is told its deal is recorded.
        done = _number_of_entry(pulka, entry_key)
        if done is not None:
            raise DealAlreadyRecorded(done)
    if not locked:
        if _at_cap(pulka, Deal.objects.filter(pulka=pulka).count()):
            raise _cap_reached(pulka)
        raise ScoringError(_("This pulka is over: no deal can be added to it."))
    # As the UPDATE found it: the caller's copy may be older (ended, and resumed since).
    pulka.status = PulkaStatus.RUNNING
    if judged:
        pulka.locked_at = Pulka.objects.values_list("locked_at", flat=True).get(pk=pulka.pk)
    if judged and seat is not None:
        raise ScoringError(_("This table has ended: its link no longer works."))
    reason = _judge_reason(pulka, entered_by, reason) if judged else ""
    names = pulka.names
    deals = selectors.engine_deals(pulka, names)
    next_number = len(deals) + 1
    if number is not None and number != next_number:
        raise _wrong_number(pulka, number, next_number)
    if _at_cap(pulka, len(deals)):
        raise _cap_reached(pulka)
    rule = time_rule(pulka, next_number)
    if rule.over:
        raise ScoringError(
            _("Time is up: deal %(number)s was the last one.") % {"number": rule.last}
        )
    if next_number > MAX_DEALS:
        raise ScoringError(
            _(
                "A pulka holds at most %(max)s deals, and this one is full: "
                "end it and open a new table to play on."
            )
            % {"max": MAX_DEALS}
        )
    new = _parse_deal(data, next_number)
    sheet = _replay(pulka, names, [*deals, new])
    user = _user(entered_by)
    deal = _new_deal(pulka, next_number, data, names, user, entry_key=entry_key)
    deal.dealer = names.index(sheet.snapshots[-1].dealer)
    if seat is not None:
        deal.entered_seat, deal.confirmation = seat, DealCheck.AWAITING
    try:
        deal.save()
    except IntegrityError as exc:
        # Only a write that bypassed the row lock gets here: the same key or number is
        # already stored, so the deal is recorded (and this copy is not). No savepoint:
        # nothing runs in the broken transaction, the error below rolls it all back.
        raise DealAlreadyRecorded(number or next_number) from exc
    DealRevision.objects.create(
        pulka=pulka,
        deal=deal,
        number=next_number,
        action=RevisionAction.CREATED,
        after=deal.to_pulka_dict(names),
        user=user,
        at=deal.entered_at,
        reason=reason,
        seat=seat,
    )
    pulka.version += 1
    changed = _settle_status(
        pulka, sheet, deals=next_number, was_done=False, user=user, reason=reason
    )
    if changed:
        pulka.save(update_fields=["status", "finished_at"])
        result_cache_rebuild(pulka, names, sheet)
    _announce(pulka)
    return deal, sheet


def time_rule(pulka: Pulka, next_number: int, now: datetime.datetime | None = None) -> TimeRule:
    """The table's "last deal" rule as it stands now (scoring.clock.last_deal). Counts its
    deals entered in time only once the time is out: a table without a clock costs nothing.

    The clock is the caller's copy of the pulka (read by the request): the layer that runs
    the clock writes it a few times a round, never in the middle of an entry that matters.
    """
    now = now or timezone.now()
    ends_at, after = pulka.ends_at, pulka.deals_after_time
    if ends_at is None or after is None or now < ends_at:
        return TimeRule(last=None, next_number=next_number)
    in_time = Deal.objects.filter(pulka=pulka, entered_at__lt=ends_at).order_by().count()
    return TimeRule(last=last_deal(ends_at, after, in_time, now), next_number=next_number)


def _cap_reached(pulka: Pulka) -> ScoringError:
    return ScoringError(
        _("This table plays at most %(cap)s deals, and they are all recorded.")
        % {"cap": pulka.deal_cap}
    )


def _number_of_entry(pulka: Pulka, entry_key: uuid.UUID) -> int | None:
    # order_by(): the models' default orderings would join the pulka, evening and club.
    entries = Deal.objects.filter(pulka=pulka, entry_key=entry_key).order_by()
    return entries.values_list("number", flat=True).first()


def _wrong_number(pulka: Pulka, number: int, next_number: int) -> ScoringError:
    """The form was for deal `number`, but the pulka goes on with `next_number`."""
    if number < next_number:
        entered_by = Deal.objects.filter(pulka=pulka, number=number).values_list(
            "entered_by", flat=True
        )
        return DealNumberTaken(
            _("Deal %(number)s was just recorded by %(who)s: check it.")
            % {"number": number, "who": _who(pulka, entered_by.get())},
        )
    return ScoringError(
        _(
            "The sheet changed while you were entering deal %(number)s: it goes on with "
            "deal %(next)s now. Check it and enter the deal again."
        )
        % {"number": number, "next": next_number},
    )


def _stale(pulka: Pulka, deal: Deal) -> ScoringError:
    who = _who(pulka, deal.changed_by_id)
    return ScoringError(
        _(
            "Deal %(number)s was changed by %(who)s while you were editing it. "
            "Check it as it stands now and enter your correction again."
        )
        % {"number": deal.number, "who": who},
    )


def _was_done(locked: Pulka, names: list[str], deals: list[Deal]) -> bool:
    """Whether the deals themselves ended this finished pulka (its last pool closed, or it
    reached its deal cap), rather than someone ending it early."""
    if locked.status != PulkaStatus.FINISHED:
        return False
    if _at_cap(locked, len(deals)):
        return True
    return _replay(locked, names, [d.to_engine(names) for d in deals]).closed


def _locked_deal(
    pulka: Pulka,
    number: int,
    expected_version: int,
    user: AbstractBaseUser | None = None,
    reason: str = "",
) -> tuple[Pulka, list[str], list[Deal], Deal, str]:
    """Lock the pulka and find deal `number` as the secretary saw it (else refuse); with the
    reason of a judge's correction if the pulka is locked."""
    locked, names, deals = _locked(pulka)
    if locked.status == PulkaStatus.ABANDONED:
        raise ScoringError(_("This pulka was abandoned: its deals can no longer be changed."))
    reason = _judge_reason(locked, user, reason)
    deal = next((d for d in deals if d.number == number), None)
    if deal is None:
        raise ScoringError(_("Deal %(number)s no longer exists.") % {"number": number})
    if deal.version != expected_version:
        raise _stale(pulka, deal)
    return locked, names, deals, deal, reason


@transaction.atomic
def deal_update(
    *,
    pulka: Pulka,
    number: int,
    data: dict,
    expected_version: int,
    changed_by: AbstractBaseUser | None,
    reason: str = "",
) -> tuple[Deal, engine.Sheet]:
    """Correct deal `number`; refused if someone changed it since `expected_version`.

    Data without a dealer keeps the deal's; the later deals keep theirs whatever it is.
    A deal entered at the table that awaits confirmation or is disputed is resolved by the
    correction: the secretary (or the judge) who corrects it stands for it, so it becomes
    confirmed, by no seat (as deal_keep leaves it); its dispute's seat and reason stay.
    """
    locked, names, deals, deal, reason = _locked_deal(
        pulka, number, expected_version, changed_by, reason
    )
    if not data.get("dealer"):
        data = {**data, "dealer": names[deal.dealer]}
    new = _parse_deal(data, number)
    was_done = _was_done(locked, names, deals)
    sheet = _replay(
        locked,
        names,
        [new if d.number == number else d.to_engine(names) for d in deals],
        _after_correction(number),
    )
    before = deal.to_pulka_dict(names)
    deal.set_from_pulka_dict(data, {name: i for i, name in enumerate(names)})
    after = deal.to_pulka_dict(names)
    if after == before:
        return deal, sheet
    user = _user(changed_by)
    now = timezone.now()
    deal.changed_by, deal.changed_at, deal.version = user, now, deal.version + 1
    if deal.confirmation in (DealCheck.AWAITING, DealCheck.DISPUTED):
        deal.confirmation, deal.confirmed_seat, deal.confirmed_at = DealCheck.CONFIRMED, None, now
    deal.save()
    DealRevision.objects.create(
        pulka=locked,
        deal=deal,
        number=number,
        action=RevisionAction.CHANGED,
        before=before,
        after=after,
        user=user,
        at=now,
        reason=reason,
    )
    changed = _settle_status(
        locked, sheet, deals=len(deals), was_done=was_done, user=user, reason=reason
    )
    _bump(locked, *changed)
    result_cache_rebuild(locked, names, sheet)
    pulka.status, pulka.version = locked.status, locked.version
    _announce(pulka)
    return deal, sheet


@transaction.atomic
def deal_delete(
    *,
    pulka: Pulka,
    number: int,
    expected_version: int,
    deleted_by: AbstractBaseUser | None,
    reason: str = "",
) -> engine.Sheet:
    """Delete deal `number`, crossed out as on paper: the later deals move up one number and
    keep everything as it was played, their dealers too; the sheet is replayed."""
    locked, names, deals, deal, reason = _locked_deal(
        pulka, number, expected_version, deleted_by, reason
    )
    was_done = _was_done(locked, names, deals)
    sheet = _replay(
        locked,
        names,
        [d.to_engine(names) for d in deals if d.number != number],
        _after_deletion(number),
    )
    user = _user(deleted_by)
    DealRevision.objects.create(
        pulka=locked,
        deal=None,
        number=number,
        action=RevisionAction.DELETED,
        before=deal.to_pulka_dict(names),
        user=user,
        reason=reason,
    )
    deal.delete()
    # Two steps keep deal numbers unique at every row: shift out of range, then back down.
    shift = 1_000_000
    later = Deal.objects.filter(pulka=locked, number__gt=number)
    later.update(number=F("number") + shift)
    Deal.objects.filter(pulka=locked, number__gt=shift).update(number=F("number") - shift - 1)
    # A pulka the cap ended runs again once a deletion takes it below the cap (as one whose
    # pool a correction opens again): the deal was not played, so the table plays on.
    changed = _settle_status(
        locked, sheet, deals=len(deals) - 1, was_done=was_done, user=user, reason=reason
    )
    _bump(locked, *changed)
    result_cache_rebuild(locked, names, sheet)
    pulka.status, pulka.version = locked.status, locked.version
    _announce(pulka)
    return sheet


# A deal entered at the table: another seat confirms it, any seat disputes it, the judge
# (a secretary, or the owner on a locked table) keeps it as entered.

# The longest reason a dispute keeps (Deal.dispute_reason).
DISPUTE_REASON_MAX = 200


def _seat_name(names: list[str], seat: int | None) -> str:
    """ "Boris (seat 2)": a seat as the table's pages name it (seats count from 1)."""
    if seat is None or not 0 <= seat < len(names):
        return _("the judge")
    return _("%(name)s (seat %(seat)s)") % {"name": names[seat], "seat": seat + 1}


def _table_deal(pulka: Pulka, number: int) -> tuple[Pulka, list[str], Deal]:
    """Lock the pulka, then deal `number` (the pulka's lock orders two phones acting at once:
    the second reads what the first wrote). A stale version is checked by the caller, after
    the deal's own state, so that the second of two confirmations hears why."""
    locked = Pulka.objects.select_for_update().get(pk=pulka.pk)
    deal = Deal.objects.filter(pulka=locked, number=number).order_by().first()
    if deal is None:
        raise ScoringError(_("Deal %(number)s no longer exists.") % {"number": number})
    return locked, pulka.names, deal


def _table_open(locked: Pulka) -> None:
    if locked.status != PulkaStatus.RUNNING or locked.locked_at is not None:
        raise ScoringError(_("This table has ended: its link no longer works."))


def _set_check(
    pulka: Pulka,
    locked: Pulka,
    deal: Deal,
    action: str,
    changes: dict[str, Any],
    *,
    user: AbstractBaseUser | None,
    at: datetime.datetime,
    seat: int | None = None,
    reason: str = "",
) -> None:
    """Save the deal's new confirmation fields (`changes`), write the line of its history,
    and tell the pages: what confirming, disputing and keeping a deal all end with."""
    for name, value in changes.items():
        setattr(deal, name, value)
    deal.save(update_fields=list(changes))
    DealRevision.objects.create(
        pulka=locked,
        deal=deal,
        number=deal.number,
        action=action,
        user=_user(user),
        at=at,
        seat=seat,
        reason=reason,
    )
    _bump(locked)
    pulka.version = locked.version
    _announce(pulka)


@transaction.atomic
def deal_confirm(
    *,
    pulka: Pulka,
    number: int,
    expected_version: int,
    seat: int,
    user: AbstractBaseUser | None,
) -> Deal:
    """The player at `seat` confirms deal `number`, entered at the table by another seat.

    Under the pulka's row lock: of two phones confirming at once, the second is told who
    confirmed it first, and nothing changes. A deal corrected since `expected_version` (the
    version the player saw) is refused as stale.
    """
    locked, names, deal = _table_deal(pulka, number)
    _table_open(locked)
    who = {"number": number}
    if deal.confirmation == DealCheck.CONFIRMED:
        raise ScoringError(
            _("Deal %(number)s was already confirmed by %(who)s.")
            % {**who, "who": _seat_name(names, deal.confirmed_seat)}
        )
    if deal.confirmation == DealCheck.DISPUTED:
        raise ScoringError(_("Deal %(number)s is disputed: the judge decides it.") % who)
    if deal.confirmation != DealCheck.AWAITING:
        raise ScoringError(
            _("Deal %(number)s was recorded by a secretary: it needs no confirmation.") % who
        )
    if deal.version != expected_version:
        raise _stale(pulka, deal)
    if seat == deal.entered_seat:
        raise ScoringError(
            _("You entered deal %(number)s: another player of the table confirms it.") % who
        )
    now = timezone.now()
    confirmed = {"confirmation": DealCheck.CONFIRMED, "confirmed_seat": seat, "confirmed_at": now}
    _set_check(
        pulka, locked, deal, RevisionAction.CONFIRMED, confirmed, user=user, at=now, seat=seat
    )
    return deal


@transaction.atomic
def deal_dispute(
    *,
    pulka: Pulka,
    number: int,
    expected_version: int,
    seat: int,
    user: AbstractBaseUser | None,
    reason: str,
) -> Deal:
    """The player at `seat` disputes deal `number` (entered at the table, awaiting or
    confirmed by a seat), saying why in at most DISPUTE_REASON_MAX characters: the judge
    resolves it (deal_keep, or a correction, or a deletion)."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise ScoringError(_("Say what is wrong with the deal: the judge reads it."))
    if len(reason) > DISPUTE_REASON_MAX:
        raise ScoringError(
            _("The reason can be at most %(max)s characters long.") % {"max": DISPUTE_REASON_MAX}
        )
    locked, names, deal = _table_deal(pulka, number)
    _table_open(locked)
    who = {"number": number}
    if deal.confirmation == DealCheck.DISPUTED:
        raise ScoringError(
            _("Deal %(number)s is already disputed by %(who)s: the judge decides it.")
            % {**who, "who": _seat_name(names, deal.disputed_seat)}
        )
    if deal.confirmation == DealCheck.NONE or (
        deal.confirmation == DealCheck.CONFIRMED and deal.confirmed_seat is None
    ):
        raise ScoringError(
            _("Deal %(number)s was settled by a secretary: ask the judge at the table.") % who
        )
    if deal.version != expected_version:
        raise _stale(pulka, deal)
    disputed = {"confirmation": DealCheck.DISPUTED, "disputed_seat": seat, "dispute_reason": reason}
    _set_check(
        pulka,
        locked,
        deal,
        RevisionAction.DISPUTED,
        disputed,
        user=user,
        at=timezone.now(),
        seat=seat,
        reason=reason,
    )
    return deal


@transaction.atomic
def deal_keep(
    *,
    pulka: Pulka,
    number: int,
    expected_version: int,
    kept_by: AbstractBaseUser | None,
    reason: str = "",
) -> Deal:
    """The judge (a secretary; the club's owner on a locked table, giving a `reason`) keeps
    deal `number` as it was entered at the table: a disputed deal, or one that awaits a
    confirmation no player gave, becomes confirmed by no seat (the revision KEPT says who)."""
    locked, names, deals, deal, reason = _locked_deal(
        pulka, number, expected_version, kept_by, reason
    )
    if deal.confirmation not in (DealCheck.AWAITING, DealCheck.DISPUTED):
        raise ScoringError(
            _("Deal %(number)s awaits no decision: nobody disputes it.") % {"number": number}
        )
    now = timezone.now()
    kept = {"confirmation": DealCheck.CONFIRMED, "confirmed_seat": None, "confirmed_at": now}
    _set_check(pulka, locked, deal, RevisionAction.KEPT, kept, user=kept_by, at=now, reason=reason)
    return deal


@transaction.atomic
def table_seat_claim(*, pulka: Pulka, seat: int, user: AbstractBaseUser) -> Seat:
    """The account `user` takes `seat` at the table (it is the seat's player's own account,
    Player.user): from now on nobody else acts as that seat through the link. Refused when
    another account took it first."""
    row = Seat.objects.select_for_update().select_related("player").get(pulka=pulka, position=seat)
    if row.player.user_id != user.pk:
        raise ScoringError(_("This seat is not yours: your account is not its player's."))
    if row.claimed_by_id not in (None, user.pk):
        raise ScoringError(_("Seat %(seat)s is taken by another account.") % {"seat": seat + 1})
    if row.claimed_by_id is None:
        row.claimed_by = user
        row.save(update_fields=["claimed_by"])
    return row


def table_link_close(*, pulka: Pulka) -> None:
    """The table has no link any more (its evening no longer records itself)."""
    with transaction.atomic():
        locked = Pulka.objects.select_for_update().get(pk=pulka.pk)
        if locked.table_token is None:
            return
        locked.table_token = None
        _bump(locked, "table_token")
    pulka.table_token, pulka.version = None, locked.version
    _announce(pulka)


@transaction.atomic
def evening_self_entry(*, evening: Evening, on: bool) -> Evening:
    """Say whether the evening's players record their own tables: on, each running table
    gets its link (and each new one: pulka_create); off, every link of the evening dies."""
    evening.self_entry = on
    evening.save(update_fields=["self_entry"])
    pulkas = Pulka.objects.filter(evening=evening).select_related("evening__club")
    for pulka in pulkas:
        if on and pulka.is_running:
            table_link_open(pulka=pulka)
        elif not on:
            table_link_close(pulka=pulka)
    return evening


def _new_deal(
    pulka: Pulka,
    number: int,
    data: dict,
    names: list[str],
    user: AbstractBaseUser | None,
    entry_key: uuid.UUID | None = None,
) -> Deal:
    """A deal as entered now by `user` (not saved yet)."""
    now = timezone.now()
    deal = Deal(
        pulka=pulka,
        number=number,
        entered_by=user,
        entered_at=now,
        changed_by=user,
        changed_at=now,
        entry_key=entry_key,
    )
    deal.set_from_pulka_dict(data, {name: i for i, name in enumerate(names)})
    return deal


@transaction.atomic
def deal_insert(
    *,
    pulka: Pulka,
    before: int,
    data: dict,
    expected_version: int,
    inserted_by: AbstractBaseUser | None,
    reason: str = "",
) -> tuple[Deal, engine.Sheet]:
    """Write in a forgotten deal before deal `before`, as on paper: it takes that number and
    the later deals move down one, keeping everything as it was played (their dealers too).

    `expected_version` is the version of deal `before` as the secretary saw it (a stale one
    is refused, as for the other corrections). The new deal's dealer is the one in `data`,
    else the rotation's after the deal before it. The engine replays the whole sheet.
    """
    locked, names, deals, target, reason = _locked_deal(
        pulka, before, expected_version, inserted_by, reason
    )
    if _at_cap(locked, len(deals)):
        raise _cap_reached(locked)
    if len(deals) >= MAX_DEALS:
        raise ScoringError(
            _("A pulka holds at most %(max)s deals, and this one is full.") % {"max": MAX_DEALS}
        )
    earlier = [d.to_engine(names) for d in deals if d.number < before]
    if not data.get("dealer"):
        rotation = engine.dealer_for_next_deal(names, names[locked.first_dealer], earlier)
        data = {**data, "dealer": rotation}
    new = _parse_deal(data, before)
    was_done = _was_done(locked, names, deals)
    later = [d.to_engine(names) for d in deals if d.number >= before]
    sheet = _replay(locked, names, [*earlier, new, *later], _after_insertion(before))
    user = _user(inserted_by)
    # Two steps keep deal numbers unique at every row: shift out of range, then back, one on.
    shift = 1_000_000
    Deal.objects.filter(pulka=locked, number__gte=before).update(number=F("number") + shift)
    Deal.objects.filter(pulka=locked, number__gt=shift).update(number=F("number") - shift + 1)
    deal = _new_deal(locked, before, data, names, user)
    deal.save()
    DealRevision.objects.create(
        pulka=locked,
        deal=deal,
        number=before,
        action=RevisionAction.INSERTED,
        after=deal.to_pulka_dict(names),
        user=user,
        at=deal.entered_at,
        reason=reason,
    )
    changed = _settle_status(
        locked, sheet, deals=len(deals) + 1, was_done=was_done, user=user, reason=reason
    )
    _bump(locked, *changed)
    result_cache_rebuild(locked, names, sheet)
    pulka.status, pulka.version = locked.status, locked.version
    _announce(pulka)
    return deal, sheet


def _change_status(
    pulka: Pulka,
    locked: Pulka,
    names: list[str],
    sheet: engine.Sheet,
    status: str,
    by: AbstractBaseUser | None,
    reason: str = "",
) -> engine.Sheet:
    _bump(locked, *_set_status(locked, status, _user(by), reason))
    result_cache_rebuild(locked, names, sheet)
    pulka.status, pulka.version = locked.status, locked.version
    _announce(pulka)
    return sheet


@transaction.atomic
def pulka_finish(
    *, pulka: Pulka, finished_by: AbstractBaseUser | None, reason: str = ""
) -> engine.Sheet:
    """End a running pulka early: it is settled as unfinished (missing pool → mountain).

    A pulka without deals has nothing to settle (everyone would share first place and
    gain rating for it): it is refused, and abandoning it is the way to set it aside.
    A locked pulka is ended by the club's owner only, giving a `reason`.
    """
    locked, names, deals = _locked(pulka)
    reason = _judge_reason(locked, finished_by, reason)
    if locked.status != PulkaStatus.RUNNING:
        raise ScoringError(_("Only a running pulka can be ended."))
    if not deals:
        raise ScoringError(
            _(
                "This pulka has no deal: there is nothing to settle. "
                "Abandon it instead, and it will count for nobody."
            )
        )
    sheet = _replay(locked, names, [d.to_engine(names) for d in deals])
    return _change_status(pulka, locked, names, sheet, PulkaStatus.FINISHED, finished_by, reason)


@transaction.atomic
def pulka_reopen(
    *, pulka: Pulka, reopened_by: AbstractBaseUser | None, reason: str = ""
) -> engine.Sheet:
    """Resume a pulka that was ended early or abandoned (a closed pulka has nothing to add);
    a locked one by the club's owner only, giving a `reason`."""
    locked, names, deals = _locked(pulka)
    reason = _judge_reason(locked, reopened_by, reason)
    sheet = _replay(locked, names, [d.to_engine(names) for d in deals])
    if locked.status == PulkaStatus.RUNNING:
        raise ScoringError(_("This pulka is already running."))
    if sheet.closed:
        raise ScoringError(_("Every pool is closed: this pulka is complete and cannot go on."))
    if _at_cap(locked, len(deals)):
        raise ScoringError(
            _("This table has played all its %(cap)s deals: it cannot go on.")
            % {"cap": locked.deal_cap}
        )
    return _change_status(pulka, locked, names, sheet, PulkaStatus.RUNNING, reopened_by, reason)


@transaction.atomic
def pulka_abandon(
    *, pulka: Pulka, abandoned_by: AbstractBaseUser | None, reason: str = ""
) -> engine.Sheet:
    """Set a pulka aside: it keeps its deals but counts for nobody (a locked one by the
    club's owner only, giving a `reason`)."""
    locked, names, deals = _locked(pulka)
    reason = _judge_reason(locked, abandoned_by, reason)
    if locked.status == PulkaStatus.ABANDONED:
        raise ScoringError(_("This pulka is already abandoned."))
    sheet = _replay(locked, names, [d.to_engine(names) for d in deals])
    return _change_status(pulka, locked, names, sheet, PulkaStatus.ABANDONED, abandoned_by, reason)


@transaction.atomic
def pulka_lock(*, pulka: Pulka) -> Pulka:
    """Lock a pulka whose results are settled for good (a confirmed tournament round): from
    now on only the club's owner changes it, as a judge, giving a reason."""
    locked, _names, _deals = _locked(pulka)
    if locked.locked_at is not None:
        return locked
    locked.locked_at = timezone.now()
    _bump(locked, "locked_at")
    pulka.locked_at, pulka.version = locked.locked_at, locked.version
    _announce(pulka)
    return locked


def _new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits: not guessed, and short enough for a QR code


@transaction.atomic
def table_link_open(*, pulka: Pulka) -> str:
    """Give the table its link (Pulka.table_token) if it has none; returns the token."""
    locked = Pulka.objects.select_for_update().get(pk=pulka.pk)
    if locked.table_token is None:
        locked.table_token = _new_token()
        _bump(locked, "table_token")
    pulka.table_token, pulka.version = locked.table_token, locked.version
    return locked.table_token


@transaction.atomic
def table_link_renew(*, pulka: Pulka) -> str:
    """A new link for the table: the old one stops working at once."""
    locked = Pulka.objects.select_for_update().get(pk=pulka.pk)
    locked.table_token = _new_token()
    _bump(locked, "table_token")
    pulka.table_token, pulka.version = locked.table_token, locked.version
    _announce(pulka)
    return locked.table_token


@transaction.atomic
def table_clock_set(
    *,
    pulkas: Sequence[Pulka],
    ends_at: datetime.datetime | None,
    paused_left: datetime.timedelta | None,
    deals_after_time: int | None,
) -> None:
    """Set the clock of these tables (see Pulka.ends_at): the layer that runs the clock
    (a tournament round) calls this when it starts, pauses, resumes or adds time."""
    for pulka in pulkas:
        locked = Pulka.objects.select_for_update().get(pk=pulka.pk)
        locked.ends_at, locked.paused_left = ends_at, paused_left
        locked.deals_after_time = deals_after_time
        _bump(locked, "ends_at", "paused_left", "deals_after_time")
        pulka.ends_at, pulka.paused_left = ends_at, paused_left
        pulka.deals_after_time, pulka.version = deals_after_time, locked.version
        _announce(pulka)


@transaction.atomic
def pulka_unlock(*, pulka: Pulka) -> Pulka:
    """Open a locked pulka to the secretaries again."""
    locked, _names, _deals = _locked(pulka)
    if locked.locked_at is None:
        return locked
    locked.locked_at = None
    _bump(locked, "locked_at")
    pulka.locked_at, pulka.version = locked.locked_at, locked.version
    _announce(pulka)
    return locked


# The club's conventions and its evenings


@transaction.atomic
def club_rules_update(*, club: Club, rules: dict) -> Club:
    """Set the club's default conventions, which new tables copy (club.default_rules()).

    `rules` holds every convention including pool_target, which is kept in its own column.
    """
    try:
        resolved = engine.rules_to_dict(engine.rules_from_dict(rules))
    except engine.PulkaError as exc:
        raise ScoringError(engine_message(exc)) from exc
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.pool_target = resolved.pop("pool_target")
    club.rules = resolved
    club.save(update_fields=["pool_target", "rules"])
    return club


@transaction.atomic
def evening_create(
    *,
    club: Club,
    date: datetime.date,
    venue: str,
    notes: str,
    created_by: AbstractBaseUser | None,
    counted: bool = True,
    self_entry: bool = False,
) -> Evening:
    return Evening.objects.create(
        club=club,
        date=date,
        venue=venue.strip(),
        notes=notes.strip(),
        created_by=created_by,
        counted=counted,
        self_entry=self_entry,
    )


@transaction.atomic
def evening_count(*, evening: Evening, counted: bool, announce: bool = True) -> Evening:
    """Say whether an evening's pulkas count in the club's leagues and ratings (a
    tournament's rounds count when its organiser says so); the caches follow at once.

    With `announce=False` the caller sends results_changed itself (a tournament switching
    all its rounds at once re-rates the club once, from its first round).
    """
    if evening.counted == counted:
        return evening
    evening.counted = counted
    evening.save(update_fields=["counted"])
    changed = PulkaResultCache.objects.filter(pulka__evening=evening).update(counted=counted)
    PairResultCache.objects.filter(pulka__evening=evening).update(counted=counted)
    if changed:
        club_results_bump(club_id=evening.club_id)
        if announce:
            results_changed.send(
                sender=Evening, club=evening.club, since=evening.date, counted=True
            )
    return evening


@transaction.atomic
def evening_update(
    *,
    evening: Evening,
    date: datetime.date,
    venue: str,
    notes: str,
    self_entry: bool | None = None,
) -> Evening:
    """Change an evening; a new date moves its cached results and re-rates from the earlier.
    `self_entry` (None: as it is) opens or closes its tables' links (evening_self_entry)."""
    old_date = evening.date
    evening.date = date
    evening.venue = venue.strip()
    evening.notes = notes.strip()
    evening.save(update_fields=["date", "venue", "notes"])
    if date != old_date:
        PulkaResultCache.objects.filter(pulka__evening=evening).update(date=date)
        PairResultCache.objects.filter(pulka__evening=evening).update(date=date)
        club_results_bump(club_id=evening.club_id)
        results_changed.send(
            sender=Evening, club=evening.club, since=min(old_date, date), counted=evening.counted
        )
    if self_entry is not None and self_entry != evening.self_entry:
        evening_self_entry(evening=evening, on=self_entry)
    return evening


# Import


def _validated_document(document: dict[str, Any]) -> tuple[engine.Pulka, engine.Sheet]:
    deals = document.get("deals")
    if isinstance(deals, list) and len(deals) > MAX_DEALS:
        # Counted before anything is parsed or replayed: the bound is on the work too.
        raise ScoringError(
            _("This file holds %(count)s deals, and a pulka holds at most %(max)s.")
            % {"count": len(deals), "max": MAX_DEALS}
        )
    try:
        parsed = engine.parse_pulka(document)
    except engine.PulkaError as exc:
        # The format's own words (keys, values) stay as the file and the spec spell them.
        message = _("This file is not a pulka in the pulka/1 format: %(problem)s") % {
            "problem": engine_message(exc)
        }
        raise ScoringError(message) from exc
    try:
        sheet = engine.compute_sheet(
            parsed.rules, parsed.players, parsed.deals, first_dealer=parsed.first_dealer
        )
    except engine.PulkaError as exc:
        raise ScoringError(engine_message(exc)) from exc
    return parsed, sheet


def _roster_players(evening: Evening, names: tuple[str, ...]) -> list[Player]:
    """The club's roster players of these names, in the same order; the missing are added.

    Matched by the roster's name key (club.names), so "ТАРАС" or " Олена" in a file finds
    Тарас and Олена; a name the roster cannot take refuses the file.
    """
    try:
        return roster_players_for_names(club=evening.club, names=names)
    except ClubError as exc:
        raise ScoringError(exc.message) from exc


@transaction.atomic
def pulka_import(
    *, evening: Evening, document: dict[str, Any], imported_by: AbstractBaseUser | None
) -> Pulka:
    """Store a pulka/1 document as a new table of the evening, with all its deals.

    The whole document is checked by the engine first (format, then every deal replayed);
    any problem refuses the file and nothing is saved. Players are matched to the club's
    roster by name key (case and spacing aside) and shown with the roster's spelling; the
    names not on it are added. A pulka whose pools are all closed is stored as finished.
    """
    parsed, sheet = _validated_document(document)
    players = _roster_players(evening, parsed.players)
    names = list(parsed.players)  # the file's spelling: the sheet is keyed by it
    roster_names = [player.name for player in players]
    pulka = pulka_create(
        evening=evening,
        players=players,
        first_dealer=players[names.index(parsed.first_dealer)],
        rules=engine.rules_to_dict(parsed.rules),
        created_by=imported_by,
    )
    user = _user(imported_by)
    now = timezone.now()
    seats = {name: i for i, name in enumerate(names)}
    deals = []
    for number, parsed_deal in enumerate(parsed.deals, 1):
        deal = Deal(
            pulka=pulka,
            number=number,
            entered_by=user,
            entered_at=now,
            changed_by=user,
            changed_at=now,
        )
        deal.set_from_pulka_dict(engine.deal_to_dict(parsed_deal), seats)
        deals.append(deal)
    # A file may leave the dealers to the rotation: each deal is stored with its own.
    _with_dealers(deals, sheet, names)
    Deal.objects.bulk_create(deals)
    # Read the rows back: not every database returns the new primary keys from a bulk insert.
    stored = Deal.objects.filter(pulka=pulka).order_by("number")
    DealRevision.objects.bulk_create(
        DealRevision(
            pulka=pulka,
            deal=deal,
            number=deal.number,
            action=RevisionAction.CREATED,
            after=deal.to_pulka_dict(roster_names),
            user=user,
            at=now,
        )
        for deal in stored
    )
    changed = _settle_status(pulka, sheet, deals=len(deals), was_done=False, user=user)
    if changed:
        pulka.save(update_fields=changed)
        result_cache_rebuild(pulka, names, sheet)
    return pulka


# Restore (a club's backup, competition.backup.services): a pulka as it was, with its history


@dataclass(frozen=True)
class RestoredDeal:
    """Who entered and last changed a deal, and when (its number is its place in the file)."""

    version: int
    entered_by: AbstractBaseUser | None
    entered_at: datetime.datetime
    changed_by: AbstractBaseUser | None
    changed_at: datetime.datetime
    # Entered at the table (Deal.confirmation and its seats); a backup from before has none.
    confirmation: str = ""
    entered_seat: int | None = None
    confirmed_seat: int | None = None
    confirmed_at: datetime.datetime | None = None
    disputed_seat: int | None = None
    dispute_reason: str = ""


@dataclass(frozen=True)
class RestoredRevision:
    """A line of a deal's history; `deal` is the number of the deal it belongs to now (None:
    the deal was deleted since)."""

    number: int
    deal: int | None
    action: str
    before: dict | None
    after: dict | None
    user: AbstractBaseUser | None
    at: datetime.datetime
    reason: str = ""  # a judge's correction of a locked pulka says why
    seat: int | None = None  # done at the table, by the player at this seat


@dataclass(frozen=True)
class RestoredStatus:
    status: str
    user: AbstractBaseUser | None
    at: datetime.datetime
    reason: str = ""


@transaction.atomic
def pulka_restore(
    *,
    evening: Evening,
    document: dict[str, Any],
    table: int,
    status: str,
    created_by: AbstractBaseUser | None,
    created_at: datetime.datetime,
    finished_at: datetime.datetime | None,
    deals: Sequence[RestoredDeal],
    revisions: Sequence[RestoredRevision],
    status_changes: Sequence[RestoredStatus],
    deal_cap: int | None = None,
    locked_at: datetime.datetime | None = None,
    claimed_by: Sequence[AbstractBaseUser | None] = (),
) -> Pulka:
    """Store a pulka/1 document as table `table` of the evening, as it stood in a backup:
    its status, who entered and changed each deal, its history, its lock. The engine checks every
    deal first; the result caches are rebuilt here (the ratings are the caller's: it re-rates
    the club once, after its last pulka). All or nothing.

    What its players did at the table comes too (each deal's confirmation and seats, each
    revision's seat, `claimed_by`: the account that took each seat); never its link.
    """
    parsed, sheet = _validated_document(document)
    if status not in PulkaStatus.values:
        raise ScoringError(_("Unknown status of a pulka: %(status)s.") % {"status": status})
    if sheet.closed and status == PulkaStatus.RUNNING:
        raise ScoringError(_("Every pool of this pulka is closed: it cannot be running."))
    if deal_cap is not None:
        if (
            not isinstance(deal_cap, int)
            or isinstance(deal_cap, bool)
            or not 1 <= deal_cap <= MAX_DEALS
        ):
            raise ScoringError(_("A deal cap is a number from 1 to %(max)s.") % {"max": MAX_DEALS})
        if len(parsed.deals) > deal_cap or (
            len(parsed.deals) == deal_cap and status == PulkaStatus.RUNNING
        ):
            raise ScoringError(
                _("This table plays at most %(cap)s deals, and the file holds %(count)s.")
                % {"cap": deal_cap, "count": len(parsed.deals)}
            )
    if Pulka.objects.filter(evening=evening, table=table).exists() or table < 1:
        raise ScoringError(_("Table %(table)s cannot be added to this evening.") % {"table": table})
    if len(deals) != len(parsed.deals):
        raise ScoringError(_("Each deal needs one line saying who entered it."))
    for line in revisions:
        if line.action not in RevisionAction.values or not (
            line.deal is None or 1 <= line.deal <= len(deals)
        ):
            raise ScoringError(
                _("A line of the history of deal %(number)s is not understood.")
                % {"number": line.number}
            )
    if any(line.status not in PulkaStatus.values for line in status_changes):
        raise ScoringError(_("A line of the pulka's history is not understood."))
    _check_table_entry(len(parsed.players), deals, revisions, claimed_by)
    players = _roster_players(evening, parsed.players)
    names = list(parsed.players)
    pulka = Pulka.objects.create(
        evening=evening,
        table=table,
        rules=engine.rules_to_dict(parsed.rules),
        first_dealer=names.index(parsed.first_dealer),
        deal_cap=deal_cap,
        locked_at=locked_at,
        status=status,
        created_by=_user(created_by),
        created_at=created_at,
        finished_at=None if status == PulkaStatus.RUNNING else finished_at or timezone.now(),
    )
    claims = list(claimed_by) + [None] * (len(players) - len(claimed_by))
    Seat.objects.bulk_create(
        Seat(pulka=pulka, position=i, player=player, claimed_by=_user(claims[i]))
        for i, player in enumerate(players)
    )
    seats = {name: i for i, name in enumerate(names)}
    rows = []
    for number, (parsed_deal, stamp) in enumerate(zip(parsed.deals, deals, strict=True), 1):
        deal = Deal(
            pulka=pulka,
            number=number,
            version=max(1, stamp.version),
            entered_by=_user(stamp.entered_by),
            entered_at=stamp.entered_at,
            changed_by=_user(stamp.changed_by),
            changed_at=stamp.changed_at,
            confirmation=stamp.confirmation,
            entered_seat=stamp.entered_seat,
            confirmed_seat=stamp.confirmed_seat,
            confirmed_at=stamp.confirmed_at,
            disputed_seat=stamp.disputed_seat,
            dispute_reason=stamp.dispute_reason,
        )
        deal.set_from_pulka_dict(engine.deal_to_dict(parsed_deal), seats)
        rows.append(deal)
    _with_dealers(rows, sheet, names)
    Deal.objects.bulk_create(rows)
    # Read the rows back: not every database returns the new primary keys from a bulk insert.
    stored = {deal.number: deal for deal in Deal.objects.filter(pulka=pulka)}
    DealRevision.objects.bulk_create(
        DealRevision(
            pulka=pulka,
            deal=None if line.deal is None else stored[line.deal],
            number=line.number,
            action=line.action,
            before=line.before,
            after=line.after,
            user=_user(line.user),
            at=line.at,
            reason=line.reason[:REASON_MAX],
            seat=line.seat,
        )
        for line in revisions
    )
    StatusChange.objects.bulk_create(
        StatusChange(
            pulka=pulka,
            status=line.status,
            user=_user(line.user),
            at=line.at,
            reason=line.reason[:REASON_MAX],
        )
        for line in status_changes
    )
    result_cache_rebuild(pulka, names, sheet, announce=False)
    return pulka


def _check_table_entry(
    players: int,
    deals: Sequence[RestoredDeal],
    revisions: Sequence[RestoredRevision],
    claimed_by: Sequence[AbstractBaseUser | None],
) -> None:
    """What a backup says was done at the table must fit the table: known states, seats
    that exist, a dispute's reason no longer than the page takes."""

    def seat_ok(seat: object) -> bool:
        return seat is None or (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players
        )

    for number, stamp in enumerate(deals, 1):
        seats = (stamp.entered_seat, stamp.confirmed_seat, stamp.disputed_seat)
        if (
            stamp.confirmation not in DealCheck.values
            or not all(seat_ok(seat) for seat in seats)
            or len(stamp.dispute_reason) > DISPUTE_REASON_MAX
        ):
            raise ScoringError(
                _("What was done at the table for deal %(number)s is not understood.")
                % {"number": number}
            )
    for line in revisions:
        if not seat_ok(line.seat):
            raise ScoringError(
                _("A line of the history of deal %(number)s is not understood.")
                % {"number": line.number}
            )
    if len(claimed_by) > players:
        raise ScoringError(_("The pulka's seats are not understood."))
