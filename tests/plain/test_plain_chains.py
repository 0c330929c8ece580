"""Commands chained with ``;`` at the plain seat, at a real table on a fake clock: each
runs against the state the one before left (the README's own ``keep 444; roll``), and
the first refusal, the seat's or the host's, stops the rest of the line and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from net import protocol as p

from .driver import local_seat, step

pytestmark = pytest.mark.timeout(120)

#: Ann's first roll at this seed holds three 4s (4 3 lasso 4 lasso 4 3)
SEED = "chain-7"


async def _at_keep(seed: str = SEED):
    """Ann's seat, at her first set-aside (she rolled when asked)."""
    seat, session, clock, out = await local_seat("nuggets", seed, bot_pace=0.5)
    for _ in range(2000):
        view = seat.view
        if view is not None and view.current in seat.seats and view.phase == "keep":
            return seat, session, clock, out
        if view is not None and view.current in seat.seats and view.phase == "roll":
            await seat.command("roll")
        await step(session, clock)
    raise AssertionError("Ann never had dice to set aside")


def _moves(session, since: int = 0) -> list[str]:
    """The moves the seat sent, from message ``since`` on."""
    return [m.move for m in session.sent[since:] if isinstance(m, p.Move)]


async def _typed(seat, session, clock, out, line: str) -> tuple[list[str], list[str]]:
    """Type ``line``; (the moves it sent, the lines said since, once the host's answer
    to its last command has arrived)."""
    said, before = len(out.getvalue().splitlines()), len(session.sent)
    await seat.command(line)
    await session.round_trip()
    await step(session, clock)
    return _moves(session, before), out.getvalue().splitlines()[said:]


async def test_the_readmes_keep_444_then_roll_works_as_written():
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    assert "`keep 444; roll`" in readme
    seat, session, clock, out = await _at_keep()
    assert sorted(seat.view.rolled).count("4") == 3
    moves, lines = await _typed(seat, session, clock, out, "keep 444; roll")
    assert moves == ["keep", "roll"], lines
    kept = next(i for i, line in enumerate(lines) if line.startswith("Ann set aside 4 4 4"))
    rolled = next(i for i, line in enumerate(lines) if line.startswith("Ann rolled"))
    assert kept < rolled, lines  # the keep, then the roll of the dice left
    assert not [line for line in lines if "cannot" in line or line.startswith("Refused")]
    assert seat.view.kept == ["4", "4", "4"] and seat.view.dice_left == 4
    await session.close()


async def test_a_word_the_seat_refuses_stops_the_rest_of_the_line():
    seat, session, clock, out = await _at_keep()
    moves, lines = await _typed(seat, session, clock, out, "keep 9 9 9; roll")
    assert moves == [], lines  # neither the keep nor the roll went
    assert lines[-1] == "The rest of the line was not run: roll.", lines
    assert seat.view.phase == "keep"
    await session.close()


async def test_a_move_the_host_refuses_stops_the_rest_of_the_line():
    """``keep 3`` reads as a face, so it goes to the host, which refuses a lone 3: the
    roll after it is never sent."""
    seat, session, clock, out = await _at_keep()
    moves, lines = await _typed(seat, session, clock, out, "keep 3; roll")
    assert moves == ["keep"], lines
    assert lines[0].startswith("Refused: "), lines
    assert lines[-1] == "The rest of the line was not run: roll.", lines
    assert seat.view.phase == "keep" and seat.view.kept == []
    await session.close()


async def test_questions_and_moves_chain_in_order():
    seat, session, clock, out = await _at_keep()
    moves, lines = await _typed(seat, session, clock, out, "keep 4 4 4; dice; scores")
    dice = next(line for line in lines if line.startswith("Rolled:") or
                line.startswith("Nothing rolled"))
    assert "Set aside: 4 4 4, worth 4. 4 dice left." in dice, lines  # after the keep
    assert lines[-1].startswith("Supply ")
    await session.close()
