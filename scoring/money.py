"""The club's stake: whists turned into money, and who pays whom (scoring.engine.payments).

A club that sets a price per whist (Club.whist_price, in Club.currency) sees, under a
pulka's sheet and an evening's summary, each player's amount and the fewest payments that
settle them ("Анна → Богдан 120 ₴"). A pulka's amounts are its exact results (thirds and
all) times the price, rounded to the currency's minor unit so that they sum to exactly zero
(ties by seat order). An evening's amount of a player is the sum of his amounts at its
tables, so that the evening agrees to the kopiyka with the pulkas' own pages; its payments
are the fewest that settle the evening as a whole, between players of different tables too.

Amounts are kept in minor units (ints); :func:`money_text` is the one way they are shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format

from club.models import CURRENCY_MINOR, CURRENCY_SIGNS, Club, Currency
from scoring.engine.payments import money_amounts, settle_up


@dataclass(frozen=True)
class Stake:
    """What a whist is worth at a club."""

    price: Decimal  # in the currency's units, e.g. 0.50
    currency: str

    @property
    def minor(self) -> int:
        """Minor units in one unit of the currency (100 kopiykas in a hryvnia)."""
        return CURRENCY_MINOR[Currency(self.currency)]

    @property
    def sign(self) -> str:
        return CURRENCY_SIGNS[Currency(self.currency)]

    @property
    def per_whist(self) -> Fraction:
        """A whist's worth in minor units (exact)."""
        return Fraction(self.price) * self.minor

    @property
    def price_text(self) -> str:
        return money_text(int(self.price * self.minor), self, places=self.places([]))

    def places(self, amounts: Sequence[int]) -> int:
        """The decimals a list of amounts is shown with: none when every amount (and the
        price) is whole, else the currency's all through the list, so that they align."""
        whole = all(a % self.minor == 0 for a in [*amounts, int(self.price * self.minor)])
        return 0 if whole else len(str(self.minor)) - 1


def club_stake(club: Club) -> Stake | None:
    """The club's stake, or None when it plays for whists only."""
    if club.whist_price is None:
        return None
    return Stake(price=club.whist_price, currency=club.currency)


def money_text(amount: int, stake: Stake, *, places: int, signed: bool = False) -> str:
    """An amount in minor units as people read it: "120 ₴", "−33,33 ₴", "+1 200 €" (the
    locale's decimal comma and grouping, a real minus sign, the sign after a no-break space)."""
    units = Decimal(abs(amount)) / stake.minor
    text = number_format(units, decimal_pos=places, use_l10n=True, force_grouping=True)
    sign = "−" if amount < 0 else ("+" if signed and amount > 0 else "")
    return f"{sign}{text}\u00a0{stake.sign}"


@dataclass(frozen=True)
class AmountLine:
    name: str
    amount: int  # minor units; + wins, − pays
    text: str


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: int  # minor units, > 0
    text: str


@dataclass(frozen=True)
class Money:
    """Each player's amount (in the order given) and the payments that settle them."""

    stake: Stake
    lines: tuple[AmountLine, ...]
    transfers: tuple[Transfer, ...]

    def amount_of(self, name: str) -> AmountLine | None:
        return next((line for line in self.lines if line.name == name), None)


def money_from_amounts(stake: Stake, amounts: Mapping[str, int]) -> Money:
    """The lines and the fewest payments for amounts that sum to zero (minor units)."""
    places = stake.places(list(amounts.values()))
    lines = tuple(
        AmountLine(name, amount, money_text(amount, stake, places=places, signed=True))
        for name, amount in amounts.items()
    )
    transfers = tuple(
        Transfer(p.payer, p.payee, p.amount, money_text(p.amount, stake, places=places))
        for p in settle_up(amounts)
    )
    return Money(stake=stake, lines=lines, transfers=transfers)


def pulka_amounts(stake: Stake, names: Sequence[str], results: Mapping[str, Fraction]) -> dict:
    """A table's amounts in minor units: its exact results times the price, summing to zero
    (ties by seat order, as `names` are)."""
    return money_amounts(list(names), results, stake.per_whist)


def pulka_money(club: Club, names: Sequence[str], results: Mapping[str, Fraction]) -> Money | None:
    """A pulka's money at the club's stake (None: the club plays for whists only)."""
    stake = club_stake(club)
    if stake is None:
        return None
    return money_from_amounts(stake, pulka_amounts(stake, names, results))
