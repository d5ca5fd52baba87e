"""Running a tournament: entries, the rounds from draft to confirmed, penalties.

A round goes draft -> published -> playing -> confirmed:

- **draft**: drawn by competition.seating (round 1 by rating, later rounds by the
  tournament's method), edited by the organiser (swap two players, lock a table, draw the
  rest again with a new seed), checked before it goes out;
- **published**: an evening of the club holds one ordinary pulka per table, recorded on the
  same entry page with the same engine; a table with no deal yet can still be re-seated;
- **playing**: the organiser started the clock; tables end at the pool target, at the deal
  cap, or when the judge ends them on time (settled as unfinished, as any pulka);
- **confirmed**: no table is running; the round counts in the standings. A correction of one
  of its deals later re-computes the standings, which say so.

Every function takes the row it changes, locks the tournament row, checks what the rules
refuse (a TournamentError in the user's words) and changes nothing when it refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from club.errors import ServiceError
from club.models import Club, Player
from club.services import roster_players_for_names
from competition import seating as seat
from competition import tournament_scoring as ts
from competition import tournament_selectors as selectors
from competition.messages import problem_text
from competition.models import (
    Entry,
    EntryStatus,
    Penalty,
    PenaltyUnit,
    Round,
    RoundState,
    RoundTable,
    Scoring,
    SeatingMethod,
    Tournament,
)
from competition.problems import Problem, TournamentError
from scoring import engine
from scoring.messages import problem_text as engine_text
from scoring.models import DealRevision, Evening, PulkaStatus, Seat
from scoring.services import (
    ScoringError,
    evening_count,
    pulka_abandon,
    pulka_create,
    pulka_finish,
)

#: Whists or points a judge may take away at once, either way.
PENALTY_MAX = 100_000


class TournamentServiceError(ServiceError):
    pass


def _problem(problem: Problem, names: dict[int, str] | None = None) -> TournamentServiceError:
    text = (
        selectors.named([problem], names or {})[0] if names is not None else problem_text(problem)
    )
    return TournamentServiceError(text)


def _lock(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked.club = tournament.club
    return locked


def _user(user: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return user if user is not None and user.is_authenticated else None


def _has_published(tournament: Tournament) -> bool:
    return tournament.rounds.exclude(state=RoundState.DRAFT).exists()


# --- the tournament -------------------------------------------------------------------------


def caps_from_text(text: str) -> list[list[str]]:
    """Caps typed as "0:1, 200:1/10, 650:0" (from whists: factor), checked.

    >>> caps_from_text("0:1, 200:1/10, 650:0")
    [['0', '1'], ['200', '1/10'], ['650', '0']]
    """
    steps: list[tuple[Fraction, Fraction]] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        start, colon, factor = part.partition(":")
        try:
            if not colon:
                raise ValueError
            step = (Fraction(start.strip()), Fraction(factor.strip()))
        except (ValueError, ZeroDivisionError):
            raise TournamentServiceError(
                _('"%(part)s" is not a step: write it as "from whists: factor", e.g. "200: 1/10".')
                % {"part": part[:40]},
                field="caps",
            ) from None
        if abs(step[0]) > 10**6 or step[1].denominator > 1000:
            raise TournamentServiceError(
                _('"%(part)s" is out of range.') % {"part": part[:40]}, field="caps"
            )
        steps.append(step)
    problems = ts.caps_problems(steps)
    if problems:
        raise TournamentServiceError(problem_text(problems[0]), field="caps")
    return [[str(start), str(factor)] for start, factor in steps]


def caps_to_text(caps: Sequence[Sequence[str]]) -> str:
    return ", ".join(f"{start}:{factor}" for start, factor in caps)


CAPS_PRESETS = {
    "200-650": caps_to_text([[str(a), str(b)] for a, b in ts.CAPS_200_650.steps]),
    "50-100": caps_to_text([[str(a), str(b)] for a, b in ts.CAPS_50_100.steps]),
}


TIE_BREAK_KEYS = frozenset(key.value for key in ts.TieBreak)


def _check_settings(fields: dict) -> None:
    if fields.get("scoring") == Scoring.CAPS and not fields.get("caps"):
        raise TournamentServiceError(_("The caps rule needs its steps."), field="caps")
    after, top = fields.get("stage_after"), fields.get("stage_top")
    if (after is None) != (top is None):
        raise TournamentServiceError(
            _("A final needs both the round after which it starts and its number of players."),
            field="stage_top",
        )
    if after is not None:
        if after >= fields.get("round_count", 0):
            raise TournamentServiceError(
                _("The final must start before the last round."), field="stage_after"
            )
        if top < 3:
            raise TournamentServiceError(
                _("The final stage needs at least 3 players, not %(top)s.") % {"top": top},
                field="stage_top",
            )
    keys = fields.get("tie_breaks") or []
    if len(set(keys)) != len(keys) or any(key not in TIE_BREAK_KEYS for key in keys):
        raise TournamentServiceError(_("Each tie-break can be chosen once."), field="tie_breaks")
    if fields.get("team_best") is not None and not 1 <= fields["team_best"] <= 5:
        raise TournamentServiceError(
            _("A team's score needs its best 1 to 5 players, not %(best)s.")
            % {"best": fields["team_best"]},
            field="team_best",
        )
    try:
        fields["rules"] = engine.rules_to_dict(engine.rules_from_dict(fields["rules"]))
    except engine.PulkaError as exc:
        raise TournamentServiceError(engine_text(exc), field="rules") from exc


#: What cannot change once a round is published: it would change what was played.
FIXED_AFTER_START = ("rules", "deal_cap")


@transaction.atomic
def tournament_create(*, club: Club, created_by: AbstractBaseUser | None, **fields) -> Tournament:
    """A new tournament of the club; its seed (and so its lot) is drawn now."""
    fields.setdefault("tie_breaks", [key.value for key in ts.DEFAULT_TIE_BREAKS])
    _check_settings(fields)
    return Tournament.objects.create(
        club=club, seed=seat.new_seed(), created_by=_user(created_by), **fields
    )


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change the settings. The conventions and the deal cap are fixed once a round is
    published; the scoring rule may change until the end (the standings follow)."""
    locked = _lock(tournament)
    merged = {
        name: getattr(locked, name)
        for name in (
            "rules",
            "round_count",
            "scoring",
            "caps",
            "stage_after",
            "stage_top",
            "tie_breaks",
            "team_best",
        )
    }
    merged.update(fields)
    _check_settings(merged)
    fields["rules"] = merged["rules"]
    if _has_published(locked):
        for name in FIXED_AFTER_START:
            if name in fields and fields[name] != getattr(locked, name):
                raise TournamentServiceError(
                    _("The conventions and the deal cap cannot change once a round is out."),
                    field=name,
                )
        played = locked.rounds.aggregate(last=Count("pk"))["last"]
        if fields.get("round_count", locked.round_count) < played:
            raise TournamentServiceError(
                _("%(played)s rounds are already drawn: the tournament cannot have fewer.")
                % {"played": played},
                field="round_count",
            )
    counted = fields.pop("counted", locked.counted)
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save()
    if counted != locked.counted:
        tournament_count(tournament=locked, counted=counted)
    tournament.__dict__.update(locked.__dict__)
    return locked


@transaction.atomic
def tournament_count(*, tournament: Tournament, counted: bool) -> Tournament:
    """Whether the tournament's tables count in the club's leagues and ratings."""
    Tournament.objects.filter(pk=tournament.pk).update(counted=counted)
    tournament.counted = counted
    for evening in Evening.objects.filter(tournament_round__tournament=tournament):
        evening_count(evening=evening, counted=counted)
    return tournament


# --- entries --------------------------------------------------------------------------------


def _next_round(tournament: Tournament) -> int:
    """The first round not yet published (a late entry plays from it)."""
    last = (
        tournament.rounds.exclude(state=RoundState.DRAFT)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return (last or 0) + 1


def _last_published(tournament: Tournament) -> int:
    return _next_round(tournament) - 1


@transaction.atomic
def entries_add(*, tournament: Tournament, names: Sequence[str], team: str = "") -> list[Entry]:
    """Enter players by name (the club's roster players, new names added to the roster).
    After round 1 is out, they are late entries: they play from the next round."""
    locked = _lock(tournament)
    if locked.finished_at is not None:
        raise TournamentServiceError(_("This tournament is over."))
    names = [name for name in names if name.strip()]
    if not names:
        raise TournamentServiceError(_("Name at least one player."), field="names")
    if len(names) > 400:
        raise TournamentServiceError(_("At most 400 players at once."), field="names")
    players = roster_players_for_names(club=locked.club, names=names)
    taken = set(
        Entry.objects.filter(tournament=locked, player__in=players).values_list(
            "player__name", flat=True
        )
    )
    if taken:
        raise TournamentServiceError(
            _("Already entered: %(names)s.") % {"names": ", ".join(sorted(taken))},
            field="names",
        )
    first = _next_round(locked)
    return Entry.objects.bulk_create(
        Entry(tournament=locked, player=player, team=team.strip()[:60], first_round=first)
        for player in players
    )


@transaction.atomic
def entry_update(*, entry: Entry, team: str) -> Entry:
    entry.team = team.strip()[:60]
    entry.save(update_fields=["team"])
    return entry


def _seat_of(round: Round, player_id: int) -> dict | None:
    for table in round.seating.get("tables", ()):
        if player_id in table["seats"]:
            return table
    return None


def _unstarted(round: Round, number: int) -> RoundTable | None:
    """A published round's table that has no deal yet (None: it has one)."""
    table = RoundTable.objects.select_related("pulka").get(round=round, number=number)
    if table.pulka.deals.exists() or table.pulka.status != PulkaStatus.RUNNING:
        return None
    return table


@transaction.atomic
def entry_withdraw(*, entry: Entry, by: AbstractBaseUser | None = None) -> Entry:
    """Withdraw a player: he keeps the rounds he played and is seated no more. In a draft
    he must then be re-drawn (the draft's check says so); at a published table that has
    not started, a substitute takes his seat (`entry_substitute`)."""
    locked = _lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == EntryStatus.WITHDRAWN:
        raise TournamentServiceError(_("This player is already withdrawn."))
    entry.status = EntryStatus.WITHDRAWN
    entry.last_round = _last_published(locked)
    entry.save(update_fields=["status", "last_round"])
    return entry


@transaction.atomic
def entry_restore(*, entry: Entry) -> Entry:
    """Bring a withdrawn player back, from the next round."""
    locked = _lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == EntryStatus.ACTIVE:
        raise TournamentServiceError(_("This player is already playing."))
    entry.status = EntryStatus.ACTIVE
    entry.first_round = max(entry.first_round, _next_round(locked))
    entry.last_round = None
    entry.save(update_fields=["status", "first_round", "last_round"])
    return entry


@transaction.atomic
def entry_substitute(*, entry: Entry, name: str) -> Entry:
    """A substitute plays for a withdrawn (or withdrawing) player: he gets his own entry
    (his own line in the standings) in the same team, and the seat of the player he
    replaces at a published table that has not started yet."""
    locked = _lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    (player,) = roster_players_for_names(club=locked.club, names=[name])
    if Entry.objects.filter(tournament=locked, player=player).exists():
        raise TournamentServiceError(
            _("%(name)s is already entered.") % {"name": player.name}, field="name"
        )
    current = locked.rounds.filter(state__in=[RoundState.PUBLISHED, RoundState.PLAYING]).first()
    table = _seat_of(current, entry.player_id) if current is not None else None
    if table is not None and _unstarted(current, table["number"]) is None:
        raise TournamentServiceError(
            _(
                "%(name)s's table has started: he finishes this round, or the judge ends it; "
                "the substitute plays from the next round."
            )
            % {"name": entry.player.name}
        )
    if entry.status == EntryStatus.ACTIVE:
        entry.status = EntryStatus.WITHDRAWN
        entry.last_round = _last_published(locked) - (1 if table is not None else 0)
        entry.save(update_fields=["status", "last_round"])
    first = _next_round(locked) - (1 if table is not None else 0)
    substitute = Entry.objects.create(
        tournament=locked, player=player, team=entry.team, first_round=first, substitute_for=entry
    )
    if table is not None:
        _replace_at_table(current, table["number"], entry.player_id, player)
    return substitute


def _replace_at_table(round: Round, number: int, old: int, new: Player) -> None:
    seating = round.seating
    for table in seating["tables"]:
        if table["number"] == number:
            table["seats"] = [new.pk if p == old else p for p in table["seats"]]
            if table["first_dealer"] == old:
                table["first_dealer"] = new.pk
    round.save(update_fields=["seating"])
    pulka = RoundTable.objects.get(round=round, number=number).pulka
    Seat.objects.filter(pulka=pulka, player_id=old).update(player=new)


# --- drafting a round -----------------------------------------------------------------------


def _method(tournament: Tournament, number: int) -> seat.Method:
    if number == 1:
        return seat.Method.RATING
    if tournament.seating == SeatingMethod.SWISS:
        return seat.Method.SWISS
    return seat.Method.MIXING


def _draw(
    tournament: Tournament, number: int, seed: int, locked: Sequence[seat.Table] = ()
) -> seat.Seating:
    players = selectors.entrants(tournament, number)
    finalists = selectors.finalists(tournament) if tournament.stage_after else None
    if finalists is not None and number > (tournament.stage_after or 0):
        players = [p for p in players if p.id in finalists]
    past = selectors.history(tournament, number)
    method = _method(tournament, number)
    names = selectors.names(tournament)
    try:
        if tournament.seating == SeatingMethod.SCHEDULE and not locked:
            rounds = max(tournament.round_count - number + 1, 1)
            return seat.schedule(players, rounds=rounds, seed=seed, history=past)[0]
        order = selectors.standing_order(tournament, number) if method == seat.Method.SWISS else ()
        return seat.seat_round(
            players,
            round=number,
            seed=seed,
            method=method,
            history=past,
            standings=order,
            locked=locked,
        )
    except TournamentError as exc:
        raise _problem(exc.problem, names) from exc


@transaction.atomic
def round_draft(*, tournament: Tournament) -> Round:
    """Draw the next round's draft. The round before must be confirmed."""
    locked = _lock(tournament)
    last = locked.rounds.order_by("-number").first()
    if last is not None and last.state != RoundState.CONFIRMED:
        raise TournamentServiceError(
            _("Round %(number)s is not confirmed yet: confirm it before drawing the next.")
            % {"number": last.number}
        )
    number = (last.number if last else 0) + 1
    if number > locked.round_count:
        raise TournamentServiceError(
            _("All %(rounds)s rounds are drawn.") % {"rounds": locked.round_count}
        )
    seed = seat.round_seed(locked.seed, number)
    seating = _draw(locked, number, seed)
    return Round.objects.create(
        tournament=locked,
        number=number,
        method=seating.method.value,
        seed=seed,
        seating=selectors.seating_to_json(seating),
    )


def _draft(round: Round) -> Round:
    locked = Round.objects.select_for_update().get(pk=round.pk)
    locked.tournament = round.tournament
    if locked.state != RoundState.DRAFT:
        raise TournamentServiceError(_("This round is published: its draft cannot change."))
    return locked


@transaction.atomic
def draft_swap(*, round: Round, first: int, second: int) -> Round:
    """Two players exchange their seats in the draft (either may sit out, with 5 players)."""
    _lock(round.tournament)
    locked = _draft(round)
    if first == second:
        raise TournamentServiceError(_("Choose two different players."))
    held = selectors.locked_tables(locked)
    seating = selectors.seating_of(locked)
    for player in (first, second):
        table = seating.table_of(player)
        if table is not None and table.number in held:
            names = selectors.names(round.tournament)
            raise TournamentServiceError(
                _("%(name)s sits at locked table %(table)s: unlock it first.")
                % {"name": names.get(player, player), "table": table.number}
            )
    try:
        swapped = seat.swap(seating, first, second)
    except TournamentError as exc:
        raise _problem(exc.problem, selectors.names(round.tournament)) from exc
    locked.seating = selectors.seating_to_json(swapped, held)
    locked.save(update_fields=["seating"])
    return locked


@transaction.atomic
def draft_lock(*, round: Round, table: int, lock: bool) -> Round:
    """Lock a table of the draft (a re-draw keeps it as it is), or unlock it."""
    locked = _draft(round)
    tables = locked.seating.get("tables", ())
    if table not in {t["number"] for t in tables}:
        raise TournamentServiceError(
            _("There is no table %(table)s in this seating.") % {"table": table}
        )
    for one in tables:
        if one["number"] == table:
            one["locked"] = lock
    locked.save(update_fields=["seating"])
    return locked


@transaction.atomic
def draft_redraw(*, round: Round) -> Round:
    """Draw the draft again with a new seed, keeping its locked tables."""
    _lock(round.tournament)
    locked = _draft(round)
    held = selectors.locked_tables(locked)
    seating = selectors.seating_of(locked)
    seed = seat.new_seed()
    tables = [t for t in seating.tables if t.number in held]
    drawn = _draw(round.tournament, locked.number, seed, locked=tables)
    locked.seed = seed
    locked.method = drawn.method.value
    locked.seating = selectors.seating_to_json(drawn, held)
    locked.save(update_fields=["seed", "method", "seating"])
    return locked


def draft_problems(round: Round) -> list[str]:
    """What keeps the draft from going out, in words (empty: it can be published)."""
    tournament = round.tournament
    players = selectors.entrants(tournament, round.number)
    active = [p.id for p in players]
    finalists = selectors.finalists(tournament) if tournament.stage_after else None
    if finalists is not None and round.number > (tournament.stage_after or 0):
        active = [p for p in active if p in finalists]
    withdrawn = Entry.objects.filter(
        tournament=tournament, status=EntryStatus.WITHDRAWN
    ).values_list("player_id", flat=True)
    problems = seat.check(selectors.seating_of(round), active=active, withdrawn=withdrawn)
    return selectors.named(problems, selectors.names(tournament))


@transaction.atomic
def draft_discard(*, round: Round) -> None:
    _draft(round).delete()


@transaction.atomic
def round_publish(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Publish the draft: an evening of the club with one pulka per table, seated as drawn."""
    tournament = _lock(round.tournament)
    locked = _draft(round)
    problems = draft_problems(locked)
    if problems:
        raise TournamentServiceError(" ".join(problems))
    seating = selectors.seating_of(locked)
    players = Player.objects.in_bulk(list(seating.players))
    evening = Evening.objects.create(
        club=tournament.club,
        date=timezone.localdate(),
        venue=tournament.name[:120],
        notes=_("%(tournament)s, round %(number)s")
        % {"tournament": tournament.name, "number": locked.number},
        counted=tournament.counted,
        created_by=_user(by),
    )
    for table in seating.tables:
        try:
            pulka = pulka_create(
                evening=evening,
                players=[players[p] for p in table.seats],
                first_dealer=players[table.first_dealer],
                rules=tournament.rules,
                created_by=by,
                table=table.number,
                deal_cap=tournament.deal_cap,
            )
        except ScoringError as exc:
            raise TournamentServiceError(exc.message) from exc
        RoundTable.objects.create(round=locked, number=table.number, pulka=pulka)
    locked.evening = evening
    locked.state = RoundState.PUBLISHED
    locked.published_at = timezone.now()
    locked.save(update_fields=["evening", "state", "published_at"])
    return locked


def _out(round: Round, *states: str) -> Round:
    locked = Round.objects.select_for_update().get(pk=round.pk)
    locked.tournament = round.tournament
    if locked.state not in states:
        raise TournamentServiceError(
            _("Round %(number)s is %(state)s: this cannot be done now.")
            % {"number": locked.number, "state": locked.get_state_display()}
        )
    return locked


@transaction.atomic
def round_start(*, round: Round) -> Round:
    locked = _out(round, RoundState.PUBLISHED)
    locked.state = RoundState.PLAYING
    locked.started_at = timezone.now()
    locked.save(update_fields=["state", "started_at"])
    return locked


@transaction.atomic
def round_reseat(*, round: Round, first: int, second: int) -> Round:
    """After publishing: two players exchange seats, at tables that have no deal yet."""
    _lock(round.tournament)
    locked = _out(round, RoundState.PUBLISHED, RoundState.PLAYING)
    names = selectors.names(round.tournament)
    if first == second:
        raise TournamentServiceError(_("Choose two different players."))
    seating = selectors.seating_of(locked)
    tables = []
    for player in (first, second):
        table = seating.table_of(player)
        if table is None:
            raise TournamentServiceError(
                _("%(name)s has no seat in this round.") % {"name": names.get(player, player)}
            )
        if _unstarted(locked, table.number) is None:
            raise TournamentServiceError(
                _("Table %(table)s has started: its players stay.") % {"table": table.number}
            )
        tables.append(table)
    swapped = seat.swap(seating, first, second)
    locked.seating = selectors.seating_to_json(swapped)
    locked.save(update_fields=["seating"])
    for number in {t.number for t in tables}:
        table = swapped.tables[[t.number for t in swapped.tables].index(number)]
        pulka = RoundTable.objects.get(round=locked, number=number).pulka
        for position, player in enumerate(table.seats):
            Seat.objects.filter(pulka=pulka, position=position).update(player_id=player)
        pulka.first_dealer = table.seats.index(table.first_dealer)
        pulka.save(update_fields=["first_dealer"])
        pulka.__dict__.pop("names", None)
    return locked


@transaction.atomic
def table_end(*, round: Round, number: int, by: AbstractBaseUser | None) -> None:
    """The judge ends a table on time: settled as unfinished (set aside if it has no deal)."""
    locked = _out(round, RoundState.PUBLISHED, RoundState.PLAYING)
    table = RoundTable.objects.filter(round=locked, number=number).select_related("pulka").first()
    if table is None:
        raise TournamentServiceError(
            _("There is no table %(table)s in this round.") % {"table": number}
        )
    pulka = table.pulka
    if pulka.status != PulkaStatus.RUNNING:
        raise TournamentServiceError(_("Table %(table)s has ended.") % {"table": number})
    if pulka.deals.exists():
        pulka_finish(pulka=pulka, finished_by=by)
    else:
        pulka_abandon(pulka=pulka, abandoned_by=by)


@transaction.atomic
def round_confirm(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Confirm a round whose tables have all ended: it counts in the standings."""
    tournament = _lock(round.tournament)
    locked = _out(round, RoundState.PUBLISHED, RoundState.PLAYING)
    running = selectors.running_tables(locked)
    if running:
        raise TournamentServiceError(
            _("Tables still running: %(tables)s. End them before confirming the round.")
            % {"tables": ", ".join(map(str, running))}
        )
    locked.state = RoundState.CONFIRMED
    locked.confirmed_at = timezone.now()
    locked.confirmed_by = _user(by)
    locked.save(update_fields=["state", "confirmed_at", "confirmed_by"])
    if locked.number >= tournament.round_count:
        Tournament.objects.filter(pk=tournament.pk).update(finished_at=timezone.now())
        round.tournament.finished_at = timezone.now()
    return locked


def corrected_after_confirm(round: Round) -> bool:
    """Whether a deal of this confirmed round changed after it was confirmed."""
    if round.confirmed_at is None:
        return False
    return DealRevision.objects.filter(
        pulka__tournament_table__round=round, at__gt=round.confirmed_at
    ).exists()


# --- penalties ------------------------------------------------------------------------------


@transaction.atomic
def penalty_add(
    *,
    tournament: Tournament,
    player_id: int,
    round_number: int,
    amount: int,
    unit: str,
    reason: str,
    by: AbstractBaseUser | None,
) -> Penalty:
    """A judge's penalty, kept in the history (withdraw one with the opposite amount)."""
    locked = _lock(tournament)
    if not Entry.objects.filter(tournament=locked, player_id=player_id).exists():
        raise TournamentServiceError(_("Choose a player of this tournament."), field="player")
    if not locked.rounds.filter(number=round_number).exclude(state=RoundState.DRAFT).exists():
        raise TournamentServiceError(_("Choose a round that was played."), field="round")
    if amount == 0 or abs(amount) > PENALTY_MAX:
        raise TournamentServiceError(
            _("A penalty is a number from 1 to %(max)s (negative to give back).")
            % {"max": PENALTY_MAX},
            field="amount",
        )
    reason = reason.strip()
    if not reason:
        raise TournamentServiceError(_("Say why."), field="reason")
    if unit == PenaltyUnit.POINTS and locked.scoring != Scoring.PLACES:
        raise TournamentServiceError(problem_text(Problem("penalty_unit", {})), field="unit")
    return Penalty.objects.create(
        tournament=locked,
        player_id=player_id,
        round=round_number,
        amount=amount,
        unit=unit,
        reason=reason[:200],
        created_by=_user(by),
    )
