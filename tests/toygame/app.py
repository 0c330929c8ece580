"""Pig Dice in the app (``tui.games``): its table screen, the pure phases its footer
follows, its replay screen and its events in words. Built only from the shared
screens and widgets (``tui.screens.table``, ``tui.widgets``)."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical

from tests.toygame.moves import BANK, DOUBLE, ROLL
from tui.describe import name
from tui.keys import with_ids
from tui.messages import SendAction
from tui.phases import Now, namer
from tui.plugin import AppGame
from tui.screens.replay import REPLAY_BINDINGS, REPLAY_HELP, Replay, ReplayControls
from tui.screens.table import TableScreen
from tui.widgets.board import Hint, TurnBanner
from tui.widgets.footer import Footer
from tui.widgets.log import EventLog

ACTIONS = frozenset({"roll", "bank", "double"})


def pig_now(view: Any, mine: list[int]) -> Now:
    """What this keyboard may do now, and the line that says so (pure)."""
    if view is None:
        return Now("waiting", frozenset(), "")
    who = namer(view.players)
    if view.over:
        return Now("over", frozenset(), f"Game over: {who(view.winner)} wins.")
    if view.current not in mine:
        return Now("watch", frozenset(), f"{who(view.current)} is rolling.")
    if view.total:
        return Now("rolling", ACTIONS,
                   f"This turn: {view.total}. r rolls on, b banks it, d doubles or loses it.")
    return Now("turn", frozenset({"roll"}), "Your turn: r rolls the die.")


class PigScreen(TableScreen):
    BINDINGS = with_ids("pig", [
        Binding("r", "roll", "Roll"),
        Binding("b", "bank", "Bank"),
        Binding("d", "double", "Double"),
        Binding("q", "app.leave", "Leave"),
    ])

    def __init__(self, seats: list[int]) -> None:
        super().__init__()
        self.my_seats = list(seats)
        self.view: Any = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield TurnBanner(id="banner")
            yield Hint(id="scores")
            yield Hint(id="hint")
            yield Hint(id="status")
            yield EventLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#status").display = False
        if self.view is not None:
            self._draw()
        self._replay_pending()

    @property
    def finished(self) -> bool:
        return self.view is not None and self.view.over

    def now(self) -> Now:
        return pig_now(self.view, self.my_seats)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in ACTIONS:
            return True
        return action in self.now().keys

    def show_state(self, view: Any, events: list[Any]) -> None:
        if not self._ready:
            self._pending.append(("state", view, events))
            return
        self.view = view
        self.query_one(EventLog).add_events(events, view.players)
        self._draw()

    def _draw(self) -> None:
        view = self.view
        self.query_one(TurnBanner).show(self.now().status)
        self.query_one("#scores", Hint).text = "  ".join(
            f"{n}: {s}" for n, s in zip(view.players, view.scores, strict=True))
        self.query_one("#hint", Hint).text = f"Last roll: {view.last or '-'}"
        self.refresh_bindings()

    def _send(self, action: Any) -> None:
        self.post_message(SendAction(action))

    def action_roll(self) -> None:
        if "roll" in self.now().keys:
            self._send(ROLL(seat=self.view.current))

    def action_bank(self) -> None:
        if "bank" in self.now().keys:
            self._send(BANK(seat=self.view.current))

    def action_double(self) -> None:
        if "double" in self.now().keys:
            self._send(DOUBLE(seat=self.view.current))


class PigReplayScreen(ReplayControls, PigScreen, inherit_bindings=False):
    BINDINGS = REPLAY_BINDINGS
    HELP = REPLAY_HELP

    def __init__(self, replay: Replay, seat: int | None = None) -> None:
        super().__init__([] if seat is None else [seat])
        self._init_replay(replay, seat)

    def _show(self) -> None:
        if not self._ready or not self.is_attached:
            return
        self.view = self.replay.view(self.index, self.watching)
        self._draw()
        self._log_events(self.query_one(EventLog))
        self.show_status(self._status_text())

    def _send(self, action: Any) -> None:  # a replay never acts
        pass


# -- its app side, one object (``tui.plugin.AppGame``) ---------------------------------


class PigApp(AppGame):
    """Pig Dice's app side: the three hooks every game defines; the rest default."""

    def table_screen(self, context: Any) -> PigScreen:
        return PigScreen(context.seats)

    def replay_screen(self, replay: Replay, seat: int | None = None, *,
                      ascii_mode: bool = False) -> PigReplayScreen:  # fmt: skip
        return PigReplayScreen(replay, seat)

    def describe(self, event: Any, names: Any, view: Any = None) -> str | None:
        kind = event.__struct_config__.tag
        if kind == "pig_rolled":
            return f"{name(names, event.seat)} rolled a {event.face}"
        if kind == "pig_banked":
            return f"{name(names, event.seat)} banked {event.amount}"
        if kind == "pig_pass":
            return f"{name(names, event.seat)}'s turn"
        if kind == "pig_doubled":
            return f"{name(names, event.seat)} doubled the turn to {event.total}"
        return None


APP = PigApp()
