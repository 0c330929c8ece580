"""The chance to win a 2-player game of Gold Nuggets, exactly, under the full rules.

Both players maximise their chance to win (a tie counts as half a win), stealing
and the supply cap included: the way Neller and Presser solved Pig. The whole game
is a function of the position at the start of a turn, ``(mine, theirs)`` with the
supply ``total - mine - theirs`` (in a 2-player game nothing else leaves or enters
the table), plus the state of the turn in progress: the numbers set aside, the
dice left, the value so far and the lassos (0, 1, 2, or 3 and more).

Method (docs/ODDS.md, "Chance to win"):

- The supply never grows, so positions are solved level by level, from a supply of
  1 upwards. A take from the supply leads to a lower level, already solved; a bust,
  a steal or a take of 0 stays on the level and keeps the nuggets the two hold
  together, so each such line is a fixed point, found by value iteration
  (Gauss-Seidel sweeps until no chance moves by 1e-12).
- For one position, the turn is an optimal-stopping problem over the turn states:
  every roll of ``n`` dice is enumerated as a multiset of faces with its multinomial
  weight, every legal set-aside of it (N3) leads to a turn state, and the player
  takes the best. Stopping takes from the supply or, with three lassos, from the
  opponent, whichever is better; all seven dice set aside take and chain a bonus
  turn (N8), so that take leads to the same player's turn.

`build()` solves every position of up to 77 nuggets (about ten minutes of pure
Python; run ``python -m nuggets.duel --build``) and writes the table ``duel.bin``
beside this module, zlib-compressed: the chance to win at every turn start (79,079
positions) as a double, and, for the 3,003 positions of the standard game, the chance
to win of rolling on from every turn state with dice left (113 per position) as a
single-precision float, good to about 1e-7. `table()` loads it once.

With three to five players, `estimate` combines the exact 2-player chances into an
estimate, and the turn of the player to move is solved by it on demand: by code
written out when the table loads (`_compiled_turn`, `_PAYOFFS`), which computes the same
floats as the loops beside it, several times faster. The chances shown go through the
calibration of `nuggets.calibrate`; the choices compare the raw ones.
"""

from __future__ import annotations

import argparse
import array
import functools
import operator
import sys
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from nuggets import calibration
from nuggets.odds import _multisets, _takes, _weight
from nuggets.rules import DICE, FACES, STARTING_SUPPLY, Face, Keep, Roll, Stop, _faces

__all__ = [
    "TOTAL",
    "Chances",
    "DuelTable",
    "NotCovered",
    "TableMissing",
    "best_action",
    "best_keep",
    "build",
    "chances",
    "estimate",
    "table",
    "turn_state",
]

TOTAL = STARTING_SUPPLY  # the nuggets of the solved game: holdings plus supply
TABLE_PATH = Path(__file__).with_name("duel.bin")
MAGIC = b"NUGDUEL1"
TOLERANCE = 1e-12
STEAL_LASSOS = 3
_VALUES = (2, 3, 4, 5)

# A turn state: (numbers set aside as bits 2->1 3->2 4->4 5->8, dice left, value,
# lassos capped at 3).
TurnState = tuple[int, int, int, int]


class TableMissing(RuntimeError):
    """The 2-player table has not been built (``python -m nuggets.duel --build``)."""


# --- the turn graph ----------------------------------------------------------------


def _children(state: TurnState, counts: tuple[int, ...]) -> dict[TurnState, tuple[int, ...]]:
    """The turn states a roll with ``counts`` (nugget, lasso, 2, 3, 4, 5) can lead
    to by one legal set-aside, each with a set-aside (counts) that leads there; of
    states alike but for lassos, the most lassos."""
    mask, n, v, lassos = state
    best: dict[tuple[int, int, int], tuple[int, tuple[int, ...]]] = {}
    for take, total, new_mask, gained in _takes(counts, mask):
        key = (new_mask, n - total, v + gained)
        lasso = min(STEAL_LASSOS, lassos + take[1])
        if key not in best or best[key][0] < lasso:
            best[key] = (lasso, take)
    return {(*key, lasso): take for key, (lasso, take) in best.items()}


@dataclass(frozen=True)
class TurnGraph:
    """Every turn state reachable from a fresh turn, and its rolls."""

    states: tuple[TurnState, ...]  # sorted: dice left ascending; index 0.. are n == 0
    index: Mapping[TurnState, int]
    # per state with dice left: (bust weight, [(weight, child indices)]), over 6**n
    rolls: Mapping[int, tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]]
    # per (state index, roll counts): (child index, set-aside counts), for the bots
    options: Mapping[tuple[int, tuple[int, ...]], tuple[tuple[int, tuple[int, ...]], ...]]

    @property
    def start(self) -> int:
        return self.index[(0, DICE, 0, 0)]


@functools.cache
def turn_graph() -> TurnGraph:
    """Build the turn graph (a second or so; cached)."""
    start: TurnState = (0, DICE, 0, 0)
    seen = {start}
    frontier = [start]
    raw: dict[TurnState, tuple[int, dict[tuple[TurnState, ...], int]]] = {}
    raw_options: dict[tuple[TurnState, tuple[int, ...]], dict] = {}
    while frontier:
        state = frontier.pop()
        n = state[1]
        if n == 0:
            continue
        merged: dict[tuple[TurnState, ...], int] = {}
        busts = 0
        for counts in _multisets(n):
            kids = _children(state, counts)
            if not kids:
                busts += _weight(counts)
                continue
            key = tuple(sorted(kids))
            raw_options[state, counts] = kids
            merged[key] = merged.get(key, 0) + _weight(counts)
            for kid in kids:
                if kid not in seen:
                    seen.add(kid)
                    frontier.append(kid)
        raw[state] = (busts, merged)
    states = tuple(sorted(seen, key=lambda s: (s[1], s[0], s[2], s[3])))
    index = {s: i for i, s in enumerate(states)}
    rolls = {
        index[s]: (busts, tuple((w, tuple(index[k] for k in key)) for key, w in merged.items()))
        for s, (busts, merged) in raw.items()
    }
    options = {
        (index[s], counts): tuple((index[k], take) for k, take in sorted(kids.items()))
        for (s, counts), kids in raw_options.items()
    }
    return TurnGraph(states, index, rolls, options)


# --- the solver ----------------------------------------------------------------------


def _end(mine: int, theirs: int) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


class Positions:
    """Flat indices of the positions (mine, theirs, supply) with supply >= 1 and
    mine + theirs + supply <= total: by supply, then mine, then theirs."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.offsets = [0] * (total + 2)
        for s in range(1, total + 1):
            m = total - s + 1  # mine + theirs <= total - s: m values of each
            self.offsets[s + 1] = self.offsets[s] + m * (m + 1) // 2
        self.size = self.offsets[total + 1]

    def index(self, mine: int, theirs: int, supply: int) -> int:
        m = self.total - supply + 1
        return self.offsets[supply] + mine * m - mine * (mine - 1) // 2 + theirs


class _Solver:
    """Win chances of the player to move at every position of a game of up to
    ``total`` nuggets (holdings plus supply)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.graph = g = turn_graph()
        self.at = Positions(total)
        self.W = array.array("d", [0.5]) * self.at.size
        n_states = len(g.states)
        # Per state: value, lassos >= 3, dice left; the order to evaluate in.
        self.meta = [(s[2], s[3] >= STEAL_LASSOS, s[1]) for s in g.states]
        self.order = [i for i in range(n_states) if g.states[i][1] > 0]
        self.max_value = max(s[2] for s in g.states)
        self.denoms = [float(6 ** s[1]) for s in g.states]

    def start(self, a: int, b: int, s: int) -> float:
        if s <= 0:
            return _end(a, b)
        return self.W[self.at.index(a, b, s)]

    def turn(self, a: int, b: int, s: int) -> tuple[list[float], list[float]]:
        """(value of each turn state, chance of rolling on from it) at (a, b, s)."""
        payoffs = _payoffs(self.start, self.max_value, a, b, s)
        return _turn(self.graph, self.meta, self.order, self.denoms, *payoffs)

    def solve(self, progress=None) -> int:
        """Solve every position; returns the number of position evaluations.

        Takes lower the supply; busts and steals keep both the supply and the
        nuggets held by the two players together, so each (supply, held) line is a
        fixed point of its own, solved after every line of lower supply."""
        start = self.graph.start
        W, index = self.W, self.at.index
        evaluations = 0
        for s in range(1, self.total + 1):
            sweeps = 0
            for m in range(self.total - s + 1):
                while True:
                    sweeps += 1
                    change = 0.0
                    for a in range(m + 1):
                        b = m - a
                        _, R = self.turn(a, b, s)
                        new = R[start]
                        i = index(a, b, s)
                        change = max(change, abs(new - W[i]))
                        W[i] = new
                    evaluations += m + 1
                    if change < TOLERANCE:
                        break
            if progress is not None:
                progress(s, sweeps)
        return evaluations


def _payoffs(start, max_value: int, a: int, b: int, s: int):
    """Stop payoffs at (a, b, s) by value, without and with a steal (index
    v*2 + steal), for dice left and for all seven aside (the bonus turn), and the
    bust; ``start(a, b, s)`` gives the chance to win at a turn start."""
    stop, bonus = [], []
    for v in range(max_value + 1):
        t = min(v, s)
        if t == s:
            take = take_bonus = _end(a + t, b)
        else:
            take = 1.0 - start(b, a + t, s - t)
            take_bonus = start(a + t, b, s - t)
        k = min(v, b)
        steal = max(take, 1.0 - start(b - k, a + k, s))
        steal_bonus = max(take_bonus, start(a + k, b - k, s))
        stop += (take, steal)
        bonus += (take_bonus, steal_bonus)
    return stop, bonus, 1.0 - start(b, a, s)


@functools.cache
def _prepared() -> dict[int, tuple]:
    """Per state of the turn graph with dice left: bust weight, the weights and
    children of rolls with one choice, and (weight, getter of the children) of rolls
    with several (the form the inner loop of `_turn` reads fastest)."""
    out = {}
    for i, (busts, groups) in turn_graph().rolls.items():
        single = [(w, kids[0]) for w, kids in groups if len(kids) == 1]
        several = [(w, operator.itemgetter(*kids)) for w, kids in groups if len(kids) > 1]
        out[i] = (busts, [w for w, _ in single], [k for _, k in single], several)
    return out


def _turn(g, meta, order, denoms, stop, bonus, bust):
    """The turn as optimal stopping, given the payoffs of stopping by value (and
    steal), of a bonus turn and of a bust: (value of each state, rolling on)."""
    n_states = len(g.states)
    V = [0.0] * n_states
    R = [0.0] * n_states
    for i in range(n_states):
        v, steal, n = meta[i]
        if n:
            break
        V[i] = bonus[2 * v + steal]
    prepared = _prepared()
    mul, at = operator.mul, V.__getitem__
    for i in order:
        busts, weights, kids, several = prepared[i]
        total = busts * bust + sum(map(mul, weights, map(at, kids)))
        for w, get in several:
            total += w * max(get(V))
        r = total / denoms[i]
        R[i] = r
        v, steal, _ = meta[i]
        p = stop[2 * v + steal]
        V[i] = r if r > p else p
    return V, R


@functools.cache
def _compiled_turn():
    """`_turn` written out as one straight-line function of the payoffs (generated
    from the turn graph once, on first use): every turn state is a local variable
    and every roll group a term, so a turn costs no list indexing, no loop and no
    tuple per group. It computes exactly what `_turn` computes, in the same order
    of operations, so the results are the same floats (tests compare them)."""
    g = turn_graph()
    prepared = _prepared()
    meta = [(s[2], s[3] >= STEAL_LASSOS, s[1]) for s in g.states]
    slots = 2 * (max(s[2] for s in g.states) + 1)
    pay = ", ".join(f"s{j}" for j in range(slots))
    bon = ", ".join(f"b{j}" for j in range(slots))
    lines = [
        "def _turn_compiled(stop, bonus, bust):",
        f"    {pay}, = stop",
        f"    {bon}, = bonus",
    ]
    for i, (v, steal, n) in enumerate(meta):
        if n == 0:
            lines.append(f"    v{i} = b{2 * v + int(steal)}")
    for i in range(len(g.states)):
        v, steal, n = meta[i]
        if n == 0:
            continue
        busts, weights, kids, several = prepared[i]
        singles = " + ".join(f"{w} * v{k}" for w, k in zip(weights, kids, strict=True)) or "0"
        lines.append(f"    t = {busts} * bust + ({singles})")
        for w, kids_of in g.rolls[i][1]:
            if len(kids_of) > 1:
                # the best of the set-asides, as compares (no call of max, no tuple)
                lines.append(f"    m = v{kids_of[0]}")
                lines += [f"    if v{k} > m: m = v{k}" for k in kids_of[1:]]
                lines.append(f"    t += {w} * m")
        lines.append(f"    r{i} = t / {6 ** n}")
        p = f"s{2 * v + int(steal)}"
        lines.append(f"    v{i} = r{i} if r{i} > {p} else {p}")
    V = ", ".join(f"v{i}" for i in range(len(g.states)))
    R = ", ".join("0.0" if meta[i][2] == 0 else f"r{i}" for i in range(len(g.states)))
    lines.append(f"    return [{V}], [{R}]")
    return _compiled(lines, "_turn_compiled", "turn")


# --- the table -------------------------------------------------------------------------


def build(total: int = TOTAL, path: Path | None = TABLE_PATH, progress=None) -> DuelTable:
    """Solve every position of up to ``total`` nuggets and (when ``path``) write the
    table: the chance to win at every turn start, and of rolling on from every
    turn state at the positions of exactly ``total`` (the standard game)."""
    solver = _Solver(total)
    solver.solve(progress)
    g = solver.graph
    rows = _rows(g)
    rolls = array.array("f")
    for a in range(total):
        for b in range(total - a):
            _, R = solver.turn(a, b, total - a - b)
            rolls.extend(R[i] for i in rows)
    result = DuelTable(total, solver.W, rolls, {g.states[i]: j for j, i in enumerate(rows)})
    if path is not None:
        header = MAGIC + total.to_bytes(2, "little") + len(rows).to_bytes(2, "little")
        body = solver.W.tobytes() + rolls.tobytes()
        path.write_bytes(header + zlib.compress(body, 9))
    return result


def _rows(g: TurnGraph) -> list[int]:
    """The turn states whose chance of rolling on the table stores."""
    return sorted(i for i in g.rolls if i != g.start)


def _position(total: int, a: int, b: int) -> int:
    """Index of (a, b), a + b < total, in the order a ascending then b ascending."""
    return a * total - a * (a - 1) // 2 + b


class DuelTable:
    """The solved 2-player game: the chance to win at every turn start, and of
    rolling on from every turn state in the standard game (holdings plus supply
    equal to ``total``); other games of fewer nuggets solve a turn on demand."""

    def __init__(self, total: int, starts, rolls, row: Mapping[TurnState, int]) -> None:
        self.total = total
        self.at = Positions(total)
        self.starts = starts  # float64 per position (Positions order)
        self.rolls = rolls  # float32 per standard position and stored turn state
        self.row = row
        g = turn_graph()
        self._turn_args = (
            g,
            [(s[2], s[3] >= STEAL_LASSOS, s[1]) for s in g.states],
            [i for i in range(len(g.states)) if g.states[i][1] > 0],
            [float(6 ** s[1]) for s in g.states],
        )
        self._turns: dict[tuple[int, int, int], list[float]] = {}

    def start(self, mine: int, theirs: int, supply: int) -> float:
        """Chance that the player about to start a turn at this position wins."""
        if supply <= 0:
            return _end(mine, theirs)
        return self.starts[self.at.index(mine, theirs, supply)]

    def roll(self, mine: int, theirs: int, supply: int, state: TurnState) -> float:
        """Chance to win of rolling on from turn ``state`` and then playing best."""
        if state == (0, DICE, 0, 0):
            return self.start(mine, theirs, supply)
        if mine + theirs + supply == self.total:
            at = _position(self.total, mine, theirs) * len(self.row) + self.row[state]
            return self.rolls[at]
        R = self._turns.get((mine, theirs, supply))
        if R is None:
            max_value = max(s[2] for s in self._turn_args[0].states)
            payoffs = _payoffs(self.start, max_value, mine, theirs, supply)
            _, R = _compiled_turn()(*payoffs)
            if len(self._turns) > 4096:
                self._turns.clear()
            self._turns[mine, theirs, supply] = R
        return R[self._turn_args[0].index[state]]

    def stops(
        self, mine: int, theirs: int, supply: int, state: TurnState
    ) -> tuple[float, float | None]:
        """Chances to win of stopping now by taking from the supply, and by stealing
        (None without three lassos)."""
        _, n, v, lassos = state
        t = min(v, supply)
        bonus = n == 0
        if t == supply:
            take = _end(mine + t, theirs)
        elif bonus:
            take = self.start(mine + t, theirs, supply - t)
        else:
            take = 1.0 - self.start(theirs, mine + t, supply - t)
        if lassos < STEAL_LASSOS:
            return take, None
        k = min(v, theirs)
        if bonus:
            return take, self.start(mine + k, theirs - k, supply)
        return take, 1.0 - self.start(theirs - k, mine + k, supply)

    def stop(
        self, mine: int, theirs: int, supply: int, state: TurnState
    ) -> tuple[float, bool]:
        """Chance to win of stopping now, and whether the best stop steals."""
        take, steal = self.stops(mine, theirs, supply, state)
        if steal is not None and steal > take:
            return steal, True
        return take, False

    def value(self, mine: int, theirs: int, supply: int, state: TurnState) -> float:
        """Chance to win at a turn state, choosing the better of stopping and rolling."""
        stop, _ = self.stop(mine, theirs, supply, state)
        if state[1] == 0:
            return stop
        return max(stop, self.roll(mine, theirs, supply, state))


@functools.cache
def table() -> DuelTable:
    """The shipped table (loaded once per process); `TableMissing` if not built."""
    try:
        data = TABLE_PATH.read_bytes()
    except FileNotFoundError:
        raise TableMissing(
            f"no 2-player table at {TABLE_PATH}: build it with python -m nuggets.duel --build"
        ) from None
    if data[:8] != MAGIC:
        raise TableMissing(f"{TABLE_PATH} is not a 2-player table (wrong header)")
    total = int.from_bytes(data[8:10], "little")
    rows = int.from_bytes(data[10:12], "little")
    body = zlib.decompress(data[12:])
    positions = Positions(total).size
    starts = array.array("d")
    starts.frombytes(body[: 8 * positions])
    rolls = array.array("f")
    rolls.frombytes(body[8 * positions :])
    g = turn_graph()
    stored = _rows(g)
    if len(stored) != rows or len(rolls) != total * (total + 1) // 2 * rows:
        raise TableMissing(f"{TABLE_PATH} does not match this turn graph: rebuild it")
    _compiled_turn()  # so that the first turn solved on demand does not pay for it
    for k in WRITTEN_SIZES:  # nor the first 3-5 player query at a seat
        for me in range(k):
            _PAYOFFS[k, me], _UNROLLED[k, me]
    return DuelTable(total, starts, rolls, {g.states[i]: j for j, i in enumerate(stored)})


def turn_state(kept: Iterable[Face | str]) -> TurnState:
    """The turn state of the dice ``kept`` this turn (checked like `nuggets.odds`)."""
    from nuggets.odds import _state

    faces = _faces(kept)
    mask, n, v = _state(faces)
    lassos = min(STEAL_LASSOS, sum(1 for f in faces if f is Face.LASSO))
    return (mask, n, v, lassos)


# --- more than two players: the estimate ------------------------------------------------


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


def _compiled(lines: list[str], name: str, label: str):
    """The function ``name`` that ``lines`` define (``label`` names them in tracebacks)."""
    namespace: dict = {}
    exec(compile("\n".join(lines), f"<nuggets.duel {label}>", "exec"), namespace)
    return namespace[name]


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


# --- chances for a view ------------------------------------------------------------------


@dataclass(frozen=True)
class Chances:
    """Chances to win (0..1) for the seat to act: of stopping now (None when it may
    not stop) and of rolling on (None when it may not roll). ``steal_from`` is the
    seat the better stop takes from (None: the supply). ``exact``: the 2-player
    solution; otherwise the estimate for three or more players. ``take``: the chance
    of stopping by taking from the supply, which is ``stop`` unless the better stop
    steals."""

    stop: float | None
    roll: float | None
    steal_from: int | None = None
    exact: bool = True
    take: float | None = None


class _Judge:
    """Chances to win at the turn states of the seat to act in a view."""

    def __init__(self, view: Mapping, kind: str = "mixed") -> None:
        holdings = [int(h) for h in view["holdings"]]
        self.me = me = view["current"]
        self.supply = supply = int(view["supply"])
        self.exact = len(holdings) == 2
        t = table()
        if supply + sum(holdings) > t.total:
            raise NotCovered(
                f"the chances to win are solved for games of up to {t.total} nuggets, "
                f"not {supply + sum(holdings)}"
            )
        if self.exact:
            self.mine, self.theirs = holdings[me], holdings[1 - me]
            self.table = t
            self.shown = None
        else:
            players, correction = len(holdings), calibration.load()
            key = calibration.map_key("turn", kind)
            self.shown = lambda p: correction.apply(key, players, p)
            self.turn = _multi_turn(tuple(holdings), supply, me)
            self.index = turn_graph().index

    def stops(self, state: TurnState) -> tuple[float, float | None, int | None]:
        """Chances to win of taking from the supply and of the best steal (None
        without three lassos), and whom that steal takes from."""
        if self.exact:
            take, steal = self.table.stops(self.mine, self.theirs, self.supply, state)
            return take, steal, (None if steal is None else 1 - self.me)
        _, n, v, lassos = state
        pay = self.turn.bonus_payoffs if n == 0 else self.turn.stop_payoffs
        take, steal = pay[2 * v], pay[2 * v + 1]
        if lassos < STEAL_LASSOS:
            return take, None, None
        return take, steal, self.turn.victims[v][n == 0]

    def stop(self, state: TurnState) -> tuple[float, int | None]:
        take, steal, victim = self.stops(state)
        if steal is not None and steal > take:
            return steal, victim
        return take, None

    def roll(self, state: TurnState) -> float:
        if self.exact:
            return self.table.roll(self.mine, self.theirs, self.supply, state)
        return self.turn.R[self.index[state]]

    def value(self, state: TurnState) -> float:
        stop, _ = self.stop(state)
        return stop if state[1] == 0 else max(stop, self.roll(state))


class NotCovered(ValueError):
    """A position the chances to win do not cover (a game of more than 77 nuggets)."""


def chances(
    view: Mapping, kept: Iterable[Face | str] | None = None, kind: str = "mixed"
) -> Chances | None:
    """Chances to win for the seat to act in ``view`` (2 to 5 players), at the dice
    set aside (``kept``, by default the view's): exact with two players, an estimate
    with more, calibrated for the ``kind`` of table ("mixed" or "strong", see
    `nuggets.calibration.table_kind`). None when the game is over or the view awaits a
    set-aside and no ``kept`` is given. Raises `NotCovered` for games of more than 77
    nuggets."""
    phase = view["phase"]
    if phase == "over" or (phase == "keep" and kept is None):
        return None
    judge = _Judge(view, kind)
    raw = _raw_chances(judge, turn_state(view["kept"] if kept is None else kept))
    if judge.exact:
        return raw
    shown = judge.shown
    # Every figure goes through the same increasing map, so the panel orders stop,
    # take and roll on as the raw chances (and the bots) do. The map keeps 0 and 1; a
    # take that ends the game in a shared win (exactly 1/k) is shown mapped too.
    return Chances(
        None if raw.stop is None else shown(raw.stop),
        None if raw.roll is None else shown(raw.roll),
        raw.steal_from,
        False,
        None if raw.take is None else shown(raw.take),
    )


def _raw_chances(judge: _Judge, state: TurnState) -> Chances:
    """`chances` before the calibration (what the choices compare: the calibration
    keeps the order of chances, but comparing the raw ones keeps even ties)."""
    if state == (0, DICE, 0, 0):
        return Chances(None, judge.roll(state), None, judge.exact)
    take, steal, victim = judge.stops(state)
    stop = take
    if steal is not None and steal > take:
        stop = steal
    else:
        victim = None
    roll = None if state[1] == 0 else judge.roll(state)
    return Chances(stop, roll, victim, judge.exact, take)


def best_keep(
    view: Mapping, kind: str = "mixed"
) -> tuple[tuple[Face, ...], float] | None:
    """The set-aside from the view's roll with the best chance to win, and that
    chance (calibrated for the ``kind`` of table, as `chances`); None when the roll
    busts. The choice compares the raw chances, so it is the same at every kind."""
    judge = _Judge(view, kind)
    g = turn_graph()
    state = turn_state(view["kept"])
    counts = tuple(list(_faces(view["rolled"])).count(f) for f in FACES)
    options = g.options.get((g.index[state], counts), ())
    best, top = None, -1.0
    for child, take in options:
        chance = judge.value(g.states[child])
        if chance > top:
            best, top = take, chance
    if best is None:
        return None
    shown = top if judge.exact else judge.shown(top)
    return tuple(f for f, c in zip(FACES, best, strict=True) for _ in range(c)), shown


def best_action(view: Mapping) -> Roll | Keep | Stop | None:
    """The action with the best chance to win for the seat to act (None: a bust or
    the game is over). Ties between stopping and rolling on go to stopping."""
    phase = view["phase"]
    if phase == "over":
        return None
    if phase == "roll":
        return Roll()
    if phase == "keep":
        best = best_keep(view)
        return None if best is None else Keep(best[0])
    c = _raw_chances(_Judge(view), turn_state(view["kept"]))
    if c.roll is not None and c.roll > c.stop:
        return Roll()
    return Stop(c.steal_from)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m nuggets.duel", description="Build the 2-player win-chance table."
    )
    parser.add_argument("--build", action="store_true", help=f"solve and write {TABLE_PATH}")
    parser.add_argument("--total", type=int, default=TOTAL, help="nuggets in the game")
    args = parser.parse_args(argv)
    if not args.build:
        g = turn_graph()
        pairs = sum(len(k) for _, gs in g.rolls.values() for _, k in gs)
        groups = sum(len(gs) for _, gs in g.rolls.values())
        print(f"{len(g.states)} turn states, {len(g.rolls)} with dice left, "
              f"{groups} roll groups, {pairs} options")
        return 0
    began = time.perf_counter()

    def progress(s: int, sweeps: int) -> None:
        print(f"supply {s}: {sweeps} sweeps, {time.perf_counter() - began:.0f} s", flush=True)

    path = TABLE_PATH if args.total == TOTAL else None  # smaller totals: timing only
    build(args.total, path, progress)
    print(f"solved in {time.perf_counter() - began:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
