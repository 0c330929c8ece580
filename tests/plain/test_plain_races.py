"""A race a listener can win. A player at a screen reader's pace, a script acting only
on the lines it reads (2-3.5 s a move, 1.2-2.2 s after a ``Race:`` line), at the plain
seat's own table for solo Fool's Gold (three bots), on a fake clock: it grabs a nugget
in at least 5 of 10 races a bot starts. The seat starts relaxed unless asked otherwise,
and tells a player how long a race lasts before the game starts."""

from __future__ import annotations

import random

import pytest

from tui.plain import SOLO_PACE, solo_options

from .driver import answer, local_seat, step

pytestmark = pytest.mark.timeout(300)

MOVE = (2.0, 3.5)  # seconds a listener takes to act on a "Your move:" line
RACE = (1.2, 2.2)  # and on a "Race:" line


class Listener:
    """Reads the seat's new lines; acts on the latest that asks for it, a while later."""

    def __init__(self, seat, out, rng: random.Random) -> None:
        self.seat, self.out, self.rng = seat, out, rng
        self.read = 0
        self.due: tuple[float, str] | None = None

    def hear(self, now: float) -> None:
        lines = self.out.getvalue().splitlines()
        new, self.read = lines[self.read:], len(lines)
        for line in new:
            if line.startswith("Race:") and "grab a nugget: grab" in line:
                self.due = (now + self.rng.uniform(*RACE), "grab")
            elif line.startswith("Your move:") and (self.due is None or self.due[1] != "grab"):
                typed = answer(line)
                if typed is not None:
                    self.due = (now + self.rng.uniform(*MOVE), typed)

    async def act(self, now: float) -> None:
        if self.due is not None and self.due[0] <= now:
            _, typed = self.due
            self.due = None
            await self.seat.command(typed)
            if self.seat.prompted and typed != "grab":  # the prompt stands: act on it again
                self.due = (now + self.rng.uniform(*MOVE), answer(self.seat.prompted) or "hand")


async def _races(seed: str, options: dict, wanted: int) -> list[bool]:
    """Per race a bot started at this table, whether the listener got a nugget."""
    seat, session, clock, out = await local_seat("foolsgold", seed, bots=3, **options)
    player = Listener(seat, out, random.Random(seed))
    results: dict[int, bool] = {}
    try:
        for _ in range(200_000):
            view = seat.view
            if view is not None and view.grabbed and view.grabbed[0][0] not in seat.seats:
                results[view.round_no] = any(s in seat.seats for s, _ in view.grabbed)
            if len(results) >= wanted or (view is not None and view.winner is not None):
                break
            player.hear(clock.now())
            await player.act(clock.now())
            await step(session, clock, upto=player.due[0] if player.due else None)
    finally:
        await session.close()
    return list(results.values())


async def test_a_listener_wins_a_nugget_in_half_the_races_a_bot_starts():
    options = solo_options(None)
    assert options["pace"] == SOLO_PACE == "relaxed"
    won: list[bool] = []
    for n in range(8):  # a match ends at 3 points: more matches until 10 races
        won += await _races(f"listener-{n}", options, 10 - len(won))
        if len(won) >= 10:
            break
    assert len(won) >= 10, won
    assert sum(won[:10]) >= 5, won[:10]


def test_solo_at_the_plain_seat_is_relaxed_unless_asked_otherwise():
    assert solo_options(None)["pace"] == "relaxed"
    assert solo_options({"pace": "normal"})["pace"] == "normal"  # --pace normal
    assert solo_options(None, "steady")["pace"] == "steady"  # the menu's "1 steady"
