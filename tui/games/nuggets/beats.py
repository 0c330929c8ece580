"""The Gold Nuggets table's beats: what stays on screen a moment, on a timer, never a
blocking wait. A short banner for an event (a bust, a steal), the roll that busted
kept on the table a beat, and hot-seat keys held a moment after the turn changes
hands. A mixin of ``NuggetsScreen``, which owns the state these read."""

from __future__ import annotations

from typing import Any

from net.games.nuggets import views as v
from tui.games.nuggets import words
from tui.widgets.board import TurnBanner

MOMENT_SECONDS = 1.6
BUST_SECONDS = 1.6  # the busting roll stays on the table this long


class Beats:
    """The timed moments of ``NuggetsScreen`` (its ``_moment``, ``_bust`` and
    ``_held`` state, set in its ``__init__``)."""

    _moment: str
    _moment_cls: str
    _moment_timer: Any
    _bust: tuple[str, ...] | None
    _bust_timer: Any
    _held: bool
    _hold_timer: Any
    turn_pause: float
    view: Any
    # and the screen's query_one, set_timer, app, watch_view and _update_banner

    def _moment_for(self, event: v.GameEvent, names: list[str]) -> None:
        text, cls = words.moment(event, names)
        if isinstance(event, v.GameOver):
            self.app.bell()
        if text:
            self._show_moment(text, cls)

    def _show_moment(self, text: str, cls: str) -> None:
        """A short banner that clears on its own: never a blocking wait."""
        self._moment, self._moment_cls = text, cls
        self.query_one(TurnBanner).show(text, cls)
        if self._moment_timer is not None:
            self._moment_timer.stop()
        self._moment_timer = self.set_timer(MOMENT_SECONDS, self._end_moment)

    def _end_moment(self) -> None:
        self._moment = self._moment_cls = ""
        self._moment_timer = None
        self._update_banner()

    def _hold_bust(self, events: list[v.GameEvent]) -> None:
        """A bust: keep the roll that busted on the table for a beat, or until the
        next roll, which is never hidden behind it."""
        if not any(isinstance(e, v.Bust) for e in events):
            if self._bust is not None and any(isinstance(e, v.Rolled) for e in events):
                self._drop_bust()
            return
        rolled = [e for e in events if isinstance(e, v.Rolled)]
        if not rolled:
            return
        self._bust = tuple(rolled[-1].faces)
        if self._bust_timer is not None:
            self._bust_timer.stop()
        self._bust_timer = self.set_timer(BUST_SECONDS, self.end_bust)

    def _drop_bust(self) -> None:
        """The next player rolled during the beat: the busting roll and its banner go
        now (the caller draws the new view)."""
        if self._bust_timer is not None:
            self._bust_timer.stop()
        self._bust = None
        self._bust_timer = None
        if self._moment_cls == "-bust":
            if self._moment_timer is not None:
                self._moment_timer.stop()
            self._end_moment()

    def end_bust(self) -> None:
        """The busting roll leaves the table (a timer calls it)."""
        self._bust = None
        self._bust_timer = None
        if self.view is not None:
            self.watch_view(self.view)

    def _hold_keys(self) -> None:
        """Hot-seat: the turn changed hands; a double enter must not roll for the next
        player, so keys wait a moment."""
        if self.turn_pause <= 0:
            return
        self._held = True
        if self._hold_timer is not None:
            self._hold_timer.stop()
        self._hold_timer = self.set_timer(self.turn_pause, self.release_keys)

    def release_keys(self) -> None:
        """Keys work again after a hand-over (a timer calls it)."""
        self._held = False
        self._hold_timer = None
