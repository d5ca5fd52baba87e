"""Reading a tournament: its rule, its rounds' seatings, and the standings.

The pure core does the work (competition.lib.seating, competition.lib.tournament_scoring); this
module turns rows into its inputs. The standings read each confirmed round's settlements
from the result caches that scoring keeps for every finished pulka (one query for all the
rounds, whatever their number), so the page costs the same for 16 players and for 300.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass
from fractions import Fraction

from django.core.cache import cache
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.http import Http404
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Club, Player
from club.names import collation_key, name_key
from competition.lib import seating
from competition.lib import tournament_scoring as ts
from competition.lib.problems import Problem, TournamentError
from competition.models import (
    Entry,
    EntryStatus,
    Penalty,
    RatingSnapshot,
    Round,
    RoundState,
    RoundTable,
    Scoring,
    SeatingMethod,
    Tournament,
)
from competition.tournament.messages import bye_reason_text, tournament_problem_text
from scoring.models import PulkaResultCache, PulkaStatus


def tournaments_for_club(club: Club) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club=club).order_by("-start", "-id")


def tournament_for_club(club: Club, tournament_id: int) -> Tournament:
    tournament = Tournament.objects.filter(club=club, pk=tournament_id).first()
    if tournament is None:
        raise Http404
    tournament.club = club  # the gate's object: no second query for its slug
    return tournament


def round_of(tournament: Tournament, number: int) -> Round:
    found = Round.objects.filter(tournament=tournament, number=number).first()
    if found is None:
        raise Http404
    found.tournament = tournament
    return found


# --- the rule -------------------------------------------------------------------------------


def caps_of(tournament: Tournament) -> ts.Caps | None:
    """The caps scale from its stored steps (validated when they were saved)."""
    if not tournament.caps:
        return None
    steps = tuple((Fraction(start), Fraction(factor)) for start, factor in tournament.caps)
    return ts.Caps(steps, mirror=tournament.caps_mirror)


def scoring_rule(tournament: Tournament) -> ts.ScoringRule:
    caps = caps_of(tournament) if tournament.scoring == Scoring.CAPS else None
    return ts.ScoringRule(
        method=ts.Method(tournament.scoring),
        caps=caps,
        floor=tournament.floor,
        bye=tournament.bye_score,
    )


def tie_breaks(tournament: Tournament) -> tuple[ts.TieBreak, ...]:
    if not tournament.tie_breaks:
        return ts.DEFAULT_TIE_BREAKS
    return tuple(ts.TieBreak(key) for key in tournament.tie_breaks)


def stage_of(tournament: Tournament) -> ts.Stage | None:
    if tournament.stage_after is None or tournament.stage_top is None:
        return None
    return ts.Stage(tournament.stage_after, tournament.stage_top, tournament.stage_keep_totals)


def lot_seed(tournament: Tournament) -> int | None:
    """The lot's seed: derived from the tournament's seed, so it is printed and reproducible."""
    return seating.round_seed(tournament.seed, 0) if tournament.lot else None


def _number(value: Fraction) -> str:
    """A step of the caps as the reader writes it: 200, and 0,1 in uk and ru (0.1 in en)."""
    if value.denominator == 1:
        return str(value.numerator)
    return formats.number_format(float(value), decimal_pos=1)


def caps_words(tournament: Tournament) -> str:
    """The caps in words: "full up to 200, ×0.1 from 200 to 650, nothing beyond 650"."""
    caps = caps_of(tournament)
    if caps is None:
        return ""
    parts = []
    steps = caps.steps
    for k, (start, factor) in enumerate(steps):
        end = steps[k + 1][0] if k + 1 < len(steps) else None
        if factor == 0:
            parts.append(_("nothing beyond %(start)s") % {"start": _number(start)})
        elif factor == 1 and end is not None:
            parts.append(_("full up to %(end)s") % {"end": _number(end)})
        elif end is not None:
            parts.append(
                _("×%(factor)s from %(start)s to %(end)s")
                % {"factor": _number(factor), "start": _number(start), "end": _number(end)}
            )
        else:
            parts.append(
                _("×%(factor)s above %(start)s")
                % {"factor": _number(factor), "start": _number(start)}
            )
    words = ", ".join(parts)
    if not caps.mirror:
        words += " " + _("(wins only; losses count in full)")
    return words


# Lazy: translated when shown, in the reader's language (not once, at import).
TIE_BREAK_LABELS = {
    ts.TieBreak.ADJUSTED_WHISTS: gettext_lazy("adjusted whists"),
    ts.TieBreak.TABLE_WINS: gettext_lazy("table wins"),
    ts.TieBreak.BEST_ROUND: gettext_lazy("best round"),
    ts.TieBreak.OPPONENTS_TOTAL: gettext_lazy("opponents' total"),
}


def rule_words(tournament: Tournament) -> list[str]:
    """The tournament's rules as sentences, for its home page and every printout."""
    lines = []
    if tournament.scoring == Scoring.CAPS:
        lines.append(
            _("A round counts the whists with caps: %(caps)s.") % {"caps": caps_words(tournament)}
        )
    elif tournament.scoring == Scoring.PLACES:
        lines.append(
            _(
                "A round counts place points: 4/2/1/0 at a table of 4; at a table of 3, 3 "
                "(4 if he is the only player in plus), 2 if in plus and 1 if in minus, 0."
            )
        )
    else:
        lines.append(_("A round counts the whists of the settlement."))
    order = [str(TIE_BREAK_LABELS[key]) for key in tie_breaks(tournament)]
    if tournament.lot:
        order.append(_("the lot (seed %(seed)s)") % {"seed": lot_seed(tournament)})
    lines.append(_("Ties: %(order)s.") % {"order": ", ".join(order)})
    if tournament.deal_cap:
        lines.append(
            _("A table ends at the pool target or after %(cap)s deals.")
            % {"cap": tournament.deal_cap}
        )
    if tournament.floor is not None:
        lines.append(
            _("A round below %(floor)s whists is flagged for the judge.")
            % {"floor": tournament.floor}
        )
    stage = stage_of(tournament)
    if stage is not None:
        keep = _("keeping the totals") if stage.keep_totals else _("from zero")
        lines.append(
            _("After round %(after)s the top %(top)s play the final, %(keep)s.")
            % {"after": stage.after_round, "top": stage.top, "keep": keep}
        )
    if tournament.team_best:
        lines.append(
            _("A team's round counts its best %(best)s players.") % {"best": tournament.team_best}
        )
    return lines


# --- entries and seatings -----------------------------------------------------------------


def entries(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player", "substitute_for__player")
        .order_by("player__sort_key", "pk")
    )


def names(tournament: Tournament) -> dict[int, str]:
    """Player id -> name, for every player ever entered."""
    return dict(
        Entry.objects.filter(tournament=tournament).values_list("player_id", "player__name")
    )


def plays_in(entry: Entry, number: int) -> bool:
    """Whether an entry is due to play round `number`."""
    if entry.first_round > number:
        return False
    return entry.status == EntryStatus.ACTIVE or (entry.last_round or 0) >= number


def entrants(tournament: Tournament, number: int) -> list[seating.Entrant]:
    """The players due to play round `number`, with their ratings and teams."""
    rating = RatingSnapshot.objects.filter(player=OuterRef("player_id")).order_by("-seq")
    rows = (
        Entry.objects.filter(tournament=tournament, status=EntryStatus.ACTIVE)
        .filter(first_round__lte=number)
        .annotate(rating=Subquery(rating.values("rating")[:1]))
        .values_list("player_id", "rating", "team")
    )
    return [
        seating.Entrant(player, rating=rating or 0.0, team=team or None)
        for player, rating, team in rows
    ]


def seating_from_json(number: int, data: dict, *, seed: int, method: str) -> seating.Seating:
    tables = tuple(
        seating.Table(t["number"], tuple(t["seats"]), t["first_dealer"])
        for t in data.get("tables", ())
    )
    byes = tuple(seating.Bye(b["player"], b["reason"]) for b in data.get("byes", ()))
    return seating.Seating(number, seed, seating.Method(method), tables, byes)


def seating_of(round: Round) -> seating.Seating:
    return seating_from_json(round.number, round.seating, seed=round.seed, method=round.method)


def locked_tables(round: Round) -> set[int]:
    return {t["number"] for t in round.seating.get("tables", ()) if t.get("locked")}


def seating_to_json(drawn: seating.Seating, locked: Iterable[int] = ()) -> dict:
    locked = set(locked)
    return {
        "tables": [
            {
                "number": t.number,
                "seats": list(t.seats),
                "first_dealer": t.first_dealer,
                "locked": t.number in locked,
            }
            for t in drawn.tables
        ],
        "byes": [{"player": b.player, "reason": b.reason} for b in drawn.byes],
    }


def history(tournament: Tournament, before: int) -> list[seating.Seating]:
    """The seatings of the rounds published before round `before`, as played."""
    rounds = Round.objects.filter(tournament=tournament, number__lt=before).exclude(
        state=RoundState.DRAFT
    )
    return [seating_of(one) for one in rounds.order_by("number")]


def tables_of(tournament: Tournament) -> seating.Tables:
    """The table sizes of the tournament's rounds, as the seating library names them."""
    try:
        return seating.Tables(tournament.tables)
    except ValueError:  # a value no form gives: the plan of old
        return seating.Tables.MIXED


def apart_of(tournament: Tournament) -> tuple[tuple[int, int], ...]:
    """The pairs of players kept apart (player ids, smaller first)."""
    return tuple((a, b) for a, b in tournament.apart or ())


def apart_names(tournament: Tournament, names: dict[int, str]) -> list[tuple[str, str]]:
    """The pairs kept apart by name, as the settings and the draft state them."""
    return [(names.get(a, str(a)), names.get(b, str(b))) for a, b in apart_of(tournament)]


#: How long a schedule drawn in advance stays cached. Its key holds everything it depends on,
#: so a stale one is never read; the timeout only frees the space of those no longer asked for.
SCHEDULE_CACHE_SECONDS = 7 * 24 * 3600


def _schedule_key(
    tournament: Tournament,
    players: Sequence[seating.Entrant],
    rounds: int,
    seed: int,
    past: Sequence[seating.Seating],
) -> str:
    """The cache key of a schedule: a digest of everything seating.schedule reads."""
    facts = [
        tournament.pk,
        seed,
        rounds,
        tables_of(tournament).value,
        apart_of(tournament),
        [astuple(player) for player in players],  # in order: the draw may follow it
        [
            (one.round, one.seed, one.method.value, seating_to_json(one))
            for one in sorted(past, key=lambda one: one.round)
        ],
    ]
    digest = hashlib.sha256(json.dumps(facts, default=str).encode()).hexdigest()
    return f"tournament-schedule:{digest}"


def schedule_of(
    tournament: Tournament,
    players: Sequence[seating.Entrant],
    *,
    rounds: int,
    seed: int,
    history: Sequence[seating.Seating],
) -> tuple[seating.Seating, ...]:
    """seating.schedule for the tournament's tables and pairs kept apart, cached: the
    whole-schedule search takes seconds, and the planned rounds' page and the round's draw
    ask for the same schedule (raises TournamentError as seating.schedule does)."""
    key = _schedule_key(tournament, players, rounds, seed, history)
    found = cache.get(key)
    if found is None:
        found = seating.schedule(
            players,
            rounds=rounds,
            seed=seed,
            history=history,
            tables=tables_of(tournament),
            apart=apart_of(tournament),
        )
        cache.set(key, found, SCHEDULE_CACHE_SECONDS)
    return found


def planned_rounds(tournament: Tournament) -> tuple[seating.Seating, ...]:
    """A schedule published in advance: the rounds not yet published, as the tournament's
    seed draws them for the players entered now, against the rounds as they were played
    (tournament_services.round_draft draws the next one the same way, from the same cache).
    Empty for the other methods, when every round is out, or when too few players are
    entered."""
    if tournament.seating != SeatingMethod.SCHEDULE:
        return ()
    published = Round.objects.filter(tournament=tournament).exclude(state=RoundState.DRAFT)
    first = published.count() + 1
    if first > tournament.round_count:
        return ()
    try:
        return schedule_of(
            tournament,
            entrants(tournament, first),
            rounds=tournament.round_count - first + 1,
            seed=tournament.seed,
            history=history(tournament, first),
        )
    except TournamentError:
        return ()


def problem_texts(problems: Sequence[Problem], names: dict[int, str]) -> list[str]:
    """Problems in the user's words, with the players' names for their ids."""
    texts = []
    for problem in problems:
        params = {
            key: names.get(value, value) if key in ("player", "first", "second") else value
            for key, value in problem.params.items()
        }
        texts.append(tournament_problem_text(problem.with_params(**params)))
    return texts


# --- results and standings ------------------------------------------------------------------


@dataclass(frozen=True)
class Results:
    """Everything the standings are made of, read once."""

    scores: list[ts.RoundScore]
    penalties: list[ts.Penalty]
    names: dict[int, str]
    rounds: list[int]  # the confirmed rounds counted


def results(tournament: Tournament, *, through: int | None = None) -> Results:
    """The round scores of the confirmed rounds (up to round `through`): four queries."""
    rule = scoring_rule(tournament)
    rounds = Round.objects.filter(tournament=tournament, state=RoundState.CONFIRMED)
    if through is not None:
        rounds = rounds.filter(number__lte=through)
    seatings = {one.number: seating_of(one) for one in rounds.order_by("number")}
    settled: dict[tuple[int, int], dict[int, Fraction]] = {}
    rows = PulkaResultCache.objects.filter(
        pulka__tournament_table__round__in=rounds.values("pk")
    ).values_list("pulka__tournament_table__round__number", "pulka__table", "player_id", "result")
    for number, table, player, result in rows:
        settled.setdefault((number, table), {})[player] = Fraction(result)
    penalties = [
        _penalty(p)
        for p in Penalty.objects.filter(tournament=tournament).order_by("created_at", "pk")
        if through is None or p.round <= through
    ]
    scores = round_scores(rule, seatings, settled)
    return Results(scores, penalties, names(tournament), list(seatings))


def _penalty(row: Penalty) -> ts.Penalty:
    return ts.Penalty(row.player_id, row.round, row.amount, ts.Unit(row.unit), row.reason)


def round_scores(
    rule: ts.ScoringRule,
    seatings: dict[int, seating.Seating],
    settled: dict[tuple[int, int], dict[int, Fraction]],
) -> list[ts.RoundScore]:
    """Every player's score in each round from the tables' settlements ((round, table) ->
    player -> whists) and the byes."""
    scores: list[ts.RoundScore] = []
    for number, drawn in seatings.items():
        for table in drawn.tables:
            whists = settled.get((number, table.number))
            if whists is None:
                scores += _unsettled_scores(number, table)
                continue
            whists = {player: whists.get(player, 0) for player in table.seats}
            scores += ts.score_table(ts.TableResult(number, table.number, whists), rule)
        scores += [ts.bye_score(number, bye.player, rule) for bye in drawn.byes]
    return scores


def _unsettled_scores(number: int, table: seating.Table) -> list[ts.RoundScore]:
    """A table with no settlement (set aside: abandoned, or running again after a
    correction until the judge ends it) counts 0 for everyone, in every unit, and is no
    one's table win (score_table would make it a tie for first place: points and wins)."""
    zero = Fraction(0)
    return [
        ts.RoundScore(
            player=player,
            round=number,
            table=table.number,
            whists=zero,
            adjusted=zero,
            points=zero,
            place=None,
            score=zero,
            opponents=tuple(other for other in table.seats if other != player),
        )
        for player in table.seats
    ]


def standings(tournament: Tournament, *, through: int | None = None) -> ts.TournamentStandings:
    """The standings over the confirmed rounds, in the tie-break order (with the stage)."""
    return standings_from(tournament, results(tournament, through=through))


def standings_from(tournament: Tournament, read: Results) -> ts.TournamentStandings:
    settings = {
        "rule": scoring_rule(tournament),
        # What orders the players equal on every tie-break: their names, alphabetically.
        "names": {player: collation_key(name) for player, name in read.names.items()},
        "tie_breaks": tie_breaks(tournament),
        "penalties": read.penalties,
        "lot_seed": lot_seed(tournament),
    }
    stage = stage_of(tournament)
    if stage is not None and stage_reached(stage, read.rounds):
        return ts.staged_standings(read.scores, stage=stage, **settings)
    return ts.standings(read.scores, **settings)


def stage_reached(stage: ts.Stage, rounds: Sequence[int]) -> bool:
    """Whether round K of the stage is counted: before it nobody is a finalist yet (with the
    totals reset, the would-be finalists would all share the first place)."""
    return max(rounds, default=0) >= stage.after_round


def team_lines(tournament: Tournament, read: Results) -> tuple[ts.TeamLine, ...]:
    if not tournament.team_best:
        return ()
    teams: dict[str, list[int]] = {}
    for player, team in (
        Entry.objects.filter(tournament=tournament)
        .exclude(team="")
        .values_list("player_id", "team")
    ):
        teams.setdefault(team, []).append(player)
    return ts.team_standings(
        read.scores, teams=teams, best=tournament.team_best, order=collation_key
    )


def standing_order(tournament: Tournament, number: int) -> list[int]:
    """Player ids best first after the rounds before `number` (for Swiss)."""
    return [line.player for line in standings(tournament, through=number - 1).lines]


def finalists(tournament: Tournament) -> set[int] | None:
    """The players of the final (None: no final, or not reached yet): the top of the
    standings after its round, those tied at the cut included unless the lot parts them."""
    stage = stage_of(tournament)
    if stage is None:
        return None
    confirmed = Round.objects.filter(
        tournament=tournament, number=stage.after_round, state=RoundState.CONFIRMED
    )
    if not confirmed.exists():
        return None
    table = standings(tournament, through=stage.after_round)
    return {line.player for line in table.lines if line.finalist}


# --- a round's tables -----------------------------------------------------------------------


def round_tables(round: Round) -> list[RoundTable]:
    """A published round's tables with their pulkas (and the number of deals of each)."""
    return list(
        RoundTable.objects.filter(round=round)
        .select_related("pulka")
        .annotate(deal_count=Count("pulka__deals"))
        .order_by("number")
    )


def reopened_tables(tournament: Tournament) -> list[tuple[int, int]]:
    """(round, table) of the confirmed rounds' tables running again: a correction opened a
    pool again or took a capped table below its cap. Until the judge ends it again
    (tournament_services.table_end) such a table counts 0 for everyone."""
    return list(
        RoundTable.objects.filter(
            round__tournament=tournament,
            round__state=RoundState.CONFIRMED,
            pulka__status=PulkaStatus.RUNNING,
        )
        .order_by("round__number", "number")
        .values_list("round__number", "number")
    )


def running_tables(round: Round) -> list[int]:
    return list(
        RoundTable.objects.filter(round=round, pulka__status=PulkaStatus.RUNNING)
        .order_by("number")
        .values_list("number", flat=True)
    )


# --- the public pages: "find your table" and the projector ------------------------------------


def shown_rounds(tournament: Tournament, *, drafts: bool = False) -> list[Round]:
    """The rounds a visitor may see, in order: published onwards (the organiser may also
    ask for the draft; nobody else ever sees one)."""
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    if not drafts:
        rounds = rounds.exclude(state=RoundState.DRAFT)
    found = list(rounds)
    for one in found:
        one.tournament = tournament
    return found


def current_round(rounds: Sequence[Round]) -> Round | None:
    """The round the players look for: the last one out of draft (None: none yet)."""
    out = [one for one in rounds if one.state != RoundState.DRAFT]
    return out[-1] if out else None


@dataclass(frozen=True)
class SeatLine:
    """One player of a round: his table and seat, or why he sits out."""

    player: int
    name: str
    key: str  # club.names.name_key of his name: what the filter compares
    table: int | None  # None: he sits out this round
    seat: int | None  # 1 to 4, clockwise
    size: int  # the players at his table (0: he sits out)
    deals_first: bool
    reason: str  # why he sits out, in the user's words ("" at a table)
    pulka_id: int | None  # his table's pulka (None: a draft, or a bye)


def seat_lines(round: Round) -> list[SeatLine]:
    """Everyone of the round, alphabetically (club.names.collation_key), with his table and
    seat: two queries (the names, the tables' pulkas) whatever the number of players."""
    people = {
        player: (name, key)
        for player, name, key in Entry.objects.filter(
            tournament_id=round.tournament_id
        ).values_list("player_id", "player__name", "player__name_key")
    }
    pulkas: dict[int, int] = {}
    if round.state != RoundState.DRAFT:
        pulkas = dict(RoundTable.objects.filter(round=round).values_list("number", "pulka_id"))
    drawn = seating_of(round)
    lines = []
    for table in drawn.tables:
        for player in table.seats:
            name, key = people.get(player, (str(player), str(player)))
            lines.append(
                SeatLine(
                    player,
                    name,
                    key,
                    table.number,
                    table.seat_of(player),
                    table.size,
                    player == table.first_dealer,
                    "",
                    pulkas.get(table.number),
                )
            )
    for bye in drawn.byes:
        name, key = people.get(bye.player, (str(bye.player), str(bye.player)))
        lines.append(
            SeatLine(bye.player, name, key, None, None, 0, False, bye_reason_text(bye.reason), None)
        )
    return sorted(lines, key=lambda line: (collation_key(line.name), line.player))


def matching(lines: Sequence[SeatLine], query: str) -> list[SeatLine]:
    """The lines whose name contains `query`, compared as name keys (case and spacing do not
    matter: "шев" finds "Андрій Шевченко")."""
    wanted = name_key(query)
    if not wanted:
        return list(lines)
    return [line for line in lines if wanted in line.key]


# --- a player's tournaments, for his profile ---------------------------------------------------


@dataclass(frozen=True)
class PlayerRound:
    """A round the player played (or sat out)."""

    number: int
    state: str  # RoundState
    state_label: str
    table: int | None  # None: he sat out
    seat: int | None
    pulka_id: int | None
    whists: Fraction | None  # his table's settlement (None: sat out, or not ended yet)
    score: Fraction | None  # what the round counts for him (None: round not confirmed)


@dataclass(frozen=True)
class PlayerTournament:
    """A tournament of the player: his rounds and his place in the standings."""

    tournament: Tournament
    rounds: list[PlayerRound]
    place: int | None  # None: no round confirmed yet
    players: int  # lines in the standings
    total: Fraction | None
    counted: int  # confirmed rounds in the standings


def player_rounds(player: Player) -> list[PlayerTournament]:
    """The player's tournaments, newest first, each with his rounds (drafts never shown) and
    his place in the standings over the confirmed rounds.

    Six queries at most (one when he has played none), whatever the number of tournaments,
    rounds and players: the standings of all his tournaments are computed from one read of
    their rounds, result caches, penalties and entries.
    """
    tournaments = list(Tournament.objects.filter(entries__player=player).order_by("-start", "-id"))
    if not tournaments:
        return []
    rounds = list(
        Round.objects.filter(tournament__in=tournaments)
        .exclude(state=RoundState.DRAFT)
        .order_by("tournament_id", "number")
    )
    round_ids = [one.pk for one in rounds]
    settled: dict[int, dict[int, dict[int, Fraction]]] = {}  # round -> table -> player -> whists
    rows = PulkaResultCache.objects.filter(
        pulka__tournament_table__round__in=round_ids
    ).values_list("pulka__tournament_table__round_id", "pulka__table", "player_id", "result")
    for round_id, table, someone, result in rows:
        settled.setdefault(round_id, {}).setdefault(table, {})[someone] = Fraction(result)
    his_pulkas = dict(
        RoundTable.objects.filter(round__in=round_ids, pulka__seats__player=player).values_list(
            "round_id", "pulka_id"
        )
    )
    penalties: dict[int, list[ts.Penalty]] = {}
    for row in Penalty.objects.filter(tournament__in=tournaments).order_by("created_at", "pk"):
        penalties.setdefault(row.tournament_id, []).append(_penalty(row))
    everyone: dict[int, dict[int, str]] = {}
    for tournament_id, someone, name in Entry.objects.filter(
        tournament__in=tournaments
    ).values_list("tournament_id", "player_id", "player__name"):
        everyone.setdefault(tournament_id, {})[someone] = name

    found = []
    for tournament in tournaments:
        own = [one for one in rounds if one.tournament_id == tournament.pk]
        confirmed = {
            one.number: seating_of(one) for one in own if one.state == RoundState.CONFIRMED
        }
        by_table = {
            (one.number, table): whists
            for one in own
            if one.number in confirmed
            for table, whists in settled.get(one.pk, {}).items()
        }
        read = Results(
            round_scores(scoring_rule(tournament), confirmed, by_table),
            penalties.get(tournament.pk, []),
            everyone.get(tournament.pk, {}),
            list(confirmed),
        )
        table_lines = standings_from(tournament, read).lines if confirmed else ()
        line = next((each for each in table_lines if each.player == player.pk), None)
        played = []
        for one in own:
            drawn = seating_of(one)
            table = drawn.table_of(player.pk)
            if table is None and all(bye.player != player.pk for bye in drawn.byes):
                continue  # not in this round (withdrawn, late, or not in the final)
            whists = None
            if table is not None:
                whists = settled.get(one.pk, {}).get(table.number, {}).get(player.pk)
            scored = line.rounds.get(one.number) if line is not None else None
            played.append(
                PlayerRound(
                    number=one.number,
                    state=one.state,
                    state_label=one.get_state_display(),
                    table=table.number if table else None,
                    seat=table.seat_of(player.pk) if table else None,
                    pulka_id=his_pulkas.get(one.pk) if table else None,
                    whists=whists,
                    score=scored.score if scored is not None else None,
                )
            )
        found.append(
            PlayerTournament(
                tournament=tournament,
                rounds=played,
                place=line.place if line is not None else None,
                players=len(table_lines),
                total=line.score if line is not None else None,
                counted=len(confirmed),
            )
        )
    return found
