"""A guided first game's pace (``Settings.after_guide``): the table plays its game's
guided opening at the guide's pace, then goes on at the pace the player would have had.

The change is an event of the game. The host makes it at a boundary between rounds
(``Driver.opening_over``: Fool's Gold once its first round is settled, before the next
is dealt, so the pause after it is still the guide's; Gold Nuggets at the turn after
each person's second). It is written in the game's log (an entry with ``pace``, no
action and no events), so a saved game resumes at the pace it had reached and a replay
plays the change back; and every seat is told as a change in the lobby is told: a
``notice`` ``pace`` and the ``table`` update with the new pace.
"""

from __future__ import annotations

from typing import Any

from net.games import repaced


def opening_over(table: Any, now: float) -> str | None:
    """After a change of the game (its entry logged, ``Play.changed``): a guided table
    whose opening is over goes on at its next pace now. Returns the pace it had (for
    :func:`tell`), or None if nothing changed."""
    after = table.settings.after_guide
    driver = table.driver
    if after is None or driver is None or driver.over:
        return None
    if not driver.opening_over([i for i, s in enumerate(table.seats) if s.kind != "bot"]):
        return None
    was = table.settings.pace
    table.settings.pace, table.settings.after_guide = after, None
    table.record({"at": table.clock(now), "by": "host", "action": None, "events": [],
                  "pace": after})  # fmt: skip
    driver.repace(table.spec.options_of(table.settings.own(table.game)))
    slow = table.settings.slow
    for seat in table.seats:
        if seat.brain is not None:
            seat.brain = repaced(seat.brain, slow)
    return was


def tell(table: Any, was: str) -> None:
    """Every seat and watcher hears of the change (after the game's own ``state``)."""
    pace = table.settings.pace
    table.notice("pace", table.name, None, f"{was} -> {pace}")
    table.report(f"{table.name}: the guided opening is over; pace {was} -> {pace}")
    table.update()


def game_over(table: Any) -> None:
    """A guided game that ended within its opening: the table's next game is at the
    pace that was to follow (its ``table`` update says so)."""
    after = table.settings.after_guide
    if after is not None:
        table.settings.pace, table.settings.after_guide = after, None
