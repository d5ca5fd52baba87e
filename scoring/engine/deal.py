"""One deal as entered, and what a deal writes (rules/sochi.md §1, §2, §8, §13).

:class:`Deal` is the fact a secretary records: the kind (trick contract "game", "misere" or
"raspasy"), the declarer and contract, the defenders' final calls (§2.2, §2.4), the tricks
(§1.1, §7.1), the talon or its quick tricks (§8) and an optional dealer override (§17.15).
:class:`Entry` is one line the engine wrote for a deal (a pool entry, a mountain entry, a
write-off, whists, help), structured so that the UI can translate it.

Contracts are a level 6–10 and a suit ``S C D H`` or ``NT`` (§1.2: the suit ranks bids and is
not scored). Talon cards are rank ``A K Q J 10 9 8 7`` plus suit letter; their quick tricks
follow §8.1/§17.7. Option ``quick_tricks`` (§14) decides whether those whists are written;
the cards are checked either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from .errors import PulkaError
from .words import ACE, CALLS, CARD_SUITS, KINDS, KING, LEVELS, QUEEN, RANKS, SUITS

__all__ = [
    "CALLS",
    "CARDS",
    "CONTRACTS",
    "KINDS",
    "SUITS",
    "Deal",
    "Entry",
    "contract_level",
    "quick_tricks_of_talon",
]

#: "7H" -> 7 for every valid contract (§1.2).
CONTRACTS: dict[str, int] = {f"{level}{suit}": level for level in LEVELS for suit in SUITS}
#: The 32 cards of the preferans pack.
CARDS: frozenset[str] = frozenset(r + s for r in RANKS for s in CARD_SUITS)


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a pulka, as recorded (spec "A deal"; rules §1.1).

    - ``kind``: ``"game"`` (trick contract), ``"misere"`` or ``"raspasy"``.
    - ``declarer``, ``contract`` (``"7H"``, ``"10NT"``): games; misère has a declarer only.
    - ``calls``: defender -> ``"whist"`` | ``"pass"`` | ``"half"``, the final calls (§2.2, §2.4).
    - ``tricks``: player -> tricks; for a game only when it was played, for a misère only
      the declarer, for raspasy everybody (the 4-player dealer too, 0–2).
    - ``talon`` (two cards) or ``quick_tricks`` (0–3): quick tricks of the talon (§8).
    - ``dealer``: overrides the rotation (§17.15).

    Example (Anna's seven of hearts, Boris whists alone, §2.5)::

        >>> d = Deal("game", declarer="Anna", contract="7H",
        ...          calls={"Boris": "whist", "Vera": "pass"},
        ...          tricks={"Anna": 7, "Boris": 2, "Vera": 1}, talon=("AS", "KS"))
        >>> d.kind, contract_level(d.contract), quick_tricks_of_talon(d.talon)
        ('game', 7, 2)
    """

    kind: str
    declarer: str | None = None
    contract: str | None = None
    calls: Mapping[str, str] | None = None
    tricks: Mapping[str, int] | None = None
    talon: tuple[str, str] | None = None
    quick_tricks: int | None = None
    dealer: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing a deal wrote on the sheet (§3–§9), for the UI to show or translate.

    ``code`` is one of:

    - ``"pool"``: ``player`` writes ``amount`` into his pool.
    - ``"mountain"``: ``player`` gets ``amount`` into his mountain; ``reason`` is
      ``"declarer_set"``, ``"whister_set"``, ``"misere_failed"``, ``"raspasy"`` or
      ``"unfinished"`` (not written by a deal: reserved for showing the missing pool points
      of an unfinished pulka, §10.4); ``tricks`` the tricks short / taken behind it.
    - ``"write_off"``: ``amount`` written off ``player``'s mountain; ``reason`` is
      ``"raspasy_zero"`` (z, or 2z with ``raspasy_zero: mountain_double``),
      ``"no_one_to_help"``, ``"help_exception"`` (``other`` = the player who was set on
      whist) or ``"help_off"``.
    - ``"whists"``: ``player`` writes ``amount`` whists on ``other``; ``reason`` is
      ``"tricks"``, ``"consolation"``, ``"half_whist"``, ``"quick_tricks"``, ``"help"``, or,
      with raspasy in whists (conventions.md §23), ``"raspasy"`` (``player`` took the fewest
      tricks alone; ``tricks`` = the tricks ``other`` took) or ``"raspasy_shared"`` (two
      players tied for the fewest and each writes half).
    - ``"help"``: ``player`` puts ``amount`` into ``other``'s pool (§9.2); the tenfold whists
      are a separate ``"whists"`` entry with reason ``"help"``.

    A deal writes nothing for a zero amount (no entry for whists on 0 tricks).

    Example::

        >>> str(Entry("whists", "Boris", 8, "Anna", "tricks", 2))
        'Boris writes 8 whists on Anna'
        >>> str(Entry("mountain", "Anna", 4, reason="declarer_set", tricks=2))
        'Anna: 4 into the mountain (2 tricks short)'
        >>> str(Entry("help", "Anna", 2, "Vera"))
        "help: 2 into Vera's pool"
        >>> str(Entry("whists", "Andrii", 20, "Oksana", "raspasy", 4))
        'Andrii writes 20 whists on Oksana (raspasy, fewest tricks)'
    """

    code: str
    player: str
    amount: int | Fraction
    other: str | None = None
    reason: str | None = None
    tricks: int | None = None

    def __str__(self) -> str:
        code, who, amount, other, reason = (
            self.code,
            self.player,
            _num(self.amount),
            self.other,
            self.reason,
        )
        if code == "pool":
            return f"{who}: {amount} into the pool"
        if code == "help":
            return f"help: {amount} into {other}'s pool"
        if code == "whists":
            base = f"{who} writes {amount} whists on {other}"
            note = {
                "consolation": "consolation",
                "half_whist": "half-whist",
                "help": "help",
                "raspasy": "raspasy, fewest tricks",
                "raspasy_shared": "raspasy, fewest tricks, shared",
                "quick_tricks": f"{self.tricks} quick tricks in the talon"
                if self.tricks and self.tricks != 1
                else "quick trick in the talon",
            }.get(reason or "")
            return f"{base} ({note})" if note else base
        if code == "mountain":
            base = f"{who}: {amount} into the mountain"
            t = self.tricks
            if reason == "declarer_set" and t is not None:
                return f"{base} ({_tricks(t)} short)"
            if reason == "whister_set":
                return (
                    f"{base} (set on whist, {_tricks(t)} short)" if t else f"{base} (set on whist)"
                )
            if reason == "misere_failed":
                return f"{base} (misère, {_tricks(t)} taken)" if t else f"{base} (misère failed)"
            if reason == "raspasy":
                return f"{base} (raspasy, {_tricks(t)})" if t is not None else f"{base} (raspasy)"
            if reason == "unfinished":
                return f"{base} (pool not closed)"
            return base
        if code == "write_off":
            base = f"{who}: {amount} written off the mountain"
            note = {
                "raspasy_zero": "raspasy, no tricks",
                "no_one_to_help": "nobody left to help",
                "help_exception": f"no help: {other} was set on whist"
                if other
                else "no help: set on whist",
                "help_off": "pool overflow, help is off",
            }.get(reason or "")
            return f"{base} ({note})" if note else base
        return f"{code}: {who} {amount}"


def _num(x: int | Fraction) -> str:
    return str(x)


def _tricks(t: int | None) -> str:
    return "1 trick" if t == 1 else f"{t} tricks"


def contract_level(contract: str) -> int:
    """The level L of a contract such as ``"7H"`` or ``"10NT"`` (§1.2); validates it.

    Example::

        >>> contract_level("10NT"), contract_level("6S")
        (10, 6)
        >>> contract_level("11S")
        Traceback (most recent call last):
        ...
        scoring.engine.errors.PulkaError: contract '11S': level must be 6 to 10
    """
    level = CONTRACTS.get(contract) if type(contract) is str else None
    if level is None:
        raise contract_problem(contract)
    return level


def contract_problem(contract: object, deal_number: int | None = None) -> PulkaError:
    """Why ``contract`` is not a valid contract: the error to raise.

    Example::

        >>> contract_problem("7X", 4).params
        {'contract': '7X'}
        >>> contract_problem("5NT").code
        'contract_level'
    """
    if type(contract) is not str:
        return PulkaError("contract_type", deal_number, value=contract)
    digits = 0
    while digits < len(contract) and contract[digits].isdigit():
        digits += 1
    level = contract[:digits]
    if not level:
        return PulkaError("contract_no_level", deal_number, contract=contract)
    if int(level) not in LEVELS:
        return PulkaError("contract_level", deal_number, contract=contract)
    return PulkaError("contract_suit", deal_number, contract=contract)


def _quick_tricks(a: str, b: str) -> int:
    """§8.1 table for two valid, different cards."""
    ra, sa, rb, sb = a[:-1], a[-1], b[:-1], b[-1]
    if ra == ACE and rb == ACE:
        return 3
    if sa == sb and {ra, rb} == {ACE, KING}:
        return 2
    if ACE in (ra, rb):
        return 1
    if sa == sb and {ra, rb} == {KING, QUEEN}:
        return 1
    return 0


#: (card, card) -> quick tricks, for every ordered pair of different cards.
TALON_QUICK_TRICKS: dict[tuple[str, str], int] = {
    (a, b): _quick_tricks(a, b) for a in CARDS for b in CARDS if a != b
}


def quick_tricks_of_talon(talon: tuple[str, str] | list[str]) -> int:
    """Quick tricks of a talon (§8.1, §17.7): two aces 3; A+K of a suit 2; other ace 1;
    K+Q of a suit 1; otherwise 0. Validates two different valid cards.

    Example::

        >>> quick_tricks_of_talon(("AS", "KS")), quick_tricks_of_talon(("AH", "AD"))
        (2, 3)
        >>> quick_tricks_of_talon(("KH", "QH")), quick_tricks_of_talon(("KH", "QS"))
        (1, 0)
    """
    q = talon_quick_tricks(talon)
    if q is None:
        raise talon_problem(talon)
    return q


def talon_quick_tricks(talon: object) -> int | None:
    """Quick tricks of ``talon``, or None when it is not two different valid cards."""
    if type(talon) is not tuple:
        if not isinstance(talon, (tuple, list)):
            return None
        talon = tuple(talon)
    try:
        return TALON_QUICK_TRICKS.get(talon)
    except TypeError:  # an unhashable "card"
        return None


def talon_problem(talon: object, deal_number: int | None = None) -> PulkaError:
    """Why ``talon`` is not two different valid cards: the error to raise.

    Example::

        >>> talon_problem(("AS", "AS"), 2).params, talon_problem(("AS", "1S")).code
        ({'card': 'AS'}, 'talon_card')
    """
    if not isinstance(talon, (tuple, list)) or len(talon) != 2:
        return PulkaError("talon_shape", deal_number)
    for card in talon:
        if type(card) is not str or card not in CARDS:
            return PulkaError("talon_card", deal_number, card=card)
    return PulkaError("talon_twice", deal_number, card=talon[0])
