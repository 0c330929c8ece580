"""The LAN: hosting a table others join (or restoring the saved ones), and joining one."""

from __future__ import annotations

from typing import Any

from net.catalogue import games
from tui.flows.base import Flow
from tui.flows.messages import FindGame, JoinGame, OpenFlow


class HostFlow(Flow):
    """Host a LAN game: offer to restore the saved tables if there are any, then ask
    where to listen."""

    def open(self, message: OpenFlow) -> None:
        from tui.screens.common import PickScreen

        app = self.app
        saves, problems = app.saves.lan_tables()
        choices = [(i, spec.label) for i, spec in enumerate(games())]

        def chosen(index: int | None) -> None:
            if index is not None:
                spec = games()[index]
                self.ask_where(f"Host {spec.title}", spec.key, ())

        def restore_or_new(index: int | None) -> None:
            if index == 0:
                self.ask_where("Restore the saved tables", None, saves)
                return
            if index == 2:
                app.saves.abandon(saves)
                app.notify("The saved tables are kept as abandoned games, for replays.")
            if index in (1, 2):
                app.push_screen(PickScreen("Host which game?", choices), chosen)

        if problems:
            app.notify(problems[0], severity="warning")
        if not saves:
            app.push_screen(PickScreen("Host which game?", choices), chosen)
            return
        listed = "; ".join(saved.describe() for saved in saves[:3])
        app.push_screen(PickScreen(f"Saved LAN tables: {listed}", [
            (0, f"Restore {len(saves)} saved table{'s' if len(saves) > 1 else ''}: "
                "players come back to their seats"),
            (1, "Start a new table (keep the saves)"),
            (2, "Start a new table and give up the saved ones"),
        ]), restore_or_new)

    def ask_where(self, title: str, game: str | None, saves: Any) -> None:
        """The port and interface to listen on (defaults: 7777, all interfaces)."""
        from tui import modes
        from tui.screens.forms import HostScreen

        def answered(where: tuple[int, str | None] | None) -> None:
            if where is None:
                return
            options = self.launch_options()
            options.lan_port, options.lan_bind = where
            self.launch(modes.lan_host(options, game, saves))

        self.app.push_screen(HostScreen(title, self.app.lan_port, self.app.lan_bind), answered)


class JoinFlow(Flow):
    """The join form (tables found on the network, or an address), and the join."""

    def open(self, message: OpenFlow) -> None:
        if isinstance(message, FindGame):
            from tui.screens.join import JoinScreen

            self.app.push_screen(JoinScreen())
        elif isinstance(message, JoinGame):
            from tui import modes

            self.launch(modes.join(self.launch_options(), message.host, message.port,
                                   spectate=message.watch))
