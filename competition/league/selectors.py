"""Reads of competition: a club's leagues, and a league's ranking from the result caches.

A league's ranking never replays a pulka. One SQL query adds up the league's rows of
scoring.models.PulkaResultCache per player (pulkas, counted whists, best result, places) with
the latest RatingSnapshot as a subquery, so the number of queries stays the same whatever the
number of players; competition.lib.standings ranks the sums. (bench/league.py: 98 ms in SQL for
its 175,000 rows, 1,225 ms to read them raw and add them up with standings.tally().)

The ranking is kept in Django's cache under the league's settings and the club's
`results_version`, which every service that changes the club's results or ratings bumps; a
page then only reads the league (with the counter) and the players' names, which it reads
afresh, so that a renamed player shows at once.

The cap counts whists beyond it at half (competition.lib.standings.HalfBeyond); the query adds
twice the counted value, `2r` inside the cap and `r + sign(r) * cap` beyond it: whole numbers
only, exact on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from django.core.cache import cache
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    When,
    Window,
)
from django.db.models.expressions import Combinable
from django.db.models.functions import RowNumber
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.models import Club, Player
from competition.lib import standings
from competition.models import CountingRule, League, RatingSnapshot
from scoring.messages import PRESET_LABELS
from scoring.models import PulkaResultCache

# How long the cache keeps a computed ranking, and the page its HTML (their keys change with
# every change to the results anyway).
CACHE_SECONDS = 60 * 60


def leagues_for_club(club: Club) -> QuerySet[League]:
    return League.objects.filter(club=club).order_by("-start", "name")


def league_for_club(club: Club, league_id: int) -> League:
    """The league, scoped to the club: another club's league is a 404.

    It comes with the club's results_version (what its cached ranking is keyed by), read in
    the same query.
    """
    leagues = League.objects.annotate(club_results_version=F("club__results_version"))
    league = get_object_or_404(leagues, pk=league_id, club=club)
    league.club = club
    return league


def rule_sentence(league: League) -> str:
    """The league's rule in plain words.

    >>> print(rule_sentence(League(rule="average", min_pulkas=3, cap=200)))
    Ranked by the average per pulka, over at least 3 pulkas; whists beyond 200 in one pulka \
count at half.
    >>> print(rule_sentence(League(rule="sum", min_pulkas=1, convention="leningrad")))
    Ranked by the sum of whists. Only pulkas played by the Leningrad (Piter) convention count.
    """
    n = league.min_pulkas
    if league.rule == CountingRule.BEST:
        best = league.best_count or 0
        if n > 1:
            ranking = ngettext(
                "Ranked by the sum of each player's best %(best)s pulka, over at least "
                "%(n)s pulkas",
                "Ranked by the sum of each player's best %(best)s pulkas, over at least "
                "%(n)s pulkas",
                best,
            ) % {"best": best, "n": n}
        else:
            ranking = ngettext(
                "Ranked by the sum of each player's best %(best)s pulka",
                "Ranked by the sum of each player's best %(best)s pulkas",
                best,
            ) % {"best": best}
    elif league.rule == CountingRule.AVERAGE:
        if n > 1:
            ranking = _("Ranked by the average per pulka, over at least %(n)s pulkas") % {"n": n}
        else:
            ranking = _("Ranked by the average per pulka")
    elif n > 1:
        ranking = _("Ranked by the sum of whists, over at least %(n)s pulkas") % {"n": n}
    else:
        ranking = _("Ranked by the sum of whists")
    if league.cap is None:
        sentence = _("%(ranking)s.") % {"ranking": ranking}
    else:
        sentence = _("%(ranking)s; whists beyond %(cap)s in one pulka count at half.") % {
            "ranking": ranking,
            "cap": league.cap,
        }
    if league.convention:
        only = _("Only pulkas played by the %(convention)s convention count.") % {
            "convention": PRESET_LABELS[league.convention]
        }
        sentence = f"{sentence} {only}"
    return sentence


def league_rule(league: League) -> standings.Rule:
    """The league's settings as a standings rule (no tie-breaks: ties share the place)."""
    return standings.Rule(
        counting=standings.Counting(league.rule),
        best_count=league.best_count if league.rule == CountingRule.BEST else None,
        cap=None if league.cap is None else standings.HalfBeyond(league.cap),
        min_pulkas=league.min_pulkas,
    )


def league_results(league: League) -> Q:
    """The result rows a league counts (a filter of PulkaResultCache): its club's, from its
    first evening to its last, and only the pulkas of its convention when it has one.

    The convention is read from the pulka's stored rules (`rules -> preset`, a JSON lookup
    that SQLite and PostgreSQL both do) in the same query: one join, whatever the rows.
    """
    results = Q(club=league.club_id, date__gte=league.start, date__lte=league.end, counted=True)
    if league.convention:
        results &= Q(pulka__rules__preset=league.convention)
    return results


def _through(results: Q, relation: str) -> Q:
    """The same filter of result rows, seen from a Player (`relation` away).

    A negated filter would mean "no such row" from the other side: refused.
    """
    if results.negated:
        raise ValueError("a negated filter of result rows cannot be moved")
    children = [
        _through(child, relation) if isinstance(child, Q) else (f"{relation}__{child[0]}", child[1])
        for child in results.children
    ]
    return Q(*children, _connector=results.connector)


# Adding up result rows


class Tallied(NamedTuple):
    tallies: list[standings.Tally]
    ratings: dict[int, float | None]  # player id -> his latest rating (None: not rated)
    computed_at: datetime.datetime | None  # the newest row counted (None: no row)


def result_rows(results: Q) -> Iterator[standings.Result]:
    """The rows `results` selects, as the standings take them raw (the rounded whole whists,
    as leagues count): for rules SQL cannot add up (a cap of any shape).
    """
    rows = PulkaResultCache.objects.filter(results).values_list(
        "player_id", "result_rounded", "place", "players", "date"
    )
    for row in rows.iterator(chunk_size=5000):
        yield standings.Result(*row)


def _doubled(field: str, cap: int | None) -> Combinable:
    """Twice the counted value of the result in `field`, in whole numbers."""
    result = F(field)
    if cap is None:
        return result * 2
    return Case(
        When(**{f"{field}__gt": cap}, then=result + cap),
        When(**{f"{field}__lt": -cap}, then=result - cap),
        default=result * 2,
        output_field=IntegerField(),
    )


def results_tallied(results: Q, rule: standings.Rule) -> Tallied:
    """Add up the rows `results` selects (a filter of PulkaResultCache) per player, in one
    SQL query, with each player's latest rating.

    The query is grouped by Player: a GROUP BY on the result rows would put the rating
    subquery into the GROUP BY too, and PostgreSQL then ran it once per row (2.4 s instead of
    about 0.1 s on bench/league.py). The cap must be the league's (HalfBeyond) or none; other
    caps go through result_rows() and standings.tally(). For the best-N rule a window
    function numbers each player's rows from the best, and only the first N count.
    """
    if rule.cap is not None and not isinstance(rule.cap, standings.HalfBeyond):
        raise ValueError("SQL adds up the league's cap only; use result_rows()")
    cap = None if rule.cap is None else rule.cap.cap
    rows = "result_cache__"
    doubled = _doubled(f"{rows}result_rounded", cap)
    latest_rating = RatingSnapshot.objects.filter(player=OuterRef("pk")).order_by("-seq")
    # Annotate before values(): the rating subquery then stays out of the GROUP BY.
    players = Player.objects.filter(_through(results, "result_cache")).annotate(
        pulkas=Count(f"{rows}pk"),
        doubled=Sum(doubled),
        best=Max(f"{rows}result_rounded"),
        computed_at=Max(f"{rows}computed_at"),
        **{f"place_{n}": Count(f"{rows}pk", filter=Q(result_cache__place=n)) for n in range(1, 5)},
        rating=Subquery(latest_rating.values("rating")[:1], output_field=FloatField()),
    )
    fields = ["pk", "pulkas", "doubled", "best", "computed_at", "rating"]
    fields += [f"place_{n}" for n in range(1, 5)]
    if rule.counting == standings.Counting.BEST:
        numbered = (
            PulkaResultCache.objects.filter(results)
            .annotate(
                row=Window(
                    RowNumber(),
                    partition_by=F("player"),
                    order_by=[_doubled("result_rounded", cap).desc(), F("pk").asc()],
                )
            )
            .filter(row__lte=rule.best_count or 0)
            .values("pk")
        )
        players = players.annotate(
            best_doubled=Sum(doubled, filter=Q(result_cache__pk__in=numbered))
        )
        fields.append("best_doubled")
    tallies, ratings, computed_at = [], {}, None
    for row in players.order_by().values(*fields):
        best_doubled = row.get("best_doubled")
        tallies.append(
            standings.Tally(
                player_id=row["pk"],
                pulkas=row["pulkas"],
                total=Fraction(row["doubled"], 2),
                best=row["best"],
                firsts=row["place_1"],
                seconds=row["place_2"],
                thirds=row["place_3"],
                fourths=row["place_4"],
                best_total=None if best_doubled is None else Fraction(best_doubled, 2),
            )
        )
        ratings[row["pk"]] = row["rating"]
        if computed_at is None or row["computed_at"] > computed_at:
            computed_at = row["computed_at"]
    return Tallied(tallies, ratings, computed_at)


# A league's ranking


class LeagueStanding(NamedTuple):
    """A player's line in a league: his standing (competition.lib.standings.Standing) and his
    rating. His name comes with the Ranking, read afresh."""

    player_id: int
    place: int | None  # None: below the minimum, unranked
    pulkas: int
    total: int | float
    average: float
    score: int | float
    best: int | float
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    rating: float | None  # the latest rating snapshot (None: not rated yet)


@dataclass(frozen=True)
class Ranking:
    ranked: tuple[LeagueStanding, ...]  # by place, then name
    unranked: tuple[LeagueStanding, ...]  # below the minimum: most pulkas first, then name
    computed_at: datetime.datetime | None  # the newest cache row counted (None: nothing yet)
    names: dict[int, str]  # player id -> name
    # Changes with anything shown: the cache key of the ranking and the names. The page
    # caches the ranking's HTML under it.
    version: str


def league_ranking(league: League) -> Ranking:
    """The league's standings, ranked by its rule, from the result caches only.

    The rows are added up once per cache key (_cache_key); each call reads the players'
    current names, so that a renamed player shows (and sorts) at once. `names` maps every
    player of the club to his name.
    """
    version = getattr(league, "club_results_version", None)
    if version is None:  # a league not read by league_for_club
        version = Club.objects.values_list("results_version", flat=True).get(pk=league.club_id)
    key = _cache_key(league, version)
    rows = Player.objects.filter(club=league.club_id).values_list("pk", "name", "sort_key")
    names = {pk: name for pk, name, _key in rows}
    # Ties go alphabetically, by the key the roster stores (club.names.sort_key): working it
    # out again for every player took 38 of the page's 61 ms (bench/league.py --profile).
    order = {pk: key for pk, _name, key in rows}
    ranking = cache.get(key)
    if ranking is None:
        rule = league_rule(league)
        tallied = results_tallied(league_results(league), rule)
        ranked = standings.rank(tallied.tallies, rule, order)
        ranking = Ranking(
            ranked=_lines(ranked.ranked, tallied.ratings),
            unranked=_lines(ranked.unranked, tallied.ratings),
            computed_at=tallied.computed_at,
            names={player: names.get(player, "") for player in tallied.ratings},
            version=_version(key, {player: names.get(player) for player in tallied.ratings}),
        )
        cache.set(key, ranking, CACHE_SECONDS)
    if ranking.names.items() <= names.items():
        return replace(ranking, names=names)
    # A player was renamed since the ranking was computed: ties and the unranked go by name.
    ranked, unranked = standings.in_order(ranking.ranked, ranking.unranked, order)
    return replace(
        ranking,
        ranked=ranked,
        unranked=unranked,
        names=names,
        version=_version(key, {player: names.get(player) for player in ranking.names}),
    )


def _lines(
    lines: tuple[standings.Standing, ...], ratings: dict[int, float | None]
) -> tuple[LeagueStanding, ...]:
    return tuple(LeagueStanding(*line, rating=ratings.get(line.player_id)) for line in lines)


def _cache_key(league: League, results_version: int) -> str:
    """Everything a computed ranking depends on; equal keys, equal rankings. (The league's
    created_at tells apart leagues that reuse an id: SQLite may, after a rollback.)"""
    best_count = league.best_count if league.rule == CountingRule.BEST else None
    settings = (
        league.created_at.timestamp(),
        league.start,
        league.end,
        league.rule,
        best_count,
        league.cap,
        league.min_pulkas,
        league.convention,
        results_version,
    )
    return f"league-ranking:{league.pk}:" + ":".join(map(str, settings))


def _version(key: str, names: dict[int, str | None]) -> str:
    shown = repr((key, sorted(names.items()))).encode()
    return hashlib.blake2b(shown, digest_size=12).hexdigest()
