"""The rematch from each seat, through the real host (issue 61): a ``motherlode serve``
process; Cy at the plain seat (``join --plain``, seat 1, the table's owner), Ann in the
app (``join``), Bob in the app over SSH. A rematch offered in the app, accepted over
SSH and in the plain seat, starts a new game with the same seats; then Cy offers one
in the plain seat, Ann declines in the app, Bob accepts over SSH, and the game starts
with Cy and Bob while Ann watches. Every seat sees every answer.

The seed fixes the dice: Cy starts, rolls 3 5 5 lasso nugget 5 4, sets the 5s aside
and takes the supply's one nugget, so each game is one turn of Cy's."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from tests.plain.driver import Seat
from tests.serve.helpers import ROOT, Player, ServeProcess
from tests.tui.harness import log_text, make_app, until
from tests.waiting import until as poll
from tui.settings import Settings

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


class Plain:
    """The plain seat as a process (``join --plain``), its lines read as they come."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.seat = Seat(proc.stdout.readline, proc.stdin.write)
        self._pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while await self.seat.line(300) is not None:
            pass

    @property
    def text(self) -> str:
        return "\n".join(self.seat.lines)

    async def wait_for(self, words: str, after: int = 0) -> int:
        """Wait for a line holding ``words`` at or after line ``after``; its index."""
        def found():
            return next((i for i, line in enumerate(self.seat.lines)
                         if i >= after and words in line), None)

        await poll(lambda: found() is not None,
                   lambda: f"{words!r} at the plain seat:\n{self.text}", 30, step=0.02)
        return found()

    def type(self, line: str) -> None:
        self.seat.send(line)


async def plain_join(port: int, home) -> Plain:
    env = dict(os.environ, HOME=str(home), MOTHERLODE_DATA_DIR=str(home))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "join", f"127.0.0.1:{port}", "--name", "Cy",
        "--plain", cwd=ROOT, env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    return Plain(proc)


async def cy_wins_a_turn(cy: Plain, after: int) -> int:
    at = await cy.wait_for("Your turn: roll", after)
    cy.type("roll")
    at = await cy.wait_for("Your turn: you rolled 3 5 5 lasso nugget 5 4", at)
    cy.type("keep 5 5 5; stop")
    return await cy.wait_for("Game over: Cy won", at)


async def test_a_rematch_offered_in_the_app_accepted_over_ssh_and_at_the_plain_seat(tmp_path):
    serve = await ServeProcess.start(tmp_path / "serve", "--game", "nuggets", "--seats", "3",
                                     "--set", "supply=1", "--seed", "walk1")
    cy = bob = None
    try:
        cy = await plain_join(serve.game_port, tmp_path / "cy")
        await cy.wait_for("Type ready when you are")
        app = make_app(tmp_path, settings=Settings(name="Ann"),
                       start=("join", "127.0.0.1", serve.game_port, False))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.screen is app.lobby,
                        "Ann in the lobby")
            bob = await Player.connect(serve.ssh_port, "bob", size=(80, 24))
            await bob.wait_for("Tables at this host")
            bob.send(b"j")
            await bob.wait_for("3. bob")
            bob.send(b"r")
            await pilot.press("r")
            cy.type("ready")
            at = await cy_wins_a_turn(cy, 0)
            await until(pilot, lambda: app.table is not None and app.table.finished,
                        "Ann sees the game over")
            await bob.wait_for("Game over: Cy won")

            # Ann offers in the app: every seat sees it
            await pilot.press("p")
            at = await cy.wait_for("Ann offers a rematch", at)
            await cy.wait_for("Rematch: type again to play it, or no to decline.", at)
            await bob.wait_for("Rematch offered by Ann; yes: Ann; waiting for Cy, bob")
            await until(pilot, lambda: "Ann offers a rematch" in log_text(app.table),
                        "Ann's own log")
            # Bob accepts over SSH, Cy at the plain seat: the game starts, same seats
            bob.send(b"p")
            at = await cy.wait_for("bob says yes to the rematch.", at)
            await until(pilot, lambda: "bob says yes" in log_text(app.table), "Bob's yes")
            first = app.table
            cy.type("again")
            at = await cy.wait_for("The rematch starts.", at)
            at = await cy.wait_for("The game starts: Gold Nuggets, Cy, Ann, bob. You play Cy.",
                                   at)
            await until(pilot, lambda: app.table is not None and app.table is not first
                        and app.table.view is not None, "Ann's new table")
            assert app.session.seats == [1]
            await bob.wait_for(r"Cy 0\s+Ann 0\s+bob 0")

            # the second game: Cy offers at the plain seat, Ann declines in the app
            at = await cy_wins_a_turn(cy, at)
            await until(pilot, lambda: app.table.finished, "Ann sees the second game over")
            await bob.wait_for("Game over: Cy won")
            cy.type("again")
            await until(pilot, lambda: "Cy offers a rematch" in log_text(app.table),
                        "Cy's offer in Ann's log")
            await bob.wait_for("Rematch offered by Cy; yes: Cy; waiting for Ann, bob")
            await pilot.press("N")
            await bob.wait_for("Ann declines the rematch")
            at = await cy.wait_for("Ann declines the rematch (the seat is freed).", at)
            bob.send(b"p")
            at = await cy.wait_for("The game starts: Gold Nuggets, Cy, bob. You play Cy.", at)
            await bob.wait_for(r"Cy 0\s+bob 0")
            # Ann's seat is free: she watches the game she declined
            await until(pilot, lambda: app.session.seats == [] and app.table is not None
                        and app.table.view is not None and "You are watching" in
                        str(app.table.query_one("#hint").render()), "Ann watching")
    finally:
        if bob is not None:
            await bob.close()
        if cy is not None:
            cy.proc.kill()
            await cy.proc.wait()
        await serve.stop()
    assert "Traceback" not in serve.output
