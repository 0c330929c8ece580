"""The plain seat's bell (issue 61): the bell character before a line that needs the
person ("Your turn: ..."), none before any other line, and none at all after
``alerts off`` (``alerts bell`` puts it back). At a real table on a fake clock."""

from __future__ import annotations

import pytest

from .driver import answer, local_seat, step

pytestmark = pytest.mark.timeout(120)


async def _turns(seat, session, clock, count: int) -> None:
    """Play on, answering as a person would (``answer``), until ``count`` more of Ann's
    turns have begun."""
    start = sum(line.startswith("Your turn: roll") for line in out_lines(seat))
    read = len(out_lines(seat))
    for _ in range(5000):
        lines = out_lines(seat)
        for line in lines[read:]:
            if (typed := answer(line)) is not None:
                await seat.command(typed)
        read = len(lines)
        if sum(line.startswith("Your turn: roll") for line in out_lines(seat)) >= start + count:
            return
        await step(session, clock)
    raise AssertionError("Ann's turns never came")


def out_lines(seat) -> list[str]:
    return seat.say.__self__.out.getvalue().splitlines()


async def test_the_bell_comes_before_each_line_that_needs_you_and_alerts_off_ends_it():
    seat, session, clock, out = await local_seat("nuggets", "alerts-1", bot_pace=0.5)
    await _turns(seat, session, clock, 1)
    rung = out.bells
    assert rung and all(line.startswith("Your turn: ") for line in rung), rung
    needing = [line for line in out.getvalue().splitlines() if line.startswith("Your turn: ")]
    assert len(rung) == len(needing)  # each line that needs Ann, and only those
    await seat.command("alerts off")
    assert out.getvalue().splitlines()[-1] == "No bell from now on."
    before = len(out.bells)
    await _turns(seat, session, clock, 1)
    assert len(out.bells) == before  # Ann's next turn: no bell
    assert sum(line.startswith("Your turn: ") for line in out.getvalue().splitlines()) \
        > len(needing)
    await seat.command("alerts bell")
    await _turns(seat, session, clock, 1)
    assert len(out.bells) > before
    await session.close()
