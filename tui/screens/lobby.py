"""The lobby of a LAN table: seats, ready flags, the owner's settings, chat."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import RichLog, Static

from net import protocol as p
from net.catalogue import DIFFICULTY_WORDS, Setting, games, spec, title
from net.text import clean_text
from tui.keys import with_ids
from tui.messages import SendAction
from tui.phases import LOBBY_ACTIONS, PACES, Now, lobby_now, pace_words
from tui.plugin import game_of, length_words
from tui.screens.common import reconnecting
from tui.settings import DIFFICULTIES
from tui.widgets.board import TABLES_CSS, TooSmall, cells, hidden_by_size, show_text
from tui.widgets.footer import Footer
from tui.widgets.touchbar import TouchBar


def house_rule(game: str) -> Setting | None:
    """The game's house rule that `h` steps through: its first setting with choices."""
    return next((s for s in spec(game).settings if s.choices and s.configurable), None)


def with_house_rules() -> str:
    """The titles of the games with a house rule (``house_rule``)."""
    return " / ".join(game.title for game in games() if house_rule(game.key))


class LobbyScreen(Screen[None]):
    """Renders `TableInfo`; keys post lobby requests (`SendAction`) for the app to send."""

    CSS_PATH = TABLES_CSS

    BINDINGS = with_ids("lobby", [
        Binding("r", "ready", "Ready"),
        Binding("s", "start", "Start"),
        Binding("b", "add_bot", "Add bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("k", "kick", "Free a seat", show=False),
        Binding("plus,equals_sign", "seats(1)", "+seat", show=False),
        Binding("minus", "seats(-1)", "-seat", show=False),
        Binding("d", "difficulty", "Difficulty", show=False),
        Binding("h", "house_rule", "House rule", show=False),
        Binding("p", "pace", "Pace"),
        Binding("c", "app.chat", "Chat"),
        Binding("l", "league", "League", show=False),
        Binding("q", "app.leave", "Leave"),
        Binding("j", "retry_now", "Try now"),
    ])
    HELP = [
        ("r", "ready / not ready"),
        ("s", "start the game (the owner, once every other player is ready)"),
        ("b / x", "add a bot / remove the last bot (owner)"),
        ("k", "free the last seat of a player who is not ready (owner)"),
        ("+ / -", "more or fewer seats (owner)"),
        ("d", "next bot difficulty (owner): "
              + "; ".join(f"{level}, {words}" for level, words in DIFFICULTY_WORDS.items())),
        ("h", "the game's house rule, where it has one, through its choices (owner)"),
        ("p", "the table's pace: normal, steady (time windows twice as long, bots half as "
              "quick), relaxed (four times) (owner)"),
        ("c", "chat"),
        ("l", "the league: the host's standings"),
        ("q", "leave the table"),
        ("j", "while the host is gone: try to reach it now"),
    ]

    def __init__(self, addresses: list[str] | None = None) -> None:
        super().__init__()
        self.addresses = list(addresses or [])  # where others join, for a host
        self.mine: list[int] = []  # this connection's seats
        self.owner = False
        self.info: p.TableInfo | None = None
        self._ready = False
        self._pending_chat: list[str] = []
        self._status = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static("", id="lobby-title", classes="title")
            yield Static("", id="lobby-info")
            yield Static("", id="lobby-seats")
            yield Static("", id="lobby-next")
            yield Static("", id="status")
            # min_width: a line wraps at the log's own width (RichLog's default of 78
            # cells would scroll a phone's lobby sideways)
            yield RichLog(id="chat-log", markup=False, highlight=False, wrap=True,
                          min_width=1, max_lines=200)
        yield TooSmall()
        yield TouchBar()
        yield Footer()

    def on_mount(self) -> None:
        self._ready = True
        if self.info is not None:
            self.show_table(self.info)
        for line in self._pending_chat:
            self.add_chat(line)
        self._pending_chat.clear()
        if self._status:
            self.show_status(self._status)

    def show_table(self, info: p.TableInfo, seats: list[int] | None = None,
                   owner: bool | None = None) -> None:
        self.info = info
        if seats is not None:
            self.mine = list(seats)
        if owner is not None:
            self.owner = owner
        if self.is_attached:
            self.refresh_bindings()
        if not self._ready:
            return
        if not self.is_attached:  # torn down (the app is closing): nothing to draw on
            return
        mine = set(self.mine)
        owner = "you" if self.owner else next(
            (clean_text(s.name) for s in info.seats if s.seat == info.owner), "nobody")
        heading = Text(f"{title(info.game)} at ")
        heading.append(clean_text(info.name))
        heading.append(f"  ({info.phase}, owner: ")
        heading.append(owner)
        heading.append(")")
        show_text(self.query_one("#lobby-title", Static), heading)

        s = info.settings
        lines = Text()
        if self.addresses:
            lines.append("Others join with:  ")
            lines.append("   ".join(f"motherlode join {a}" for a in self.addresses[:2]))
            lines.append("\n")
        lines.append(f"{s.seats} seats, bots {s.difficulty}")
        lines.append(game_of(info.game).settings_line(s))  # the game's own settings
        lines.append(f", seat kept {s.grace:g} s for a dropped player")
        if s.pace != "normal":
            lines.append(f", {pace_words(s.pace)}")
        if s.seeded:
            lines.append(", fixed seed")
        if info.spectators:
            lines.append(f", {info.spectators} watching")
        if said := length_words(info):
            lines.append(f"\n{said}")
        seed_hash = getattr(info, "seed_hash", None)
        if seed_hash:
            lines.append(f"\nSeed hash of the game: {seed_hash}")
        show_text(self.query_one("#lobby-info", Static), lines)

        seats = Text()
        # the names' column as wide as the longest (at most 20): a phone's 40 columns
        # keep "1. Ann  not ready  (you)" on one line
        width = min(20, max((cell_len(clean_text(s.name)) for s in info.seats), default=1))
        for seat in info.seats:
            seats.append(f"{seat.seat + 1}. ")
            seats.append(cells(clean_text(seat.name), width) + "  ",
                         "bold" if seat.seat in mine else "")
            kind = {"bot": "bot", "local": "this keyboard", "human": ""}.get(seat.kind, seat.kind)
            if seat.kind == "human":
                state = "ready" if seat.ready else "not ready"
                if not seat.connected:
                    state = "away"
                # as wide as "not ready": a ready flag keeps the line's width (and the
                # column after it in place), so it repaints without a new layout
                kind = cells(state, len("not ready"))
            seats.append(kind)
            if seat.seat in mine:
                seats.append("  (you)")
            if seat.guest:  # no identity on this host: plays, and rates nobody
                seats.append("  (guest)", "dim")
            if seat.standin:
                seats.append("  (a bot stands in)")
            seats.append("\n")
        for free in range(len(info.seats), s.seats):
            seats.append(f"{free + 1}. (free seat)\n", "dim")
        show_text(self.query_one("#lobby-seats", Static), seats)
        show_text(self.query_one("#lobby-next", Static), Text(self.now().status))

    def now(self) -> Now:
        """Who may start, who is awaited, what this seat may do (``tui.phases``)."""
        return lobby_now(self.info, self.mine, self.owner)

    def action_retry_now(self) -> None:
        self.app.action_retry_now()

    def action_league(self) -> None:
        """The league of this table's host (``tui.flows.replay``)."""
        from tui.flows.messages import ShowLeague

        self.post_message(ShowLeague())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footers true to the moment: owner keys for the owner, ready for a player,
        start once the table can start (the same answer as the line above the chat)."""
        if hidden_by_size(self.app):
            return False  # hidden behind the size notice: no key works
        if action == "retry_now":
            return reconnecting(self.app)
        if action not in LOBBY_ACTIONS:
            return True
        return not reconnecting(self.app) and action in self.now().keys

    def show_status(self, text: str) -> None:
        self._status = text
        if self._ready and self.is_attached:
            self.query_one("#status", Static).update(Text(text))

    def add_chat(self, line: str) -> None:
        if not self._ready:
            self._pending_chat.append(line)
            return
        if not self.is_attached:
            return
        self.query_one("#chat-log", RichLog).write(Text(line))

    # -- keys --------------------------------------------------------------------------

    def _my_ready(self) -> bool:
        if self.info is None:
            return False
        return any(s.ready for s in self.info.seats if s.seat in self.mine)

    def _send(self, message: Any) -> None:
        self.post_message(SendAction(message))

    def action_ready(self) -> None:
        self._send(p.Ready(ready=not self._my_ready()))

    def action_start(self) -> None:
        self._send(p.Start())

    def action_add_bot(self) -> None:
        self._send(p.AddBot())

    def action_remove_bot(self) -> None:
        bots = [s.seat for s in (self.info.seats if self.info else []) if s.kind == "bot"]
        if not bots:
            self.show_status("There is no bot to remove.")
            return
        self._send(p.RemoveBot(seat=bots[-1]))

    def action_kick(self) -> None:
        seats = self.info.seats if self.info else []
        idle = [s.seat for s in seats if s.kind == "human" and s.seat not in self.mine
                and (not s.ready or not s.connected)]
        if not idle:
            self.show_status("Every other player is ready: there is no seat to free.")
            return
        self._send(p.Kick(seat=idle[-1]))

    def action_seats(self, change: int) -> None:
        if self.info is not None:
            self._send(p.Configure(seats=self.info.settings.seats + change))

    def action_house_rule(self) -> None:
        """The game's house rule, its choices in turn (Fool's Gold's round cap: off,
        10, 20, 40), where the game has one."""
        rule = None if self.info is None else house_rule(self.info.game)
        if rule is None:
            games_with = with_house_rules()
            self.show_status(f"House rules: {games_with} only." if games_with else
                             "No game here has a house rule.")
            return
        now = self.info.settings.game.get(rule.name, rule.default)
        after = rule.choices[(rule.choices.index(now) + 1) % len(rule.choices)] \
            if now in rule.choices else rule.choices[0]
        self._send(p.Configure(game={rule.name: after}))

    def action_pace(self) -> None:
        """The table's pace, in turn: normal, steady, relaxed."""
        if self.info is not None:
            now = self.info.settings.pace
            after = PACES[(PACES.index(now) + 1) % len(PACES)] if now in PACES else PACES[0]
            self._send(p.Configure(pace=after))

    def action_difficulty(self) -> None:
        if self.info is not None:
            now = self.info.settings.difficulty
            after = DIFFICULTIES[(DIFFICULTIES.index(now) + 1) % 3] if now in DIFFICULTIES \
                else "normal"
            self._send(p.Configure(difficulty=after))
