"""The exact advisor: bust chances, expected nuggets and the best set-aside.

"Expected nuggets" means the nuggets the player is expected to gain from the turn
in progress, counting the bonus turns that setting aside all seven dice chains on
(N8), when they play on optimally; stealing and the supply cap are ignored (a take
is worth its full value and lassos are worth nothing).

Method (see docs/ODDS.md). Within a turn the future depends only on the numbers
2..5 already set aside, the dice left and the value so far: the state ``(used,
dice_left, value)``. A roll of ``n`` dice is enumerated as the multisets of faces,
each weighted by its multinomial count out of ``6**n``; rolls that offer the same
choices are merged. Setting aside all seven dice is worth the value plus ``E0``,
the expected gain of a fresh turn, so ``E0`` appears inside itself: every value is
``a + b*E0``, and the solver runs policy iteration (Newton's method on the convex
fixed point) in exact integer arithmetic until the policy is stable. All results
are `fractions.Fraction`.

The solve runs once, on first use (`solve()`), and is cached for the process.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial

from nuggets.rules import (
    DICE,
    FACES,
    NUMBERS,
    Face,
    IllegalAction,
    Keep,
    Roll,
    Stop,
    _faces,
    check_keep,
    score,
)

__all__ = [
    "Advice",
    "Solution",
    "advise",
    "best_keep",
    "bust_chance",
    "expected_keep",
    "expected_roll",
    "expected_stop",
    "expected_turn",
    "solve",
    "stop_wins",
]

# Numbers as bits of a mask: 2 -> 1, 3 -> 2, 4 -> 4, 5 -> 8.
_BIT = {Face.TWO: 1, Face.THREE: 2, Face.FOUR: 4, Face.FIVE: 8}
_VALUES = (2, 3, 4, 5)
# Every value is an integer over SCALE: a roll of n dice after rolls of 7, 6, ...
# dice has a denominator dividing 6**(7+6+...+1) = 6**28.
SCALE = 6 ** (DICE * (DICE + 1) // 2)

State = tuple[int, int, int]  # (used mask, dice left, value so far)


def _mask_sum(mask: int) -> int:
    return sum(v for i, v in enumerate(_VALUES) if mask >> i & 1)


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _range(mask: int, n: int) -> range:
    spare = DICE - n - 3 * _popcount(mask)
    if spare < 0:
        return range(0)
    base = _mask_sum(mask)
    return range(base, base + spare + 1)


_RANGES = {(mask, n): _range(mask, n) for mask in range(16) for n in range(DICE + 1)}


def _values(mask: int, n: int) -> range:
    """The values so far that can go with (mask, n): the numbers' worth plus up to
    one nugget per die not used by them (the other dice being lassos)."""
    return _RANGES[mask, n]


def _multisets(n: int, k: int = 6) -> Iterable[tuple[int, ...]]:
    """All count vectors of ``n`` dice over ``k`` faces."""
    if k == 1:
        yield (n,)
        return
    for first in range(n, -1, -1):
        for rest in _multisets(n - first, k - 1):
            yield (first, *rest)


def _weight(counts: tuple[int, ...]) -> int:
    w = factorial(sum(counts))
    for c in counts:
        w //= factorial(c)
    return w


def _takes(counts: tuple[int, ...], mask: int):
    """Every legal set-aside from a roll with ``counts`` (nugget, lasso, 2, 3, 4, 5) when
    the numbers in ``mask`` are used: ``(take, total, new mask, value gained)``, where a
    number not used yet is set aside three or more at a time (N3)."""
    ranges = [range(counts[0] + 1), range(counts[1] + 1)]
    for i, c in enumerate(counts[2:]):
        ranges.append(range(c + 1) if mask >> i & 1 else (0, *range(3, c + 1)))
    for take in itertools.product(*ranges):
        total = sum(take)
        if not total:
            continue
        new_mask, gained = mask, take[0]
        for i, k in enumerate(take[2:]):
            if k and not mask >> i & 1:
                new_mask |= 1 << i
                gained += _VALUES[i]
        yield take, total, new_mask, gained


def _choices(counts: tuple[int, ...], mask: int) -> dict[tuple[int, int], tuple]:
    """The set-asides from a roll with ``counts`` when ``mask`` numbers are used,
    reduced to the best per resulting (mask, dice left): more value first, then
    more lassos (worth nothing here, but they can be used to steal).
    Maps (new mask, dice left) -> (value gained, lassos, kept counts)."""
    n = sum(counts)
    best: dict[tuple[int, int], tuple] = {}
    for take, total, new_mask, gained in _takes(counts, mask):
        key = (new_mask, n - total)
        rank = (gained, take[1], take)
        if key not in best or rank > best[key]:
            best[key] = rank
    return best


@dataclass(frozen=True)
class Solution:
    """The solved game: exact values of every state, and the choices per roll."""

    e0: Fraction  # expected nuggets of a fresh turn
    roll: Mapping[State, Fraction]  # roll now, then optimally (dice left > 0)
    best: Mapping[State, Fraction]  # max(stop, roll); value + e0 with no dice left
    bust: Mapping[tuple[int, int], Fraction]  # (mask, dice left) -> bust chance
    # (mask, roll counts) -> [(new mask, dice left, value gained, kept counts)]
    options: Mapping[tuple[int, tuple[int, ...]], tuple]
    iterations: int  # policy-iteration passes
    # best_keep answers, memoised: (roll counts, state) -> (faces, value)
    keeps: dict = field(default_factory=dict, compare=False, repr=False)

    def value(self, state: State) -> Fraction:
        """Expected nuggets at ``state`` when playing optimally from here."""
        mask, n, v = state
        if n == 0:
            return v + self.e0
        return self.best[state]


def _build_tables():
    """Per (mask, n): merged roll groups [(weight, options)], bust weight, and
    the options of each roll for best_keep."""
    groups: dict[tuple[int, int], list] = {}
    bust: dict[tuple[int, int], int] = {}
    options: dict[tuple[int, tuple[int, ...]], tuple] = {}
    for mask in range(16):
        for n in range(1, DICE + 1):
            if not _values(mask, n):
                continue
            merged: dict[tuple, int] = {}
            busts = 0
            for counts in _multisets(n):
                w = _weight(counts)
                choice = _choices(counts, mask)
                if not choice:
                    busts += w
                    continue
                opts = tuple(sorted((m2, n2, g) for (m2, n2), (g, _, _) in choice.items()))
                options[mask, counts] = tuple(
                    (m2, n2, g, kept) for (m2, n2), (g, _, kept) in choice.items()
                )
                merged[opts] = merged.get(opts, 0) + w
            groups[mask, n] = [(w, opts) for opts, w in merged.items()]
            bust[mask, n] = busts
    return groups, bust, options


def _evaluate(groups, p: int, q: int):
    """One pass of dynamic programming with the choices made at E0 = p/q.
    Values are pairs (A, B) meaning (A + B*E0) / SCALE, exactly."""
    best: dict[State, tuple[int, int]] = {}
    roll: dict[State, tuple[int, int]] = {}
    for mask in range(16):
        for v in _values(mask, 0):
            best[mask, 0, v] = (v * SCALE, SCALE)
    for n in range(1, DICE + 1):
        denom = 6**n
        for mask in range(16):
            for v in _values(mask, n):
                total_a = total_b = 0
                for w, opts in groups[mask, n]:
                    top = None
                    for m2, n2, g in opts:
                        a, b = best[m2, n2, v + g]
                        key = a * q + b * p
                        if top is None or key > top:
                            top, ta, tb = key, a, b
                    total_a += w * ta
                    total_b += w * tb
                a, b = total_a // denom, total_b // denom
                roll[mask, n, v] = (a, b)
                # Stop on a tie: the same expectation for less risk.
                if a * q + b * p > v * SCALE * q:
                    best[mask, n, v] = (a, b)
                else:
                    best[mask, n, v] = (v * SCALE, 0)
    return best, roll


@functools.cache
def solve() -> Solution:
    """Solve the game exactly (once per process; about a tenth of a second)."""
    groups, bust, options = _build_tables()
    p, q = 0, 1  # E0 = p/q, starting from 0
    iterations = 0
    while True:
        iterations += 1
        best, roll = _evaluate(groups, p, q)
        a, b = roll[0, DICE, 0]
        # E0 = (a + b*E0)/SCALE under this policy, so E0 = a / (SCALE - b).
        new_p, new_q = a, SCALE - b
        if new_p * q == p * new_q:
            break
        p, q = new_p, new_q
    e0 = Fraction(p, q)

    def exact(pair: tuple[int, int]) -> Fraction:
        return Fraction(pair[0] * q + pair[1] * p, SCALE * q)

    return Solution(
        e0=e0,
        roll={s: exact(pair) for s, pair in roll.items()},
        best={s: exact(pair) for s, pair in best.items() if s[1]},
        bust={key: Fraction(w, 6 ** key[1]) for key, w in bust.items()},
        options=options,
        iterations=iterations,
    )


# --- queries ---------------------------------------------------------------------


def _state(kept: Iterable[Face | str]) -> State:
    kept = _faces(kept)
    if len(kept) > DICE:
        raise IllegalAction(f"at most {DICE} dice can be set aside, not {len(kept)}")
    mask = 0
    for f in kept:
        mask |= _BIT.get(f, 0)
    for f in NUMBERS:
        count = kept.count(f)
        if 0 < count < 3:
            raise IllegalAction(
                f"these dice cannot all have been set aside in one turn: "
                f"{count} {f.value}{'s' if count > 1 else ''} "
                f"({', '.join(x.value for x in kept)}); a number is first set aside "
                "three or more at a time"
            )
    state = (mask, DICE - len(kept), score(kept))
    if state[2] not in _values(mask, state[1]):
        raise IllegalAction(
            "these dice cannot all have been set aside in one turn: "
            "each number needs three or more of its dice"
        )
    return state


def _counts(faces: Iterable[Face]) -> tuple[int, ...]:
    faces = list(faces)
    return tuple(faces.count(f) for f in FACES)


def _faces_of(counts: tuple[int, ...]) -> tuple[Face, ...]:
    return tuple(f for f, c in zip(FACES, counts, strict=True) for _ in range(c))


def expected_turn() -> Fraction:
    """E0: the expected nuggets of a fresh turn played optimally (with bonus turns)."""
    return solve().e0


def bust_chance(kept: Iterable[Face | str] = ()) -> Fraction:
    """The chance that rolling the dice left busts, given the dice ``kept`` this
    turn. 0 when no dice are left (there is nothing to roll)."""
    mask, n, _ = _state(kept)
    if n == 0:
        return Fraction(0)
    return solve().bust[mask, n]


def expected_stop(kept: Iterable[Face | str] = ()) -> Fraction:
    """Expected nuggets from stopping now: the value of ``kept``, plus a fresh
    turn's worth when all seven dice are set aside (N8)."""
    mask, n, v = _state(kept)
    return v + (solve().e0 if n == 0 else 0)


def expected_roll(kept: Iterable[Face | str] = ()) -> Fraction | None:
    """Expected nuggets from rolling the dice left, then playing optimally;
    None when no dice are left."""
    state = _state(kept)
    if state[1] == 0:
        return None
    return solve().roll[state]


def expected_keep(
    rolled: Iterable[Face | str], kept: Iterable[Face | str], chosen: Iterable[Face | str]
) -> Fraction:
    """Expected nuggets after setting aside ``chosen`` from ``rolled`` (which must
    be legal) and then playing optimally."""
    chosen = check_keep(rolled, kept, chosen)
    return solve().value(_state([*_faces(kept), *chosen]))


def best_keep(
    rolled: Iterable[Face | str], kept: Iterable[Face | str] = ()
) -> tuple[Face, ...] | None:
    """The set-aside from ``rolled`` with the most expected nuggets (ties go to
    more lassos); None when the roll busts."""
    return _best_keep(_counts(_faces(rolled)), _state(kept))[0]


def _best_keep(counts: tuple[int, ...], state: State) -> tuple[tuple[Face, ...] | None, Fraction]:
    solution = solve()
    known = solution.keeps.get((counts, state))
    if known is not None:
        return known
    mask, n, v = state
    if sum(counts) != n:
        raise IllegalAction(f"{n} dice remain, the roll has {sum(counts)}")
    top, top_value = None, Fraction(-1)
    for m2, n2, g, take in solution.options.get((mask, counts), ()):
        value = solution.value((m2, n2, v + g))
        if value > top_value or (value == top_value and take[1] > top[1]):
            top, top_value = take, value
    answer = (None, Fraction(0)) if top is None else (_faces_of(top), top_value)
    solution.keeps[counts, state] = answer
    return answer


# --- advice for a view -----------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """What the advisor says about the position in a view (for the seat to act).

    ``bust_chance``: chance that rolling now busts (None unless the player may roll).
    ``stop``: expected nuggets from stopping now (None unless the player may stop).
    ``roll``: expected nuggets from rolling now and playing on optimally.
    ``keep``: the best set-aside from the dice on the table, ``keep_value`` its worth.
    ``action``: the recommended action: ``Roll()``, ``Keep(keep)`` or ``Stop()``.
    ``wins_now``: stopping (after ``keep``, in the "keep" phase) takes the last
    nuggets of the supply and wins the game outright, so the advice is to stop
    whatever the expectations say.
    """

    phase: str
    action: Roll | Keep | Stop | None
    bust_chance: Fraction | None = None
    stop: Fraction | None = None
    roll: Fraction | None = None
    keep: tuple[Face, ...] | None = None
    keep_value: Fraction | None = None
    wins_now: bool = False

    def to_dict(self) -> dict:
        """JSON-safe: fractions as floats, faces as their values."""

        def num(x: Fraction | None) -> float | None:
            return None if x is None else float(x)

        action = None
        if isinstance(self.action, Roll):
            action = "roll"
        elif isinstance(self.action, Keep):
            action = "keep"
        elif isinstance(self.action, Stop):
            action = "stop"
        return {
            "phase": self.phase,
            "action": action,
            "bust_chance": num(self.bust_chance),
            "stop": num(self.stop),
            "roll": num(self.roll),
            "keep": None if self.keep is None else [f.value for f in self.keep],
            "keep_value": num(self.keep_value),
            "wins_now": self.wins_now,
        }


def stop_wins(holdings: Sequence[int], seat: int, supply: int, value: int) -> bool:
    """True when ``seat``, stopping with dice worth ``value``, takes the last
    nuggets of the ``supply`` and ends the game with more than anyone else (N9)."""
    if value < supply:
        return False
    mine = holdings[seat] + supply
    return all(mine > h for s, h in enumerate(holdings) if s != seat)


def _closing_keep(view: Mapping, state: State) -> tuple[Face, ...] | None:
    """The most valuable set-aside after which stopping wins outright, if any."""
    me, supply, holdings = view["current"], view["supply"], view["holdings"]
    if holdings[me] + supply <= max(h for s, h in enumerate(holdings) if s != me):
        return None  # even the whole supply would not put this seat on top
    options = solve().options.get((state[0], _counts(_faces(view["rolled"]))), ())
    top = None
    for _, _, gained, take in options:
        if stop_wins(holdings, me, supply, state[2] + gained):
            if top is None or (gained, take[1]) > (top[0], top[1][1]):
                top = (gained, take)
    return None if top is None else _faces_of(top[1])


def advise(view: Mapping) -> Advice:
    """Advice for the player to act in a Gold Nuggets ``view`` (Game.view).

    Figures are expected nuggets this turn (see the module docstring). One rule
    overrides them: when stopping takes the last nuggets and wins the game
    outright, the advice is to stop (or, on dice, to set aside what lets it)."""
    phase = view["phase"]
    if phase == "over":
        return Advice(phase, None)
    state = _state(view["kept"])
    solution = solve()
    mask, n, v = state
    if phase == "keep":
        counts = _counts(_faces(view["rolled"]))
        keep, value = _best_keep(counts, state)
        closing = None if keep is None else _closing_keep(view, state)
        if closing is not None:
            after = (*_faces(view["kept"]), *closing)
            return Advice(
                phase, Keep(closing), keep=closing, keep_value=solution.value(_state(after)),
                wins_now=True,
            )
        return Advice(phase, Keep(keep) if keep else None, keep=keep, keep_value=value)
    wins = stop_wins(view["holdings"], view["current"], view["supply"], v)
    if phase == "take":
        return Advice(phase, Stop(), stop=v + solution.e0, wins_now=wins)
    roll = solution.roll[state]
    chance = solution.bust[mask, n]
    if phase == "roll":
        return Advice(phase, Roll(), bust_chance=chance, roll=roll)
    action = Roll() if roll > v and not wins else Stop()
    return Advice(
        phase, action, bust_chance=chance, stop=Fraction(v), roll=roll, wins_now=wins
    )
