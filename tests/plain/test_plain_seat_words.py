"""The plain seat's words as its players met them (issue 58, finding 6), at a real
table on a fake clock: help names what works (``r`` rolls in a game; no field name
such as ``steal_from``; only this game's questions, in a short line), a take says the
supply and the scores, and a game's end says the totals and offers another."""

from __future__ import annotations

import pytest

from net import protocol as p

from .driver import answer, local_seat, step

pytestmark = pytest.mark.timeout(120)


async def _my_turn(seat, session, clock) -> None:
    for _ in range(2000):
        view = seat.view
        if view is not None and view.current in seat.seats and view.phase == "roll":
            return
        await step(session, clock)
    raise AssertionError("never Ann's turn")


async def test_help_in_a_game_names_what_works_in_few_words():
    seat, session, clock, out = await local_seat("nuggets", "words-1", bot_pace=0.5)
    await _my_turn(seat, session, clock)
    said = len(out.getvalue().splitlines())
    await seat.command("help")
    lines = out.getvalue().splitlines()[said:]
    assert lines[0].startswith("roll: ") and "(or r)" in lines[0], lines
    questions = lines[-1]
    assert questions.startswith("Questions: ") and len(questions) <= 120, questions
    assert "hand" not in questions, questions  # Fool's Gold's question
    assert "dice" in questions and "scores" in questions, questions
    await seat.command("r")  # in a game r rolls (in a lobby it says ready)
    assert [m.move for m in session.sent if isinstance(m, p.Move)] == ["roll"]
    await session.close()


async def test_help_never_reads_out_a_fields_name():
    seat, session, clock, out = await local_seat("nuggets", "words-2", bot_pace=0.5)
    await _my_turn(seat, session, clock)
    said = len(out.getvalue().splitlines())
    await seat.command("help stop")
    line = out.getvalue().splitlines()[said]
    assert "steal_from" not in line and line.startswith("stop [NAME]: "), line
    await session.close()


async def test_a_take_says_the_supply_and_a_games_end_the_totals_and_another_game():
    seat, session, clock, out = await local_seat("nuggets", "words-3", bot_pace=0.5,
                                                 supply=6)
    read = 0
    for _ in range(20_000):
        if seat.over:
            break
        lines = out.getvalue().splitlines()
        for line in lines[read:]:
            typed = answer(line)
            if typed is not None and typed != "leave":
                await seat.command(typed)
        read = len(lines)
        await step(session, clock)
    lines = out.getvalue().splitlines()
    took = [i for i, line in enumerate(lines) if " took " in line]
    assert took and all(lines[i + 1].startswith("Supply ") for i in took), lines
    over = next(i for i, line in enumerate(lines) if line.startswith("Game over: "))
    assert lines[over + 1].startswith("Totals: Supply "), lines[over:]
    assert lines[over + 2].startswith("Type again for another game"), lines[over:]
    await seat.command("again")
    assert seat.again and seat.leaving  # the seat's runner opens the same game again
    await session.close()
