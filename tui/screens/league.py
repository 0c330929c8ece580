"""The league: every rated player's rating per game, all time or per season (``net.league``):
people, and the easy, normal and hard bots, so a person playing alone sees where they
stand. Whose league it is depends on where the app is (``tui.leagues``): this
machine's saves, the serve host's, or, joined to a LAN host, that host's ("League at
192.168.1.20:7777"). ``g`` steps through the games, ``s`` through the seasons. A rating
is "new (4 of 10)" until ten rated games. Names are literal text, cleaned (they come
from other people's machines)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from net.catalogue import keys, title
from net.league.cli import standing_lines
from tui.keys import with_ids
from tui.leagues import Reader
from tui.widgets.footer import Footer


class LeagueScreen(Screen[None]):
    """The standings (read by ``read``: :mod:`tui.leagues`):
    g the game, s the season."""

    BINDINGS = with_ids("league", [
        Binding("g", "game", "Game"),
        Binding("s", "season", "Season"),
        Binding("escape,q", "app.pop_screen", "Back"),
    ])
    HELP = [
        ("up / down", "scroll"),
        ("g", "the next game (or every game)"),
        ("s", "the next season (or all time)"),
        ("esc", "back to the menu"),
    ]

    def __init__(self, read: Reader, where: str | None = None) -> None:
        super().__init__()
        self.read = read
        self.where = where  # the host whose league this is (None: this machine's, served)
        self.more = 0  # players the standings leave out (a host sends its best)
        self.game: str | None = None  # every game
        self.season: str | None = None  # all time
        self.seasons: list[str] = []
        self.shown: tuple[list[Any], str | None] = ([], None)

    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            title = "League" if self.where is None else f"League at {self.where}"
            yield Static(Text(title), id="league-title", classes="title")
            yield Static("", id="league-status")
            with VerticalScroll(id="league-scroll"):
                yield Static("", id="league")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one("#league-scroll").focus()

    def reload(self) -> None:
        self.run_worker(self._load(), exclusive=True, group="league")

    async def _load(self) -> None:
        lines, self.seasons, problem, self.more = await self.read(self.game, self.season)
        self.shown = (lines, problem)
        self.draw()

    def draw(self) -> None:
        lines, problem = self.shown
        which = f"{title(self.game) if self.game else 'Every game'}, " \
                f"{self.season or 'all time'}"
        if problem:
            status, body = problem, ""
        elif not lines:
            status, body = (f"{which}: no rated games yet. A finished game with a person "
                            "at it is rated; each bot level is rated too."), ""
        else:
            people = len({line.who for line in lines})
            status = (f"{which}: {people} rated player{'s' * (people != 1)}"
                      + (f" shown, {self.more} more" if self.more else "")
                      + ". A rating is new until 10 rated games; a win never lowers it.")
            width = max(40, self.size.width - 6)
            body = "\n".join(standing_lines(lines, self.season, width))
        self.query_one("#league-status", Static).update(Text(status))
        self.query_one("#league", Static).update(Text(body))  # literal text, no markup

    def on_resize(self) -> None:
        self.draw()

    def action_game(self) -> None:
        order = [None, *keys()]
        self.game = order[(order.index(self.game) + 1) % len(order)]
        self.reload()

    def action_season(self) -> None:
        order = [None, *self.seasons]
        self.season = order[(order.index(self.season) + 1) % len(order)] \
            if self.season in order else None
        self.reload()
