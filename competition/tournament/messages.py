"""The tournament library's problems in the user's language.

competition.lib.problems (pure, no Django) keeps the English texts; this is the one translated
table, with the same codes and ``%(name)s`` placeholders (tests/competition/test_messages.py
checks both). Every page that shows a seating or scoring problem goes through
:func:`tournament_problem_text`, after putting the players' names in place of their ids, and
every bye through :func:`bye_reason_text`.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from competition.lib.problems import Problem

#: code -> the problem in the user's language (the placeholders of competition.lib.problems).
PROBLEMS: dict[str, Promise] = {
    "too_few_players": _("%(players)s players cannot make a table: a table needs 3 or 4"),
    "bye_five_players": _(
        "5 players cannot fill tables of 3 and 4, so one player sits out each round in turn"
    ),
    "threes_too_few": _("%(players)s players cannot make a table of 3"),
    "fours_too_few": _("%(players)s players cannot make a table of 4"),
    "bye_threes": _(
        "the players do not divide into tables of 3, so the rest sit out each round in turn"
    ),
    "bye_fours": _(
        "the players do not divide into tables of 4, so the rest sit out each round in turn"
    ),
    "entrant_twice": _("%(player)s is entered twice"),
    "locked_player_not_active": _("%(player)s at locked table %(table)s is not playing"),
    "locked_player_twice": _("%(player)s sits at two locked tables"),
    "locked_sizes": _(
        "The locked tables (%(locked)s players) do not fit the tables of this round (%(sizes)s)."
    ),
    "player_not_in_seating": _("%(player)s is not in this seating"),
    "table_not_in_seating": _("There is no table %(table)s in this seating."),
    "player_missing": _("%(player)s has no seat"),
    "player_twice": _("%(player)s is seated %(times)s times"),
    "player_withdrawn": _("%(player)s has withdrawn but sits at table %(table)s"),
    "player_unknown": _("%(player)s at table %(table)s is not entered"),
    "table_size": _("Table %(table)s has %(size)s players: a table has 3 or 4."),
    "table_players": _("A table has 3 or 4 players, not %(size)s."),
    "table_sizes": _("%(players)s players sit at tables of %(expected)s, not %(found)s."),
    "byes": _("%(expected)s players should sit out this round, not %(found)s."),
    "first_dealer": _("The first dealer of table %(table)s does not sit at it."),
    "table_number_twice": _("Two tables are numbered %(table)s."),
    "team_size": _("Team %(team)s has %(size)s players: a team has 3 to 5."),
    "met_before": _("%(first)s and %(second)s meet again (%(times)s times in all)"),
    "met_last_round": _("%(first)s and %(second)s met in the last round too"),
    "three_again": _("%(player)s sits at a table of 3 again (%(times)s times in all)"),
    "teammates_together": _("Teammates %(first)s and %(second)s sit at table %(table)s."),
    "same_club_together": _("%(first)s and %(second)s of one club sit at table %(table)s."),
    "apart_together": _(
        "%(first)s and %(second)s should be kept apart but sit together at table %(table)s"
    ),
    "caps_empty": _("The caps need at least one step."),
    "caps_first_not_zero": _("The first step of the caps must start at 0 whists."),
    "caps_not_increasing": _(
        "The caps' breakpoints must increase: %(after)s comes after %(before)s."
    ),
    "caps_factor": _("A cap's factor must be between 0 and 1, not %(factor)s."),
    "caps_missing": _("The caps rule needs its breakpoints."),
    "place_points_count": _("A table of %(size)s needs points for %(size)s places."),
    "penalty_unit": _("A penalty in points cannot apply when the rule counts whists."),
    "stage_top": _("The final stage needs at least 3 players, not %(top)s."),
    "team_best": _("A team's score needs its best 1 to 5 players, not %(best)s."),
}


def tournament_problem_text(problem: Problem) -> str:
    """The problem in the active language, its parameters (names, not ids) filled in."""
    return str(PROBLEMS[problem.code]) % dict(problem.params)


def bye_reason_text(code: str) -> str:
    """Why a player sits out a round, in the active language, from the seating's reason code.

    A code of this table that needs no names (``bye_five_players``) says its problem; anything
    else (no code, a code whose text needs parameters a bye does not carry, or one this table
    does not know, say from an older seating) says only that he sits out, never the raw code.
    """
    text = PROBLEMS.get(code)
    if text is None or "%(" in str(text):
        return str(_("sits out this round"))
    return str(text)
