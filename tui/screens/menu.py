"""The main menu. (Its forms live in `tui.screens.forms`, loaded when first opened.)"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

LOGO = r"""
 __  __       _   _               _           _
|  \/  | ___ | |_| |__   ___ _ __| | ___   __| | ___
| |\/| |/ _ \| __| '_ \ / _ \ '__| |/ _ \ / _` |/ _ \
| |  | | (_) | |_| | | |  __/ |  | | (_) | (_| |  __/
|_|  |_|\___/ \__|_| |_|\___|_|  |_|\___/ \__,_|\___|
"""

MENU = [
    ("hotseat", "Gold Nuggets: hot-seat", "h"),
    ("nuggets-bots", "Gold Nuggets against bots", "n"),
    ("foolsgold-bots", "Fool's Gold against bots", "f"),
    ("host", "Host a LAN game", "o"),
    ("join", "Join a LAN game", "j"),
    ("rules", "Rules", "r"),
    ("settings", "Settings", "s"),
    ("quit", "Quit", "q"),
]


class MenuScreen(Screen[None]):
    """Where the app opens."""

    BINDINGS = [
        Binding("h", "choose('hotseat')", "Hot-seat"),
        Binding("n", "choose('nuggets-bots')", "Dice vs bots"),
        Binding("f", "choose('foolsgold-bots')", "Cards vs bots"),
        Binding("o", "choose('host')", "Host"),
        Binding("j", "choose('join')", "Join"),
        Binding("r", "choose('rules')", "Rules"),
        Binding("s", "choose('settings')", "Settings"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(LOGO.strip("\n"), id="logo")
            yield Static("Gold-rush party games for the terminal", id="tagline")
            yield OptionList(
                *(Option(Text.assemble((f"{key}  ", "bold"), label), id=ident)
                  for ident, label, key in MENU),
                id="menu",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_id or "")

    def action_choose(self, choice: str) -> None:
        self.app.menu_choice(choice)  # type: ignore[attr-defined]
