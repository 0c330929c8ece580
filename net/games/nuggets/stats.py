"""Gold Nuggets in the player stats (``net.saves.stats``): what a tally counts of its
events, and its columns in ``motherlode stats`` and the stats screen.

Counted by seat: turns played, nuggets taken (from the supply and by steals), busts,
steals.
"""

from __future__ import annotations

from typing import Any

#: the events this game's tally reads
COUNTED = frozenset(("took", "stole", "bust"))


def step(tally: Any, driver: Any, event: dict[str, Any]) -> None:
    """Count one event (``net.saves.stats.Tally``)."""
    kind, seat = event.get("type"), event.get("seat")
    if kind == "took":
        tally.add("turns", seat)
        tally.add("gained", seat, int(event.get("amount", 0)))
    elif kind == "stole":
        tally.add("turns", seat)
        tally.add("steals", seat)
        tally.add("gained", seat, int(event.get("amount", 0)))
    elif kind == "bust":
        tally.add("turns", seat)
        tally.add("busts", seat)


def per_turn(r: Any) -> float:
    """Nuggets gained per turn played."""
    return r.gained / r.turns if r.turns else 0.0


def bust_rate(r: Any) -> float:
    return r.busts / r.turns if r.turns else 0.0


#: (heading, width, value of a ``PlayerStats``), after "played" and "won"
COLUMNS = (
    ("nuggets/turn", 12, lambda r: f"{per_turn(r):.2f}"),
    ("bust rate", 9, lambda r: f"{bust_rate(r):.0%}"),
    ("steals", 6, lambda r: r.steals),
)
