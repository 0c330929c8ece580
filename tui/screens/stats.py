"""Player stats: every player's figures per game, from the finished games in the saves
database (``net.saves.stats``); b counts the bots too. Names are shown as literal
text, cleaned (they come from other people's machines)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tui.keys import with_ids
from tui.widgets.footer import Footer

if TYPE_CHECKING:
    from tui.saves import Saves


def stats_text(saves: Saves, bots: bool = False) -> tuple[str, str]:
    """(status line, the figures as plain lines); a damaged database is named."""
    rows, problem = saves.stats(bots=bots)
    if problem:
        return problem, ""
    if not rows:
        return "No finished games yet: every game played to its end counts here.", ""
    people = len({(r.name.casefold()) for r in rows})
    status = (f"{people} {'player' if people == 1 else 'players'} over every finished game"
              f"{', bots included' if bots else ''}. Nuggets per turn counts every turn, "
              "busts included; a bluff is a first grab without a set.")  # fmt: skip
    return status, "\n".join(saves.stats_lines(rows))


class StatsScreen(Screen[None]):
    """The players' figures (read through ``saves``); b shows the bots too."""

    BINDINGS = with_ids("stats", [
        Binding("b", "bots", "Bots"),
        Binding("escape,q", "app.pop_screen", "Back"),
    ])
    HELP = [
        ("up / down", "scroll"),
        ("b", "count the bots too (or not)"),
        ("esc", "back to the menu"),
    ]

    def __init__(self, saves: Saves) -> None:
        super().__init__()
        self.saves = saves
        self.bots = False

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield Static("Player stats", classes="title")
            yield Static("", id="stats-status")
            with VerticalScroll(id="stats-scroll"):
                yield Static("", id="stats")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#stats-scroll").focus()

    def reload(self) -> None:
        status, figures = stats_text(self.saves, self.bots)
        self.query_one("#stats-status", Static).update(Text(status))
        self.query_one("#stats", Static).update(Text(figures))  # literal text, no markup

    def action_bots(self) -> None:
        self.bots = not self.bots
        self.reload()
