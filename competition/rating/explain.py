"""The worked example of the "how ratings work" page, computed by competition.rating.ratings
itself, and the margin calculator's answer."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import pgettext_lazy

from competition.rating import ratings

EXAMPLE_NAMES = (
    pgettext_lazy("a player in the rating example", "Anna"),
    pgettext_lazy("a player in the rating example", "Boris"),
    pgettext_lazy("a player in the rating example", "Vera"),
)
# What each won from each (row from column) in the example pulka: Anna 60 off Boris and
# 90 off Vera, Boris 30 off Vera. The same table as the docstring of
# competition.rating.ratings.rate_table.
EXAMPLE_NETS = ((0, 60, 90), (-60, 0, 30), (-90, -30, 0))
EXAMPLE_PLACES = (1, 2, 3)
CURVE_MARGINS = (-300, -150, -50, 0, 50, 150, 300, 1000)


@dataclass(frozen=True, slots=True)
class Margin:
    opponent: str
    whists: float  # Δ: what the player won from this opponent
    score: float  # S = 1 / (1 + 10^(−Δ/s))


@dataclass(frozen=True, slots=True)
class ExamplePlayer:
    name: str
    place: int
    margins: tuple[Margin, ...]
    placed: ratings.Rating  # after the finishing order alone
    after: ratings.Rating  # after the margin term too
    before: ratings.Rating = ratings.DEFAULT

    @property
    def result(self) -> float:
        return sum(margin.whists for margin in self.margins)

    @property
    def lost(self) -> float:
        """The whists lost in all (the result with its sign turned), for the sentence."""
        return -self.result

    @property
    def margin_score(self) -> float:
        return sum(margin.score for margin in self.margins) / len(self.margins)

    @property
    def place_mu(self) -> float:
        return self.placed.mu - self.before.mu

    @property
    def margin_mu(self) -> float:
        return self.after.mu - self.placed.mu

    @property
    def change(self) -> float:
        return self.after.display - self.before.display


@dataclass(frozen=True, slots=True)
class RatingExample:
    players: tuple[ExamplePlayer, ...]
    curve: tuple[tuple[int, float], ...]  # (Δ, S) for a few margins
    mu: float = ratings.MU
    sigma: float = ratings.SIGMA
    scale: float = ratings.MARGIN_SCALE
    weight: float = ratings.MARGIN_WEIGHT
    base: float = ratings.DISPLAY_BASE
    display_scale: float = ratings.DISPLAY_SCALE

    @property
    def newcomer(self) -> float:
        return ratings.DEFAULT.display

    @property
    def largest_margin_mu(self) -> float:
        """The most the margin term can move mu in one pulka: K/2."""
        return self.weight / 2


def rating_example() -> RatingExample:
    """Three newcomers' pulka rated by competition.rating.ratings.rate_table, step by step.

    The finishing order alone is rate_table with every net at 0 (each S is then ½, and the
    margin term adds nothing); the full update is rate_table with the nets.
    """
    names = [str(name) for name in EXAMPLE_NAMES]
    fresh = [ratings.DEFAULT] * len(names)
    nets = [list(map(float, row)) for row in EXAMPLE_NETS]
    even = [[0.0] * len(names) for _ in names]
    placed = ratings.rate_table(fresh, EXAMPLE_PLACES, even)
    after = ratings.rate_table(fresh, EXAMPLE_PLACES, nets)
    players = tuple(
        ExamplePlayer(
            name=name,
            place=EXAMPLE_PLACES[i],
            margins=tuple(
                Margin(opponent=names[j], whists=nets[i][j], score=ratings.margin_score(nets[i][j]))
                for j in range(len(names))
                if j != i
            ),
            placed=placed[i],
            after=after[i],
        )
        for i, name in enumerate(names)
    )
    curve = tuple((delta, ratings.margin_score(delta)) for delta in CURVE_MARGINS)
    return RatingExample(players=players, curve=curve)


@dataclass(frozen=True, slots=True)
class MarginEffect:
    """What winning Δ whists from every opponent adds through the margin term alone."""

    whists: int
    score: float
    mu: float  # K·(S − ½)
    points: float  # the same in displayed rating points (sigma is left alone)


def margin_effect(whists: int) -> MarginEffect:
    score = ratings.margin_score(whists)
    mu = ratings.MARGIN_WEIGHT * (score - 0.5)
    return MarginEffect(whists=whists, score=score, mu=mu, points=ratings.DISPLAY_SCALE * mu)
