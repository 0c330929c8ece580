"""A guided game's pace change reaches the plain seat (issue 58, finding 5): when the
guided round is over the seat hears that the rest of the game is at normal pace, and
how long a race lasts now (it was four times as long)."""

from __future__ import annotations

import pytest

from .driver import local_seat, step

pytestmark = pytest.mark.timeout(120)


async def test_the_plain_seat_hears_the_pace_change_and_the_races_now():
    seat, session, clock, out = await local_seat("foolsgold", "guided-plain", bots=2,
                                                 pace="relaxed", after_guide="normal",
                                                 bot_pace=0.5)  # fmt: skip
    grabbed = set()
    for _ in range(20_000):
        view = seat.view
        if view is not None and view.round_no >= 2 and not view.settled:
            break
        if view is not None and not view.grabbed and view.round_no not in grabbed \
                and view.hand:
            grabbed.add(view.round_no)
            await seat.command("grab")  # a race at once: the round runs to its end
        await step(session, clock)
    else:
        raise AssertionError("round 2 never came")
    lines = out.getvalue().splitlines()
    told = lines.index("The rest of the game is at normal pace (it was relaxed for the "
                       "guided round).")
    assert lines[told + 1].startswith("Races: at normal pace the bots grab within "), lines
    assert any(line.startswith("Round 2") for line in lines[told:]), lines[told:]
    assert not any(line.startswith("Round 2") for line in lines[:told])
    await seat.command("pace")  # the question: the table's pace now
    assert out.getvalue().splitlines()[-1].startswith("This table plays at normal pace."), \
        out.getvalue().splitlines()[-3:]
    await session.close()
