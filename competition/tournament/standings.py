"""Reading a tournament's standings page: what it shows, and the version it is cached under.

competition.tournament.selectors reads the results (four queries, whatever the size) and the
pure core ranks them. This module adds what the page needs around them, for the rounds
confirmed up to `through` (the page's "after round K"):

- `StandingsPage.version`: everything the page shows depends on, read in two queries (the
  tournament's confirmed rounds, penalties and the club's `results_version` in one; the
  entrants' names and teams in the other): the settings on the tournament's row, the
  club's `results_version` (bumped by scoring whenever a table's settlement changes, a
  correction of a confirmed round included), the last confirmed round, the penalties, the
  names and teams. The page caches its HTML under it; nothing else is computed then;
- the standings themselves, the team lines, the rounds corrected after their confirmation
  and who was placed by the lot: computed on first use only.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cached_property

from django.db.models import Count, F, Max, OuterRef, QuerySet, Subquery
from django.http import Http404

from club.models import Club
from club.names import collation_key
from competition.lib import tournament_scoring as ts
from competition.models import Entry, Penalty, Round, RoundState, Tournament
from competition.tournament import selectors
from scoring.models import DealRevision

#: A tie-break's value on a line of the standings.
TIE_VALUES: dict[ts.TieBreak, Callable[[ts.Line], object]] = {
    ts.TieBreak.ADJUSTED_WHISTS: lambda line: line.adjusted,
    ts.TieBreak.TABLE_WINS: lambda line: line.table_wins,
    ts.TieBreak.BEST_ROUND: lambda line: line.best_round,
    ts.TieBreak.OPPONENTS_TOTAL: lambda line: line.opponents_total,
}

# The fields of the tournament's row that the page's version covers: every setting (a few,
# such as the deal cap, change nothing shown, and cost only a page computed again when they
# change), and the seed of the lot.
VERSIONED = (*Tournament.SETTINGS, "seed")


def lot_decided(table: ts.TournamentStandings) -> frozenset[int]:
    """The players whose place the lot decided: equal to another on the total and on every
    tie-break (in the same part of the standings, with a final).

    >>> line = ts.Line(1, 1, Fraction(5), Fraction(5), Fraction(0), Fraction(5), 1, Fraction(5),
    ...                Fraction(0), lot=2, rounds={})
    >>> from dataclasses import replace
    >>> lines = (line, replace(line, player=2, place=2, lot=1),
    ...          replace(line, player=3, place=3, score=Fraction(1), lot=3))
    >>> sorted(lot_decided(ts.TournamentStandings(lines, ts.DEFAULT_TIE_BREAKS, 7)))
    [1, 2]
    """
    if table.lot_seed is None:
        return frozenset()
    values = [TIE_VALUES[key] for key in table.tie_breaks]

    def key(line: ts.Line) -> tuple:
        return (line.finalist, line.score, *(value(line) for value in values))

    counts = Counter(key(line) for line in table.lines)
    return frozenset(line.player for line in table.lines if counts[key(line)] > 1)


STAMP = ("results_version", "last_confirmed", "penalty_count", "penalty_last")


def _stamped(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Tournaments with what their standings depend on beyond their own row (STAMP): the
    club's results_version, the last confirmed round, and the penalties given."""
    confirmed = Round.objects.filter(tournament=OuterRef("pk"), state=RoundState.CONFIRMED)
    penalties = Penalty.objects.filter(tournament=OuterRef("pk"))

    def per_tournament(rows: QuerySet, **aggregate) -> Subquery:
        (name,) = aggregate
        return Subquery(rows.order_by().values("tournament").annotate(**aggregate).values(name))

    return tournaments.annotate(
        results_version=F("club__results_version"),
        last_confirmed=per_tournament(confirmed, last=Max("number")),
        penalty_count=per_tournament(penalties, n=Count("pk")),
        penalty_last=per_tournament(penalties, last=Max("pk")),
    )


def tournament_for_standings(club: Club, tournament_id: int) -> Tournament:
    """The club's tournament (404 for another's) with the stamp of its standings: one query."""
    tournament = _stamped(Tournament.objects.filter(club=club, pk=tournament_id)).first()
    if tournament is None:
        raise Http404
    tournament.club = club  # the gate's object: no second query for its slug
    return tournament


class StandingsPage:
    """The standings after round `through` (None: the last confirmed), built on first use.

    Its version costs one query (the entrants' names and teams) with a tournament read by
    tournament_for_standings, two with another; the standings, four to six more."""

    def __init__(self, tournament: Tournament, through: int | None = None) -> None:
        self.tournament = tournament
        stamped = tournament
        if not hasattr(tournament, STAMP[0]):  # not read by tournament_for_standings
            stamped = _stamped(Tournament.objects.filter(pk=tournament.pk)).get()
        results_version, last, *penalty_stamp = (getattr(stamped, name) for name in STAMP)
        #: The last confirmed round (0: none yet).
        self.last = last or 0
        #: The round the standings are after (0: none confirmed yet).
        self.through = self.last if through is None else min(through, self.last)
        entries = Entry.objects.filter(tournament=tournament).order_by("player_id")
        self.entries = list(entries.values_list("player_id", "player__name", "team"))
        self.names = {player: name for player, name, _team in self.entries}
        settings = [getattr(tournament, name) for name in VERSIONED]
        shown = repr(
            (
                tournament.pk,
                tournament.club.slug,  # in the page's links
                tournament.created_at.timestamp(),
                settings,
                results_version,
                self.last,
                self.through,
                penalty_stamp,
                self.entries,
            )
        ).encode()
        #: Changes with anything the page shows (its HTML is cached under it).
        self.version = hashlib.blake2b(shown, digest_size=12).hexdigest()

    @property
    def rounds(self) -> list[int]:
        """The rounds counted: confirmed rounds are numbered from 1 without a gap."""
        return list(range(1, self.through + 1))

    @cached_property
    def read(self) -> selectors.Results:
        return selectors.results(self.tournament, through=self.through)

    @cached_property
    def standings(self) -> ts.TournamentStandings:
        return selectors.standings_from(self.tournament, self.read)

    @cached_property
    def stage(self) -> ts.Stage | None:
        """The final, once it is reached (its finalists are known)."""
        stage = selectors.stage_of(self.tournament)
        if stage is None or not selectors.stage_reached(stage, self.rounds):
            return None
        return stage

    @cached_property
    def teams(self) -> tuple[ts.TeamLine, ...]:
        return selectors.team_lines(self.tournament, self.read)

    @cached_property
    def team_members(self) -> dict[str, list[str]]:
        members: dict[str, list[str]] = {}
        for _player, name, team in sorted(self.entries, key=lambda entry: collation_key(entry[1])):
            if team:
                members.setdefault(team, []).append(name)
        return members

    @cached_property
    def lot_decided(self) -> frozenset[int]:
        return lot_decided(self.standings)

    @cached_property
    def corrected(self) -> list[int]:
        """The counted rounds in which a deal changed after the round was confirmed."""
        table = "pulka__tournament_table__round__"
        changed = DealRevision.objects.filter(
            **{
                f"{table}tournament": self.tournament,
                f"{table}state": RoundState.CONFIRMED,
                f"{table}number__lte": self.through,
                "at__gt": F(f"{table}confirmed_at"),
            }
        )
        numbers = changed.order_by().values_list(f"{table}number", flat=True).distinct()
        return sorted(numbers)

    @cached_property
    def penalties(self) -> list[tuple[str, ts.Penalty]]:
        """Every penalty counted, with the player's name, in the order the judge gave them."""
        return [(self.names.get(p.player, ""), p) for p in self.read.penalties]


def penalty_total(line: ts.Line, unit: ts.Unit) -> Fraction:
    """What the judge took away from a line in one unit (a negative number: taken)."""
    return -sum((Fraction(p.amount) for p in line.penalties if p.unit == unit), Fraction(0))
