"""Served mode: the app as `motherlode serve` runs it for one SSH or web player.

The door started this app for one person (``motherlode served``): it says when their
line drops and comes back (SIGUSR1, SIGUSR2), and the serve host's table directory
lists its tables. The player joins, watches or starts tables there, and nothing else
(no LAN, no hot-seat, no file paths: those would run as the server's user).
"""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Any

from tui.flows.base import Flow
from tui.flows.messages import JoinGame, JoinServedTable, NewServedTable, OpenFlow


class ServedFlow(Flow):
    """The served menu, its tables, and a seat kept at this host."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.table: str | None = None  # the table a join here is for

    def begin(self, host: str, port: int, control: str, named: bool = True) -> None:
        """Served mode starts: the door's signals, then the served menu (after the
        name, when the door had none to give)."""
        import asyncio

        app = self.app
        loop = asyncio.get_running_loop()
        # the door says when its player's line drops and when they are back
        for sig, handler in ((signal.SIGUSR1, app.on_player_detached),
                             (signal.SIGUSR2, app.on_player_attached)):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, handler)
        # a door that died without hanging up (kill -9) leaves no one to: an app whose
        # server is gone ends as if its terminal closed (its pty is dead)
        door = os.getppid()
        app.set_interval(2.0, lambda: os.getppid() != door and app.on_terminal_signal())
        self._open(host, port, control, named)

    def _open(self, host: str, port: int, control: str, named: bool) -> None:
        from tui.screens.served import NameScreen, ServedMenuScreen

        app = self.app
        app.served = (host, port, control)
        self.bind_link(control)
        if named:
            app.push_screen(ServedMenuScreen(self.tables, app.settings.name))
            self._back_to_kept_seat()
            return

        # the web door's app plays from its browser's own folder: the name that browser
        # gave last time is in its settings, and a seat it holds here is taken back at
        # once (a reload, a second tab, a visit after the server restarted)
        from tui import modes

        given = app.settings.name if app.settings.named else ""
        if given and modes.kept_table(app.saves, host, port, given) is not None:
            app.push_screen(ServedMenuScreen(self.tables, given))
            self._back_to_kept_seat()
            return

        def answered(name: str | None, problem: str = "") -> None:
            from tui.settings import clean_name

            if name is None:
                app.exit(0)
                return
            cleaned = clean_name(name)
            if not cleaned:
                app.push_screen(NameScreen("Your name needs a visible character."), answered)
                return
            app.settings.name = cleaned
            app.settings.named = True
            with contextlib.suppress(OSError):  # this browser's name, for its next visit
                app.save_settings()
            app.push_screen(ServedMenuScreen(self.tables, cleaned))

        app.push_screen(NameScreen(default=given), answered)

    @staticmethod
    def bind_link(control: str) -> None:
        """Lag-fair races: the door that started this app measures the person's own
        link; every connection to the serve host is judged by that measurement."""
        from net.client import Client
        from net.served import LINK_ENV, ServedError, bind_link

        link = os.environ.get(LINK_ENV)
        if not link:
            return

        async def bind(client: Client) -> None:
            port = client.local_port
            if port is not None:
                with contextlib.suppress(ServedError):
                    await bind_link(control, link, port)

        Client.after_handshake = bind

    def _back_to_kept_seat(self) -> None:
        """A served player whose app ended while they held a seat here (the server
        restarted, their waiting app timed out) goes straight back to it."""
        from tui import modes

        assert self.app.served is not None
        host, port, _ = self.app.served
        kept = modes.kept_table(self.app.saves, host, port, self.app.settings.name)
        if kept is not None:
            self.table = kept
            self.launch(modes.join(self.launch_options(), host, port, table=kept))

    async def tables(self) -> list[Any]:
        """The serve host's tables (for the served menu); raises on a failure."""
        from net.served import ServedError, list_tables

        assert self.app.served is not None
        try:
            return await list_tables(self.app.served[2])
        except ServedError as error:
            raise RuntimeError(str(error)) from None

    def open(self, message: OpenFlow) -> None:
        from tui import modes

        assert self.app.served is not None
        host, port, _ = self.app.served
        if isinstance(message, JoinServedTable):
            self.table = message.name
            self.launch(modes.join(self.launch_options(), host, port, spectate=message.watch,
                                   table=self.table))
        elif isinstance(message, JoinGame):  # watch instead, or join again: the same table
            self.launch(modes.join(self.launch_options(), host, port, spectate=message.watch,
                                   table=self.table))
        elif isinstance(message, NewServedTable):
            self.launch(self._new_table(message.game))

    async def _new_table(self, game: str) -> Any:
        from net.served import LINK_ENV, ServedError, new_table
        from tui import modes

        assert self.app.served is not None
        host, port, control = self.app.served
        try:
            table = await new_table(control, game, self.app.settings.name,
                                    os.environ.get(LINK_ENV))
        except ServedError as error:
            raise modes.LaunchFailed("Cannot start a table", str(error)) from None
        self.table = table
        # the first person to join a table owns it: add bots and start from its lobby
        return await modes.join(self.launch_options(), host, port, table=table)
