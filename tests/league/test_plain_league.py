"""The plain seat: after a rated game the change comes as one line ("Rated: ..."), and
``league`` answers with the standings of the game, as lines (a real ``motherlode solo
--plain`` process: this machine's own league, its in-process seat rated by name)."""

from __future__ import annotations

import pytest

from tests.plain.driver import OVER
from tests.plain.helpers import finish, process
from tests.plain.helpers import seat as _seat

pytestmark = pytest.mark.timeout(240)


@pytest.mark.slow
async def test_the_rated_line_then_league_at_the_plain_seat():
    proc = await process("solo", "--plain", "--game", "nuggets", "--bot-pace", "0",
                          "--seed", "plain-league", "--name", "Ann")
    seat = _seat(proc)

    def also(line: str) -> str | None:
        if OVER.match(line):
            return ""  # not leaving yet: the rating comes after the game's end
        if line.startswith("Rated: "):
            return "league"
        if "Normal bot" in line and "new (1 of 10)" in line:
            return "leave"
        return None

    await seat.play(timeout=60, also=also)
    await finish(proc, seat)
    rated = [line for line in seat.lines if line.startswith("Rated: ")]
    assert rated == ["Rated: Ann new, 1 of 10 games; Normal bot new, 1 of 10 games"]
    at = seat.lines.index("Gold Nuggets, all time")
    table = seat.lines[at:at + 4]
    assert table[1].split() == ["#", "player", "rating", "games", "wins", "last", "played"]
    assert {row.split()[1] for row in table[2:]} == {"Ann", "Normal"}
    assert all("new (1 of 10)" in row for row in table[2:])
