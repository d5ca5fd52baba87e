"""Leagues (seasons): the form, the writes, and the ranking read from the result caches.

The ranking never replays a pulka. One SQL query aggregates the league's rows of
scoring.models.PulkaResultCache per player (pulkas, counted whists, best result, places) with
the latest RatingSnapshot as a subquery, so the number of queries stays the same whatever the
number of players. The ranked outcome is kept in memory under a key made of the league's
settings and a stamp of the caches it read, so a page only reads the players' names, sorts
and paginates; a change to the caches gives a new stamp and the next page aggregates again.

The cap (League.cap): whists of one pulka beyond it count at half, either way:

    counted(r) = r                                     if |r| <= cap
               = sign(r) * (cap + (|r| - cap) / 2)     otherwise

so with a cap of 200, +300 counts +250 and -260 counts -230. The query adds twice the counted
value, `2r` inside the cap and `r + sign(r) * cap` beyond it: whole numbers only, exact on
SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from django import forms
from django.db import transaction
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
from django.db.models.expressions import Combinable, RawSQL
from django.db.models.functions import RowNumber
from django.shortcuts import get_object_or_404
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from club.errors import ServiceError
from club.models import Club, Player
from competition.models import CountingRule, League, RatingSnapshot
from scoring.models import PulkaResultCache

# How many computed rankings a process keeps (a stale one is never used: see RankingKey),
# and how long a page keeps the HTML of a ranking (its key changes with the ranking anyway).
RANKINGS_KEPT = 32
CACHE_SECONDS = 60 * 60

# Messages shared by the form and the services (a service refuses what the form refuses).
END_BEFORE_START = gettext_lazy("The last evening cannot be before the first.")
CAP_NOT_POSITIVE = gettext_lazy(
    "The cap is a whole number of whists, 1 or more; leave it empty for no cap."
)
BEST_COUNT_MISSING = gettext_lazy(
    "Say how many of each player's best pulkas count (1 or more) for this rule."
)
MIN_PULKAS_TOO_LOW = gettext_lazy("The pulkas needed to be ranked is a whole number, 1 or more.")


class LeagueError(ServiceError):
    """A league the club's rules do not allow; `field` names the form field it is about."""


# Selectors


def leagues_for_club(club: Club) -> QuerySet[League]:
    return League.objects.filter(club=club).order_by("-start", "name")


def league_for_club(club: Club, league_id: int) -> League:
    """The league, scoped to the club: another club's league is a 404.

    It comes with the stamp of the caches its ranking reads (_stamps), in the same query.
    """
    league = get_object_or_404(League.objects.annotate(**_stamps()), pk=league_id, club=club)
    league.club = club
    return league


def rule_sentence(league: League) -> str:
    """The league's rule in plain words.

    >>> print(rule_sentence(League(rule="average", min_pulkas=3, cap=200)))
    Ranked by the average per pulka, over at least 3 pulkas; whists beyond 200 in one pulka \
count at half.
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
        return _("%(ranking)s.") % {"ranking": ranking}
    return _("%(ranking)s; whists beyond %(cap)s in one pulka count at half.") % {
        "ranking": ranking,
        "cap": league.cap,
    }


def counted(result: int, cap: int | None) -> Fraction:
    """What one pulka's result counts in a league with this cap (the module docstring).

    >>> counted(300, 200), counted(-260, 200), counted(150, 200), counted(7, None)
    (Fraction(250, 1), Fraction(-230, 1), Fraction(150, 1), Fraction(7, 1))
    """
    if cap is None or abs(result) <= cap:
        return Fraction(result)
    sign = 1 if result > 0 else -1
    return sign * (cap + Fraction(abs(result) - cap, 2))


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


class Standing(NamedTuple):
    """One player's line in a league (his name comes with the Ranking, read afresh)."""

    player_id: int
    place: int | None  # None: below the minimum, unranked
    pulkas: int
    total: int | float  # counted whists (cap applied): whole, or ending in a half
    average: float  # total / pulkas
    score: int | float  # what the rule ranks by: the total, the average or the best N
    best: int  # the best single result, as played
    firsts: int
    seconds: int
    thirds: int
    fourths: int
    rating: float | None  # the latest rating snapshot (None: not rated yet)


@dataclass(frozen=True)
class Ranking:
    ranked: tuple[Standing, ...]  # by place, then name
    unranked: tuple[Standing, ...]  # below the minimum: most pulkas first, then name
    computed_at: datetime.datetime | None  # the newest cache row counted (None: nothing yet)
    names: dict[int, str]  # player id -> name
    # Changes with anything shown: the key of the computed ranking and the names. The
    # page caches the ranking's HTML under it.
    version: str


@dataclass(frozen=True)
class RankingKey:
    """Everything a computed ranking depends on; equal keys, equal rankings."""

    club_id: int
    club_created_at: datetime.datetime  # tells apart clubs that reuse an id (tests)
    start: datetime.date
    end: datetime.date
    rule: str
    best_count: int | None
    cap: int | None
    min_pulkas: int
    results_stamp: int | None
    ratings_stamp: int | None


def league_ranking(league: League) -> Ranking:
    """The league's standings, ranked by its rule, from the result caches only.

    The aggregation runs once per RankingKey (kept in memory); each call reads the players'
    current names, so that a renamed player shows (and sorts) at once. `names` maps every
    player of the club to his name.
    """
    key = _key(league)
    ranking = _ranking(key)
    names = dict(Player.objects.filter(club=league.club_id).values_list("pk", "name"))
    if ranking.names.items() <= names.items():
        return replace(ranking, names=names)
    # A player was renamed since the ranking was computed: ties and the unranked go by
    # name, so sort again.
    return replace(
        ranking,
        ranked=tuple(sorted(ranking.ranked, key=lambda s: (s.place, names.get(s.player_id)))),
        unranked=tuple(sorted(ranking.unranked, key=lambda s: (-s.pulkas, names.get(s.player_id)))),
        names=names,
        version=_version(key, {player: names.get(player) for player in ranking.names}),
    )


def clear_rankings() -> None:
    """Forget the rankings computed so far (they are never stale, but tests start afresh)."""
    _ranking.cache_clear()


def _version(key: RankingKey, names: dict[int, str | None]) -> str:
    shown = repr((key, sorted(names.items()))).encode()
    return hashlib.blake2b(shown, digest_size=12).hexdigest()


def _stamps() -> dict[str, RawSQL]:
    """What changes whenever the caches a ranking reads change, to annotate a League query.

    A finished or corrected pulka writes new result rows, with ids higher than any before:
    the newest result id (of any club: one index lookup, at the price of recomputing a
    little more often) changes. Removing a pulka's results (reopened, abandoned) writes
    none, but scoring.services then re-rates the club from that pulka's date on, in the same
    transaction, and the snapshots of the club's last rated evening are always among those
    rewritten (new ids) or removed: the club's newest snapshot changes, as do the ratings
    shown. (The same covers results committed out of the order of their ids.)

    Raw SQL, because compiling the same two subqueries through the ORM cost more than the
    rest of the league query (about 1 ms a page); both are index lookups.
    """
    results = PulkaResultCache._meta.db_table
    ratings = RatingSnapshot._meta.db_table
    league = League._meta.db_table
    return {
        "results_stamp": RawSQL(f'SELECT MAX(r.id) FROM "{results}" r', ()),
        "ratings_stamp": RawSQL(
            f'SELECT s.id FROM "{ratings}" s WHERE s.club_id = "{league}"."club_id" '
            "ORDER BY s.date DESC, s.id DESC LIMIT 1",
            (),
        ),
    }


def _key(league: League) -> RankingKey:
    if hasattr(league, "results_stamp"):  # read with the league (league_for_club)
        stamps = (league.results_stamp, league.ratings_stamp)
    else:
        leagues = League.objects.annotate(**_stamps()).filter(pk=league.pk)
        stamps = leagues.values_list("results_stamp", "ratings_stamp").get()
    return RankingKey(
        club_id=league.club_id,
        club_created_at=league.club.created_at,
        start=league.start,
        end=league.end,
        rule=league.rule,
        best_count=league.best_count if league.rule == CountingRule.BEST else None,
        cap=league.cap,
        min_pulkas=league.min_pulkas,
        results_stamp=stamps[0],
        ratings_stamp=stamps[1],
    )


@functools.lru_cache(maxsize=RANKINGS_KEPT)
def _ranking(key: RankingKey) -> Ranking:
    """Aggregate the league's cache rows per player in one SQL query, and rank.

    Counts, counted whists, best result, places and the newest computed_at come from the
    league's PulkaResultCache rows; the rating is the player's latest RatingSnapshot (a
    subquery in the same query). For the best-N rule a window function numbers each
    player's rows from the best, and only the first N count.
    """
    rows = "result_cache__"
    in_league = Q(
        result_cache__club=key.club_id,
        result_cache__date__gte=key.start,
        result_cache__date__lte=key.end,
    )
    doubled = _doubled(f"{rows}result_rounded", key.cap)
    latest_rating = RatingSnapshot.objects.filter(player=OuterRef("pk")).order_by("-seq")
    # Annotate before values(): the rating subquery then stays out of the GROUP BY, where
    # PostgreSQL would run it once per cache row instead of once per player.
    players = Player.objects.filter(in_league, club=key.club_id).annotate(
        pulkas=Count(f"{rows}pk"),
        doubled=Sum(doubled),
        best=Max(f"{rows}result_rounded"),
        computed_at=Max(f"{rows}computed_at"),
        **{f"place_{n}": Count(f"{rows}pk", filter=Q(result_cache__place=n)) for n in range(1, 5)},
        rating=Subquery(latest_rating.values("rating")[:1], output_field=FloatField()),
    )
    fields = ["pk", "name", "pulkas", "doubled", "best", "computed_at", "rating"]
    fields += [f"place_{n}" for n in range(1, 5)]
    if key.rule == CountingRule.BEST:
        numbered = (
            PulkaResultCache.objects.filter(
                club=key.club_id, date__gte=key.start, date__lte=key.end
            )
            .annotate(
                row=Window(
                    RowNumber(),
                    partition_by=F("player"),
                    order_by=[_doubled("result_rounded", key.cap).desc(), F("pk").asc()],
                )
            )
            .filter(row__lte=key.best_count or 0)
            .values("pk")
        )
        players = players.annotate(
            best_doubled=Sum(doubled, filter=Q(result_cache__pk__in=numbered))
        )
        fields.append("best_doubled")

    lines: list[tuple[Fraction, str, Standing]] = []
    computed_at = None
    for row in players.order_by().values(*fields):
        pulkas = row["pulkas"]
        total = Fraction(row["doubled"], 2)
        if key.rule == CountingRule.BEST:
            score = Fraction(row["best_doubled"] or 0, 2)
        elif key.rule == CountingRule.AVERAGE:
            score = total / pulkas
        else:
            score = total
        standing = Standing(
            player_id=row["pk"],
            place=None,
            pulkas=pulkas,
            total=_number(total),
            average=float(total / pulkas),
            score=_number(score),
            best=row["best"],
            firsts=row["place_1"],
            seconds=row["place_2"],
            thirds=row["place_3"],
            fourths=row["place_4"],
            rating=row["rating"],
        )
        lines.append((score, row["name"], standing))
        if computed_at is None or row["computed_at"] > computed_at:
            computed_at = row["computed_at"]
    return _rank(key, lines, computed_at)


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _rank(
    key: RankingKey,
    lines: list[tuple[Fraction, str, Standing]],
    computed_at: datetime.datetime | None,
) -> Ranking:
    """Places by the exact score, best first; equal scores share a place (1, 1, 3)."""
    eligible = sorted(
        (line for line in lines if line[2].pulkas >= key.min_pulkas),
        key=lambda line: (-line[0], line[1]),
    )
    ranked: list[Standing] = []
    previous: Fraction | None = None
    for index, (score, _name, standing) in enumerate(eligible):
        place = ranked[-1].place if ranked and score == previous else index + 1
        ranked.append(standing._replace(place=place))
        previous = score
    unranked = sorted(
        (line for line in lines if line[2].pulkas < key.min_pulkas),
        key=lambda line: (-line[2].pulkas, line[1]),
    )
    names = {standing.player_id: name for _, name, standing in lines}
    return Ranking(
        ranked=tuple(ranked),
        unranked=tuple(standing for _, _, standing in unranked),
        computed_at=computed_at,
        names=names,
        version=_version(key, names),
    )


# Services


def league_problems(
    *,
    start: datetime.date | None,
    end: datetime.date | None,
    rule: str,
    best_count: int | None,
    cap: int | None,
    min_pulkas: int | None,
) -> dict[str, str]:
    """What is wrong with these settings, by field (empty: nothing)."""
    problems: dict[str, str] = {}
    if start and end and end < start:
        problems["end"] = str(END_BEFORE_START)
    if cap is not None and cap < 1:
        problems["cap"] = str(CAP_NOT_POSITIVE)
    if rule == CountingRule.BEST and (best_count is None or best_count < 1):
        problems["best_count"] = str(BEST_COUNT_MISSING)
    if min_pulkas is None or min_pulkas < 1:
        problems["min_pulkas"] = str(MIN_PULKAS_TOO_LOW)
    return problems


def _check(**settings) -> None:
    problems = league_problems(**settings)
    if problems:
        field, message = next(iter(problems.items()))
        raise LeagueError(message, field=field)


@transaction.atomic
def league_create(
    *,
    club: Club,
    name: str,
    start: datetime.date,
    end: datetime.date,
    rule: str,
    best_count: int | None,
    cap: int | None,
    min_pulkas: int,
) -> League:
    """Open a league (season) of the club."""
    _check(start=start, end=end, rule=rule, best_count=best_count, cap=cap, min_pulkas=min_pulkas)
    return League.objects.create(
        club=club,
        name=name,
        start=start,
        end=end,
        rule=rule,
        best_count=best_count if rule == CountingRule.BEST else None,
        cap=cap,
        min_pulkas=min_pulkas,
    )


@transaction.atomic
def league_update(
    *,
    league: League,
    name: str,
    start: datetime.date,
    end: datetime.date,
    rule: str,
    best_count: int | None,
    cap: int | None,
    min_pulkas: int,
) -> League:
    """Change a league's name, dates or rule; its ranking follows at the next read."""
    _check(start=start, end=end, rule=rule, best_count=best_count, cap=cap, min_pulkas=min_pulkas)
    locked = League.objects.select_for_update().get(pk=league.pk)
    locked.name = name
    locked.start, locked.end = start, end
    locked.rule = rule
    locked.best_count = best_count if rule == CountingRule.BEST else None
    locked.cap = cap
    locked.min_pulkas = min_pulkas
    locked.save()
    return locked


# Forms


class LeagueForm(forms.ModelForm):
    # The limits below are the columns' (an integer and two small integers).
    cap = forms.IntegerField(
        label=capfirst(League._meta.get_field("cap").verbose_name),
        required=False,
        min_value=1,
        max_value=2_147_483_647,
        help_text=League._meta.get_field("cap").help_text,
        error_messages={"invalid": CAP_NOT_POSITIVE, "min_value": CAP_NOT_POSITIVE},
    )
    best_count = forms.IntegerField(
        label=capfirst(League._meta.get_field("best_count").verbose_name),
        required=False,
        min_value=1,
        max_value=32_767,
        help_text=League._meta.get_field("best_count").help_text,
        error_messages={"invalid": BEST_COUNT_MISSING, "min_value": BEST_COUNT_MISSING},
    )
    min_pulkas = forms.IntegerField(
        label=capfirst(League._meta.get_field("min_pulkas").verbose_name),
        min_value=1,
        max_value=32_767,
        initial=1,
        error_messages={"invalid": MIN_PULKAS_TOO_LOW, "min_value": MIN_PULKAS_TOO_LOW},
    )

    class Meta:
        model = League
        fields = ["name", "start", "end", "rule", "best_count", "cap", "min_pulkas"]
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "end": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def clean(self) -> dict:
        data = super().clean()
        problems = league_problems(
            start=data.get("start"),
            end=data.get("end"),
            rule=data.get("rule", ""),
            best_count=data.get("best_count"),
            cap=data.get("cap"),
            min_pulkas=data.get("min_pulkas"),
        )
        for name, message in problems.items():
            if name not in self.errors:
                self.add_error(name, message)
        return data

    def settings(self) -> dict:
        """The cleaned settings, as the services take them."""
        return {field: self.cleaned_data[field] for field in self.Meta.fields}
