"""What every game's table shares: its frame (the banner, the hint and status lines,
the log, the size notice, the touch bar, the footer), and holding what the link sends
before the screen is mounted."""

from __future__ import annotations

import functools
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen

from tui.keys import with_ids
from tui.widgets.board import TABLES_CSS, Hint, TooSmall, TurnBanner, hidden_by_size
from tui.widgets.footer import Footer
from tui.widgets.guide import Guide
from tui.widgets.log import EventLog
from tui.widgets.touchbar import TouchBar


class TableScreen(Screen[None]):
    """Base of every game's table (``tui.games.<key>``). Subclasses render ``view``
    (``watch_view``), fill the frame (``compose_play``, ``compose_aside``,
    ``set_up_widgets``) and define ``show_state(view, events)`` and ``finished``."""

    #: the frame's id, which the game's stylesheets lay out (``"<key>-table"``)
    TABLE_ID = "table"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A table hidden behind the size notice takes no keys, whatever its game's own
        # check_action says (a game's plugin need not know): every table's is wrapped.
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("check_action")
        if own is not None:
            @functools.wraps(own)
            def check_action(self: TableScreen, action: str,
                             parameters: tuple[object, ...]) -> bool | None:
                core = self._core_check(action)
                return own(self, action, parameters) if core is None else core

            cls.check_action = check_action  # type: ignore[method-assign]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        core = self._core_check(action)
        return True if core is None else core

    def _core_check(self, action: str) -> bool | None:
        """What the core says of ``action``, whatever the game's own check says: no
        key behind the size notice, and its own keys (play again, end the guide);
        None where the game decides."""
        if hidden_by_size(self.app):
            return False
        if action == "play_again":
            return self.can_play_again()
        if action == "end_guide":
            return self._guide is not None
        return None

    CSS_PATH = TABLES_CSS
    view: Any
    # while the host is gone: try now (the status line says so); once the game is over:
    # the same game again, with the same players
    BINDINGS = with_ids("table", [Binding("j", "retry_now", "Try now"),
                                  Binding("p", "play_again", "Play again"),
                                  Binding("x", "end_guide", "End guide")])

    def __init__(self) -> None:
        super().__init__()
        self._ready = False
        self._pending: list[tuple] = []  # what arrived before the screen was mounted
        #: seats whose person is gone (dropped, stepped away, or played by a stand-in)
        self.away: frozenset[int] = frozenset()
        #: the guided first round (the game's ``guide()``), while it lasts
        self._guide: Any = None

    def action_retry_now(self) -> None:
        self.app.action_retry_now()

    def show_advisor(self, on: bool) -> None:
        """The person's Settings toggle for the advisor: a table with an advisor panel
        (its game's ``AppGame.advisor``) shows or hides it."""

    # -- the frame -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id=self.TABLE_ID, classes="game-table"):
            yield TurnBanner(id="banner")
            yield from self.compose_play()
            yield Hint(id="hint")
            yield Hint(id="status")
            yield from self.compose_aside()
            yield EventLog(id="log")
        yield TooSmall()
        yield TouchBar()
        yield Footer()

    def compose_play(self) -> ComposeResult:
        """The game's own widgets, between the banner and the hint (its board)."""
        yield from ()

    def compose_aside(self) -> ComposeResult:
        """What the game shows between its status line and its log (an advisor)."""
        yield from ()

    def on_mount(self) -> None:
        self._ready = True
        self.set_up_widgets()
        if self.view is not None:
            self.watch_view(self.view)
        self._replay_pending()

    def set_up_widgets(self) -> None:
        """Give the game's widgets what the screen was made with (ASCII mode, names),
        once they are mounted and before the first view is drawn."""

    def watch_view(self, view: Any) -> None:
        """Draw ``view`` (each game's table)."""

    # -- the guided first round ----------------------------------------------------

    def start_guide(self, guide: Any) -> None:
        """Guide this table's first round: ``guide.words(self)`` says each step."""
        self._guide = guide
        if self._ready and self.is_attached:
            self.update_guide()

    def update_guide(self) -> None:
        """Say the step in front of the person now (after each view); the box goes
        when the game's guide says its part is over, or on x."""
        if self._guide is None or not self._ready or not self.is_attached:
            return
        words = self._guide.words(self)
        if words is None:
            self.action_end_guide()
            self.add_log("The guided round is over: the footer shows the keys that work "
                         "now, and ? lists them all.")
            return
        found = self.query(Guide)
        self.guide_shown(True)
        if found:
            found.first().text = words
        else:
            self.mount(Guide(), before=self.query_one(EventLog))
            self.call_after_refresh(self.update_guide)
        self.refresh_bindings()

    def action_end_guide(self) -> None:
        self._guide = None
        for box in self.query(Guide):
            box.remove()
        self.guide_shown(False)
        self.refresh_bindings()

    def guide_shown(self, shown: bool) -> None:
        """The guide's box came or went: a game's table may give it room (each step
        must show whole what it names, at 60x20 too)."""

    def can_play_again(self) -> bool:
        """Over, at a table this app can set again (``tui.flows.leave``)."""
        return self.finished and self.app.flows.leave.again() is not None

    def action_play_again(self) -> None:
        if self.can_play_again():
            self.app.flows.leave.play_again()

    def _replay_pending(self) -> None:
        """What arrived before the mount (``on_mount`` calls it last)."""
        pending, self._pending = self._pending, []
        if self.away:
            self.show_away(self.away)
        if self._guide is not None:
            self.call_after_refresh(self.update_guide)
        for kind, *args in pending:
            {"state": self.show_state, "log": self.add_log, "status": self.show_status}[kind](*args)

    @property
    def finished(self) -> bool:
        """The game (or match) is over: leaving needs no confirmation. Each game's
        table says what over means for its view; until then, never."""
        return False

    def set_seats(self, seats: list[int]) -> None:
        """This connection's seats changed (the host renumbered them)."""

    def set_away(self, away: frozenset[int]) -> None:
        """Whose person is gone now (the table's seats say it): each game's seats mark
        them, so a drop is seen where the players are, not only in the log."""
        if away != self.away:
            self.away = away
            if self._ready and self.is_attached:
                self.show_away(away)

    def show_away(self, away: frozenset[int]) -> None:
        """Mark the seats in ``away`` on the game's own widgets (each game's table)."""

    def add_log(self, line: str) -> None:
        """A line for the event log (notices, chat, the seed): literal text."""
        if not self._ready:
            self._pending.append(("log", line))
            return
        if not self.is_attached:  # torn down (the app is closing): nothing to draw on
            return
        self.query_one(EventLog).add_line(line)

    def show_status(self, text: str) -> None:
        """A line that stays until replaced: reconnects, failures. Empty hides it."""
        if not self._ready:
            self._pending.append(("status", text))
            return
        if not self.is_attached:  # torn down (the app is closing): nothing to draw on
            return
        status = self.query_one("#status", Hint)
        status.text = text
        status.display = bool(text)
