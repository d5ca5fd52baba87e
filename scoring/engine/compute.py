"""Replaying the deals of a pulka onto a sheet (rules/sochi.md §13, the normative order).

Implements §2–§9 deal by deal, in the order of §13: the raspasy cost and the progression
(§7.5, §17.10), raspasy with amnesty and the zero-trick bonus (§7.2–7.4, §17.8–9), misère
(§6), trick contracts with quick tricks (§8, §17.7), no-play games and half-whist (§2.3–2.4,
§17.6), whists for tricks (§2.5, §3, §17.1), whister penalties (§5, §17.2–17.5) and the
declarer set with consolation (§4), then the pool-writing procedure with help and write-off
(§9.2, §17.11–17.12). Dealers rotate clockwise with overrides (§12.1, §17.15); a 4-player
dealer sits out on the talon (§12.3). After the last deal the sheet is settled (§10).

Options that change it: every key of :class:`~scoring.engine.rules.Rules` except
``pool_point_value`` (used by the settlement only).

Design note: this is the hot path (a sheet is recomputed from scratch after every edit), so
it keeps plain dicts of ints, precomputed seat tables, Fractions only for a value that really
is fractional, and validation inlined as cheap checks with the wording built only on error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .deal import (
    CALLS,
    CONTRACTS,
    Deal,
    Entry,
    contract_problem,
    talon_problem,
    talon_quick_tricks,
)
from .errors import PulkaError
from .rules import Rules
from .settlement import round_largest_remainder, settle
from .sheet import DealSnapshot, Sheet

__all__ = [
    "DealShape",
    "check_players",
    "compute_sheet",
    "deal_shape",
    "dealer_for_next_deal",
    "defenders_in_order",
]

# (first defender's call, second defender's call) -> how the deal goes on (§2.2–2.4)
_TWO_WHISTERS, _FIRST_ALONE, _SECOND_ALONE, _NO_PLAY, _HALF = range(5)
_CALL_MODES = {
    ("whist", "whist"): _TWO_WHISTERS,
    ("whist", "pass"): _FIRST_ALONE,
    ("pass", "whist"): _SECOND_ALONE,
    ("pass", "pass"): _NO_PLAY,
    ("pass", "half"): _HALF,
}
_OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}  # D(L), §2.1
_QUOTA = {6: 2, 7: 1, 8: 1, 9: 1, 10: 1}  # personal quota, §17.4


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
        raise PulkaError("players must be 3 or 4 distinct non-empty names")
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
        raise PulkaError(f"unknown player {declarer!r} as declarer")
    if dealer not in players:
        raise PulkaError(f"unknown player {dealer!r} as dealer")
    if len(players) == 4 and declarer == dealer:
        raise PulkaError(f"{declarer} deals and sits out on the talon, so cannot declare")
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


def deal_shape(
    rules: Rules,
    players: Sequence[str],
    dealer: str,
    kind: str,
    declarer: str,
    level: int,
    calls: Mapping[str, str],
) -> DealShape:
    """The fields a deal needs (§2, §6, §7, §12): declarers, calls, half-whist, tricks.

    Example (3 players, Anna deals, Boris declares a six, Vera passes first)::

        >>> shape = deal_shape(Rules(), ["Anna", "Boris", "Vera"], "Anna", "game", "Boris", 6,
        ...                    {"Vera": "pass", "Anna": "pass"})
        >>> shape.defenders, shape.half_whist, shape.played, shape.trick_players
        (('Vera', 'Anna'), 'Anna', False, ())
    """
    players = check_players(players)
    four = len(players) == 4
    declarers = tuple(p for p in players if not (four and p == dealer))
    if kind == "raspasy":
        return DealShape(declarers, (), None, False, players)
    if kind == "misere":
        return DealShape(declarers, (), None, False, (declarer,))
    defenders = defenders_in_order(players, declarer, dealer)
    first_passed = calls.get(defenders[0]) == "pass"
    half = defenders[1] if first_passed and level in rules.half_whist_levels else None
    played = any(calls.get(d) == "whist" for d in defenders)
    tricks = (declarer, *defenders) if played else ()
    return DealShape(declarers, defenders, half, played, tricks)


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
                raise PulkaError(f"unknown player {deal.dealer!r} as dealer", number)
            current = seat[deal.dealer]
        current = (current + 1) % n
    return players[current]


def _first_dealer_seat(seat: dict[str, int], first_dealer: str | None) -> int:
    if first_dealer is None:
        return 0
    if type(first_dealer) is not str or first_dealer not in seat:
        raise PulkaError(f"first_dealer {first_dealer!r} is not a player")
    return seat[first_dealer]


def _half(x: int) -> int | Fraction:
    return x >> 1 if not x & 1 else Fraction(x, 2)


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
        raise PulkaError("rules must be a Rules object")
    players = check_players(players)
    n = len(players)
    four = n == 4
    seat = {p: i for i, p in enumerate(players)}
    dealer = players[_first_dealer_seat(seat, first_dealer)]

    # --- options as locals (§14) ---
    target = rules.pool_target
    consolation_all = rules.consolation == "all_opponents"
    gentleman = rules.lone_whister == "gentleman"
    half_penalty = rules.whist_penalty == "half"
    duty1 = rules.duty1_rule
    personal_quota = rules.personal_quota
    ten_checked = rules.ten_checked
    half_levels = rules.half_whist_levels
    quick_on = rules.quick_tricks
    amnesty = rules.raspasy_amnesty
    zero_pool = rules.raspasy_zero == "pool"
    prog = rules.raspasy_progression
    prog_len = len(prog)
    repeat_last = rules.raspasy_progression_end == "repeat_last"
    exit_only_made = rules.exit_only_by_made_game
    floor_zero = rules.mountain_floor_zero
    help_on = rules.help
    exception_write_off = rules.help_exception == "write_off"
    help_excludes_dealer = four and rules.help_excludes_talon_sitter
    own_shortfall = rules.whister_shortfall == "own"

    # --- seat tables ---
    left = {p: players[(i + 1) % n] for i, p in enumerate(players)}
    clockwise = {p: tuple(players[(i + k) % n] for k in range(1, n)) for i, p in enumerate(players)}
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

    # --- state ---
    pool = dict.fromkeys(players, 0)
    mountain: dict[str, int | Fraction] = dict.fromkeys(players, 0)
    whists = {x: {y: 0 for y in players if y != x} for x in players}
    fractional = False  # does some mountain hold a Fraction?
    series = 0  # raspasy of the current series (§7.5)
    closed = False
    snapshots: list[DealSnapshot] = []
    E = Entry

    def write_off(x: str, amount: int | Fraction, reason: str, other: str | None, add) -> None:
        """§9.2b/§7.3: written off x's mountain; stops at 0 with mountain_floor_zero (§17.11)."""
        before = mountain[x]
        after = before - amount
        if floor_zero and after < 0:
            after = 0 if before > 0 else before
            amount = before - after
        mountain[x] = after
        if amount:
            add(E("write_off", x, amount, other, reason))

    def write_pool(x: str, amount: int, set_on_whist, dealer: str, add) -> None:
        """§9.2: pool entry with help to the largest open pool and write-off of the rest."""
        have = pool[x]
        room = target - have
        if room >= amount:
            pool[x] = have + amount
            add(E("pool", x, amount))
            return
        if room > 0:
            pool[x] = target
            add(E("pool", x, room))
        excess = amount - room
        if not help_on:
            write_off(x, excess, "help_off", None, add)
            return
        skipped: list[str] = []
        own_whists = whists[x]
        while excess > 0:
            best = None
            best_pool = -1
            for y in clockwise[x]:  # ties -> first clockwise from the writer (§17.12)
                py = pool[y]
                if py < target and py > best_pool:
                    if (help_excludes_dealer and y == dealer) or y in skipped:
                        continue
                    best, best_pool = y, py
            if best is None:
                write_off(x, excess, "no_one_to_help", None, add)
                return
            if best in set_on_whist:  # the seed's exception (§9.2d, §16.1)
                if exception_write_off:
                    write_off(x, excess, "help_exception", best, add)
                    return
                skipped.append(best)
                continue
            g = target - best_pool
            if g > excess:
                g = excess
            pool[best] = best_pool + g
            own_whists[best] += 10 * g
            add(E("help", x, g, best))
            add(E("whists", x, 10 * g, best, "help"))
            excess -= g

    for number, deal in enumerate(deals, 1):
        if closed:
            raise PulkaError(f"the pulka is closed: every pool reached {target}", number)
        if deal.dealer is not None:
            dealer = deal.dealer
            if type(dealer) is not str or dealer not in seat:
                raise PulkaError(f"unknown player {dealer!r} as dealer", number)
        entries: list[Entry] = []
        add = entries.append
        kind = deal.kind
        cost = None
        made = True  # for exit_only_by_made_game (§17.10)

        if kind == "game":
            decl = deal.declarer
            if type(decl) is not str or decl not in seat:
                raise PulkaError(_declarer_problem(decl), number)
            if four and decl == dealer:
                raise PulkaError(
                    f"{decl} deals and sits out on the talon, so cannot declare", number
                )
            contract = deal.contract
            level = CONTRACTS.get(contract) if type(contract) is str else None
            if level is None:
                if contract is None:
                    raise PulkaError("a game needs a contract such as '7H'", number)
                raise PulkaError(contract_problem(contract), number)
            value = level + level - 10  # V(L), §1.2
            d1, d2 = defenders[dealer][decl]
            calls = deal.calls
            try:
                mode = _CALL_MODES.get((calls[d1], calls[d2]))
                if len(calls) != 2:
                    mode = None
            except (KeyError, TypeError):
                mode = None
            if mode is None:
                raise PulkaError(
                    _calls_problem(calls, decl, d1, d2, dealer if four else None), number
                )
            if mode == _HALF and level not in half_levels:
                raise PulkaError(_half_levels_problem(half_levels), number)
            tricks = deal.tricks
            if mode <= _SECOND_ALONE:
                if tricks is None:
                    who = d1 if mode != _SECOND_ALONE else d2
                    raise PulkaError(
                        f"tricks are missing: the game was played ({who} whisted)", number
                    )
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
                    raise PulkaError(
                        _tricks_problem(tricks, (decl, d1, d2), seat, dealer if four else None),
                        number,
                    )
            elif tricks is not None:
                raise PulkaError(
                    "tricks are given but the game was not played (nobody whisted)", number
                )
            talon = deal.talon
            quick = 0
            if talon is not None:
                if deal.quick_tricks is not None:
                    raise PulkaError("give either talon or quick_tricks, not both", number)
                quick = talon_quick_tricks(talon)
                if quick is None:
                    raise PulkaError(talon_problem(talon), number)
            elif deal.quick_tricks is not None:
                quick = deal.quick_tricks
                if type(quick) is not int or not 0 <= quick <= 3:
                    raise PulkaError("quick_tricks must be a whole number from 0 to 3", number)

            # §8: quick tricks in the talon, for every trick contract
            if quick and quick_on:
                if four:
                    whists[dealer][decl] += quick * value
                    add(E("whists", dealer, quick * value, decl, "quick_tricks", quick))
                else:
                    share = quick * value >> 1
                    whists[d1][decl] += share
                    whists[d2][decl] += share
                    add(E("whists", d1, share, decl, "quick_tricks", quick))
                    add(E("whists", d2, share, decl, "quick_tricks", quick))

            if mode == _NO_PLAY:  # §2.3: counted without play
                write_pool(decl, value, (), dealer, add)
            elif mode == _HALF:  # §2.4, §17.6: half the obligation, not played
                half_tricks = _OBLIGATION[level] >> 1
                whists[d2][decl] += half_tricks * value
                add(E("whists", d2, half_tricks * value, decl, "half_whist", half_tricks))
                write_pool(decl, value, (), dealer, add)
            else:
                duty = 0 if (level == 10 and ten_checked) else _OBLIGATION[level]
                penalty = value >> 1 if half_penalty else value  # per trick short, §17.2
                t_def = t1 + t2
                paid: list[tuple[str, int | Fraction, int]] = []  # (whister, amount, tricks)
                if mode == _TWO_WHISTERS:
                    whisters: tuple[str, ...] = (d1, d2)
                    if t1:
                        whists[d1][decl] += value * t1
                        add(E("whists", d1, value * t1, decl, "tricks", t1))
                    if t2:
                        whists[d2][decl] += value * t2
                        add(E("whists", d2, value * t2, decl, "tricks", t2))
                    if personal_quota:  # §17.4: each must take his own quota
                        quota = 0 if duty == 0 else _QUOTA[level]
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
                                    s = share - tw
                                    if not own_shortfall and s > short:
                                        s = short
                                    paid.append((w, penalty * s, s))
                        elif duty1 == "second":  # §17.3, defence took 0 at 8–10
                            paid.append((d2, penalty, 1))
                        elif duty1 == "both":
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
                    if gentleman:  # §17.1: split with the passer
                        if all_def:
                            whists[w][decl] += all_def >> 1
                            whists[passer][decl] += all_def >> 1
                            add(E("whists", w, all_def >> 1, decl, "tricks", t_def))
                            add(E("whists", passer, all_def >> 1, decl, "tricks", t_def))
                    elif all_def:  # §2.5 greedy: all defensive tricks are his
                        whists[w][decl] += all_def
                        add(E("whists", w, all_def, decl, "tricks", t_def))
                    if t_def < duty:  # §5.2
                        paid.append((w, penalty * (duty - t_def), duty - t_def))
                set_on_whist: tuple[str, ...] = ()
                for w, amount, short in paid:
                    if amount:
                        mountain[w] += amount
                        if type(amount) is not int:
                            fractional = True
                        add(E("mountain", w, amount, None, "whister_set", short))
                        set_on_whist += (w,)
                if td >= level:  # §3
                    write_pool(decl, value, set_on_whist, dealer, add)
                else:  # §4
                    made = False
                    under = level - td
                    loss = value * under
                    mountain[decl] += loss
                    add(E("mountain", decl, loss, None, "declarer_set", under))
                    receivers = (d1, d2) if consolation_all else whisters
                    if four:
                        receivers += (dealer,)
                    for r in receivers:
                        whists[r][decl] += loss
                        add(E("whists", r, loss, decl, "consolation", under))
            if made or not exit_only_made:
                series = 0

        elif kind == "raspasy":
            if (
                deal.declarer is not None
                or deal.contract is not None
                or deal.calls is not None
                or deal.talon is not None
                or deal.quick_tricks is not None
            ):
                raise PulkaError(_foreign_keys_problem(deal, "raspasy"), number)
            tricks = deal.tricks
            try:
                counts = [tricks[p] for p in players]
                ok = len(tricks) == n and sum(counts) == 10
                if ok:
                    for t in counts:
                        if type(t) is not int or t < 0:
                            ok = False
                            break
            except (KeyError, TypeError):
                ok = False
            if not ok:
                raise PulkaError(_tricks_problem(tricks, players, seat, None), number)
            if four and tricks[dealer] > 2:
                raise PulkaError(
                    f"{dealer} deals and sits on the talon, so takes at most 2 tricks "
                    f"on raspasy, not {tricks[dealer]}",
                    number,
                )
            # §7.5, §17.10: the cost of this raspasy, then advance the series
            if prog_len:
                cost = prog[series]
                series += 1
                if series == prog_len:
                    series = prog_len - 1 if repeat_last else 0
            else:
                cost = 1
            low = min(counts) if amnesty else 0  # §7.2 amnesty, §17.8
            for p in zero_order[dealer] + ((dealer,) if four else ()):
                extra = tricks[p] - low
                if extra:
                    mountain[p] += cost * extra
                    add(E("mountain", p, cost * extra, None, "raspasy", extra))
            for p in zero_order[dealer]:  # §7.3 / §17.9: first hand first
                if tricks[p] == 0:
                    if zero_pool:
                        write_pool(p, cost, (), dealer, add)
                    else:
                        write_off(p, cost, "raspasy_zero", None, add)

        elif kind == "misere":
            decl = deal.declarer
            if type(decl) is not str or decl not in seat:
                raise PulkaError(_declarer_problem(decl), number)
            if four and decl == dealer:
                raise PulkaError(
                    f"{decl} deals and sits out on the talon, so cannot declare", number
                )
            if (
                deal.contract is not None
                or deal.calls is not None
                or deal.talon is not None
                or deal.quick_tricks is not None
            ):
                raise PulkaError(_foreign_keys_problem(deal, "misère"), number)
            tricks = deal.tricks
            try:
                taken = tricks[decl]
                ok = len(tricks) == 1 and type(taken) is int and 0 <= taken <= 10
            except (KeyError, TypeError):
                ok = False
            if not ok:
                raise PulkaError(_misere_tricks_problem(tricks, decl, seat), number)
            if taken == 0:  # §6
                write_pool(decl, 10, (), dealer, add)
            else:
                made = False
                mountain[decl] += 10 * taken
                add(E("mountain", decl, 10 * taken, None, "misere_failed", taken))
            if made or not exit_only_made:
                series = 0
        else:
            raise PulkaError("kind must be 'game', 'misere' or 'raspasy'", number)

        if fractional:
            fractional = False
            for p in players:
                v = mountain[p]
                if type(v) is not int:
                    if v.denominator == 1:
                        mountain[p] = v.numerator
                    else:
                        fractional = True
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
        closed = min(pool.values()) >= target
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


# --- messages, built only when something is wrong ---------------------------------------


def _declarer_problem(declarer: object) -> str:
    if declarer is None:
        return "the deal needs a declarer"
    return f"unknown player {declarer!r} as declarer"


def _half_levels_problem(levels: tuple[int, ...]) -> str:
    if not levels:
        return "half-whist is not allowed by the rules (half_whist_levels is [])"
    if len(levels) == 1:
        return f"half-whist is allowed only at level {levels[0]}"
    return "half-whist is allowed only at levels " + ", ".join(str(x) for x in levels)


def _calls_problem(
    calls: object, declarer: str, first: str, second: str, talon_sitter: str | None
) -> str:
    if calls is None:
        return f"a game needs the calls of {first} and {second}"
    if not isinstance(calls, Mapping):
        return "calls must be an object: defender -> 'whist', 'pass' or 'half'"
    for who in calls:
        if who == declarer:
            return f"{declarer} declares, so has no call"
        if who == talon_sitter:
            return f"{who} deals and sits out on the talon, so has no call"
        if who not in (first, second):
            return f"unknown player {who!r} in calls"
    for who in (first, second):
        if who not in calls:
            return f"call missing for {who}"
    for who in (first, second):
        if calls[who] not in CALLS or type(calls[who]) is not str:
            return f"{who}'s call must be 'whist', 'pass' or 'half', not {calls[who]!r}"
    c1, c2 = calls[first], calls[second]
    if c1 == "half" and c2 == "half":
        return (
            f"two half-whists: only the second defender ({second}) may say half, "
            f"after the first ({first}) passed"
        )
    if c1 == "half":
        return (
            f"only the second defender ({second}) may say half, after the first ({first}) "
            f"passed; {first} speaks first"
        )
    return (
        f"half-whist only after the first defender passed: {first} whisted, "
        f"so {second} cannot say half"
    )


def _tricks_problem(
    tricks: object, expected: Sequence[str], seat: Mapping[str, int], talon_sitter: str | None
) -> str:
    if not isinstance(tricks, Mapping):
        return "tricks must be an object: player -> tricks"
    for who in tricks:
        if who == talon_sitter:
            return f"{who} deals and sits out on the talon, so takes no tricks in a game"
        if type(who) is not str or who not in seat:
            return f"unknown player {who!r} in tricks"
        if who not in expected:
            return f"{who} does not play this deal, so has no tricks"
    for who in expected:
        if who not in tricks:
            return f"tricks missing for {who}"
    for who in expected:
        t = tricks[who]
        if type(t) is not int or not 0 <= t <= 10:
            return f"tricks of {who} must be a whole number from 0 to 10, not {t!r}"
    total = sum(tricks[who] for who in expected)
    return f"tricks sum to {total}, expected 10"


def _misere_tricks_problem(tricks: object, declarer: str, seat: Mapping[str, int]) -> str:
    if tricks is None:
        return f"a misère needs the tricks {declarer} took"
    if not isinstance(tricks, Mapping):
        return "tricks must be an object: player -> tricks"
    for who in tricks:
        if who != declarer:
            if type(who) is not str or who not in seat:
                return f"unknown player {who!r} in tricks"
            return f"misère tricks list only the declarer ({declarer}), not {who}"
    if declarer not in tricks:
        return f"tricks missing for {declarer}"
    t = tricks[declarer]
    return f"tricks of {declarer} must be a whole number from 0 to 10, not {t!r}"


def _foreign_keys_problem(deal: Deal, kind: str) -> str:
    keys = ("contract", "calls", "talon", "quick_tricks")
    if kind == "raspasy":
        keys = ("declarer", *keys)
    for key in keys:
        if getattr(deal, key) is not None:
            return f"a {kind} deal has no {key}"
    return f"a {kind} deal has wrong keys"  # pragma: no cover
