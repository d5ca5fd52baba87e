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

import datetime
import re
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from club.errors import ServiceError
from club.models import Club, Membership, Player, Role
from club.names import EMPTY, InvalidName, normalise_text
from club.services import ClubError, roster_players_for_names
from competition.lib import seating
from competition.lib import tournament_scoring as ts
from competition.lib.problems import Problem, TournamentError
from competition.models import (
    APART_MAX,
    MORE_DEALS_MAX,
    ROUND_MINUTES_MAX,
    Entry,
    EntryStatus,
    LastDeal,
    Penalty,
    PenaltyUnit,
    Round,
    RoundState,
    RoundTable,
    Scoring,
    SeatingMethod,
    TableSizes,
    Tournament,
)
from competition.rating import background
from competition.tournament import notices, selectors
from competition.tournament.messages import tournament_problem_text
from scoring import engine
from scoring.clock import clock_of
from scoring.messages import engine_problem_text
from scoring.models import (
    MAX_DEALS,
    Deal,
    DealCheck,
    DealRevision,
    Evening,
    Pulka,
    PulkaResultCache,
    PulkaStatus,
)
from scoring.services import (
    ScoringError,
    evening_count,
    pulka_abandon,
    pulka_create,
    pulka_finish,
    pulka_lock,
    pulka_seat,
    table_clock_set,
    table_link_open,
    table_link_renew,
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
    if fields.get("tables", TableSizes.MIXED) not in TableSizes.values:
        raise TournamentServiceError(_("Choose the tables of the rounds."), field="tables")
    if "apart" in fields:
        fields["apart"] = apart_pairs(fields["apart"])
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
    _check_clock(fields)
    try:
        fields["rules"] = engine.rules_to_dict(engine.rules_from_dict(fields.get("rules")))
    except engine.PulkaError as exc:
        raise TournamentServiceError(engine_problem_text(exc), field="rules") from exc


def apart_pairs(value: Any) -> list[list[int]]:
    """The pairs of players to keep apart as stored: each [smaller id, larger id], once,
    in order; refused (on the field "apart") unless it is at most APART_MAX pairs of two
    different player ids.

    >>> apart_pairs([[9, 4], [4, 9], (2, 3)])
    [[2, 3], [4, 9]]
    """
    if value is None:
        return []
    shape = _("Each pair to keep apart is two different players.")
    if not isinstance(value, list | tuple):
        raise TournamentServiceError(shape, field="apart")
    pairs: set[tuple[int, int]] = set()
    for pair in value:
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or not all(_whole(player) for player in pair)
            or pair[0] == pair[1]
        ):
            raise TournamentServiceError(shape, field="apart")
        pairs.add((min(pair), max(pair)))
    if len(pairs) > APART_MAX:
        raise TournamentServiceError(
            _("At most %(max)s pairs can be kept apart.") % {"max": APART_MAX}, field="apart"
        )
    return [list(pair) for pair in sorted(pairs)]


def _check_clock(fields: dict) -> None:
    """The round clock's settings: a length in minutes (or none), and what happens at time.
    `more_deals` is kept only for the rule that reads it."""
    minutes = fields.get("round_minutes")
    if minutes is not None and not _in_range(minutes, 1, ROUND_MINUTES_MAX):
        raise TournamentServiceError(
            _("A round lasts 1 to %(max)s minutes (empty: untimed).") % {"max": ROUND_MINUTES_MAX},
            field="round_minutes",
        )
    rule = fields.get("last_deal") or LastDeal.NONE
    if rule not in LastDeal.values:
        raise TournamentServiceError(
            _("Choose what happens when the time is out."), field="last_deal"
        )
    fields["last_deal"] = rule
    if rule != LastDeal.NONE and minutes is None:
        raise TournamentServiceError(
            _("A rule for the last deal needs the rounds' length in minutes."),
            field="last_deal",
        )
    more = fields.get("more_deals")
    if rule == LastDeal.MORE:
        if not _in_range(more, 1, MORE_DEALS_MAX):
            raise TournamentServiceError(
                _("Say how many deals more: 1 to %(max)s.") % {"max": MORE_DEALS_MAX},
                field="more_deals",
            )
    elif "more_deals" in fields:
        fields["more_deals"] = None


def deals_after_time(tournament: Tournament) -> int | None:
    """How many deals may start at a table once its time is out (Pulka.deals_after_time):
    the one in progress, and N more by the rule "more"; None: no rule, the judge ends it.

    >>> deals_after_time(Tournament(last_deal="more", more_deals=2))
    3
    >>> deals_after_time(Tournament(last_deal="current")), deals_after_time(Tournament())
    (1, None)
    """
    if tournament.last_deal == LastDeal.CURRENT:
        return 1
    if tournament.last_deal == LastDeal.MORE:
        return 1 + (tournament.more_deals or 0)
    return None


def _resolved(rules: dict) -> dict:
    """Stored conventions as the engine reads them today (a comparison ignores key order and
    the defaults spelled out or not)."""
    try:
        return engine.rules_to_dict(engine.rules_from_dict(rules))
    except engine.PulkaError:
        return rules


#: What cannot change once a round is published: it would change what was played.
FIXED_AFTER_START = ("rules", "deal_cap", "tables")


@transaction.atomic
def tournament_create(*, club: Club, created_by: AbstractBaseUser | None, **fields) -> Tournament:
    """A new tournament of the club; its seed (and so its lot) is drawn now. The
    conventions default to the club's."""
    fields.setdefault("rules", club.default_rules())
    fields.setdefault("tie_breaks", [key.value for key in ts.DEFAULT_TIE_BREAKS])
    _check_settings(fields)
    if fields.get("apart"):  # nobody is entered yet
        raise TournamentServiceError(
            _("A pair to keep apart names a player not entered in this tournament."),
            field="apart",
        )
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
                message = (
                    _("The tables cannot change once a round is out.")
                    if name == "tables"
                    else _("The conventions and the deal cap cannot change once a round is out.")
                )
                raise TournamentServiceError(message, field=name)
    if fields.get("apart"):
        entered = set(Entry.objects.filter(tournament=locked).values_list("player_id", flat=True))
        if any(player not in entered for pair in fields["apart"] for player in pair):
            raise TournamentServiceError(
                _("A pair to keep apart names a player not entered in this tournament."),
                field="apart",
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
            plan = selectors.schedule_of(
                tournament,
                players,
                rounds=rounds,
                seed=tournament.seed if planned else seed,
                history=past,
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
            tables=selectors.tables_of(tournament),
            apart=selectors.apart_of(tournament),
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
    problems = seating.check(
        selectors.seating_of(round),
        active=active,
        withdrawn=withdrawn,
        tables=selectors.tables_of(tournament),
    )
    return selectors.problem_texts(problems, selectors.names(tournament))


def _sentences(lines: list[str]) -> str:
    """Problems in one message: each a sentence (the draft page lists them without stops)."""
    return " ".join(line if line.endswith((".", "!", "?")) else f"{line}." for line in lines)


@transaction.atomic
def draft_discard(*, round: Round) -> None:
    _lock(round.tournament)
    _draft(round).delete()


#: How far from now a planned start may be: beyond it, surely a typo.
STARTS_AT_RANGE = datetime.timedelta(days=366)


@transaction.atomic
def round_publish(
    *, round: Round, by: AbstractBaseUser | None, starts_at: datetime.datetime | None = None
) -> Round:
    """Publish the draft: an evening of the club with one pulka per table, seated as drawn,
    with the tournament's conventions and deal cap; it counts in the club's leagues and
    ratings if the tournament does. Every table gets its link (its players record it), and
    the round its planned start (`starts_at`, optional)."""
    tournament = _lock(round.tournament)
    locked = _draft(round)
    if starts_at is not None and abs(starts_at - timezone.now()) > STARTS_AT_RANGE:
        raise TournamentServiceError(
            _("The planned start is a time within a year from now."), field="starts_at"
        )
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
        self_entry=True,
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
        table_link_open(pulka=pulka)
    locked.evening = evening
    locked.state = RoundState.PUBLISHED
    locked.published_at = timezone.now()
    locked.starts_at = starts_at
    locked.save(update_fields=["evening", "state", "published_at", "starts_at"])
    notices.round_published(locked)
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
    """Start the round, and its clock if the tournament's rounds are timed: the round and
    every running table run out in `round_minutes`, the tables then playing on by the
    tournament's rule for the last deal."""
    tournament = _lock(round.tournament)
    locked = _locked_round_in(round, RoundState.PUBLISHED)
    now = timezone.now()
    locked.state = RoundState.PLAYING
    locked.started_at = now
    if tournament.round_minutes:
        locked.ends_at = now + datetime.timedelta(minutes=tournament.round_minutes)
        locked.paused_left = None
        table_clock_set(
            pulkas=_running_pulkas(locked),
            ends_at=locked.ends_at,
            paused_left=None,
            deals_after_time=deals_after_time(tournament),
        )
    locked.save(update_fields=["state", "started_at", "ends_at", "paused_left"])
    return locked


# --- the round clock ------------------------------------------------------------------------

#: The most minutes the organiser adds at once.
ADD_MINUTES_MAX = 240


def _running_pulkas(round: Round, number: int | None = None) -> list[Pulka]:
    tables = RoundTable.objects.filter(round=round, pulka__status=PulkaStatus.RUNNING)
    if number is not None:
        tables = tables.filter(number=number)
    return [table.pulka for table in tables.select_related("pulka").order_by("number")]


def _clocked(round: Round) -> Round:
    """The playing round, locked, whose clock runs or is paused: else a refusal."""
    locked = _locked_round_in(round, RoundState.PLAYING)
    if locked.ends_at is None and locked.paused_left is None:
        raise TournamentServiceError(
            _("Round %(number)s has no clock: its tournament sets no minutes a round.")
            % {"number": locked.number}
        )
    return locked


def _moved(pulka: Pulka, delta: datetime.timedelta, now: datetime.datetime) -> None:
    """The table's clock `delta` later: from now if its time is already out."""
    if pulka.ends_at is not None:
        ends_at, paused_left = max(pulka.ends_at, now) + delta, None
    else:
        ends_at, paused_left = None, (pulka.paused_left or datetime.timedelta(0)) + delta
    table_clock_set(
        pulkas=[pulka],
        ends_at=ends_at,
        paused_left=paused_left,
        deals_after_time=pulka.deals_after_time,
    )


@transaction.atomic
def round_clock_add(*, round: Round, minutes: int, table: int | None = None) -> Round:
    """Give every running table (and the round's clock), or table `table` alone, `minutes`
    more (1 to ADD_MINUTES_MAX). A table whose time is out gets them from now."""
    tournament = _lock(round.tournament)
    locked = _clocked(round)
    if not _in_range(minutes, 1, ADD_MINUTES_MAX):
        raise TournamentServiceError(
            _("Add 1 to %(max)s minutes.") % {"max": ADD_MINUTES_MAX}, field="minutes"
        )
    delta = datetime.timedelta(minutes=minutes)
    now = timezone.now()
    if table is not None:
        pulkas = _running_pulkas(locked, table)
        if not pulkas:
            raise _no_running_table(locked, table)
    else:
        pulkas = _running_pulkas(locked)
        if locked.ends_at is not None:
            locked.ends_at = max(locked.ends_at, now) + delta
        else:
            locked.paused_left = (locked.paused_left or datetime.timedelta(0)) + delta
        locked.save(update_fields=["ends_at", "paused_left"])
    for pulka in pulkas:
        if pulka.ends_at is None and pulka.paused_left is None:  # started before the clock
            pulka.ends_at, pulka.paused_left = locked.ends_at, locked.paused_left
            pulka.deals_after_time = deals_after_time(tournament)
        _moved(pulka, delta, now)
    return locked


def _no_running_table(round: Round, number: int) -> TournamentServiceError:
    if RoundTable.objects.filter(round=round, number=number).exists():
        return TournamentServiceError(_("Table %(table)s has ended.") % {"table": number})
    return TournamentServiceError(
        _("There is no table %(table)s in this round.") % {"table": number}
    )


@transaction.atomic
def round_clock_pause(*, round: Round) -> Round:
    """Stop the round's clock: every running table keeps what it has left."""
    _lock(round.tournament)
    locked = _clocked(round)
    if locked.ends_at is None:
        raise TournamentServiceError(_("The clock is already paused."))
    now = timezone.now()
    locked.paused_left = max(locked.ends_at - now, datetime.timedelta(0))
    locked.ends_at = None
    locked.save(update_fields=["ends_at", "paused_left"])
    for pulka in _running_pulkas(locked):
        clock = clock_of(pulka.ends_at, pulka.paused_left, now)
        table_clock_set(
            pulkas=[pulka],
            ends_at=None,
            paused_left=clock.left if clock is not None else locked.paused_left,
            deals_after_time=pulka.deals_after_time,
        )
    return locked


@transaction.atomic
def round_clock_resume(*, round: Round) -> Round:
    """Run the paused clock again: the round and each running table from what it had left."""
    _lock(round.tournament)
    locked = _clocked(round)
    if locked.ends_at is not None:
        raise TournamentServiceError(_("The clock is running: it is not paused."))
    now = timezone.now()
    locked.ends_at = now + (locked.paused_left or datetime.timedelta(0))
    locked.paused_left = None
    locked.save(update_fields=["ends_at", "paused_left"])
    for pulka in _running_pulkas(locked):
        if pulka.ends_at is not None:  # a table whose clock never paused keeps running
            continue
        left = pulka.paused_left if pulka.paused_left is not None else locked.ends_at - now
        table_clock_set(
            pulkas=[pulka],
            ends_at=now + left,
            paused_left=None,
            deals_after_time=pulka.deals_after_time,
        )
    return locked


@transaction.atomic
def round_end_at_time(*, round: Round, by: AbstractBaseUser | None) -> list[int]:
    """End every running table whose time is out, as the judge ends one on time
    (`table_end`); returns their numbers. Refused while no table's time is out."""
    _lock(round.tournament)
    locked = _clocked(round)
    now = timezone.now()
    pulkas = _running_pulkas(locked)
    out = [p for p in pulkas if (c := clock_of(p.ends_at, p.paused_left, now)) and c.is_out]
    if not out:
        if not pulkas:
            raise TournamentServiceError(_("Every table of this round has ended."))
        raise TournamentServiceError(
            _("No table's time is out yet: the tables end at time once their clock reads 0:00.")
        )
    for pulka in out:
        _end_pulka(pulka, by)
    return [pulka.table for pulka in out]


def _end_pulka(pulka: Pulka, by: AbstractBaseUser | None) -> None:
    """Settle a running table as unfinished (set aside if it has no deal)."""
    # A confirmed round's table is locked: ending it again is the organiser's, as a judge.
    reason = _("The judge ended the table again after a correction.") if pulka.is_locked else ""
    try:
        if pulka.deals.exists():
            pulka_finish(pulka=pulka, finished_by=by, reason=reason)
        else:
            pulka_abandon(pulka=pulka, abandoned_by=by, reason=reason)
    except ScoringError as exc:
        raise TournamentServiceError(exc.message) from exc


# --- the table links ------------------------------------------------------------------------


@transaction.atomic
def round_table_link_renew(*, round: Round, number: int) -> str:
    """A new link for a running table of the published round: the old one dies at once."""
    _lock(round.tournament)
    locked = _locked_round_in(round, RoundState.PUBLISHED, RoundState.PLAYING)
    pulkas = _running_pulkas(locked, number)
    if not pulkas:
        raise _no_running_table(locked, number)
    return table_link_renew(pulka=pulkas[0])


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
    notices.round_reseated(locked, [first, second])
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
    _end_pulka(pulka, by)


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
    problems = unchecked_deals(locked)
    running = selectors.running_tables(locked)
    if running:
        problems.append(
            _("Tables still running: %(tables)s. End them before confirming the round.")
            % {"tables": ", ".join(map(str, running))}
        )
    if problems:
        raise TournamentServiceError(" ".join(problems))
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


#: The deals a refused confirmation names one by one; the others it counts.
UNCHECKED_NAMED = 10


def unchecked_deals(round: Round) -> list[str]:
    """The round's deals that await their confirmation or are disputed, each a sentence
    ("Table 2: deal 5 awaits confirmation."), at most UNCHECKED_NAMED and a count of the
    rest (one query)."""
    rows = list(
        Deal.objects.filter(
            pulka__tournament_table__round=round,
            confirmation__in=[DealCheck.AWAITING, DealCheck.DISPUTED],
        )
        .order_by("pulka__tournament_table__number", "number")
        .values_list("pulka__tournament_table__number", "number", "confirmation")
    )
    lines = []
    for table, number, confirmation in rows[:UNCHECKED_NAMED]:
        if confirmation == DealCheck.DISPUTED:
            text = _("Table %(table)s: deal %(deal)s is disputed.")
        else:
            text = _("Table %(table)s: deal %(deal)s awaits confirmation.")
        lines.append(text % {"table": table, "deal": number})
    if len(rows) > UNCHECKED_NAMED:
        lines.append(
            ngettext(
                "And %(count)s more deal awaiting confirmation or disputed.",
                "And %(count)s more deals awaiting confirmation or disputed.",
                len(rows) - UNCHECKED_NAMED,
            )
            % {"count": len(rows) - UNCHECKED_NAMED}
        )
    if lines:
        lines.append(_("Every deal must be confirmed, or its dispute resolved, first."))
    return lines


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
