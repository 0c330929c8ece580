"""Leaving: q at a table, stepping away from a seat, quitting, and the terminal closing.

What leaving means depends on the table, and the person is asked in words they
understand: a hot-seat game is saved, a LAN host closes the table for everyone, a
player at someone else's table steps away (the seat waits, a bot plays it) or gives
the seat up for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

from tui.flows.base import Flow

STEPPED_AWAY = (
    "Your seat is kept, and a bot plays it until you are back. To come back, join the "
    "same table again (the same address and name): you get your seat, hand and dice back."
)


class LeaveFlow(Flow):
    """Every way out of a table, and out of the app."""

    def leave(self) -> None:
        """q at a table: what leaving means here, asked in words a player understands."""
        from tui.screens.common import ConfirmScreen

        app = self.app
        session = app.session
        if session is None:
            app.return_to_menu()
            return
        table = app.table
        finished = table is not None and table.finished
        if finished and app.lobby is not None and app.screen is table:
            # a LAN game ended: back to the lobby, where the owner can start another
            app.pop_screen()
            app.table = None
            # the line above says the game is over and who starts the next: a status
            # left from before the game would only repeat or contradict it
            app.lobby.show_status("")
            return
        if finished or (session.policy.remote and table is None and not session.seats):
            app.return_to_menu()
            return
        if session.policy.remote and table is not None and session.seats:
            self.ask_step_away()
            return
        question = "Leave this table? Your seat goes to the next person who joins."
        if not session.seats:  # a watcher has no seat to give
            question = "Stop watching this table?"
        elif session.policy.hotseat:
            question = "Leave this game? It is saved: Resume it from the menu."
        elif session.policy.owns_host and session.policy.lobby:
            question = "Leave and close the table for everyone?"
        elif session.policy.owns_host:
            question = "Leave this game? It ends here."

        def answered(yes: bool | None) -> None:
            if yes:
                app.return_to_menu()

        app.push_screen(ConfirmScreen(question), answered)

    def again(self) -> object | None:
        """How this table's game is played again once it is over: "lobby" at a LAN or
        served table (its lobby, where the owner starts the next), or the message that
        opens the same game with the same players on this machine (against the same
        number of bots, or the same hot-seat players); None where nothing can."""
        from tui.flows.messages import PlayBots, StartHotseat

        app = self.app
        session = app.session
        if session is None or session.table is None:
            return None
        if app.lobby is not None:
            return "lobby"
        seats = session.table.seats
        if session.policy.hotseat:
            return StartHotseat([(s.name, s.kind == "bot") for s in seats])
        if session.policy.owns_host:
            bots = sum(s.kind == "bot" for s in seats)
            return PlayBots(session.table.game, bots) if bots else None
        return None

    def play_again(self) -> None:
        """p once a game is over: the same game again (see :meth:`again`)."""
        app = self.app
        again = self.again()
        if again is None:
            return
        if again == "lobby":
            # a table of people: offer the same game again, or accept the offer made
            # (the host starts it once every person said yes: ``net.table.rematch``)
            from net import protocol as p

            app.session.send(p.Again(answer="yes"))
            return
        app.return_to_menu()
        app.flows.open(again)

    def ask_step_away(self) -> None:
        """At someone else's table, in a game: keep the seat, or give it up."""
        from tui.screens.common import PickScreen

        app = self.app

        def answered(choice: int | None) -> None:
            if choice == 0:
                app.return_to_menu(step_away=True)
                app.show_message("You stepped away", STEPPED_AWAY)
            elif choice == 1:
                app.return_to_menu(give_up=True)

        app.push_screen(PickScreen("Leave the game?", [
            (0, "Step away: keep my seat, a bot plays until I am back"),
            (1, "Give up my seat for good: a bot finishes the game"),
            (2, "Stay at the table"),
        ]), answered)

    async def quit(self) -> None:
        """Quit, saying goodbye first: a LAN host tells its players the table closed;
        a player at someone else's table steps away (the seat waits for them)."""
        app = self.app
        if app.session is not None:
            session, app.session = app.session, None
            # at someone else's table, in a game: step away (the seat waits, played by
            # a bot); anywhere else quitting leaves as q does
            away = session.policy.remote and session.in_game and not session.finished
            closing = session.close(give_up=not away, step_away=away)
            if closing is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(closing, 2.0)
        app.exit(app.return_code or 0)

    def terminal_closed(self) -> None:
        """SIGTERM or SIGHUP: close the connection as a dropped line would (the seat
        waits for its player), and exit so the terminal is restored. A served app whose
        player cannot come back (an SSH login without a key) gives the seat up instead,
        so the others are not told it waits for them."""
        app = self.app
        if app.session is not None:
            from net.served import KEYLESS_ENV

            session, app.session = app.session, None
            leave = app.start[0] == "served" and os.environ.get(KEYLESS_ENV) == "1"
            closing = session.close(give_up=leave)
            if leave and closing is not None:
                self._leaving = asyncio.get_running_loop().create_task(
                    self._exit_after(closing))
                return
        app.exit(app.return_code or 0)

    async def _exit_after(self, closing: asyncio.Task) -> None:
        """Exit once the goodbye is sent (2 s at most: the door's hang-up waits 5)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(closing, 2.0)
        self.app.exit(self.app.return_code or 0)
