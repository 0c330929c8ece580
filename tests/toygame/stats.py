"""Pig Dice in the player stats (``net.saves.stats``): its own statistics, declared
with the game (``SPEC.stats``) and stored with no change to the saves' schema."""

from __future__ import annotations

from typing import Any

#: the events this game's tally reads
COUNTED = frozenset(("pig_doubled", "pig_banked"))


def step(tally: Any, driver: Any, event: dict[str, Any]) -> None:
    kind, seat = event.get("type"), event.get("seat")
    if kind == "pig_doubled":
        tally.add("doubles", seat)
    elif kind == "pig_banked":
        tally.add("banked", seat, int(event.get("amount", 0)))


#: (heading, width, value of a ``PlayerStats``), after "played" and "won"
COLUMNS = (
    ("doubles", 7, lambda r: r.doubles),
    ("banked", 6, lambda r: r.banked),
)
