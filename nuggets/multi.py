"""The chance to win with three to five players: an estimate from the exact 2-player
chances (`nuggets.duel`), and the turn of the player to move solved by it on demand,
by code written out when the table loads (`_compiled_turn`, `_PAYOFFS`), which
computes the same floats as the loops beside it, several times faster. Method and
checks against simulation: docs/ODDS.md and docs/BENCHMARKS.md."""

from __future__ import annotations

import array
import functools
from collections.abc import Sequence

from nuggets import calibration
from nuggets.duel import NotCovered, _compiled, _compiled_turn, table, warm_with
from nuggets.turns import STEAL_LASSOS, turn_graph

__all__ = ["estimate"]


def estimate(
    holdings: Sequence[int], supply: int, mover: int, seat: int, kind: str = "mixed"
) -> float:
    """Estimated chance that ``seat`` wins from the start of ``mover``'s turn.

    Each pair of players is scored by the exact 2-player chance of the first
    beating the second at their holdings and the supply (averaging both turn orders
    when neither of them moves next); a player's strength is the product over their
    opponents, and the chances are the strengths normalised to sum to 1. With two
    players this is the exact chance. With three to five, before a game is over, the
    share then goes through the calibration of `nuggets.calibrate` for the ``kind`` of
    table (`nuggets.calibration.table_kind`: "mixed" or "strong"; an increasing map
    fitted to games of such tables, where one beat the raw share on held-out games), so
    the seats' chances need not sum exactly to 1. Checked against simulation in
    docs/ODDS.md and docs/BENCHMARKS.md.
    """
    raw = _shares(tuple(holdings), supply, mover)[seat]
    if supply <= 0:
        return raw  # the game is over: exact
    return calibration.load().apply(calibration.map_key("start", kind), len(holdings), raw)


@functools.lru_cache(maxsize=65536)
def _shares(holdings: tuple[int, ...], supply: int, mover: int) -> tuple[float, ...]:
    """`estimate` for every seat at once (cached: turns revisit the same outcomes)."""
    k = len(holdings)
    if supply <= 0:
        top = max(holdings)
        winners = [s for s, h in enumerate(holdings) if h == top]
        return tuple(1 / len(winners) if s in winners else 0.0 for s in range(k))
    t = table()
    if sum(holdings) + supply > t.total:
        raise NotCovered(
            f"the chances to win are solved for games of up to {t.total} nuggets, "
            f"not {sum(holdings) + supply}"
        )
    starts = t.starts
    base = t.at.offsets[supply]
    m = t.total - supply + 1
    shares = _UNROLLED.get((k, mover), _shares_loop)(holdings, starts, base, m, mover)
    return tuple(1 / k for _ in range(k)) if shares is None else shares


def _shares_loop(holdings, starts, base, m, mover):
    """The shares of `_shares` from the 2-player table ``starts`` at the supply whose
    positions start at ``base`` (``m``: the holdings it covers plus one); None when
    every strength is 0."""
    k = len(holdings)
    # d(i, j), i's chance against j, always equals 1 - d(j, i): score each pair once.
    rows = [base + a * m - a * (a - 1) // 2 for a in holdings]
    strengths = [1.0] * k
    for i in range(k):
        a, row = holdings[i], rows[i]
        for j in range(i + 1, k):
            if i == mover:
                d = starts[row + holdings[j]]
            elif j == mover:
                d = 1.0 - starts[rows[j] + a]
            else:
                d = 0.5 * (starts[row + holdings[j]] + 1.0 - starts[rows[j] + a])
            strengths[i] *= d
            strengths[j] *= 1.0 - d
    total = sum(strengths)
    if total <= 0:
        return None
    return tuple(q / total for q in strengths)


def _unrolled_shares(k: int, mover: int):
    """`_shares_loop` for ``k`` players and this mover, written out: the same
    operations in the same order, so the same floats, about three times faster."""
    seats = range(k)
    lines = [
        "def shares(holdings, starts, base, m, mover):",
        f"    {', '.join(f'h{i}' for i in seats)}, = holdings",
        *_strengths(k, mover),
        "        return None",
        f"    return ({', '.join(f's{i} / total' for i in seats)})",
    ]
    return _compiled(lines, "shares", f"shares {k}")


def _strengths(k: int, mover: int) -> list[str]:
    """The lines both written-out share functions begin with: each seat's row of the
    start table, each pair's chance, each seat's strength and their ``total``, ending
    at ``if total <= 0:`` (the caller writes what follows)."""
    seats = range(k)
    lines = [f"    r{i} = base + h{i} * m - h{i} * (h{i} - 1) // 2" for i in seats]
    factors: dict[int, list[str]] = {i: [] for i in seats}
    for i in seats:
        for j in range(i + 1, k):
            if i == mover:
                d = f"starts[r{i} + h{j}]"
            elif j == mover:
                d = f"1.0 - starts[r{j} + h{i}]"
            else:
                d = f"0.5 * (starts[r{i} + h{j}] + 1.0 - starts[r{j} + h{i}])"
            lines.append(f"    d{i}{j} = {d}")
            factors[i].append(f"d{i}{j}")
            factors[j].append(f"(1.0 - d{i}{j})")
    lines += [f"    s{i} = {' * '.join(factors[i])}" for i in seats]
    lines.append(f"    total = {' + '.join(f's{i}' for i in seats)}")
    lines.append("    if total <= 0:")
    return lines


class _Written(dict):
    """Written-out functions by key, each generated on first use."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        self[key] = made = self.make(*key)
        return made

    def get(self, key, default=None):
        if key[0] not in WRITTEN_SIZES:
            return default
        return self[key]


WRITTEN_SIZES = (3, 4, 5)
_UNROLLED = _Written(_unrolled_shares)


def _share_of(k: int, mover: int, seat: int):
    """``_shares(holdings, supply, mover)[seat]`` for ``k`` players, written out to
    take the holdings as arguments and return one float (no tuple: nothing for the
    garbage collector to track): the same operations, so the same float."""
    seats = range(k)
    lines = [
        f"def share({', '.join(f'h{i}' for i in seats)}, starts, base, m):",
        *_strengths(k, mover),
        f"        return 1 / {k}",
        f"    return s{seat} / total",
    ]
    return _compiled(lines, "share", f"share {k} {mover} {seat}")


_SHARE_OF = _Written(_share_of)


def _both_shares(k: int, me: int, holdings: list[str], base: str, m: str, out: tuple[str, str],
                 indent: str) -> list[str]:
    """Lines that set ``out`` to ``me``'s shares (`_share_of`) with the next seat to
    move and with ``me`` to move, at the holdings written ``holdings``: the pairs of
    players that neither mover is in are scored once for both. The same operations as
    `_share_of`, so the same floats."""
    after = (me + 1) % k
    seats = range(k)
    lines = [f"{indent}x{i} = {holdings[i]}" for i in seats]
    lines += [f"{indent}r{i} = {base} + x{i} * {m} - x{i} * (x{i} - 1) // 2" for i in seats]
    totals = []
    for tag, mover in (("a", after), ("b", me)):
        factors: dict[int, list[str]] = {i: [] for i in seats}
        for i in seats:
            for j in range(i + 1, k):
                mixed = f"0.5 * (starts[r{i} + x{j}] + 1.0 - starts[r{j} + x{i}])"
                if i == mover:
                    name, d = f"d{tag}{i}{j}", f"starts[r{i} + x{j}]"
                elif j == mover:
                    name, d = f"d{tag}{i}{j}", f"1.0 - starts[r{j} + x{i}]"
                elif tag == "a" or i in (after, me) or j in (after, me):
                    name, d = f"d{tag}{i}{j}", mixed
                else:
                    name, d = f"da{i}{j}", None  # scored for the first mover already
                if d is not None:
                    lines.append(f"{indent}{name} = {d}")
                factors[i].append(name)
                factors[j].append(f"(1.0 - {name})")
        lines += [f"{indent}s{tag}{i} = {' * '.join(factors[i])}" for i in seats]
        lines.append(f"{indent}t{tag} = {' + '.join(f's{tag}{i}' for i in seats)}")
        totals.append(f"(s{tag}{me} / t{tag} if t{tag} > 0 else 1 / {k})")
    lines.append(f"{indent}{out[0]}, {out[1]} = {totals[0]}, {totals[1]}")
    return lines


def _written_payoffs(k: int, me: int):
    """`_payoffs_loop` for ``k`` players and the seat ``me`` to move, written out with
    every estimate inline (`_both_shares`): nothing allocated but the results, and
    the same floats."""
    seats = range(k)
    h = [f"h{i}" for i in seats]
    took = [f"h{i} + amount" if i == me else f"h{i}" for i in seats]
    lines = [
        "def payoffs(holdings, supply, starts, offsets, total, max_value, max_steal):",
        f"    {', '.join(h)}, = holdings",
        "    stop, bonus, victims = [], [], []",
        "    base0, m0 = offsets[supply], total - supply + 1",
        "    for v in range(max_value + 1):",
        "        amount = v if v < supply else supply",
        "        if amount == supply:",
        f"            take = take_bonus = shares(({', '.join(took)},), 0, {me})[{me}]",
        "        else:",
        "            rest = supply - amount",
        "            base, m = offsets[rest], total - rest + 1",
        *_both_shares(k, me, took, "base", "m", ("take", "take_bonus"), " " * 12),
        "        steal, steal_bonus, va, vb = take, take_bonus, None, None",
        "        if v <= max_steal:",
    ]
    for j in seats:
        if j == me:
            continue
        robbed = [f"h{i} - g" if i == j else f"h{i} + g" if i == me else f"h{i}" for i in seats]
        lines += [
            f"            g = v if v < h{j} else h{j}",
            *_both_shares(k, me, robbed, "base0", "m0", ("e", "f"), " " * 12),
            "            if e > steal:",
            f"                steal, va = e, {j}",
            "            if f > steal_bonus:",
            f"                steal_bonus, vb = f, {j}",
        ]
    lines += [
        "        stop.append(take)",
        "        stop.append(steal)",
        "        bonus.append(take_bonus)",
        "        bonus.append(steal_bonus)",
        "        victims.append((va, vb))",
        *_both_shares(k, me, h, "base0", "m0", ("bust", "_"), "    "),
        "    return stop, bonus, victims, bust",
    ]
    namespace: dict = {"shares": _shares}
    exec(compile("\n".join(lines), f"<nuggets.duel payoffs {k} {me}>", "exec"), namespace)
    return namespace["payoffs"]


_PAYOFFS = _Written(_written_payoffs)


class _MultiTurn:
    """The turn of the seat to move, at a table of three or more, by the estimate.

    Kept in a cache, so it holds nothing the garbage collector must walk through:
    the chances of rolling on are an array, and the values of the states (only needed
    to solve the turn) are dropped."""

    __slots__ = ("stop_payoffs", "bonus_payoffs", "victims", "R")

    def __init__(self, holdings: tuple[int, ...], supply: int, me: int) -> None:
        t = table()
        if sum(holdings) + supply > t.total:
            _shares(holdings, supply, me)  # raises NotCovered
        max_value, max_steal = _value_bounds()
        k = len(holdings)
        if k in WRITTEN_SIZES:
            stop, bonus, victims, bust = _PAYOFFS[k, me](
                holdings, supply, t.starts, t.at.offsets, t.total, max_value, max_steal
            )
        else:
            stop, bonus, victims, bust = _payoffs_loop(holdings, supply, me)
        self.stop_payoffs, self.bonus_payoffs = array.array("d", stop), array.array("d", bonus)
        self.victims = victims
        self.R = array.array("d", _compiled_turn()(stop, bonus, bust)[1])


def _payoffs_loop(holdings: tuple[int, ...], supply: int, me: int):
    """The payoffs of the turn of ``me`` at a table of three or more: of stopping by
    value (without and with a steal), of a bonus turn and of a bust, by the estimate;
    and the best victim of a steal by value (after a stop, after all seven)."""
    max_value, max_steal = _value_bounds()
    shares = _shares
    k = len(holdings)
    after = (me + 1) % k
    stop, bonus, victims = [], [], []
    for v in range(max_value + 1):
        amount = min(v, supply)
        took = (*holdings[:me], holdings[me] + amount, *holdings[me + 1 :])
        if amount == supply:
            take = take_bonus = shares(took, 0, me)[me]
        else:
            take = shares(took, supply - amount, after)[me]
            take_bonus = shares(took, supply - amount, me)[me]
        steal, steal_bonus, victim = take, take_bonus, (None, None)
        for j in range(k if v <= max_steal else 0):
            if j == me:
                continue
            robbed = list(holdings)
            grab = min(v, robbed[j])
            robbed[j] -= grab
            robbed[me] += grab
            robbed = tuple(robbed)
            e = shares(robbed, supply, after)[me]
            if e > steal:
                steal, victim = e, (j, victim[1])
            e = shares(robbed, supply, me)[me]
            if e > steal_bonus:
                steal_bonus, victim = e, (victim[0], j)
        stop += (take, steal)
        bonus += (take_bonus, steal_bonus)
        victims.append(victim)
    bust = shares(holdings, supply, after)[me]
    return stop, bonus, victims, bust


@functools.cache
def _value_bounds() -> tuple[int, int]:
    """The highest value of a turn state, and of one with three lassos (a steal)."""
    states = turn_graph().states
    return max(s[2] for s in states), max(s[2] for s in states if s[3] >= STEAL_LASSOS)


@functools.lru_cache(maxsize=4096)
def _multi_turn(holdings: tuple[int, ...], supply: int, me: int) -> _MultiTurn:
    return _MultiTurn(holdings, supply, me)


def _warm() -> None:
    for k in WRITTEN_SIZES:
        for me in range(k):
            _PAYOFFS[k, me], _UNROLLED[k, me]


warm_with(_warm)
