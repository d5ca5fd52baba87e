"""Replaying the deals of a pulka onto a sheet (rules/sochi.md §13, the normative order).

Implements §2–§9 deal by deal, in the order of §13: the raspasy cost and the progression
(§7.5, §17.10), raspasy with amnesty and the zero-trick bonus (§7.2–7.4, §17.8–9), misère
(§6), trick contracts with quick tricks (§8, §17.7), no-play games and half-whist (§2.3–2.4,
§17.6), whists for tricks (§2.5, §3, §17.1), whister penalties (§5, §17.2–17.5) and the
declarer set with consolation (§4), then the pool-writing procedure with help and write-off
(§9.2, §17.11–17.12). Dealers rotate clockwise with overrides (§12.1, §17.15); a 4-player
dealer sits out on the talon (§12.3). After the last deal the sheet is settled (§10).

rules/conventions.md §C2 changes these steps: every per-trick amount of a game is at the whist
price W = s·V (§18); the lone whister may split only when the declarer is set (§19); under
``pool_end: sum`` pool entries are uncapped and the pulka closes at ΣP ≥ n·T (§20); the
zero-trick bonus has four forms and two units (§21); which deals end a raspasy series is
§22; raspasy may be scored in whists (§23); consolation may be none or a fixed ten (§24).

Options that change it: every key of :class:`~scoring.engine.rules.Rules` except
``pool_point_value`` (used by the settlement only).

Design note: this is the hot path (a sheet is recomputed from scratch after every edit), so
it keeps plain dicts of ints, precomputed seat tables, Fractions only for a value that really
is fractional, and validation as cheap checks with the error built only when one is raised.
:func:`compute_sheet` runs the steps of §13 on a :class:`RunningSheet` (the sheet so far, the
options and the seat tables): :func:`play_game` (checked by :func:`check_game`),
:func:`play_misere`, :func:`play_raspasy`, and for all of them :func:`write_pool` (with help)
and :func:`write_off`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .deal import (
    CONTRACTS,
    Deal,
    Entry,
    contract_problem,
    talon_problem,
    talon_quick_tricks,
)
from .errors import PulkaError
from .rules import OBLIGATION, QUOTA, VALUE, Rules
from .settlement import round_largest_remainder, settle
from .sheet import DealSnapshot, Sheet
from .words import (
    CALLS,
    CONSOLATION_ALL_OPPONENTS,
    CONSOLATION_AMOUNT_TEN,
    CONSOLATION_NONE,
    DUTY1_BOTH,
    DUTY1_SECOND,
    GAME,
    HALF,
    HELP_EXCEPTION_WRITE_OFF,
    LONE_WHISTER_GENTLEMAN,
    LONE_WHISTER_GENTLEMAN_ON_SET,
    MISERE,
    PASS,
    POOL_END_SUM,
    PROGRESSION_END_REPEAT_LAST,
    RASPASY,
    RASPASY_SCORING_WHISTS,
    RASPASY_ZERO_MOUNTAIN,
    RASPASY_ZERO_NONE,
    RASPASY_ZERO_POOL,
    RASPASY_ZERO_UNIT_ONE,
    WHIST,
    WHIST_PENALTY_HALF,
    WHISTER_SHORTFALL_OWN,
)

__all__ = [
    "DealShape",
    "RunningSheet",
    "check_game",
    "check_players",
    "compute_sheet",
    "deal_shape",
    "dealer_for_next_deal",
    "defenders_in_order",
    "play_game",
    "play_misere",
    "play_raspasy",
    "write_off",
    "write_pool",
]

# (first defender's call, second defender's call) -> how the deal goes on (§2.2–2.4)
_TWO_WHISTERS, _FIRST_ALONE, _SECOND_ALONE, _NO_PLAY, _HALF = range(5)
_CALL_MODES = {
    (WHIST, WHIST): _TWO_WHISTERS,
    (WHIST, PASS): _FIRST_ALONE,
    (PASS, WHIST): _SECOND_ALONE,
    (PASS, PASS): _NO_PLAY,
    (PASS, HALF): _HALF,
}


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players as a tuple, checked: 3 or 4 distinct non-empty names (spec "players").

    Example::

        >>> check_players(["Anna", "Boris", "Vera"])
        ('Anna', 'Boris', 'Vera')
    """
    if (
        isinstance(players, (str, bytes))
        or not isinstance(players, Sequence)
        or len(players) not in (3, 4)
        or any(type(p) is not str or not p.strip() for p in players)
        or len(set(players)) != len(players)
    ):
        raise PulkaError("players")
    return tuple(players)


def defenders_in_order(players: Sequence[str], declarer: str, dealer: str) -> tuple[str, ...]:
    """The defenders in speaking order (§2.2): clockwise from the declarer, skipping the
    4-player dealer on the talon. The second one is "the second whister" (§17.3) and the
    only one who may say half (§17.6).

    Example::

        >>> defenders_in_order(["A", "B", "C"], "B", "A")
        ('C', 'A')
        >>> defenders_in_order(["A", "B", "C", "D"], "B", "C")
        ('D', 'A')
    """
    players = check_players(players)
    if declarer not in players:
        raise PulkaError("declarer_unknown", player=declarer)
    if dealer not in players:
        raise PulkaError("dealer_unknown", player=dealer)
    if len(players) == 4 and declarer == dealer:
        raise PulkaError("talon_sitter_declares", player=declarer)
    i = players.index(declarer)
    n = len(players)
    order = (players[(i + k) % n] for k in range(1, n))
    return tuple(p for p in order if not (n == 4 and p == dealer))


@dataclass(frozen=True, slots=True)
class DealShape:
    """What a deal of this kind needs entered, for a form that offers only valid choices."""

    declarers: tuple[str, ...]  # who may declare (not the 4-player dealer)
    defenders: tuple[str, ...]  # who calls, in speaking order (a game only)
    half_whist: str | None  # who may say half now (§2.4, §17.6), if anybody
    played: bool  # a game is played when somebody whists (§2.3)
    trick_players: tuple[str, ...]  # whose tricks are entered, in pulka/1 order
    quick_tricks: bool = False  # the talon's quick tricks count (a game, option quick_tricks)


def deal_shape(
    rules: Rules,
    players: Sequence[str],
    dealer: str,
    kind: str,
    declarer: str,
    level: int,
    calls: Mapping[str, str],
) -> DealShape:
    """The fields a deal needs (§2, §6, §7, §12): declarers, calls, half-whist, tricks, and
    whether the talon's quick tricks count (§8, option ``quick_tricks``: a game only). With
    raspasy in whists the 4-player dealer takes no part and is not asked for tricks
    (rules/conventions.md §23).

    Example (3 players, Anna deals, Boris declares a six, Vera passes first)::

        >>> shape = deal_shape(Rules(), ["Anna", "Boris", "Vera"], "Anna", "game", "Boris", 6,
        ...                    {"Vera": "pass", "Anna": "pass"})
        >>> shape.defenders, shape.half_whist, shape.played, shape.trick_players
        (('Vera', 'Anna'), 'Anna', False, ())
        >>> shape.quick_tricks
        True

    Rostov raspasy at four (Anna deals: her tricks are not asked for)::

        >>> deal_shape(Rules(raspasy_scoring="whists"), ["Anna", "Boris", "Vera", "Gleb"],
        ...            "Anna", "raspasy", "", 6, {}).trick_players
        ('Boris', 'Vera', 'Gleb')
    """
    players = check_players(players)
    four = len(players) == 4
    declarers = tuple(p for p in players if not (four and p == dealer))
    if kind == RASPASY:
        in_whists = rules.raspasy_scoring == RASPASY_SCORING_WHISTS
        return DealShape(declarers, (), None, False, declarers if in_whists else players)
    if kind == MISERE:
        return DealShape(declarers, (), None, False, (declarer,))
    defenders = defenders_in_order(players, declarer, dealer)
    first_passed = calls.get(defenders[0]) == PASS
    half = defenders[1] if first_passed and level in rules.half_whist_levels else None
    played = any(calls.get(d) == WHIST for d in defenders)
    tricks = (declarer, *defenders) if played else ()
    return DealShape(declarers, defenders, half, played, tricks, rules.quick_tricks)


def dealer_for_next_deal(
    players: Sequence[str], first_dealer: str | None, deals: Sequence[Deal]
) -> str:
    """Who deals the deal after ``deals`` (§12.1, §17.15): ``first_dealer`` (default
    ``players[0]``) deals first, the deal passes to the left neighbour after every deal, and a
    deal's ``dealer`` override restarts the rotation from it.

    Example::

        >>> dealer_for_next_deal(["A", "B", "C", "D"], "D", [Deal("raspasy"), Deal("raspasy")])
        'B'
        >>> dealer_for_next_deal(["A", "B", "C"], None, [Deal("raspasy", dealer="C")])
        'A'
    """
    players = check_players(players)
    n = len(players)
    seat = {p: i for i, p in enumerate(players)}
    current = _first_dealer_seat(seat, first_dealer)
    for number, deal in enumerate(deals, 1):
        if deal.dealer is not None:
            if type(deal.dealer) is not str or deal.dealer not in seat:
                raise PulkaError("dealer_unknown", number, player=deal.dealer)
            current = seat[deal.dealer]
        current = (current + 1) % n
    return players[current]


def _first_dealer_seat(seat: dict[str, int], first_dealer: str | None) -> int:
    if first_dealer is None:
        return 0
    if type(first_dealer) is not str or first_dealer not in seat:
        raise PulkaError("first_dealer_unknown", value=first_dealer)
    return seat[first_dealer]


def _half(x: int) -> int | Fraction:
    return x >> 1 if not x & 1 else Fraction(x, 2)


class RunningSheet:
    """The sheet while the deals of one pulka are replayed (§13): the pools, mountains and
    whists so far and the raspasy series (§7.5), with the pulka's options (§14) and seat
    tables (§2.2, §12.3) worked out once.

    Example (an empty sheet of three, Anna deals: Boris speaks first after Vera declares)::

        >>> s = RunningSheet(Rules(pool_target=10), ("Anna", "Boris", "Vera"))
        >>> s.pool, s.defenders["Anna"]["Vera"], s.zero_order["Anna"]
        ({'Anna': 0, 'Boris': 0, 'Vera': 0}, ('Anna', 'Boris'), ('Boris', 'Vera', 'Anna'))
    """

    __slots__ = (
        "amnesty",
        "clockwise",
        "consolation_all",
        "consolation_none",
        "consolation_ten",
        "defenders",
        "duty1",
        "exception_write_off",
        "exit_misere",
        "exit_only_made",
        "exit_unplayed",
        "floor_zero",
        "four",
        "fractional",
        "gentleman",
        "gentleman_on_set",
        "half_levels",
        "half_penalty",
        "help_excludes_dealer",
        "help_on",
        "left",
        "mountain",
        "multiplier",
        "n",
        "own_shortfall",
        "personal_quota",
        "players",
        "pool",
        "prog",
        "quick_on",
        "raspasy_rate",
        "raspasy_whists",
        "repeat_last",
        "seat",
        "series",
        "sum_end",
        "sum_target",
        "target",
        "ten_checked",
        "whists",
        "zero_mode",
        "zero_one",
        "zero_order",
    )

    def __init__(self, rules: Rules, players: tuple[str, ...]) -> None:
        n = len(players)
        four = n == 4
        self.players = players
        self.n = n
        self.four = four
        self.seat = {p: i for i, p in enumerate(players)}

        # --- options (§14), read once: the steps test plain booleans ---
        self.target = rules.pool_target
        self.consolation_all = rules.consolation == CONSOLATION_ALL_OPPONENTS
        self.gentleman = rules.lone_whister == LONE_WHISTER_GENTLEMAN
        self.half_penalty = rules.whist_penalty == WHIST_PENALTY_HALF
        self.duty1 = rules.duty1_rule
        self.personal_quota = rules.personal_quota
        self.ten_checked = rules.ten_checked
        self.half_levels = rules.half_whist_levels
        self.quick_on = rules.quick_tricks
        self.amnesty = rules.raspasy_amnesty
        self.prog = rules.raspasy_progression
        self.repeat_last = rules.raspasy_progression_end == PROGRESSION_END_REPEAT_LAST
        self.exit_only_made = rules.exit_only_by_made_game
        self.floor_zero = rules.mountain_floor_zero
        self.help_on = rules.help
        self.exception_write_off = rules.help_exception == HELP_EXCEPTION_WRITE_OFF
        self.help_excludes_dealer = four and rules.help_excludes_talon_sitter
        self.own_shortfall = rules.whister_shortfall == WHISTER_SHORTFALL_OWN
        # conventions.md §B
        self.multiplier = rules.game_price_multiplier  # s: W = s·V (§18)
        self.consolation_none = rules.consolation == CONSOLATION_NONE
        self.consolation_ten = rules.consolation_amount == CONSOLATION_AMOUNT_TEN
        self.gentleman_on_set = rules.lone_whister == LONE_WHISTER_GENTLEMAN_ON_SET
        self.sum_end = rules.pool_end == POOL_END_SUM  # §20
        self.sum_target = n * rules.pool_target  # the end under pool_end sum: ΣP ≥ n·T
        self.zero_mode = rules.raspasy_zero
        self.zero_one = rules.raspasy_zero_unit == RASPASY_ZERO_UNIT_ONE
        self.exit_unplayed = rules.exit_by_unplayed_game
        self.exit_misere = rules.exit_by_misere
        self.raspasy_whists = rules.raspasy_scoring == RASPASY_SCORING_WHISTS  # §23
        self.raspasy_rate = rules.raspasy_whist_rate

        # --- seat tables ---
        self.left = {p: players[(i + 1) % n] for i, p in enumerate(players)}
        clockwise = {
            p: tuple(players[(i + k) % n] for k in range(1, n)) for i, p in enumerate(players)
        }
        self.clockwise = clockwise
        # defenders[dealer][declarer] = (first, second) in speaking order (§2.2)
        defenders: dict[str, dict[str, tuple[str, str]]] = {}
        # zero_order[dealer]: raspasy participants from first hand, without the 4-player dealer
        zero_order: dict[str, tuple[str, ...]] = {}
        for dl in players:
            table = {}
            for dc in players:
                if four and dc == dl:  # the 4-player dealer never declares (§12.3)
                    continue
                ds = tuple(p for p in clockwise[dc] if not (four and p == dl))
                table[dc] = (ds[0], ds[1])
            defenders[dl] = table
            zero_order[dl] = clockwise[dl] + (() if four else (dl,))
        self.defenders = defenders
        self.zero_order = zero_order

        # --- the running sheet ---
        self.pool = dict.fromkeys(players, 0)
        self.mountain: dict[str, int | Fraction] = dict.fromkeys(players, 0)
        self.whists: dict[str, dict[str, int | Fraction]] = {
            x: {y: 0 for y in players if y != x} for x in players
        }
        self.fractional = False  # does some mountain hold a Fraction?
        self.series = 0  # raspasy of the current series (§7.5)

    def whole_mountains(self) -> None:
        """A half that became whole again is written as an int (exact, and as the JSON)."""
        if not self.fractional:
            return
        self.fractional = False
        mountain = self.mountain
        for p in self.players:
            v = mountain[p]
            if type(v) is not int:
                if v.denominator == 1:
                    mountain[p] = v.numerator
                else:
                    self.fractional = True


def compute_sheet(
    rules: Rules,
    players: Sequence[str],
    deals: Sequence[Deal],
    first_dealer: str | None = None,
) -> Sheet:
    """Replay every deal from an empty sheet and settle it (§13, §10).

    Raises :class:`PulkaError` ("deal N: ...") for the first deal that breaks the format or
    the rules; a partial sheet is never returned.

    Example (G2, deal 1: A's seven of hearts set by two; B and C whisted, 3 and 2 tricks)::

        >>> d = Deal("game", "A", "7H", {"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2})
        >>> sheet = compute_sheet(Rules(pool_target=10), ["A", "B", "C"], [d])
        >>> sheet.mountain, sheet.whists["B"]["A"], sheet.whists["C"]["A"]
        ({'A': 8, 'B': 0, 'C': 0}, 20, 16)
        >>> [str(e) for e in sheet.snapshots[0].entries]  # doctest: +NORMALIZE_WHITESPACE
        ['B writes 12 whists on A', 'C writes 8 whists on A',
         'A: 8 into the mountain (2 tricks short)',
         'B writes 8 whists on A (consolation)', 'C writes 8 whists on A (consolation)']
    """
    if not isinstance(rules, Rules):
        raise PulkaError("rules_not_rules")
    players = check_players(players)
    s = RunningSheet(rules, players)
    seat = s.seat
    target = s.target
    left = s.left
    pool, mountain, whists = s.pool, s.mountain, s.whists
    dealer = players[_first_dealer_seat(seat, first_dealer)]
    closed = False
    snapshots: list[DealSnapshot] = []

    sum_end = s.sum_end
    for number, deal in enumerate(deals, 1):
        if closed:
            if sum_end:
                raise PulkaError(
                    "closed_sum",
                    number,
                    total=sum(pool.values()),
                    needed=s.sum_target,
                    target=target,
                )
            raise PulkaError("closed", number, target=target)
        if deal.dealer is not None:
            dealer = deal.dealer
            if type(dealer) is not str or dealer not in seat:
                raise PulkaError("dealer_unknown", number, player=dealer)
        entries: list[Entry] = []
        add = entries.append
        kind = deal.kind
        cost = None
        if kind == GAME:
            play_game(s, deal, number, dealer, add)
        elif kind == RASPASY:
            cost = play_raspasy(s, deal, number, dealer, add)
        elif kind == MISERE:
            play_misere(s, deal, number, dealer, add)
        else:
            raise PulkaError("kind", number, value=kind)
        s.whole_mountains()
        snapshots.append(
            DealSnapshot(
                number,
                dealer,
                dict(pool),
                dict(mountain),
                {x: dict(w) for x, w in whists.items()},
                tuple(entries),
                cost,
            )
        )
        # §9.5: every pool reached T; conventions.md §20b: the pools add up to n·T
        closed = sum(pool.values()) >= s.sum_target if sum_end else min(pool.values()) >= target
        dealer = left[dealer]

    result = settle(players, pool, mountain, whists, target, rules.pool_point_value)
    return Sheet(
        players=players,
        rules=rules,
        pool=dict(pool),
        mountain=dict(mountain),
        whists={x: dict(w) for x, w in whists.items()},
        closed=closed,
        result=result,
        result_rounded=round_largest_remainder(players, result),
        snapshots=tuple(snapshots),
        next_dealer=dealer,
    )


# --- the steps of one deal (§13) ------------------------------------------------------------

Add = Callable[[Entry], None]


def write_off(
    s: RunningSheet, x: str, amount: int | Fraction, reason: str, other: str | None, add: Add
) -> None:
    """Write ``amount`` off x's mountain (§9.2b, §7.3); with ``mountain_floor_zero`` it stops
    at 0 (§17.11).

    Example (Vera's raspasy with no trick, cost 1, on an empty mountain: it goes negative)::

        >>> s, entries = RunningSheet(Rules(), ("Anna", "Boris", "Vera")), []
        >>> write_off(s, "Vera", 1, "raspasy_zero", None, entries.append)
        >>> s.mountain["Vera"], [str(e) for e in entries]
        (-1, ['Vera: 1 written off the mountain (raspasy, no tricks)'])
    """
    mountain = s.mountain
    before = mountain[x]
    after = before - amount
    if s.floor_zero and after < 0:
        after = 0 if before > 0 else before
        amount = before - after
    mountain[x] = after
    if amount:
        add(Entry("write_off", x, amount, other, reason))


def write_pool(
    s: RunningSheet,
    x: str,
    amount: int,
    set_on_whist: tuple[str, ...],
    dealer: str,
    add: Add,
) -> None:
    """Write ``amount`` into x's pool (§9.2): what does not fit helps the largest open pool
    (ties: first clockwise from x, §17.12) for 10 whists a point, unless that player was set
    on whist in this deal (§9.2d, option ``help_exception``); what nobody can take is
    written off x's mountain. Options ``help`` and ``help_excludes_talon_sitter`` change it.
    Under ``pool_end: sum`` the amount simply goes into x's pool, above T too
    (conventions.md §20a).

    Example (pulka to 10: Anna has 8 and makes a six; 2 fit, the other 2 help Boris)::

        >>> s, entries = RunningSheet(Rules(pool_target=10), ("Anna", "Boris", "Vera")), []
        >>> s.pool.update(Anna=8, Boris=3, Vera=1)
        >>> write_pool(s, "Anna", 4, (), "Vera", entries.append)
        >>> s.pool, s.whists["Anna"]["Boris"], [str(e) for e in entries]
        ({'Anna': 10, 'Boris': 5, 'Vera': 1}, 20, ['Anna: 2 into the pool', \
"help: 2 into Boris's pool", 'Anna writes 20 whists on Boris (help)'])
    """
    pool = s.pool
    if s.sum_end:  # conventions.md §20a: uncapped, no help, no write-off
        pool[x] += amount
        add(Entry("pool", x, amount))
        return
    target = s.target
    have = pool[x]
    room = target - have
    if room >= amount:
        pool[x] = have + amount
        add(Entry("pool", x, amount))
        return
    if room > 0:
        pool[x] = target
        add(Entry("pool", x, room))
    excess = amount - room
    if not s.help_on:
        write_off(s, x, excess, "help_off", None, add)
        return
    skipped: list[str] = []
    own_whists = s.whists[x]
    help_excludes_dealer = s.help_excludes_dealer
    while excess > 0:
        best = None
        best_pool = -1
        for y in s.clockwise[x]:  # ties -> first clockwise from the writer (§17.12)
            py = pool[y]
            if py < target and py > best_pool:
                if (help_excludes_dealer and y == dealer) or y in skipped:
                    continue
                best, best_pool = y, py
        if best is None:
            write_off(s, x, excess, "no_one_to_help", None, add)
            return
        if best in set_on_whist:  # the seed's exception (§9.2d, §16.1)
            if s.exception_write_off:
                write_off(s, x, excess, "help_exception", best, add)
                return
            skipped.append(best)
            continue
        g = target - best_pool
        if g > excess:
            g = excess
        pool[best] = best_pool + g
        own_whists[best] += 10 * g
        add(Entry("help", x, g, best))
        add(Entry("whists", x, 10 * g, best, "help"))
        excess -= g


def check_game(
    s: RunningSheet, deal: Deal, number: int, dealer: str
) -> tuple[str, int, str, str, int, int, int, int, int]:
    """Check a trick contract against the table (§1.1, §1.2, §2.2–2.4, §8, §12.3, §17.6) and
    read it: ``(declarer, level, first defender, second defender, mode, declarer's tricks,
    first's tricks, second's tricks, quick tricks)``; tricks are 0 when it was not played.

    Example (9 + 9 tricks typed for Anna and Boris, and 0 for Vera: a deal has 10)::

        >>> s = RunningSheet(Rules(), ("Anna", "Boris", "Vera"))
        >>> check_game(s, Deal("game", "Anna", "6S", {"Boris": "whist", "Vera": "whist"},
        ...                    {"Anna": 9, "Boris": 9, "Vera": 0}), 3, "Vera")
        Traceback (most recent call last):
        ...
        scoring.engine.errors.PulkaError: deal 3: 9 + 9 + 0 = 18 tricks, a deal has 10
    """
    decl = deal.declarer
    seat = s.seat
    four = s.four
    if type(decl) is not str or decl not in seat:
        raise _declarer_problem(decl, number)
    if four and decl == dealer:
        raise PulkaError("talon_sitter_declares", number, player=decl)
    contract = deal.contract
    level = CONTRACTS.get(contract) if type(contract) is str else None
    if level is None:
        if contract is None:
            raise PulkaError("contract_missing", number)
        raise contract_problem(contract, number)
    d1, d2 = s.defenders[dealer][decl]
    calls = deal.calls
    try:
        mode = _CALL_MODES.get((calls[d1], calls[d2]))
        if len(calls) != 2:
            mode = None
    except (KeyError, TypeError):
        mode = None
    if mode is None:
        raise _calls_problem(calls, decl, d1, d2, dealer if four else None, number)
    if mode == _HALF and level not in s.half_levels:
        raise _half_levels_problem(s.half_levels, number)
    tricks = deal.tricks
    td = t1 = t2 = 0
    if mode <= _SECOND_ALONE:
        if tricks is None:
            who = d1 if mode != _SECOND_ALONE else d2
            raise PulkaError("tricks_missing_played", number, player=who)
        try:
            td, t1, t2 = tricks[decl], tricks[d1], tricks[d2]
            ok = (
                len(tricks) == 3
                and type(td) is int
                and type(t1) is int
                and type(t2) is int
                and td >= 0
                and t1 >= 0
                and t2 >= 0
                and td + t1 + t2 == 10
            )
        except (KeyError, TypeError):
            ok = False
        if not ok:
            raise _tricks_problem(tricks, (decl, d1, d2), seat, dealer if four else None, number)
    elif tricks is not None:
        raise PulkaError("tricks_unplayed", number)
    talon = deal.talon
    quick = 0
    if talon is not None:
        if deal.quick_tricks is not None:
            raise PulkaError("talon_and_quick_tricks", number)
        quick = talon_quick_tricks(talon)
        if quick is None:
            raise talon_problem(talon, number)
    elif deal.quick_tricks is not None:
        quick = deal.quick_tricks
        if type(quick) is not int or not 0 <= quick <= 3:
            raise PulkaError("quick_tricks_range", number, value=quick)
    return decl, level, d1, d2, mode, td, t1, t2, quick


def play_game(s: RunningSheet, deal: Deal, number: int, dealer: str, add: Add) -> None:
    """A trick contract (§2–§5, §8, §13): quick tricks in the talon (§8, option
    ``quick_tricks``); counted without play when both pass (§2.3) or after a half-whist (§2.4,
    §17.6); else whists for tricks (:func:`defend`), then the pool for a made contract (§3) or
    the mountain and consolation for a set one (§4, option ``consolation``). A game ends a
    raspasy series as conventions.md §22 says (options ``exit_only_by_made_game`` for a
    played game, ``exit_by_unplayed_game`` for one counted without play). Per-trick amounts
    are at W = s·V, pool entries at V (``game_price_multiplier``, conventions.md §18);
    consolation follows ``consolation`` and ``consolation_amount`` (§24).

    Example (the spec's first deal: Anna makes a seven, Boris whists alone, Vera passes)::

        >>> s, entries = RunningSheet(Rules(pool_target=10), ("Anna", "Boris", "Vera")), []
        >>> play_game(s, Deal("game", "Anna", "7H", {"Boris": "whist", "Vera": "pass"},
        ...                   {"Anna": 7, "Boris": 2, "Vera": 1}), 1, "Vera", entries.append)
        >>> [str(e) for e in entries]
        ['Boris writes 12 whists on Anna', 'Anna: 4 into the pool']
    """
    decl, level, d1, d2, mode, td, t1, t2, quick = check_game(s, deal, number, dealer)
    value = VALUE[level]  # pool entries are V (§1.2), whatever s is
    price = value * s.multiplier  # W = s·V, every per-trick amount (conventions.md §18)
    whists = s.whists
    # §8: quick tricks in the talon, for every trick contract (q·W; conventions.md §18)
    if quick and s.quick_on:
        if s.four:
            whists[dealer][decl] += quick * price
            add(Entry("whists", dealer, quick * price, decl, "quick_tricks", quick))
        else:
            share = quick * price >> 1  # W is even
            whists[d1][decl] += share
            whists[d2][decl] += share
            add(Entry("whists", d1, share, decl, "quick_tricks", quick))
            add(Entry("whists", d2, share, decl, "quick_tricks", quick))

    if mode == _NO_PLAY:  # §2.3: counted without play
        write_pool(s, decl, value, (), dealer, add)
        exits = s.exit_unplayed  # conventions.md §22
    elif mode == _HALF:  # §2.4, §17.6: half the obligation, not played
        half_tricks = OBLIGATION[level] >> 1
        whists[d2][decl] += half_tricks * price
        add(Entry("whists", d2, half_tricks * price, decl, "half_whist", half_tricks))
        write_pool(s, decl, value, (), dealer, add)
        exits = s.exit_unplayed
    else:
        made = td >= level
        whisters, set_on_whist = defend(s, mode, level, decl, d1, d2, t1, t2, add, not made)
        if made:  # §3
            write_pool(s, decl, value, set_on_whist, dealer, add)
        else:  # §4
            under = level - td
            loss = price * under
            s.mountain[decl] += loss
            add(Entry("mountain", decl, loss, None, "declarer_set", under))
            if not s.consolation_none:  # conventions.md §24
                receivers = (d1, d2) if s.consolation_all else whisters
                if s.four:
                    receivers += (dealer,)
                each = 10 * under if s.consolation_ten else loss
                for r in receivers:
                    whists[r][decl] += each
                    add(Entry("whists", r, each, decl, "consolation", under))
        exits = made or not s.exit_only_made  # conventions.md §22
    if exits:
        s.series = 0


def defend(
    s: RunningSheet,
    mode: int,
    level: int,
    decl: str,
    d1: str,
    d2: str,
    t1: int,
    t2: int,
    add: Add,
    declarer_set: bool = False,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The whisters of a played game write whists for their tricks (§2.5, §3; a lone whister
    is greedy or a gentleman, §17.1, or a gentleman only when ``declarer_set``,
    conventions.md §19) and pay for the tricks short of the obligation D(L) (§5; options
    ``whist_penalty``, ``personal_quota``, ``ten_checked``, ``duty1_rule``,
    ``whister_shortfall``, §17.2–17.5). Every amount is at the whist price W = s·V
    (``game_price_multiplier``, conventions.md §18). Returns the whisters and those set on
    whist.

    Example (Anna's six, Boris and Vera whist and take 1 trick each: 2 short of 4)::

        >>> s, entries = RunningSheet(Rules(), ("Anna", "Boris", "Vera")), []
        >>> defend(s, 0, 6, "Anna", "Boris", "Vera", 1, 1, entries.append)
        (('Boris', 'Vera'), ('Boris', 'Vera'))
        >>> [str(e) for e in entries]  # doctest: +NORMALIZE_WHITESPACE
        ['Boris writes 2 whists on Anna', 'Vera writes 2 whists on Anna',
         'Boris: 2 into the mountain (set on whist, 1 trick short)',
         'Vera: 2 into the mountain (set on whist, 1 trick short)']
    """
    value = VALUE[level] * s.multiplier  # W (conventions.md §18)
    whists = s.whists
    duty = 0 if (level == 10 and s.ten_checked) else OBLIGATION[level]
    penalty = value >> 1 if s.half_penalty else value  # per trick short, §17.2
    t_def = t1 + t2
    paid: list[tuple[str, int | Fraction, int]] = []  # (whister, amount, tricks)
    if mode == _TWO_WHISTERS:
        whisters: tuple[str, ...] = (d1, d2)
        if t1:
            whists[d1][decl] += value * t1
            add(Entry("whists", d1, value * t1, decl, "tricks", t1))
        if t2:
            whists[d2][decl] += value * t2
            add(Entry("whists", d2, value * t2, decl, "tricks", t2))
        if s.personal_quota:  # §17.4: each must take his own quota
            quota = 0 if duty == 0 else QUOTA[level]
            if t1 < quota:
                paid.append((d1, penalty * (quota - t1), quota - t1))
            if t2 < quota:
                paid.append((d2, penalty * (quota - t2), quota - t2))
        elif t_def < duty:
            if duty >= 2:  # §5.3 pair rule at 6 and 7, §17.4a
                share = duty >> 1
                short = duty - t_def
                for w, tw in ((d1, t1), (d2, t2)):
                    if tw < share:
                        sw = share - tw
                        if not s.own_shortfall and sw > short:
                            sw = short
                        paid.append((w, penalty * sw, sw))
            elif s.duty1 == DUTY1_SECOND:  # §17.3, defence took 0 at 8–10
                paid.append((d2, penalty, 1))
            elif s.duty1 == DUTY1_BOTH:
                paid.append((d1, penalty, 1))
                paid.append((d2, penalty, 1))
            else:  # split
                part = _half(penalty)
                paid.append((d1, part, 1))
                paid.append((d2, part, 1))
    else:
        if mode == _FIRST_ALONE:
            whisters, passer = (d1,), d2
        else:
            whisters, passer = (d2,), d1
        w = whisters[0]
        all_def = value * t_def
        if s.gentleman or (declarer_set and s.gentleman_on_set):  # §17.1, conventions §19
            if all_def:
                whists[w][decl] += all_def >> 1
                whists[passer][decl] += all_def >> 1
                add(Entry("whists", w, all_def >> 1, decl, "tricks", t_def))
                add(Entry("whists", passer, all_def >> 1, decl, "tricks", t_def))
        elif all_def:  # §2.5 greedy: all defensive tricks are his
            whists[w][decl] += all_def
            add(Entry("whists", w, all_def, decl, "tricks", t_def))
        if t_def < duty:  # §5.2
            paid.append((w, penalty * (duty - t_def), duty - t_def))
    set_on_whist: tuple[str, ...] = ()
    mountain = s.mountain
    for w, amount, short in paid:
        if amount:
            mountain[w] += amount
            if type(amount) is not int:
                s.fractional = True
            add(Entry("mountain", w, amount, None, "whister_set", short))
            set_on_whist += (w,)
    return whisters, set_on_whist


def play_raspasy(s: RunningSheet, deal: Deal, number: int, dealer: str, add: Add) -> int:
    """Raspasy (§7): each trick costs the step of the progression (§7.5, §17.10, options
    ``raspasy_progression`` and ``raspasy_progression_end``) into the mountain, above the
    fewest tricks taken with the amnesty (§7.2, §17.8); a player with no trick has the cost
    written off the mountain or into the pool (§7.3, §17.9, option ``raspasy_zero``), first
    hand first. The 4-player dealer takes at most 2 tricks from the talon (§12.3). Returns the
    cost of this raspasy.

    conventions.md: with ``raspasy_scoring: whists`` (§23) the mountain entries are replaced
    by whists: the player(s) with the fewest tricks write c·k whists (c =
    ``raspasy_whist_rate``) per trick of every other participant, two tied players half each;
    the 4-player dealer takes no part and must have taken no trick. The zero-trick bonus
    (§21) is z = k or 1 (``raspasy_zero_unit``): off the mountain, twice off the mountain,
    into the pool, or nothing (``raspasy_zero``).

    Example (Vera deals; Anna takes no trick, Boris 4, Vera 6; amnesty of the fewest, 0)::

        >>> s, entries = RunningSheet(Rules(), ("Anna", "Boris", "Vera")), []
        >>> play_raspasy(s, Deal("raspasy", tricks={"Anna": 0, "Boris": 4, "Vera": 6}),
        ...              1, "Vera", entries.append)
        1
        >>> s.mountain, [str(e) for e in entries]  # doctest: +NORMALIZE_WHITESPACE
        ({'Anna': -1, 'Boris': 4, 'Vera': 6},
         ['Boris: 4 into the mountain (raspasy, 4 tricks)',
          'Vera: 6 into the mountain (raspasy, 6 tricks)',
          'Anna: 1 written off the mountain (raspasy, no tricks)'])

    Rostov (conventions.md R1, deal 2): Anna and Boris tie at 3 and write half each on Vera::

        >>> rostov = Rules(raspasy_scoring="whists")
        >>> s, entries = RunningSheet(rostov, ("Anna", "Boris", "Vera")), []
        >>> play_raspasy(s, Deal("raspasy", tricks={"Anna": 3, "Boris": 3, "Vera": 4}),
        ...              2, "Vera", entries.append)
        1
        >>> [str(e) for e in entries]  # doctest: +NORMALIZE_WHITESPACE
        ['Anna writes 10 whists on Vera (raspasy, fewest tricks, shared)',
         'Boris writes 10 whists on Vera (raspasy, fewest tricks, shared)']
    """
    if (
        deal.declarer is not None
        or deal.contract is not None
        or deal.calls is not None
        or deal.talon is not None
        or deal.quick_tricks is not None
    ):
        raise _foreign_keys_problem(deal, RASPASY, number)
    players = s.players
    four = s.four
    tricks = deal.tricks
    in_whists = s.raspasy_whists
    expected = players
    if four and in_whists:
        # conventions.md §23: the 4-player dealer takes no part; listed, he took 0 tricks
        expected = tuple(p for p in players if p != dealer)
        if isinstance(tricks, Mapping) and dealer in tricks:
            taken = tricks[dealer]
            if type(taken) is not int or not 0 <= taken <= 10:
                raise PulkaError("tricks_range", number, player=dealer, value=taken)
            if taken:
                raise PulkaError("raspasy_whists_dealer_tricks", number, player=dealer, taken=taken)
            tricks = {p: t for p, t in tricks.items() if p != dealer}
    try:
        counts = [tricks[p] for p in expected]
        ok = len(tricks) == len(expected) and sum(counts) == 10
        if ok:
            for t in counts:
                if type(t) is not int or t < 0:
                    ok = False
                    break
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise _tricks_problem(tricks, expected, s.seat, None, number)
    if four and not in_whists and tricks[dealer] > 2:
        raise PulkaError("raspasy_talon_sitter_tricks", number, player=dealer, taken=tricks[dealer])
    # §7.5, §17.10: the cost of this raspasy, then advance the series
    prog = s.prog
    if prog:
        cost = prog[s.series]
        s.series += 1
        if s.series == len(prog):
            s.series = len(prog) - 1 if s.repeat_last else 0
    else:
        cost = 1
    zero_order = s.zero_order[dealer]
    if in_whists:  # conventions.md §23: the fewest tricks write c·k a trick of the others
        low = min(counts)
        lows = [p for p in zero_order if tricks[p] == low]
        # Three players hold 10 tricks, so at most two share the minimum, and then the third
        # holds 10 − 2m, an even number: the halves are whole.
        shared = len(lows) == 2
        rate = s.raspasy_rate * cost
        whists = s.whists
        reason = "raspasy_shared" if shared else "raspasy"
        for x in lows:
            row = whists[x]
            for y in zero_order:
                ty = tricks[y]
                if ty != low:
                    amount = rate * ty >> 1 if shared else rate * ty
                    row[y] += amount
                    add(Entry("whists", x, amount, y, reason, ty))
    else:
        low = min(counts) if s.amnesty else 0  # §7.2 amnesty, §17.8
        mountain = s.mountain
        for p in zero_order + ((dealer,) if four else ()):
            extra = tricks[p] - low
            if extra:
                mountain[p] += cost * extra
                add(Entry("mountain", p, cost * extra, None, "raspasy", extra))
    # §7.3, §17.9, conventions.md §21: the zero-trick bonus, first hand first
    mode = s.zero_mode
    if mode != RASPASY_ZERO_NONE:
        z = 1 if s.zero_one else cost
        for p in zero_order:
            if tricks[p] == 0:
                if mode == RASPASY_ZERO_POOL:
                    write_pool(s, p, z, (), dealer, add)
                elif mode == RASPASY_ZERO_MOUNTAIN:
                    write_off(s, p, z, "raspasy_zero", None, add)
                else:  # mountain_double
                    write_off(s, p, 2 * z, "raspasy_zero", None, add)
    return cost


def play_misere(s: RunningSheet, deal: Deal, number: int, dealer: str, add: Add) -> None:
    """A misère (§6): made with no trick, 10 into the pool; else s·10 a trick into the
    mountain (``game_price_multiplier``, conventions.md §18). It ends a raspasy series when
    ``exit_by_misere`` and (made, or not ``exit_only_by_made_game``) (conventions.md §22).

    Example (G5: Boris's misère fails with 3 tricks)::

        >>> s, entries = RunningSheet(Rules(pool_target=10), ("Anna", "Boris", "Vera")), []
        >>> play_misere(s, Deal("misere", "Boris", tricks={"Boris": 3}), 2, "Anna",
        ...             entries.append)
        >>> s.mountain["Boris"], [str(e) for e in entries]
        (30, ['Boris: 30 into the mountain (misère, 3 tricks taken)'])
    """
    decl = deal.declarer
    seat = s.seat
    if type(decl) is not str or decl not in seat:
        raise _declarer_problem(decl, number)
    if s.four and decl == dealer:
        raise PulkaError("talon_sitter_declares", number, player=decl)
    if (
        deal.contract is not None
        or deal.calls is not None
        or deal.talon is not None
        or deal.quick_tricks is not None
    ):
        raise _foreign_keys_problem(deal, MISERE, number)
    tricks = deal.tricks
    try:
        taken = tricks[decl]
        ok = len(tricks) == 1 and type(taken) is int and 0 <= taken <= 10
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise _misere_tricks_problem(tricks, decl, seat, number)
    if taken == 0:  # §6
        write_pool(s, decl, 10, (), dealer, add)
    else:
        loss = 10 * s.multiplier * taken
        s.mountain[decl] += loss
        add(Entry("mountain", decl, loss, None, "misere_failed", taken))
    if s.exit_misere and (taken == 0 or not s.exit_only_made):  # conventions.md §22
        s.series = 0


# --- errors, built only when something is wrong ---------------------------------------------


def _declarer_problem(declarer: object, number: int) -> PulkaError:
    if declarer is None:
        return PulkaError("declarer_missing", number)
    return PulkaError("declarer_unknown", number, player=declarer)


def _half_levels_problem(levels: tuple[int, ...], number: int) -> PulkaError:
    if not levels:
        return PulkaError("half_not_allowed", number)
    if len(levels) == 1:
        return PulkaError("half_level", number, level=levels[0])
    return PulkaError("half_levels", number, levels=levels)


def _calls_problem(
    calls: object,
    declarer: str,
    first: str,
    second: str,
    talon_sitter: str | None,
    number: int,
) -> PulkaError:
    if calls is None:
        return PulkaError("calls_missing", number, first=first, second=second)
    if not isinstance(calls, Mapping):
        return PulkaError("calls_type", number)
    for who in calls:
        if who == declarer:
            return PulkaError("call_by_declarer", number, player=declarer)
        if who == talon_sitter:
            return PulkaError("call_by_talon_sitter", number, player=who)
        if who not in (first, second):
            return PulkaError("call_unknown_player", number, player=who)
    for who in (first, second):
        if who not in calls:
            return PulkaError("call_missing", number, player=who)
    for who in (first, second):
        if calls[who] not in CALLS or type(calls[who]) is not str:
            return PulkaError("call_value", number, player=who, value=calls[who])
    c1, c2 = calls[first], calls[second]
    if c1 == HALF and c2 == HALF:
        return PulkaError("half_twice", number, first=first, second=second)
    if c1 == HALF:
        return PulkaError("half_by_first", number, first=first, second=second)
    return PulkaError("half_after_whist", number, first=first, second=second)


def _tricks_problem(
    tricks: object,
    expected: Sequence[str],
    seat: Mapping[str, int],
    talon_sitter: str | None,
    number: int,
) -> PulkaError:
    if not isinstance(tricks, Mapping):
        return PulkaError("tricks_type", number)
    for who in tricks:
        if who == talon_sitter:
            return PulkaError("tricks_talon_sitter", number, player=who)
        # Everybody at the table but the 4-player dealer plays, so a known name is expected.
        if type(who) is not str or who not in seat:
            return PulkaError("tricks_unknown_player", number, player=who)
    for who in expected:
        if who not in tricks:
            return PulkaError("tricks_missing", number, player=who)
    for who in expected:
        t = tricks[who]
        if type(t) is not int or not 0 <= t <= 10:
            return PulkaError("tricks_range", number, player=who, value=t)
    counts = tuple(tricks[who] for who in expected)
    return PulkaError(
        "tricks_sum",
        number,
        players=tuple(expected),
        tricks=counts,
        total=sum(counts),
        expected=10,
    )


def _misere_tricks_problem(
    tricks: object, declarer: str, seat: Mapping[str, int], number: int
) -> PulkaError:
    if tricks is None:
        return PulkaError("misere_tricks_missing", number, player=declarer)
    if not isinstance(tricks, Mapping):
        return PulkaError("tricks_type", number)
    for who in tricks:
        if who != declarer:
            if type(who) is not str or who not in seat:
                return PulkaError("tricks_unknown_player", number, player=who)
            return PulkaError("misere_tricks_other", number, declarer=declarer, player=who)
    if declarer not in tricks:
        return PulkaError("tricks_missing", number, player=declarer)
    return PulkaError("tricks_range", number, player=declarer, value=tricks[declarer])


def _foreign_keys_problem(deal: Deal, kind: str, number: int) -> PulkaError:
    keys = ("contract", "calls", "talon", "quick_tricks")
    if kind == RASPASY:
        keys = ("declarer", *keys)
    for key in keys:
        if getattr(deal, key) is not None:
            return PulkaError("deal_has_no", number, kind=kind, key=key)
    raise AssertionError("called only when a key is set")  # pragma: no cover
