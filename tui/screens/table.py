"""What every game's table shares: its frame (the banner, the hint and status lines,
the log, the size notice, the touch bar, the footer), and holding what the link sends
before the screen is mounted."""

from __future__ import annotations

import functools
import time
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen

from net import protocol as p
from net.table.reactions import REACT_EVERY
from tui.keys import with_ids
from tui.messages import SendAction
from tui.widgets.board import TABLES_CSS, Hint, TooSmall, TurnBanner, hidden_by_size
from tui.widgets.footer import Footer
from tui.widgets.guide import Guide
from tui.widgets.log import EventLog
from tui.widgets.touchbar import TouchBar

#: each reaction's key at every table (remappable: ``table.react-nice``...)
REACTION_KEYS = (("i", "nice"), ("o", "ouch"), ("b", "bluff"), ("y", "gg"), ("h", "hurry"),
                 ("k", "thanks"))  # fmt: skip
#: seconds a reaction's mark stays by its player's name
REACTION_SECONDS = 4.0


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
        if action in ("again_no", "again_start"):
            return self.can_answer_again(action)
        if action in ("react", "react_pick"):
            return self.can_react()
        if action == "end_guide":
            return self._guide is not None
        return None

    CSS_PATH = TABLES_CSS
    view: Any
    # while the host is gone: try now (the status line says so); once the game is over:
    # the same game again, with the same players
    BINDINGS = with_ids("table", [
        Binding("j", "retry_now", "Try now"),
        Binding("p", "play_again", "Play again"),
        # the rematch at a table of people: decline it; the owner starts it with those
        # who said yes (shift: never a game's own key)
        Binding("N", "again_no", "No rematch"),
        Binding("S", "again_start", "Start now"),
        Binding("x", "end_guide", "End guide"),
        # quick reactions (issue 61): one key each; e picks one (the phone's button)
        Binding("e", "react_pick", "React"),
        *(Binding(key, f"react('{name}')", p.REACTIONS[name], show=False)
          for key, name in REACTION_KEYS),
    ])

    #: the keys every table shares, in ? Keys after the game's own
    CORE_HELP = [
        ("p", "once the game is over: play again (at a table of people, offer the same "
              "game again, or accept the offer made)"),
        ("N", "decline the rematch offered (your seat is freed; you watch)"),
        ("S", "the table's owner: start the rematch now, with those who said yes"),
        ("x", "end the guided round"),
        ("e", "pick one of the six reactions below"),
        *((key, f"react: {p.REACTIONS[name]}") for key, name in REACTION_KEYS),
    ]
    #: what ? Keys shows after the game's own keys (``MotherlodeApp.action_help``)
    MORE_HELP = [("Every table", CORE_HELP)]

    def __init__(self) -> None:
        super().__init__()
        self._ready = False
        self._pending: list[tuple] = []  # what arrived before the screen was mounted
        #: seats whose person is gone (dropped, stepped away, or played by a stand-in)
        self.away: frozenset[int] = frozenset()
        #: the guided first round (the game's ``guide()``), while it lasts
        self._guide: Any = None
        #: the rematch offer as last told (``again``), and this connection's seats
        self.again: p.AgainState | None = None
        self.mine: list[int] = []
        #: seat -> (the reaction's words, when its mark fades: the app's clock)
        self.reacting: dict[int, tuple[str, float]] = {}
        self._reacted_at = float("-inf")
        #: the clock of the reactions' marks and their 2 s (a test's own, to need no wait)
        self.clock = time.monotonic

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
        """Over, at a table this app can set again (``tui.flows.leave``); at a table of
        people, until this seat said yes to the rematch."""
        offer = self.again
        if offer is not None and offer.by is not None and self.mine and \
                all(s in offer.yes for s in self.mine):
            return False
        if self._with_people() and not self.app.session.seats:
            return False  # a watcher has no seat to play again with
        return self.finished and self.app.flows.leave.again() is not None

    def status_words(self, status: str) -> str:
        """A table's status line (``status``), and at a game's end the key that plays
        again, where this seat can (the footer says it too; a hint that named only q
        hid it)."""
        if self.finished and self.can_play_again():
            return "p plays again; q leaves the table."
        return status

    def action_play_again(self) -> None:
        if self.can_play_again():
            self.app.flows.leave.play_again()

    # -- the rematch and reactions (at a table of people) --------------------------------

    def _with_people(self) -> bool:
        session = getattr(self.app, "session", None)
        return session is not None and session.policy.lobby

    def can_answer_again(self, action: str) -> bool:
        """N while this seat is asked (or said yes); S for the owner once an offer
        stands."""
        offer = self.again
        if not self.finished or offer is None or offer.by is None or not self._with_people():
            return False
        if action == "again_no":
            return any(s in offer.waiting or s in offer.yes for s in self.mine)
        return bool(self.app.session.is_owner)

    def show_again(self, state: p.AgainState, news: list[str], mine: list[int]) -> None:
        """The rematch offer changed: its news in the log, the offer in the status line."""
        from tui.notices import again_status

        self.again, self.mine = state, list(mine)
        for line in news:
            self.add_log(line)
        session = self.app.session
        self.show_status(again_status(state, session.table if session else None, mine))
        self.refresh_bindings()

    def action_again_no(self) -> None:
        if self.can_answer_again("again_no"):
            self.post_message(SendAction(p.Again(answer="no")))

    def action_again_start(self) -> None:
        if self.can_answer_again("again_start"):
            self.post_message(SendAction(p.Start()))

    def can_react(self) -> bool:
        return self._with_people()

    def action_react(self, name: str) -> None:
        """Send a reaction; one sooner than ``REACT_EVERY`` after the last is not sent
        (the host would drop it): said in the hint line instead."""
        if not (self.can_react() and name in p.REACTIONS):
            return
        now = self.clock()
        if now - self._reacted_at < REACT_EVERY:
            self.app.notify("One reaction every 2 s.", timeout=2)
            return
        self._reacted_at = now
        self.post_message(SendAction(p.React(reaction=name)))  # type: ignore[arg-type]

    def action_react_pick(self) -> None:
        from tui.screens.common import PickScreen

        def picked(choice: int | None) -> None:
            if choice is not None:
                self.action_react(REACTION_KEYS[choice][1])

        self.app.push_screen(PickScreen("React", [
            (i, f"{p.REACTIONS[name]} ({key})") for i, (key, name) in enumerate(REACTION_KEYS)]),
            picked)

    def show_reaction(self, seat: int | None, reaction: str) -> None:
        """A mark by the player's name that fades after ``REACTION_SECONDS``."""
        if seat is None:
            return
        self.reacting[seat] = (p.REACTIONS.get(reaction, reaction),
                               self.clock() + REACTION_SECONDS)
        self._show_marks()
        if self.is_attached:
            self.set_timer(REACTION_SECONDS, self.fade_reactions)

    def fade_reactions(self, now: float | None = None) -> None:
        """Take off the marks whose time is up (``now``: the app's clock)."""
        now = self.clock() if now is None else now
        self.reacting = {s: m for s, m in self.reacting.items() if m[1] > now}
        self._show_marks()

    def _show_marks(self) -> None:
        if self._ready and self.is_attached:
            self.show_reactions({s: words for s, (words, _) in self.reacting.items()})

    def show_reactions(self, marks: dict[int, str]) -> None:
        """Mark each seat in ``marks`` with its reaction's words (each game's table)."""

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
