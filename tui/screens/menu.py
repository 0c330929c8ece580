"""The main menu. (Its forms live in `tui.screens.forms`, loaded when first opened.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from net.catalogue import games, hotseat_games
from tui.flows.messages import (
    FindGame,
    HostGame,
    OpenFlow,
    PlayBots,
    Quit,
    ResumeGame,
    SetUpHotseat,
    ShowLeague,
    ShowReplays,
    ShowRules,
    ShowSettings,
    ShowStats,
)
from tui.keys import add_bindings
from tui.styles import StyledAtMount
from tui.textual_internals import key_bindings
from tui.widgets.footer import Footer

if TYPE_CHECKING:
    from tui.saves import Saves

LOGO = r"""
 __  __       _   _               _           _
|  \/  | ___ | |_| |__   ___ _ __| | ___   __| | ___
| |\/| |/ _ \| __| '_ \ / _ \ '__| |/ _ \ / _` |/ _ \
| |  | | (_) | |_| | | |  __/ |  | | (_) | (_| |  __/
|_|  |_|\___/ \__|_| |_|\___|_|  |_|\___/ \__,_|\___|
"""


def menu() -> list[tuple[str, str, str]]:
    """(choice, label, key) of each line: the one game played hot-seat from the menu
    (the first that can be), then each game against bots, in the catalogue's order."""
    return [
        ("hotseat", f"{hotseat_games()[0].title}: hot-seat", "h"),
        *((f"{game.key}-bots", f"{game.title} against bots", game.letter) for game in games()),
        ("host", "Host a LAN game", "o"),
        ("join", "Join a LAN game", "j"),
        ("replays", "Replays of your games", "p"),
        ("stats", "Player stats", "t"),
        ("league", "League: ratings", "l"),
        ("rules", "Rules", "r"),
        ("settings", "Settings", "s"),
        ("quit", "Quit", "q"),
    ]


RESUME = ("resume", "Resume a saved hot-seat game", "u")


def opens() -> dict[str, Callable[[], OpenFlow]]:
    """What each of the menu's choices asks the app for."""
    return {
        "resume": ResumeGame, "hotseat": SetUpHotseat,
        **{f"{game.key}-bots": partial(PlayBots, game.key) for game in games()},
        "host": HostGame, "join": FindGame, "replays": ShowReplays, "stats": ShowStats,
        "league": ShowLeague,
        "rules": ShowRules, "settings": ShowSettings, "quit": Quit,
    }  # fmt: skip


class MenuScreen(StyledAtMount, Screen[None]):
    """Where the app opens. ``saves`` tells whether a hot-seat game waits."""

    _footer_ids: frozenset[str] | set[str] = frozenset()  # the keys its footer shows

    def __init__(self, saves: Saves) -> None:
        super().__init__()
        self.saves = saves
        # built from the games registered now (``net.catalogue``)
        self.opens = opens()
        add_bindings(self, "menu", [
            Binding("u", "choose('resume')", "Resume", show=False),
            Binding("h", "choose('hotseat')", "Hotseat"),
            *(Binding(game.letter, f"choose('{game.key}-bots')", game.short) for game in games()),
            Binding("o", "choose('host')", "Host"),
            Binding("j", "choose('join')", "Join"),
            Binding("p", "choose('replays')", "Replays", show=False),
            Binding("t", "choose('stats')", "Stats", show=False),
            Binding("l", "choose('league')", "League", show=False),
            Binding("r", "choose('rules')", "Rules"),
            Binding("s", "choose('settings')", "Settings"),
            Binding("q", "choose('quit')", "Quit"),
        ])

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(LOGO.strip("\n"), id="logo")
            yield Static("MOTHERLODE", id="menu-name")  # in place of the logo where it cannot fit
            yield Static("Gold-rush party games for the terminal", id="tagline")
            yield OptionList(*self._options(), id="menu")
        yield Footer()

    def _options(self) -> list[Option]:
        items = menu()
        waiting = self.saves.hotseat_waiting()
        if waiting:
            items.insert(0, RESUME)
        self.set_class(waiting, "-crowded")  # the name in place of the logo (.tcss)
        return [Option(Text.assemble((f"{key}  ", "bold"), label), id=ident)
                for ident, label, key in items]

    def on_screen_resume(self) -> None:
        """Back at the menu: a game saved meanwhile shows up as "Resume"."""
        menu = self.query_one("#menu", OptionList)
        options = self._options()
        if menu.option_count != len(options):
            menu.clear_options()
            menu.add_options(options)
            menu.highlighted = 0

    def on_mount(self) -> None:
        self.query_one("#menu", OptionList).focus()

    def on_resize(self, event) -> None:
        """A footer too wide for the terminal keeps only Quit (and ? Keys): the list
        above shows every choice with its letter, so nothing is lost, and nothing is
        cut off at the edge."""
        by_key = key_bindings(self)
        every = [b for bs in by_key.values() for b in bs]
        shown = list({b.id: b for b in every if b.show or b.id in self._footer_ids}.values())
        self._footer_ids = {b.id for b in shown}
        # what Textual's footer takes for a key: " key description " (the last one's
        # trailing space may go), and the app's "? Keys"
        need = sum(len(b.key_display or b.key) + len(b.description) + 3 for b in shown) + 7
        whole = event.size.width >= need
        changed = False
        for key, bindings in by_key.items():
            kept = [replace(b, show=whole or b.action == "choose('quit')")
                    if b.id in self._footer_ids else b for b in bindings]
            changed |= kept != bindings
            by_key[key] = kept
        if changed:
            self.refresh_bindings()

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_choose(event.option_id or "")

    def action_choose(self, choice: str) -> None:
        self.post_message(self.opens[choice]())
