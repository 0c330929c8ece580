"""The turns of Gold Nuggets as a graph: every turn state reachable from a fresh turn
(the numbers set aside, the dice left, the value so far and the lassos, capped at
three), and for each with dice left, its rolls as multisets of faces with their
weights and the set-asides each allows (N3). The 2-player solution (`nuggets.duel`),
the estimate for more players (`nuggets.multi`) and the chances of a view
(`nuggets.chances`) all walk it."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from nuggets.odds import _multisets, _takes, _weight
from nuggets.rules import DICE, Face, _faces

__all__ = ["STEAL_LASSOS", "TurnGraph", "TurnState", "turn_graph", "turn_state"]

STEAL_LASSOS = 3

# A turn state: (numbers set aside as bits 2->1 3->2 4->4 5->8, dice left, value,
# lassos capped at 3).
TurnState = tuple[int, int, int, int]


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


def turn_state(kept: Iterable[Face | str]) -> TurnState:
    """The turn state of the dice ``kept`` this turn (checked like `nuggets.odds`)."""
    from nuggets.odds import _state

    faces = _faces(kept)
    mask, n, v = _state(faces)
    lassos = min(STEAL_LASSOS, sum(1 for f in faces if f is Face.LASSO))
    return (mask, n, v, lassos)

