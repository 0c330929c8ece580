"""Fool's Gold in the player stats (``net.saves.stats``): what a tally counts of its
events, and its columns in ``motherlode stats`` and the stats screen.

Counted by seat: rounds played, first grabs (a set claimed), bluffs (first grabs
without a set, called or not, read from the grabber's frozen hand), calls, and calls
that were right (the hand was a bluff).
"""

from __future__ import annotations

from typing import Any

from foolsgold import is_set

#: the events this game's tally reads
COUNTED = frozenset(("round_started", "grabbed", "called", "revealed"))


def step(tally: Any, driver: Any, event: dict[str, Any]) -> None:
    """Count one event; ``driver`` is the game right after it (``net.saves.stats.Tally``):
    this game's ``FoolsGoldDriver``."""
    kind, seat = event.get("type"), event.get("seat")
    if kind == "round_started":
        for i in range(tally.seats):
            tally.add("rounds", i)
    elif kind == "grabbed" and event.get("order") == 1:
        tally.add("grabs", seat)
        if not _held_set(driver, seat):
            tally.add("bluffs", seat)
    elif kind == "called":
        tally.add("calls", seat)
        tally.scratch["caller"] = seat
    elif kind == "revealed":
        caller = tally.scratch.pop("caller", None)
        if not event.get("set") and caller is not None:
            tally.add("calls_right", caller)


def _held_set(driver: Any, seat: Any) -> bool:
    # hands freeze at the first grab, so the hand now is the hand grabbed on
    round_ = driver.match.round
    if round_ is None or not isinstance(seat, int) or not 0 <= seat < len(round_.hands):
        return True  # not knowable: not counted as a bluff
    return is_set(round_.hands[seat])


#: (heading, width, value of a ``PlayerStats``), after "played" and "won"
COLUMNS = (
    ("grabs", 6, lambda r: r.grabs),
    ("bluffs", 6, lambda r: r.bluffs),
    ("calls", 5, lambda r: r.calls),
    ("right", 5, lambda r: r.calls_right),
)
