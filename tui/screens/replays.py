"""Replays: every finished or abandoned game kept in the saves database, newest first.
Enter opens the replay viewer; d deletes a game (after a yes)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from net.catalogue import title
from net.text import clean_text
from tui.flows.messages import OpenReplay
from tui.keys import with_ids
from tui.screens.common import ConfirmScreen
from tui.widgets.footer import Footer

if TYPE_CHECKING:
    from tui.saves import Saves

MAX_LISTED = 300


def kept_games(saves: Saves) -> tuple[list[tuple[str, str]], str | None]:
    """(id, line) of the kept games, newest first, and what went wrong, if anything
    (a damaged database is named, never a traceback)."""
    kept, problem = saves.kept(MAX_LISTED)
    lines = []
    for game in kept:
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.when))
        lines.append((game.id, f"{stamp}  {title(game.game)}: "
                               f"{', '.join(map(clean_text, game.players))}; "
                               f"{clean_text(game.result())}"))
    return lines, problem


class ReplaysScreen(Screen[None]):
    """The kept games (read through ``saves``); enter replays one, d deletes it."""

    BINDINGS = with_ids("replays", [
        Binding("d", "delete", "Delete"),
        Binding("escape,q", "app.pop_screen", "Back"),
    ])
    HELP = [
        ("up / down", "choose a game"),
        ("enter", "replay it, move by move, from any seat"),
        ("d", "delete it (asks first)"),
        ("esc", "back to the menu"),
    ]

    def __init__(self, saves: Saves) -> None:
        super().__init__()
        self.saves = saves
        self.games: list[tuple[str, str]] = []  # (id, line)

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("Replays", classes="title")
            yield Static("", id="replays-status")
            yield OptionList(id="replays")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#replays", OptionList).focus()

    def reload(self) -> None:
        self.games, problem = kept_games(self.saves)
        options = self.query_one("#replays", OptionList)
        options.clear_options()
        for i, (_, line) in enumerate(self.games):
            options.add_option(Option(Text(line), id=str(i)))  # names: literal text
        if self.games:
            options.highlighted = 0
        count = len(self.games)
        newest = " (the newest)" if count >= MAX_LISTED else ""
        status = (f"{count} game{'' if count == 1 else 's'} kept{newest}."
                  if self.games else
                  "No games kept yet: every game you finish or leave is kept here.")
        if problem:
            status = problem
        self.query_one("#replays-status", Static).update(Text(status))

    def _chosen(self) -> tuple[str, str] | None:
        index = self.query_one("#replays", OptionList).highlighted
        return self.games[index] if index is not None and index < len(self.games) else None

    @on(OptionList.OptionSelected, "#replays")
    def _open(self, event: OptionList.OptionSelected) -> None:
        ident, _ = self.games[int(event.option_id or 0)]
        self.post_message(OpenReplay(ident))

    def action_delete(self) -> None:
        game = self._chosen()
        if game is None:
            return

        ident, line = game

        def answered(yes: bool | None) -> None:
            if yes:
                problem = self.saves.delete(ident)
                if problem:
                    self.app.notify(problem, severity="warning")
                self.reload()

        self.app.push_screen(ConfirmScreen(f"Delete this game for good?\n{line}"), answered)
