"""Replays: every finished or abandoned game kept on this machine, newest first. Enter
opens the replay viewer; d deletes a game (after a yes)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from net.catalogue import title
from tui.screens.common import ConfirmScreen, with_ids

MAX_LISTED = 300


@dataclass(frozen=True)
class Kept:
    """One kept game, as the list shows it."""

    path: Path
    when: float
    line: str


def result_of(saved) -> str:
    """Who won, or how far an abandoned game got."""
    if saved.status != "finished":
        moves = len(saved.doc.log)
        return f"left after {moves} move{'' if moves == 1 else 's'}"
    names = saved.players
    for entry in reversed(saved.doc.log):
        for event in entry.events:
            if event.get("type") == "game_over":
                won = [names[w] for w in event.get("winners", []) if 0 <= w < len(names)]
                return "won by " + " and ".join(won)
            if event.get("type") == "match_over" and event.get("winner") is not None:
                winner = event["winner"]
                return f"won by {names[winner]}" if 0 <= winner < len(names) else "finished"
    return "finished"


def kept_games(directory: Path) -> tuple[list[Kept], int]:
    """The games in ``directory`` that read, newest first, and how many did not."""
    from net.persist import Saved, SaveError

    found: list[Kept] = []
    unreadable = 0
    files = sorted(directory.glob("*.json"), key=lambda f: f.stat().st_mtime, reverse=True)
    for path in files[:MAX_LISTED]:
        try:
            saved = Saved.load(path)
        except SaveError:
            unreadable += 1
            continue
        when = saved.doc.saved_wall or path.stat().st_mtime
        stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(when))
        line = (f"{stamp}  {title(saved.game)}: "
                f"{', '.join(saved.players)}; {result_of(saved)}")
        found.append(Kept(path, when, line))
    return found, unreadable


class ReplaysScreen(Screen[None]):
    """The kept games; enter replays one, d deletes it."""

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

    def __init__(self, directory: Path) -> None:
        super().__init__()
        self.directory = directory
        self.games: list[Kept] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("Replays", classes="title")
            yield Static("", id="replays-status")
            yield OptionList(id="replays")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#replays", OptionList).focus()

    def reload(self) -> None:
        self.games, unreadable = kept_games(self.directory)
        options = self.query_one("#replays", OptionList)
        options.clear_options()
        for i, game in enumerate(self.games):
            options.add_option(Option(Text(game.line), id=str(i)))  # names: literal text
        if self.games:
            options.highlighted = 0
        status = (f"{len(self.games)} game{'' if len(self.games) == 1 else 's'} kept in "
                  f"{self.directory}." if self.games else
                  "No games kept yet: every game you finish or leave is kept here.")
        if unreadable:
            status += f" {unreadable} file{'s' if unreadable > 1 else ''} could not be read."
        self.query_one("#replays-status", Static).update(Text(status))

    def _chosen(self) -> Kept | None:
        index = self.query_one("#replays", OptionList).highlighted
        return self.games[index] if index is not None and index < len(self.games) else None

    @on(OptionList.OptionSelected, "#replays")
    def _open(self, event: OptionList.OptionSelected) -> None:
        game = self.games[int(event.option_id or 0)]
        self.app.menu_choice("replay", game.path)  # type: ignore[attr-defined]

    def action_delete(self) -> None:
        game = self._chosen()
        if game is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                game.path.unlink(missing_ok=True)
                self.reload()

        self.app.push_screen(ConfirmScreen(f"Delete this game for good?\n{game.line}"),
                             answered)
