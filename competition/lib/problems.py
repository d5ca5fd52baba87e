"""The coded problems of the tournament library (competition.lib.seating, .tournament_scoring).

Pure Python, like the engine's errors (scoring/engine/errors.py): a problem is a code and its
parameters, :data:`MESSAGES` is the one table from a code to the English text, and the pages
show it in the user's language from competition.tournament.messages.PROBLEMS (same codes, same
``%(name)s`` placeholders). Parameters that name players hold their ids: the page puts the
names in before it formats the text (:meth:`Problem.with_params`).

A draft's check returns a list of problems (nothing is wrong when it is empty); a function
that cannot go on raises :class:`TournamentError`, which carries one.

>>> problem = Problem("player_twice", {"player": 7, "times": 2})
>>> problem.message()
'player 7 is seated 2 times'
>>> problem.with_params(player="Anna").message()
'player Anna is seated 2 times'
>>> TournamentError("too_few_players", players=2).problem.message()
'2 players cannot make a table: a table needs 3 or 4'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

#: code -> the problem in English, with ``%(name)s`` placeholders.
MESSAGES: dict[str, str] = {
    # --- table sizes and byes ---
    "too_few_players": "%(players)s players cannot make a table: a table needs 3 or 4",
    "bye_five_players": (
        "5 players cannot fill tables of 3 and 4, so one player sits out each round in turn"
    ),
    "threes_too_few": "%(players)s players cannot make a table of 3",
    "fours_too_few": "%(players)s players cannot make a table of 4",
    "bye_threes": (
        "the players do not divide into tables of 3, so the rest sit out each round in turn"
    ),
    "bye_fours": (
        "the players do not divide into tables of 4, so the rest sit out each round in turn"
    ),
    # --- building a seating ---
    "entrant_twice": "player %(player)s is entered twice",
    "locked_player_not_active": "player %(player)s at locked table %(table)s is not playing",
    "locked_player_twice": "player %(player)s sits at two locked tables",
    "locked_sizes": (
        "the locked tables (%(locked)s players) do not fit the tables of this round (%(sizes)s)"
    ),
    "player_not_in_seating": "player %(player)s is not in this seating",
    "table_not_in_seating": "there is no table %(table)s in this seating",
    # --- checking a draft ---
    "player_missing": "player %(player)s has no seat",
    "player_twice": "player %(player)s is seated %(times)s times",
    "player_withdrawn": "player %(player)s has withdrawn but sits at table %(table)s",
    "player_unknown": "player %(player)s at table %(table)s is not entered",
    "table_size": "table %(table)s has %(size)s players: a table has 3 or 4",
    "table_players": "a table has 3 or 4 players, not %(size)s",
    "table_sizes": "%(players)s players sit at tables of %(expected)s, not %(found)s",
    "byes": "%(expected)s players should sit out this round, not %(found)s",
    "first_dealer": "the first dealer of table %(table)s does not sit at it",
    "table_number_twice": "two tables are numbered %(table)s",
    "team_size": "team %(team)s has %(size)s players: a team has 3 to 5",
    # --- warnings on a draft (it may still be published) ---
    "met_before": "players %(first)s and %(second)s meet again (%(times)s times in all)",
    "met_last_round": "players %(first)s and %(second)s met in the last round too",
    "three_again": "player %(player)s sits at a table of 3 again (%(times)s times in all)",
    "teammates_together": "teammates %(first)s and %(second)s sit at table %(table)s",
    "same_club_together": "players %(first)s and %(second)s of one club sit at table %(table)s",
    "apart_together": (
        "players %(first)s and %(second)s should be kept apart but sit at table %(table)s"
    ),
    # --- the scoring rules ---
    "caps_empty": "the caps need at least one step",
    "caps_first_not_zero": "the first step of the caps must start at 0 whists",
    "caps_not_increasing": (
        "the caps' breakpoints must increase: %(after)s comes after %(before)s"
    ),
    "caps_factor": "a cap's factor must be between 0 and 1, not %(factor)s",
    "caps_missing": "the caps rule needs its breakpoints",
    "place_points_count": "a table of %(size)s needs points for %(size)s places",
    "penalty_unit": "a penalty in points cannot apply when the rule counts whists",
    "stage_top": "the final stage needs at least 3 players, not %(top)s",
    "team_best": "a team's score needs its best 1 to 5 players, not %(best)s",
}


class Problem(NamedTuple):
    """One coded problem: the code of :data:`MESSAGES` and its parameters."""

    code: str
    params: Mapping[str, Any]

    def with_params(self, **params: Any) -> Problem:
        """The same problem with some parameters replaced (ids by names, for the page)."""
        return Problem(self.code, {**self.params, **params})

    def message(self) -> str:
        """The English text (the pages use the translated table instead)."""
        return MESSAGES[self.code] % dict(self.params)


class TournamentError(ValueError):
    """What the tournament library cannot go on with: one :class:`Problem`."""

    def __init__(self, code: str, **params: Any) -> None:
        self.problem = Problem(code, params)
        self.code = code
        self.params = params
        super().__init__(self.problem.message())
