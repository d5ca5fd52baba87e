"""Running a tournament: entries, the rounds from draft to confirmed, penalties.

A round goes draft -> published -> playing -> confirmed:

- **draft**: drawn by competition.lib.seating (round 1 by rating, later rounds by the
  tournament's method), edited by the organiser (swap two players, lock a table, draw the
  rest again with a new seed), checked before it goes out;
- **published**: an evening of the club holds one ordinary pulka per table, recorded on the
  same entry page with the same engine; a table with no deal yet can still be re-seated;
- **playing**: the organiser started the clock; tables end at the pool target, at the deal
  cap, or when the judge ends them on time (settled as unfinished, as any pulka);
- **confirmed**: no table is running; the round counts in the standings. Its pulkas are
  locked: only the organiser corrects one of its deals later, as a judge giving a reason,
  and the standings are re-computed and say so.

Every function takes the row it changes, locks the tournament row, checks what the rules
refuse (a TournamentError in the user's words) and changes nothing when it refuses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.errors import ServiceError
from club.models import Club, Membership, Player, Role
from club.names import EMPTY, InvalidName, normalise_text
from club.services import ClubError, roster_players_for_names
from competition.lib import seating
from competition.lib import tournament_scoring as ts
from competition.lib.problems import Problem, TournamentError
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
from competition.rating import background
from competition.tournament import selectors
from competition.tournament.messages import tournament_problem_text
from scoring import engine
from scoring.messages import engine_problem_text
from scoring.models import MAX_DEALS, DealRevision, Evening, PulkaResultCache, PulkaStatus
from scoring.services import (
    ScoringError,
    evening_count,
    pulka_abandon,
    pulka_create,
    pulka_finish,
    pulka_lock,
    pulka_seat,
)

#: Whists or points a judge may take away at once, either way.
PENALTY_MAX = 100_000
#: Penalties a tournament may hold (withdrawals included): each is a line of the standings'
#: printout and of the penalties page; a real judge gives a handful a round.
PENALTIES_MAX = 500


class TournamentServiceError(ServiceError):
    pass


# The names typed here and shown to others, by the one rule for names (club.names), as the
# messages and the forms (competition.tournament.forms) name them.
TOURNAMENT_NAME = gettext_lazy("The tournament's name")
TOURNAMENT_NAME_MAX = Tournament._meta.get_field("name").max_length
TEAM_NAME = gettext_lazy("The team's name")
TEAM_NAME_MAX = Entry._meta.get_field("team").max_length
PENALTY_REASON = gettext_lazy("The reason")


def _team_name(team: str, field: str = "team") -> str:
    try:
        return normalise_text(
            team, max_length=TEAM_NAME_MAX, what=TEAM_NAME, required=False, field=field
        )
    except InvalidName as exc:
        raise TournamentServiceError(exc.message, field=field) from exc


def _problem(problem: Problem, names: dict[int, str] | None = None) -> TournamentServiceError:
    text = (
        selectors.problem_texts([problem], names or {})[0]
        if names is not None
        else tournament_problem_text(problem)
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

#: A number of a caps step: a whole number, a decimal or a fraction ("200", "0.5", "1/10").
#: Strict on purpose: Fraction() alone would also read "1e999999999" (and take minutes).
_CAPS_NUMBER = re.compile(r"[+-]?\d{1,9}(?:\.\d{1,6})?(?:/\d{1,6})?")
#: The most steps a caps scale may have.
CAPS_MAX_STEPS = 20
#: Whists beyond which a cap's breakpoint, a floor or a bye's score is surely a typo.
WHISTS_MAX = 10**6


def _caps_error(text: str) -> TournamentServiceError:
    return TournamentServiceError(text, field="caps")


def _caps_step(start: Any, factor: Any, part: str) -> tuple[Fraction, Fraction]:
    texts = (str(start).strip(), str(factor).strip())
    if not all(_CAPS_NUMBER.fullmatch(text) for text in texts):
        raise _caps_error(
            _('"%(part)s" is not a step: write it as "from whists: factor", e.g. "200: 1/10".')
            % {"part": part[:40]}
        )
    try:
        step = (Fraction(texts[0]), Fraction(texts[1]))
    except (ValueError, ZeroDivisionError):
        raise _caps_error(
            _('"%(part)s" is not a step: write it as "from whists: factor", e.g. "200: 1/10".')
            % {"part": part[:40]}
        ) from None
    if abs(step[0]) > WHISTS_MAX or step[1].denominator > 1000:
        raise _caps_error(_('"%(part)s" is out of range.') % {"part": part[:40]})
    return step


def _caps_checked(steps: list[tuple[Fraction, Fraction]]) -> list[list[str]]:
    if len(steps) > CAPS_MAX_STEPS:
        raise _caps_error(_("At most %(max)s steps.") % {"max": CAPS_MAX_STEPS})
    problems = ts.caps_problems(steps)
    if problems:
        raise _caps_error(tournament_problem_text(problems[0]))
    return [[str(start), str(factor)] for start, factor in steps]


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
        if len(steps) >= CAPS_MAX_STEPS:
            raise _caps_error(_("At most %(max)s steps.") % {"max": CAPS_MAX_STEPS})
        start, colon, factor = part.partition(":")
        if not colon:
            raise _caps_error(
                _('"%(part)s" is not a step: write it as "from whists: factor", e.g. "200: 1/10".')
                % {"part": part[:40]}
            )
        steps.append(_caps_step(start, factor, part))
    return _caps_checked(steps)


def caps_to_text(caps: Sequence[Sequence[str]]) -> str:
    return ", ".join(f"{start}:{factor}" for start, factor in caps)


CAPS_PRESETS = {
    "200-650": caps_to_text([[str(a), str(b)] for a, b in ts.CAPS_200_650.steps]),
    "50-100": caps_to_text([[str(a), str(b)] for a, b in ts.CAPS_50_100.steps]),
}


TIE_BREAK_KEYS = frozenset(key.value for key in ts.TieBreak)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _in_range(value: Any, low: int, high: int) -> bool:
    return _whole(value) and low <= value <= high


def _check_settings(fields: dict) -> None:
    """Refuse settings that make no tournament, each on its field (`fields` as the model's
    columns; missing ones take the model's defaults). Normalises `rules` and `caps`."""
    name = fields.get("name")
    if name is not None:
        try:
            fields["name"] = normalise_text(
                str(name), max_length=TOURNAMENT_NAME_MAX, what=TOURNAMENT_NAME
            )
        except InvalidName as exc:
            message = _("Name the tournament.") if exc.code == EMPTY else exc.message
            raise TournamentServiceError(message, field="name") from exc
    rounds = fields.get("round_count", 5)
    if not _in_range(rounds, 1, 15):
        raise TournamentServiceError(
            _("A tournament has 1 to %(max)s rounds.") % {"max": 15}, field="round_count"
        )
    cap = fields.get("deal_cap")
    if cap is not None and not _in_range(cap, 1, MAX_DEALS):
        raise TournamentServiceError(
            _("A deal cap is a number of deals from 1 to %(max)s (empty: no cap).")
            % {"max": MAX_DEALS},
            field="deal_cap",
        )
    if fields.get("seating", SeatingMethod.SWISS) not in SeatingMethod.values:
        raise TournamentServiceError(
            _("Choose how the rounds after the first are seated."), field="seating"
        )
    scoring = fields.get("scoring", Scoring.CAPS)
    if scoring not in Scoring.values:
        raise TournamentServiceError(_("Choose what a round's result counts."), field="scoring")
    caps = fields.get("caps") or []
    if caps:
        if not isinstance(caps, list | tuple) or not all(
            isinstance(step, list | tuple) and len(step) == 2 for step in caps
        ):
            raise _caps_error(_("The caps are steps of two numbers: from whists, and a factor."))
        fields["caps"] = _caps_checked(
            [_caps_step(start, factor, f"{start}:{factor}") for start, factor in caps]
        )
    elif scoring == Scoring.CAPS:
        raise _caps_error(_("The caps rule needs its steps."))
    floor = fields.get("floor")
    if floor is not None and not _in_range(floor, -WHISTS_MAX, WHISTS_MAX):
        raise TournamentServiceError(
            _("The floor is a number of whists, for example -1000 (empty: none)."), field="floor"
        )
    if not _in_range(fields.get("bye_score", 0), -WHISTS_MAX, WHISTS_MAX):
        raise TournamentServiceError(
            _("A round sat out counts a whole number, for example 0."), field="bye_score"
        )
    after, top = fields.get("stage_after"), fields.get("stage_top")
    if (after is None) != (top is None):
        raise TournamentServiceError(
            _("A final needs both the round after which it starts and its number of players."),
            field="stage_top" if top is None else "stage_after",
        )
    if after is not None:
        if not _whole(after) or not 1 <= after < rounds:
            raise TournamentServiceError(
                _("The final starts after one of rounds 1 to %(last)s: before the last round.")
                % {"last": rounds - 1},
                field="stage_after",
            )
        if not _whole(top) or top < 3:
            raise TournamentServiceError(
                _("The final stage needs at least 3 players, not %(top)s.") % {"top": top},
                field="stage_top",
            )
    keys = fields.get("tie_breaks") or []
    if not isinstance(keys, list | tuple):
        keys = [keys]
    for key in keys:
        if key not in TIE_BREAK_KEYS:
            raise TournamentServiceError(
                _("There is no tie-break %(key)s.") % {"key": str(key)[:40]}, field="tie_breaks"
            )
    if len(set(keys)) != len(keys):
        raise TournamentServiceError(_("Each tie-break can be chosen once."), field="tie_breaks")
    fields["tie_breaks"] = list(keys)
    best = fields.get("team_best")
    if best is not None and not _in_range(best, 1, 5):
        raise TournamentServiceError(
            _("A team's score needs its best 1 to 5 players, not %(best)s.") % {"best": best},
            field="team_best",
        )
    try:
        fields["rules"] = engine.rules_to_dict(engine.rules_from_dict(fields.get("rules")))
    except engine.PulkaError as exc:
        raise TournamentServiceError(engine_problem_text(exc), field="rules") from exc


def _resolved(rules: dict) -> dict:
    """Stored conventions as the engine reads them today (a comparison ignores key order and
    the defaults spelled out or not)."""
    try:
        return engine.rules_to_dict(engine.rules_from_dict(rules))
    except engine.PulkaError:
        return rules


#: What cannot change once a round is published: it would change what was played.
FIXED_AFTER_START = ("rules", "deal_cap")


@transaction.atomic
def tournament_create(*, club: Club, created_by: AbstractBaseUser | None, **fields) -> Tournament:
    """A new tournament of the club; its seed (and so its lot) is drawn now. The
    conventions default to the club's."""
    fields.setdefault("rules", club.default_rules())
    fields.setdefault("tie_breaks", [key.value for key in ts.DEFAULT_TIE_BREAKS])
    _check_settings(fields)
    return Tournament.objects.create(
        club=club, seed=seating.new_seed(), created_by=_user(created_by), **fields
    )


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields) -> Tournament:
    """Change the settings. The conventions and the deal cap are fixed once a round is
    published; the scoring rule may change until the end (the standings follow); the
    rounds cannot be fewer than those drawn. Raising the number of rounds of a finished
    tournament opens it again."""
    locked = _lock(tournament)
    # The settings are checked together: the stored ones stand for those not given.
    merged = {name: getattr(locked, name) for name in Tournament.SETTINGS}
    merged.update(fields)
    _check_settings(merged)
    for name in Tournament.SETTINGS:
        if name in fields:
            fields[name] = merged[name]
    if _has_published(locked):
        for name in FIXED_AFTER_START:
            if name not in fields:
                continue
            new, old = fields[name], getattr(locked, name)
            if name == "rules":
                new, old = _resolved(new), _resolved(old)
            if new != old:
                raise TournamentServiceError(
                    _("The conventions and the deal cap cannot change once a round is out."),
                    field=name,
                )
    drawn = locked.rounds.count()
    if merged["round_count"] < drawn:
        raise TournamentServiceError(
            _("%(played)s rounds are already drawn: the tournament cannot have fewer.")
            % {"played": drawn},
            field="round_count",
        )
    if (
        merged["scoring"] != Scoring.PLACES
        and Penalty.objects.filter(tournament=locked, unit=PenaltyUnit.POINTS).exists()
    ):
        raise TournamentServiceError(
            _("Penalties in points were given: the round result must stay place points."),
            field="scoring",
        )
    counted = fields.pop("counted", locked.counted)
    for name, value in fields.items():
        setattr(locked, name, value)
    confirmed = locked.rounds.filter(state=RoundState.CONFIRMED).count()
    if confirmed < locked.round_count:
        locked.finished_at = None
    elif locked.finished_at is None:
        locked.finished_at = timezone.now()
    locked.save()
    if counted != locked.counted:
        tournament_count(tournament=locked, counted=counted)
    for name in (*fields, "counted", "finished_at"):  # the caller's object follows
        setattr(tournament, name, getattr(locked, name))
    return locked


@transaction.atomic
def tournament_count(*, tournament: Tournament, counted: bool) -> Tournament:
    """Whether the tournament's tables count in the club's leagues and ratings. Every round
    published so far follows at once (the ratings are replayed once, from the first round
    whose results changed sides); rounds published later take the tournament's setting."""
    locked = _lock(tournament)
    Tournament.objects.filter(pk=locked.pk).update(counted=counted)
    tournament.counted = locked.counted = counted
    since = None
    evenings = Evening.objects.filter(tournament_round__tournament=locked).exclude(counted=counted)
    for evening in evenings.order_by("date", "pk"):
        if since is None and PulkaResultCache.objects.filter(pulka__evening=evening).exists():
            since = evening.date
        evening_count(evening=evening, counted=counted, announce=False)
    if since is not None:
        background.refresh_request(club=locked.club, since=since)
    return tournament


# --- entries --------------------------------------------------------------------------------


def next_round(tournament: Tournament) -> int:
    """The first round not yet published (a late entry, or a player restored, plays from it)."""
    last = (
        tournament.rounds.exclude(state=RoundState.DRAFT)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return (last or 0) + 1


def _last_published(tournament: Tournament) -> int:
    return next_round(tournament) - 1


def _not_over(tournament: Tournament) -> None:
    if tournament.finished_at is not None:
        raise TournamentServiceError(_("This tournament is over."))


def _players_for_names(club: Club, names: Sequence[str], field: str) -> list[Player]:
    try:
        return roster_players_for_names(club=club, names=names)
    except ClubError as exc:
        raise TournamentServiceError(exc.message, field=field) from exc


@transaction.atomic
def entries_add(
    *,
    tournament: Tournament,
    names: Sequence[str],
    team: str = "",
    teams: Sequence[str] | None = None,
) -> list[Entry]:
    """Enter players by name (the club's roster players, new names added to the roster),
    all in `team`, or each in his own of `teams` (one a name, "" for none). After round 1
    is out, they are late entries: they play from the next round (a draft drawn before
    they came must be drawn again: its check says who has no seat)."""
    locked = _lock(tournament)
    _not_over(locked)
    if teams is not None and len(teams) != len(names):
        raise TournamentServiceError(_("Give each player one team, or none."), field="names")
    given = [_team_name(one) for one in teams] if teams is not None else None
    team = _team_name(team)
    kept = [(name, given[n] if given else team) for n, name in enumerate(names) if name.strip()]
    names = [name for name, _team in kept]
    if not names:
        raise TournamentServiceError(_("Name at least one player."), field="names")
    if len(names) > 400:
        raise TournamentServiceError(_("At most 400 players at once."), field="names")
    players = _players_for_names(locked.club, names, "names")
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
    first = next_round(locked)
    return Entry.objects.bulk_create(
        Entry(tournament=locked, player=player, team=team, first_round=first)
        for player, (_name, team) in zip(players, kept, strict=True)
    )


@transaction.atomic
def entry_update(*, entry: Entry, team: str) -> Entry:
    team = _team_name(team)
    _lock(entry.tournament)
    entry.team = team
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


def _locked_entry(entry: Entry) -> tuple[Tournament, Entry]:
    locked = _lock(entry.tournament)
    _not_over(locked)
    found = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    found.tournament = locked
    return locked, found


@transaction.atomic
def entry_withdraw(*, entry: Entry, by: AbstractBaseUser | None = None) -> Entry:
    """Withdraw a player: he keeps the rounds he played and is seated no more. A draft
    that seats him cannot be published (its check names him) until he is swapped out or
    the draft is drawn again; at a published table that has not started, a substitute
    takes his seat (`entry_substitute`)."""
    locked, entry = _locked_entry(entry)
    if entry.status == EntryStatus.WITHDRAWN:
        raise TournamentServiceError(_("This player is already withdrawn."))
    entry.status = EntryStatus.WITHDRAWN
    entry.last_round = _last_published(locked)
    entry.save(update_fields=["status", "last_round"])
    return entry


@transaction.atomic
def entry_restore(*, entry: Entry) -> Entry:
    """Bring a withdrawn player back: he is seated again from the next round drawn."""
    locked, entry = _locked_entry(entry)
    if entry.status == EntryStatus.ACTIVE:
        raise TournamentServiceError(_("This player is already playing."))
    entry.status = EntryStatus.ACTIVE
    entry.last_round = None
    entry.save(update_fields=["status", "last_round"])
    return entry


@transaction.atomic
def entry_substitute(*, entry: Entry, name: str) -> Entry:
    """A substitute plays for a withdrawn (or withdrawing) player: he gets his own entry
    (his own line in the standings) in the same team, and the place of the player he
    replaces at a published table that has not started yet (refused at a started one),
    and in the draft of the next round if there is one."""
    locked, entry = _locked_entry(entry)
    if not name.strip():
        raise TournamentServiceError(_("Name the substitute."), field="name")
    (player,) = _players_for_names(locked.club, [name], "name")
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
                "the substitute comes in after the round."
            )
            % {"name": entry.player.name}
        )
    if table is not None:  # the substitute plays the current round in his place
        entry.last_round = current.number - 1
        first = current.number
    else:
        if entry.status == EntryStatus.ACTIVE:
            entry.last_round = _last_published(locked)
        first = next_round(locked)
    entry.status = EntryStatus.WITHDRAWN
    entry.save(update_fields=["status", "last_round"])
    substitute = Entry.objects.create(
        tournament=locked, player=player, team=entry.team, first_round=first, substitute_for=entry
    )
    if table is not None:
        _replace_at_table(current, table["number"], entry.player_id, player)
    draft = locked.rounds.filter(state=RoundState.DRAFT).first()
    if draft is not None:
        _replace(draft.seating, entry.player_id, player.pk)
        draft.save(update_fields=["seating"])
    return substitute


def _replace(data: dict, old: int, new: int) -> bool:
    """Put player `new` in the place of `old` in a round's seating (JSON): his seat, his
    first deal, or his bye. Returns whether `old` had a place."""
    found = False
    for table in data.get("tables", ()):
        if old in table["seats"]:
            table["seats"] = [new if p == old else p for p in table["seats"]]
            found = True
        if table["first_dealer"] == old:
            table["first_dealer"] = new
    for bye in data.get("byes", ()):
        if bye["player"] == old:
            bye["player"] = new
            found = True
    return found


def _seat_pulka(round: Round, number: int) -> None:
    """Seat the published table `number` as the round's seating now says."""
    current = selectors.seating_of(round)
    table = next(t for t in current.tables if t.number == number)
    pulka = RoundTable.objects.select_related("pulka__evening").get(round=round, number=number)
    players = Player.objects.in_bulk(list(table.seats))
    try:
        pulka_seat(
            pulka=pulka.pulka,
            players=[players[p] for p in table.seats],
            first_dealer=players[table.first_dealer],
        )
    except ScoringError as exc:
        raise TournamentServiceError(exc.message) from exc


def _replace_at_table(round: Round, number: int, old: int, new: Player) -> None:
    _replace(round.seating, old, new.pk)
    round.save(update_fields=["seating"])
    _seat_pulka(round, number)


# --- drafting a round -----------------------------------------------------------------------


def _method(tournament: Tournament, number: int) -> seating.Method:
    if number == 1:
        return seating.Method.RATING
    if tournament.seating == SeatingMethod.SWISS:
        return seating.Method.SWISS
    return seating.Method.MIXING


def _players_of(tournament: Tournament, number: int) -> list[seating.Entrant]:
    """Who is due to play round `number`: the active entries, and in the final only the
    finalists."""
    players = selectors.entrants(tournament, number)
    if tournament.stage_after is not None and number > tournament.stage_after:
        finalists = selectors.finalists(tournament)
        if finalists is not None:
            players = [p for p in players if p.id in finalists]
    return players


def _draw(
    tournament: Tournament,
    number: int,
    seed: int,
    locked: Sequence[seating.Table] = (),
    *,
    planned: bool = False,
) -> seating.Seating:
    """Draw round `number`. `planned`: the round's own seed, so a schedule published in
    advance gives the round it announced (drawn from the tournament's seed, against the
    rounds as they were played); a re-draw draws a fresh schedule from its new seed."""
    players = _players_of(tournament, number)
    past = selectors.history(tournament, number)
    method = _method(tournament, number)
    names = selectors.names(tournament)
    try:
        if tournament.seating == SeatingMethod.SCHEDULE and not locked:
            rounds = max(tournament.round_count - number + 1, 1)
            plan = seating.schedule(
                players, rounds=rounds, seed=tournament.seed if planned else seed, history=past
            )
            return plan[0] if planned else replace(plan[0], seed=seed)
        order = (
            selectors.standing_order(tournament, number) if method == seating.Method.SWISS else ()
        )
        return seating.seat_round(
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
    seed = seating.round_seed(locked.seed, number)
    drawn = _draw(locked, number, seed, planned=True)
    return Round.objects.create(
        tournament=locked,
        number=number,
        method=drawn.method.value,
        seed=drawn.seed,
        seating=selectors.seating_to_json(drawn),
    )


def _draft(round: Round) -> Round:
    locked = Round.objects.select_for_update().get(pk=round.pk)
    locked.tournament = round.tournament
    if locked.state != RoundState.DRAFT:
        raise TournamentServiceError(
            _("Round %(number)s is already published: its draft cannot change.")
            % {"number": locked.number}
        )
    return locked


@transaction.atomic
def draft_swap(*, round: Round, first: int, second: int) -> Round:
    """Two players exchange their places in the draft (either may sit out, with 5
    players). One of them may be a player due to play this round who has no place in it
    (a late entry, a player restored): he takes the other's place, and the other leaves
    the draft (a withdrawn player, say)."""
    _lock(round.tournament)
    locked = _draft(round)
    names = selectors.names(round.tournament)
    if first == second:
        raise TournamentServiceError(_("Choose two different players."))
    held = selectors.locked_tables(locked)
    current = selectors.seating_of(locked)
    placed = set(current.players) | {bye.player for bye in current.byes}
    for player in (first, second):
        table = current.table_of(player)
        if table is not None and table.number in held:
            raise TournamentServiceError(
                _("%(name)s sits at locked table %(table)s: unlock it first.")
                % {"name": names.get(player, player), "table": table.number}
            )
    outside = [player for player in (first, second) if player not in placed]
    if len(outside) == 1:
        (newcomer,) = outside
        due = {p.id for p in _players_of(round.tournament, locked.number)}
        if newcomer not in names:
            raise TournamentServiceError(_("Choose a player of this tournament."))
        if newcomer not in due:
            raise TournamentServiceError(
                _("%(name)s is not due to play this round.")
                % {"name": names.get(newcomer, newcomer)}
            )
        _replace(locked.seating, second if newcomer == first else first, newcomer)
        locked.save(update_fields=["seating"])
        return locked
    try:
        swapped = seating.swap(current, first, second)
    except TournamentError as exc:
        raise _problem(exc.problem, names) from exc
    locked.seating = selectors.seating_to_json(swapped, held)
    locked.save(update_fields=["seating"])
    return locked


@transaction.atomic
def draft_lock(*, round: Round, table: int, lock: bool) -> Round:
    """Lock a table of the draft (a re-draw keeps it as it is), or unlock it."""
    _lock(round.tournament)
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
    current = selectors.seating_of(locked)
    if current.tables and held >= {t.number for t in current.tables}:
        raise TournamentServiceError(_("Every table is locked: unlock the tables to draw again."))
    seed = seating.new_seed()
    tables = [t for t in current.tables if t.number in held]
    drawn = _draw(round.tournament, locked.number, seed, locked=tables)
    locked.seed = seed
    locked.method = drawn.method.value
    locked.seating = selectors.seating_to_json(drawn, held)
    locked.save(update_fields=["seed", "method", "seating"])
    return locked


def draft_problems(round: Round) -> list[str]:
    """What keeps the draft from going out, in words (empty: it can be published)."""
    tournament = round.tournament
    active = [p.id for p in _players_of(tournament, round.number)]
    withdrawn = Entry.objects.filter(
        tournament=tournament, status=EntryStatus.WITHDRAWN
    ).values_list("player_id", flat=True)
    problems = seating.check(selectors.seating_of(round), active=active, withdrawn=withdrawn)
    return selectors.problem_texts(problems, selectors.names(tournament))


def _sentences(lines: list[str]) -> str:
    """Problems in one message: each a sentence (the draft page lists them without stops)."""
    return " ".join(line if line.endswith((".", "!", "?")) else f"{line}." for line in lines)


@transaction.atomic
def draft_discard(*, round: Round) -> None:
    _lock(round.tournament)
    _draft(round).delete()


@transaction.atomic
def round_publish(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Publish the draft: an evening of the club with one pulka per table, seated as drawn,
    with the tournament's conventions and deal cap; it counts in the club's leagues and
    ratings if the tournament does."""
    tournament = _lock(round.tournament)
    locked = _draft(round)
    problems = draft_problems(locked)
    if problems:
        raise TournamentServiceError(_sentences(problems))
    current = selectors.seating_of(locked)
    players = Player.objects.in_bulk(list(current.players))
    evening = Evening.objects.create(
        club=tournament.club,
        date=timezone.localdate(),
        venue=tournament.name[:120],
        notes=_("%(tournament)s, round %(number)s")
        % {"tournament": tournament.name, "number": locked.number},
        counted=tournament.counted,
        created_by=_user(by),
    )
    for table in current.tables:
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


def _locked_round_in(round: Round, *states: str) -> Round:
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
    _lock(round.tournament)
    locked = _locked_round_in(round, RoundState.PUBLISHED)
    locked.state = RoundState.PLAYING
    locked.started_at = timezone.now()
    locked.save(update_fields=["state", "started_at"])
    return locked


@transaction.atomic
def round_reseat(*, round: Round, first: int, second: int) -> Round:
    """After publishing: two players exchange places, at tables that have no deal yet (with
    5 players, the one sitting out may take a seat at such a table)."""
    _lock(round.tournament)
    locked = _locked_round_in(round, RoundState.PUBLISHED, RoundState.PLAYING)
    names = selectors.names(round.tournament)
    if first == second:
        raise TournamentServiceError(_("Choose two different players."))
    current = selectors.seating_of(locked)
    byes = {bye.player for bye in current.byes}
    tables = set()
    for player in (first, second):
        table = current.table_of(player)
        if table is None:
            if player in byes:
                continue
            raise TournamentServiceError(
                _("%(name)s has no seat in this round.") % {"name": names.get(player, player)}
            )
        if _unstarted(locked, table.number) is None:
            raise TournamentServiceError(
                _("Table %(table)s has started: its players stay.") % {"table": table.number}
            )
        tables.add(table.number)
    swapped = seating.swap(current, first, second)
    locked.seating = selectors.seating_to_json(swapped)
    locked.save(update_fields=["seating"])
    for number in sorted(tables):
        _seat_pulka(locked, number)
    return locked


@transaction.atomic
def table_end(*, round: Round, number: int, by: AbstractBaseUser | None) -> None:
    """The judge ends a table on time: settled as unfinished (set aside if it has no deal,
    and then it counts 0 for everyone). Also a table of a confirmed round that a correction
    set running again."""
    tournament = _lock(round.tournament)
    locked = _locked_round_in(round, RoundState.PUBLISHED, RoundState.PLAYING, RoundState.CONFIRMED)
    if locked.state == RoundState.PUBLISHED and not _is_organiser(tournament, by):
        raise TournamentServiceError(
            _("Round %(number)s has not started: only the organiser can end its tables.")
            % {"number": locked.number}
        )
    table = RoundTable.objects.filter(round=locked, number=number).select_related("pulka").first()
    if table is None:
        raise TournamentServiceError(
            _("There is no table %(table)s in this round.") % {"table": number}
        )
    pulka = table.pulka
    if pulka.status != PulkaStatus.RUNNING:
        raise TournamentServiceError(_("Table %(table)s has ended.") % {"table": number})
    # A confirmed round's table is locked: ending it again is the organiser's, as a judge.
    reason = _("The judge ended the table again after a correction.") if pulka.is_locked else ""
    try:
        if pulka.deals.exists():
            pulka_finish(pulka=pulka, finished_by=by, reason=reason)
        else:
            pulka_abandon(pulka=pulka, abandoned_by=by, reason=reason)
    except ScoringError as exc:
        raise TournamentServiceError(exc.message) from exc


def _is_organiser(tournament: Tournament, user: AbstractBaseUser | None) -> bool:
    """The club's owner organises its tournaments (None: the system, a restore or a bench)."""
    if user is None:
        return True
    return Membership.objects.filter(club=tournament.club_id, user=user, role=Role.OWNER).exists()


@transaction.atomic
def round_confirm(*, round: Round, by: AbstractBaseUser | None) -> Round:
    """Confirm a round whose tables have all ended: it counts in the standings. The last
    round confirmed finishes the tournament."""
    tournament = _lock(round.tournament)
    locked = _locked_round_in(round, RoundState.PUBLISHED, RoundState.PLAYING)
    running = selectors.running_tables(locked)
    if running:
        raise TournamentServiceError(
            _("Tables still running: %(tables)s. End them before confirming the round.")
            % {"tables": ", ".join(map(str, running))}
        )
    now = timezone.now()
    locked.state = RoundState.CONFIRMED
    locked.confirmed_at = now
    locked.confirmed_by = _user(by)
    locked.save(update_fields=["state", "confirmed_at", "confirmed_by"])
    # Its tables are settled for good: only the organiser corrects them now, as a judge.
    for table in RoundTable.objects.filter(round=locked).select_related("pulka__evening__club"):
        pulka_lock(pulka=table.pulka)
    if locked.number >= tournament.round_count:
        Tournament.objects.filter(pk=tournament.pk).update(finished_at=now)
        round.tournament.finished_at = now
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
    """A judge's penalty, kept in the history (withdraw one with the opposite amount); at
    most PENALTIES_MAX in a tournament."""
    locked = _lock(tournament)
    if Penalty.objects.filter(tournament=locked).count() >= PENALTIES_MAX:
        raise TournamentServiceError(
            _("A tournament holds at most %(max)s penalties: this one has them all.")
            % {"max": PENALTIES_MAX}
        )
    if not Entry.objects.filter(tournament=locked, player_id=player_id).exists():
        raise TournamentServiceError(_("Choose a player of this tournament."), field="player")
    if (
        not _whole(round_number)
        or not locked.rounds.filter(number=round_number).exclude(state=RoundState.DRAFT).exists()
    ):
        raise TournamentServiceError(_("Choose a round that was played."), field="round")
    if not _in_range(amount, -PENALTY_MAX, PENALTY_MAX) or amount == 0:
        raise TournamentServiceError(
            _("A penalty is a number from 1 to %(max)s (negative to give back).")
            % {"max": PENALTY_MAX},
            field="amount",
        )
    if unit not in PenaltyUnit.values:
        raise TournamentServiceError(_("Choose whists or points."), field="unit")
    reason = reason.strip()
    if not reason:
        raise TournamentServiceError(_("Say why."), field="reason")
    if unit == PenaltyUnit.POINTS and locked.scoring != Scoring.PLACES:
        raise TournamentServiceError(
            tournament_problem_text(Problem("penalty_unit", {})), field="unit"
        )
    return Penalty.objects.create(
        tournament=locked,
        player_id=player_id,
        round=round_number,
        amount=amount,
        unit=unit,
        reason=reason[:200],
        created_by=_user(by),
    )
