"""Club ratings: openskill's Plackett-Luce on places, plus a whist-margin term.

Every finished pulka of a club is one rated game. Two things move a player's skill `mu`:

1. The finishing order. openskill's Plackett-Luce model updates (mu, sigma) from the places
   of the pulka's result cache (1 = best; equal results share a place, i.e. tie).
2. The margins. For each pair at the table, Δ_ij is what i won from j in whists
   (PairResultCache.net, the §10.3 settlement), scored on a logistic curve

       S_ij = 1 / (1 + 10^(−Δ_ij / s))          s = MARGIN_SCALE = 150

   and averaged over the opponents, S_i = mean_j S_ij, a number in (0, 1). After the
   Plackett-Luce update, mu_i += K · (S_i − 1/2) with K = MARGIN_WEIGHT = 2.0. Because
   S_ij + S_ji = 1 the term sums to zero over the table, and it leaves sigma alone.

Why s = 150: pairwise nets in a Sochi pulka to 20-30 are tens to a few hundred whists. With
s = 150 a margin of 50 whists gives S ≈ 0.68, 150 gives 10/11 ≈ 0.91 and 300 gives ≈ 0.99,
so ordinary margins spread over the useful range of the curve without saturating, while a
freak pulka (a misère caught for 1,000 whists) still saturates at 1 and cannot move a
rating by more than K/2 through this term.

Why K = 2.0 (openskill's units: mu starts at 25, sigma at 25/3): a fresh player who wins
a three-handed pulka gains about 2.9 mu from the placing; the margin term adds at most
±1.0, so for newcomers the place decides and the margin tells a narrow win from a
crushing one. As sigma settles (openskill's tau keeps it near 2.5 after a hundred or so
pulkas) the placing moves shrink to about 0.5 mu, and the margin term (typically ±0.5)
becomes about as strong as the place: a regular who finishes second but takes whists off
everyone is rated up, as clubs expect.

The display rating is openskill's conservative "ordinal" scaled to a friendly number:

    rating = DISPLAY_BASE + DISPLAY_SCALE · (mu − 3·sigma) = 1000 + 40 · (mu − 3·sigma)

A newcomer shows 1000 (25 − 3·25/3 = 0) and climbs as the system grows sure of them;
`delta` is the change of this number made by one pulka.

The ratings are a CACHE (RatingSnapshot), replayed in a fixed order from the result caches
only (never through the engine): the club's finished pulkas by (date, finished_at, id),
numbered seq 1, 2, 3... `ratings_update` recomputes from a date on, so correcting an old
pulka re-rates every later one; a full rebuild gives exactly the same numbers.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from django.db import transaction
from django.db.models import F, Max, QuerySet, Window
from django.db.models.functions import RowNumber
from openskill.models import PlackettLuce

from club.models import Club, Player
from club.services import club_results_bump
from competition.models import RatingSnapshot
from competition.tasks import advisory_lock
from scoring.models import PairResultCache, PulkaResultCache

MU = 25.0  # openskill's defaults
SIGMA = 25.0 / 3.0
MARGIN_SCALE = 150.0  # s: whists for S = 10/11
MARGIN_WEIGHT = 2.0  # K: mu for a whole-table sweep of the margins (S_i = 1)
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 40.0
BATCH = 1000

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


# --- the maths: plain functions, no database ---------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate: mean `mu` and uncertainty `sigma` (openskill's units)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> float:
        """The number the pages show: 1000 + 40·(mu − 3σ); 1000 for a newcomer.

        >>> Rating().display
        1000.0
        >>> Rating(mu=30.0, sigma=2.0).display
        1960.0
        """
        return DISPLAY_BASE + DISPLAY_SCALE * (self.mu - 3.0 * self.sigma)


DEFAULT = Rating()


def margin_score(delta: float, scale: float = MARGIN_SCALE) -> float:
    """S = 1 / (1 + 10^(−Δ/s)): how clearly one player beat another by Δ whists.

    >>> margin_score(0)
    0.5
    >>> round(margin_score(150), 4), round(10 / 11, 4)
    (0.9091, 0.9091)
    >>> round(margin_score(-50), 3)
    0.317
    """
    x = delta / scale
    # Written both ways so that a huge margin saturates instead of overflowing.
    if x >= 0:
        return 1.0 / (1.0 + 10.0**-x)
    t = 10.0**x
    return t / (1.0 + t)


def margin_scores(nets: Sequence[Sequence[float]]) -> list[float]:
    """S_i = mean over the opponents j of S(nets[i][j]); nets[i][j] = what i won from j.

    >>> [round(s, 3) for s in margin_scores([[0, 150, 150], [-150, 0, 0], [-150, 0, 0]])]
    [0.909, 0.295, 0.295]
    """
    n = len(nets)
    if n < 2:
        return [0.5] * n
    return [sum(margin_score(nets[i][j]) for j in range(n) if j != i) / (n - 1) for i in range(n)]


def rate_table(
    ratings: Sequence[Rating], places: Sequence[int], nets: Sequence[Sequence[float]]
) -> list[Rating]:
    """The players' ratings after one pulka, in the order they were given.

    `places` are 1 for the best result (equal results share a place); `nets[i][j]` is what
    player i won from player j in whists (the diagonal is ignored).

    Worked example: three newcomers. Anna wins (she took 60 whists off Boris and 90 off
    Vera), Boris is second (30 off Vera), Vera is last. Anna's place gives her about
    +2.87 mu and her margins another 2·(0.757 − 0.5) ≈ +0.51; Vera loses on both counts.

    >>> anna, boris, vera = rate_table(
    ...     [Rating(), Rating(), Rating()],
    ...     [1, 2, 3],
    ...     [[0, 60, 90], [-60, 0, 30], [-90, -30, 0]],
    ... )
    >>> [round(r.mu, 2) for r in (anna, boris, vera)]
    [28.38, 25.62, 21.0]
    >>> [round(r.sigma, 2) for r in (anna, boris, vera)]
    [8.21, 8.06, 8.06]
    >>> [round(r.display) for r in (anna, boris, vera)]
    [1151, 1058, 873]
    """
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=list(places))
    scores = margin_scores(nets)
    return [
        Rating(mu=team[0].mu + MARGIN_WEIGHT * (score - 0.5), sigma=team[0].sigma)
        for team, score in zip(rated, scores, strict=True)
    ]


# --- the replay: shared by the clubs' ratings and the federation's rating list ----------

#: A table as read from the result caches: (position, player id, place) per seat.
Table = list[tuple[int, int, int]]
#: A pulka's place in the replay: (date, not finished, finished_at, id), earliest first.
Order = tuple[datetime.date, bool, datetime.datetime | None, int]


class RatedPulkas(NamedTuple):
    """What `read_tables` reads: each pulka's seats, its place in the replay, the nets of
    its pairs, and its club."""

    tables: dict[int, Table]
    order: dict[int, Order]
    nets: dict[tuple[int, int, int], float]
    clubs: dict[int, int]


def read_tables(
    results: QuerySet[PulkaResultCache], pairs: QuerySet[PairResultCache]
) -> RatedPulkas:
    """The rated pulkas of `results` and the nets of `pairs`, as `replay` takes them: two
    queries, whatever the number of pulkas."""
    tables: dict[int, Table] = defaultdict(list)
    order: dict[int, Order] = {}
    clubs: dict[int, int] = {}
    for pulka, club, date, finished_at, position, player, place in results.values_list(
        "pulka_id", "club_id", "date", "pulka__finished_at", "position", "player_id", "place"
    ).order_by():
        tables[pulka].append((position, player, place))
        order[pulka] = (date, finished_at is None, finished_at, pulka)
        clubs[pulka] = club
    nets: dict[tuple[int, int, int], float] = {
        (pulka, player, opponent): float(net)
        for pulka, player, opponent, net in pairs.values_list(
            "pulka_id", "player_id", "opponent_id", "net"
        ).order_by()
    }
    return RatedPulkas(tables, order, nets, clubs)


def _by_player(player: int) -> Hashable:
    return player


def replay(
    tables: dict[int, Table],
    order: dict[int, Order],
    nets: dict[tuple[int, int, int], float],
    state: dict[Hashable, Rating],
    *,
    key: Callable[[int], Hashable] = _by_player,
) -> Iterator[tuple[int, int, Rating, Rating]]:
    """Rate the pulkas of `tables` one after another in `order`; yield (pulka, player, the
    rating before, the rating after) for each seat, pulka by pulka, seated by position.

    `state` holds each identity's current rating and is updated as the pulkas go by (an
    identity not in it starts at DEFAULT). The identity of a roster name is `key(player)`:
    the player himself for a club; the person he is for a federation. An identity met twice
    at one table (two roster names of one person) rates the second seat as its own player.

    Worked example: Anna beats Boris and Vera twice; the second pulka starts from the first.

    >>> tables = {7: [(0, 1, 1), (1, 2, 2), (2, 3, 3)], 9: [(0, 3, 3), (1, 1, 1), (2, 2, 2)]}
    >>> order = {9: (datetime.date(2025, 3, 2), False, None, 9),
    ...          7: (datetime.date(2025, 3, 1), False, None, 7)}
    >>> state = {}
    >>> [(pulka, player, round(after.display)) for pulka, player, _, after
    ...  in replay(tables, order, {}, state)]
    [(7, 1, 1130), (7, 2, 1062), (7, 3, 890), (9, 3, 804), (9, 1, 1250), (9, 2, 1107)]
    >>> round(state[1].display)
    1250
    """
    for pulka in sorted(order, key=order.__getitem__):
        seated = sorted(tables[pulka])
        players = [player for _, player, _ in seated]
        identities: list[Hashable] = []
        for player in players:
            identity = key(player)
            identities.append(("p", player) if identity in identities else identity)
        before = [state.get(identity, DEFAULT) for identity in identities]
        after = rate_table(
            before,
            [place for _, _, place in seated],
            [[nets.get((pulka, i, j), 0.0) for j in players] for i in players],
        )
        for player, identity, old, new in zip(players, identities, before, after, strict=True):
            state[identity] = new
            yield pulka, player, old, new


# --- the cache: RatingSnapshot rows -------------------------------------------------------


def _latest(snapshots: QuerySet[RatingSnapshot]) -> QuerySet[RatingSnapshot]:
    """Each player's last snapshot among `snapshots`, in one query.

    A window (row_number per player, newest first) works on SQLite and PostgreSQL alike
    and sorts once; a correlated subquery per row was some 500 times slower on PostgreSQL
    before the table's statistics were gathered.
    """
    newest = Window(RowNumber(), partition_by=[F("player_id")], order_by=F("seq").desc())
    return snapshots.annotate(newest=newest).filter(newest=1)


# The first key of the advisory lock that serialises a club's replays (the second is its id).
REPLAY_LOCK = 0x52617465  # "Rate"


@transaction.atomic
def ratings_update(*, club: Club, since: datetime.date | None = None) -> int:
    """Recompute the club's rating snapshots from `since` on (all when None).

    Snapshots dated `since` or later are deleted and replayed from the result caches,
    starting from each player's last snapshot before `since`. Returns how many snapshots
    were written. Queries: the
    starting point (2), the delete, the result rows, the pair rows, and the inserts in
    batches of BATCH.
    """
    advisory_lock(REPLAY_LOCK, club.pk)
    snapshots = RatingSnapshot.objects.filter(club=club)
    results = PulkaResultCache.objects.filter(club=club, counted=True)
    pairs = PairResultCache.objects.filter(club=club, counted=True)
    state: dict[int, Rating] = {}
    seq = 0
    if since is not None:
        earlier = snapshots.filter(date__lt=since)
        seq = earlier.aggregate(last=Max("seq"))["last"] or 0
        rows = _latest(snapshots.filter(seq__lte=seq)).values_list("player_id", "mu", "sigma")
        state = {player: Rating(mu, sigma) for player, mu, sigma in rows}
        snapshots = snapshots.filter(date__gte=since)
        results = results.filter(date__gte=since)
        pairs = pairs.filter(date__gte=since)
    snapshots.delete()

    tables, order, nets, _ = read_tables(results, pairs)
    created: list[RatingSnapshot] = []
    last = None
    for pulka, player, old, new in replay(tables, order, nets, state):
        if pulka != last:
            seq, last = seq + 1, pulka
        created.append(
            RatingSnapshot(
                club=club,
                player_id=player,
                pulka_id=pulka,
                date=order[pulka][0],
                seq=seq,
                mu=new.mu,
                sigma=new.sigma,
                rating=new.display,
                delta=new.display - old.display,
            )
        )
    RatingSnapshot.objects.bulk_create(created, batch_size=BATCH)
    club_results_bump(club_id=club.pk)  # the ratings show in the leagues' rankings
    return len(created)


# --- reads for the pages ------------------------------------------------------------------


def current_ratings(club: Club) -> dict[int, RatingSnapshot]:
    """Each rated player's latest snapshot (with .player), by player id: one query."""
    latest = _latest(RatingSnapshot.objects.filter(club=club)).select_related("player")
    return {snapshot.player_id: snapshot for snapshot in latest}


def rating_history(player: Player) -> list[tuple[datetime.date, float]]:
    """(date, display rating) after each of the player's rated pulkas, oldest first."""
    return list(
        RatingSnapshot.objects.filter(player=player).order_by("seq").values_list("date", "rating")
    )
