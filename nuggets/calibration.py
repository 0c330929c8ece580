"""The calibration table of the 3-5 player chance to win: loading it and applying it.

`nuggets.calibrate` builds the table (`calibration.json` beside this module) from
simulated games; `nuggets.multi` and `nuggets.chances` apply it to the chances shown.
This module only reads it (it imports nothing else of the game, so the two do not
import each other).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from pathlib import Path

__all__ = ["FORMAT", "KINDS", "KNOTS", "TABLE_PATH", "Calibration", "load", "map_key", "table_kind"]

TABLE_PATH = Path(__file__).with_name("calibration.json")
FORMAT = "nuggets.calibrate/1"
#: the raw chances at which the map is stored; in between it is linear
KNOTS = tuple(i / 40 for i in range(41))
#: the kinds of table a map is fitted to (issue 44): "mixed" bots of every level, or
#: "strong", every bot the hard one (where a person who plays well sits)
KINDS = ("mixed", "strong")
#: the bot levels (and policies) that make a table strong
STRONG = frozenset({"hard", "shrewd"})


def table_kind(bots: Iterable[str]) -> str:
    """The kind of table from its bots' levels (or policies): "strong" when it seats
    bots and every one is hard, else "mixed". The table knows this; people at it are
    not counted."""
    levels = list(bots)
    return "strong" if levels and all(level in STRONG for level in levels) else "mixed"


def map_key(which: str, kind: str = "mixed") -> str:
    """The name of a map in the table: ``which`` ("start" or "turn") for mixed
    tables, ``which:kind`` for the others."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of table {kind!r}: choose from {', '.join(KINDS)}")
    return which if kind == "mixed" else f"{which}:{kind}"


class Calibration:
    """The maps of a table: ``apply(kind, players, p)``."""

    def __init__(self, maps: dict[str, dict[int, list[float]]]) -> None:
        self.maps = maps
        n = len(KNOTS) - 1
        # per kind and size: (slope, intercept) per segment, for a fast apply
        self._segments = {
            (kind, k): [
                ((ys[i + 1] - ys[i]) * n, ys[i] - (ys[i + 1] - ys[i]) * i)
                for i in range(n)
            ]
            for kind, by_size in maps.items()
            for k, ys in by_size.items()
        }

    def apply(self, kind: str, players: int, p: float) -> float:
        """The map named ``kind`` (see `map_key`) at ``players`` applied to ``p``; the
        raw ``p`` where the table ships no such map."""
        segments = self._segments.get((kind, players))
        if segments is None:
            return p
        i = int(p * 40)
        if i >= 40:
            return 1.0 if p >= 1.0 else segments[39][0] * p + segments[39][1]
        if i < 0:
            return 0.0
        slope, intercept = segments[i]
        return slope * p + intercept


@functools.cache
def load() -> Calibration:
    """The shipped table (an identity map if it is missing)."""
    try:
        data = json.loads(TABLE_PATH.read_text())
    except FileNotFoundError:
        return Calibration({})
    if data.get("format") != FORMAT or list(data.get("knots", [])) != list(KNOTS):
        raise ValueError(f"{TABLE_PATH} is not a calibration table of this version")
    maps = {kind: {int(k): ys for k, ys in by_size.items()}
            for kind, by_size in data["maps"].items()}
    return Calibration(maps)
