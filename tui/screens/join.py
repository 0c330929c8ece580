"""Join a LAN game: the tables found on the network, live, and a manual address."""

from __future__ import annotations

import asyncio
import contextlib

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from net.catalogue import title
from tui.flows.messages import JoinGame
from tui.keys import with_ids
from tui.screens.common import FieldInput
from tui.widgets.footer import Footer


class JoinScreen(Screen[None]):
    """Pick a discovered table with enter, or type host:port and press enter."""

    BINDINGS = with_ids("join", [
        Binding("escape", "app.pop_screen", "Back"),
        # help, even from inside a text field (a form's fields take no "?")
        Binding("question_mark", "app.help", "Keys", show=False, priority=True),
        Binding("tab", "app.focus_next", "Switch list/address", show=False),
    ])
    HELP = [
        ("up / down", "choose a table found on the network"),
        ("enter", "join the chosen table, or the address typed"),
        ("tab", "switch between the list and the address field"),
        ("esc", "back to the menu"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.found: list = []

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("Join a LAN game", classes="title")
            yield Static("Tables on your network (updated live):")
            yield OptionList(id="found")
            yield Static("Searching...", id="found-status")
            yield Static("Or type the address the host shows (host or host:port):")
            yield FieldInput(placeholder="192.168.1.20:7777", id="address")
            yield Static("", id="join-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#address", Input).focus()
        if not getattr(self.app, "discover", True):
            self.query_one("#found-status", Static).update("Discovery is off; type an address.")

    def on_screen_resume(self) -> None:
        # Browse while this screen is on top; a failed join comes back here.
        if getattr(self.app, "discover", True):
            self.browse()

    def on_screen_suspend(self) -> None:
        self.workers.cancel_group(self, "browse")

    @work(exclusive=True, group="browse")
    async def browse(self) -> None:
        from net.discovery import browse

        stream = browse(**getattr(self.app, "browse_options", {}))
        try:
            async for games in stream:
                self.show_found(games)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # discovery must never take the screen down
            self.query_one("#found-status", Static).update(
                Text(f"Discovery failed ({error}); type the address instead."))
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()

    def show_found(self, games: list) -> None:
        self.found = list(games)
        options = self.query_one("#found", OptionList)
        options.clear_options()
        for i, game in enumerate(games):
            label = Text(f"{title(game.game):<13} ")
            label.append(game.table)  # cleaned by discovery; literal text here
            label.append(f"  {game.seats_free}/{game.seats_total} free  {game.address}")
            options.add_option(Option(label, id=str(i)))
        status = f"{len(games)} found." if games else "None found yet (still looking)."
        self.query_one("#found-status", Static).update(status)

    @on(OptionList.OptionSelected, "#found")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        game = self.found[int(event.option_id or 0)]
        self._join(game.host, game.port)

    @on(Input.Submitted, "#address")
    def _typed(self, event: Input.Submitted) -> None:
        from net.address import parse_address

        try:
            host, port = parse_address(event.value)
        except ValueError as error:
            self.query_one("#join-status", Static).update(Text(f"{error}."))
            return
        self._join(host, port)

    def _join(self, host: str, port: int) -> None:
        self.query_one("#join-status", Static).update(Text(f"Connecting to {host}:{port}..."))
        self.post_message(JoinGame(host, port))
