"""The calibration table of the 3-5 player chance to win: loading it and applying it.

`nuggets.calibrate` builds the table (`calibration.json` beside this module) from
simulated games; `nuggets.duel` applies it to the chances it shows. This module only
reads it (it imports nothing else of the game, so the two do not import each other).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

__all__ = ["FORMAT", "KNOTS", "TABLE_PATH", "Calibration", "load"]

TABLE_PATH = Path(__file__).with_name("calibration.json")
FORMAT = "nuggets.calibrate/1"
#: the raw chances at which the map is stored; in between it is linear
KNOTS = tuple(i / 40 for i in range(41))


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
