"""The served menu: what a player reached over SSH or the web may do at this host.

This host's tables (join, watch, start a new one), rules, settings and quit. No LAN
hosting, no hot-seat, no file paths: those would run as the server's user on the
server's disk. The list comes from ``fetch`` (the app asks the serve host), every two
seconds while the menu shows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from net.catalogue import games, title
from tui.flows.messages import (
    JoinServedTable,
    NewServedTable,
    OpenFlow,
    Quit,
    ShowLeague,
    ShowRules,
    ShowSettings,
)
from tui.keys import add_bindings, with_ids
from tui.styles import StyledAtMount
from tui.widgets.footer import Footer
from tui.widgets.touchbar import TouchBar

PHASES = {"lobby": "waiting to start", "playing": "playing", "over": "game over"}


def fixed() -> list[tuple[str, str, str]]:
    """(choice, label, key) of the lines below the tables: a new table of each game."""
    return [
        *((f"new-{game.key}", f"Start a new {game.title} table", game.letter) for game in games()),
        ("league", "League: ratings", "l"),
        ("rules", "Rules", "r"),
        ("settings", "Settings", "s"),
        ("quit", "Quit", "q"),
    ]


def opens() -> dict[str, Callable[[], OpenFlow]]:
    """What each fixed choice asks the app for."""
    return {
        **{f"new-{game.key}": partial(NewServedTable, game.key) for game in games()},
        "league": ShowLeague, "rules": ShowRules, "settings": ShowSettings, "quit": Quit,
    }  # fmt: skip


def describe(table: Any) -> str:
    """One line for a table: game, name, who sits there, what it is doing."""
    people = [s.name for s in table.seats]
    seated = f"{len(people)}/{table.settings.seats} seated"
    names = f": {', '.join(people)}" if people else ""
    return f"{title(table.game)} at {table.name!r}, {seated}{names} " \
           f"({PHASES.get(table.phase, table.phase)})"


class ServedMenuScreen(StyledAtMount, Screen[None]):
    """Where a served app opens (see the module docstring)."""

    def __init__(self, fetch: Callable[[], Awaitable[list[Any]]], name: str) -> None:
        super().__init__()
        # built from the games registered now (``net.catalogue``)
        self.opens = opens()
        add_bindings(self, "served", [
            Binding("j", "choose('join')", "Join"),
            Binding("w", "choose('watch')", "Watch"),
            *(Binding(game.letter, f"choose('new-{game.key}')", f"New {game.kind} table")
              for game in games()),
            # in the list and in ? help; the footer keeps to 80 columns
            Binding("l", "choose('league')", "League", show=False),
            Binding("r", "choose('rules')", "Rules", show=False),
            Binding("s", "choose('settings')", "Settings", show=False),
            Binding("q", "choose('quit')", "Quit"),
        ])
        self.HELP = [
            ("up / down", "choose a table"),
            ("enter or j", "join the chosen table (or take your seat there back)"),
            ("w", "watch the chosen table"),
            (" / ".join(game.letter for game in games()),
             f"start a new {' / '.join(game.title for game in games())} table: you own it"),
            ("l, r, s", "the host's league, rules, settings"),
            ("q", "quit (ends this session)"),
        ]
        self.fetch = fetch
        self.player = name
        self.tables: list[Any] = []
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(Text("Motherlode", "bold"), id="logo")
            yield Static(f"You play as {self.player}", id="tagline")
            yield Static("Tables at this host:", id="served-title")
            yield OptionList(*self._options(), id="menu")
            yield Static("", id="served-status")
        yield Footer()

    async def on_mount(self) -> None:
        # the tables first, so the first enter joins a table rather than opening one
        await self._refresh()
        self.query_one("#menu", OptionList).focus()
        self.set_interval(2.0, self.refresh_tables)

    def on_screen_resume(self) -> None:
        self.refresh_tables()

    def refresh_tables(self) -> None:
        if self.app.screen is self:
            self.run_worker(self._refresh(), group="tables", exclusive=True)

    async def _refresh(self) -> None:
        try:
            tables = await self.fetch()
        except Exception as error:  # the server is going away: say so, keep the menu
            self.problem = str(error)
            tables = []
        else:
            self.problem = None
        self.show(tables)

    def show(self, tables: list[Any]) -> None:
        if not self.is_attached or not self.query("#menu"):
            return  # a refresh that finished after the screen went (a join, the end)
        menu = self.query_one("#menu", OptionList)
        before = [describe(t) for t in self.tables]
        self.tables = list(tables)
        status = self.query_one("#served-status", Static)
        if self.problem:
            status.update(Text(self.problem, "bold red"))
        elif not self.tables:
            status.update("No tables yet: start one with n or f, and friends join it.")
        else:
            status.update("")
        if bool(before) != bool(self.tables):
            self.refresh_bindings()  # Join and Watch come or go with the tables
        if before == [describe(t) for t in self.tables] and menu.option_count:
            return
        highlighted = menu.highlighted
        menu.clear_options()
        menu.add_options(self._options())
        if highlighted is not None:
            menu.highlighted = min(highlighted, menu.option_count - 1)
        else:
            menu.highlighted = 0

    def _options(self) -> list[Option]:
        options = [Option(Text(describe(t)), id=f"table:{i}") for i, t in enumerate(self.tables)]
        options += [Option(Text.assemble((f"{key}  ", "bold"), label), id=ident)
                    for ident, label, key in fixed()]
        return options

    def _chosen_table(self) -> Any | None:
        menu = self.query_one("#menu", OptionList)
        index = menu.highlighted
        if index is None or index >= len(self.tables):
            return self.tables[0] if len(self.tables) == 1 else None
        return self.tables[index]

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        ident = event.option_id or ""
        if ident.startswith("table:"):
            self.action_choose("join")
        else:
            self.action_choose(ident)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Join and Watch only while there is a table to join or watch (the footer and
        the touch bar offer nothing that would only say "choose a table first")."""
        if action == "choose" and parameters and parameters[0] in ("join", "watch"):
            return bool(self.tables)
        return True

    def action_choose(self, choice: str) -> None:
        if choice in ("join", "watch"):
            table = self._chosen_table()
            if table is None:
                self.notify("Choose a table first (up / down), or start one with n or f.")
                return
            # a full or started table refuses a join and offers to watch (a seat this
            # player kept there is taken back instead)
            self.post_message(JoinServedTable(table.name, watch=choice == "watch"))
            return
        self.post_message(self.opens[choice]())


class NameScreen(StyledAtMount, ModalScreen[str | None]):
    """Ask the player's name: the web door has no user name to go by, and a first run
    offers the login name (``default``) to keep or change."""

    BINDINGS = with_ids("name", [
        # before the field's own enter (hidden, so the footer would show no OK): enter
        # and the touch bar's OK both answer with what is typed
        Binding("enter", "submit", "OK", key_display="enter", priority=True),
        Binding("escape", "cancel", "Quit"),
    ])

    def __init__(self, problem: str = "", *, default: str = "") -> None:
        super().__init__()
        self.problem = problem
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="pick-box"):
            yield Static(Text("Welcome to Motherlode. Your name at the table?", "bold"))
            yield Input(value=self.default, placeholder="1 to 20 characters", max_length=20,
                        id="name")
            yield Static(Text(self.problem), id="name-status")
            yield TouchBar(classes="dialog")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    @on(Input.Submitted, "#name")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_submit(self) -> None:
        # enter (a priority key, so the footer shows it) and the touch bar's OK: the
        # field answers as its own enter would, once it has taken the letters typed
        # just before (a priority key overtakes them: a paste, a name and enter sent
        # in one packet)
        field = self.query_one("#name", Input)
        field.call_later(field.action_submit)

    def action_cancel(self) -> None:
        self.dismiss(None)


class FirstNameScreen(NameScreen):
    """The first run's question: the login name is offered, and esc keeps it."""

    BINDINGS = with_ids("first-name", [Binding("escape", "cancel", "Keep this name")])
