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

The turn states and their rolls are `nuggets.turns`'. With three to five players,
`nuggets.multi` combines the exact 2-player chances into an estimate; the chances a
view shows are `nuggets.chances`'.
"""

from __future__ import annotations

import argparse
import array
import functools
import operator
import sys
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from nuggets.rules import DICE, STARTING_SUPPLY
from nuggets.turns import STEAL_LASSOS, TurnGraph, TurnState, turn_graph

__all__ = [
    "TOTAL",
    "DuelTable",
    "NotCovered",
    "TableMissing",
    "build",
    "table",
    "warm_with",
]

TOTAL = STARTING_SUPPLY  # the nuggets of the solved game: holdings plus supply
TABLE_PATH = Path(__file__).with_name("duel.bin")
MAGIC = b"NUGDUEL1"
TOLERANCE = 1e-12

#: what the table's loading warms beside it (``warm_with``), so that the first query of
#: a player's turn does not pay for it
_WARM: list[Callable[[], None]] = []


def warm_with(warm: Callable[[], None]) -> None:
    """Have :func:`table` call ``warm`` once it has loaded (`nuggets.multi` writes out
    its code for 3-5 players so); at once if it has."""
    _WARM.append(warm)
    if table.cache_info().currsize:
        warm()


class TableMissing(RuntimeError):
    """The 2-player table has not been built (``python -m nuggets.duel --build``)."""



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


def _compiled(lines: list[str], name: str, label: str):
    """The function ``name`` that ``lines`` define (``label`` names them in tracebacks)."""
    namespace: dict = {}
    exec(compile("\n".join(lines), f"<nuggets.duel {label}>", "exec"), namespace)
    return namespace[name]


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
    for warm in _WARM:  # nor the first 3-5 player query at a seat
        warm()
    return DuelTable(total, starts, rolls, {g.states[i]: j for j, i in enumerate(stored)})


class NotCovered(ValueError):
    """A position the chances to win do not cover (a game of more than 77 nuggets)."""


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
