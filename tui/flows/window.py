"""The terminal's size: the tables need `tui.widgets.board.MIN_SIZE`, and a served
player, who cannot see the server's terminal, is told when theirs is too small."""

from __future__ import annotations

from typing import Any

from tui.flows.base import Flow
from tui.textual_internals import take_back_notices

SMALL_SETTLE = 0.5  # seconds a too-small terminal lasts before a served player is told
TOO_SMALL = "Make the window bigger"


class WindowFlow(Flow):
    """Follows the terminal's size (the app's ``-too-small`` class, the notice)."""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self._said = False
        self._timer: Any = None
        self._sized: Any = None  # the size of the last Resize (see resized)

    @staticmethod
    def small(size: Any) -> bool:
        from tui.widgets.board import MIN_SIZE

        return size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]

    def resized(self, event: Any) -> None:
        """The app's Resize event."""
        from tui.widgets.board import TooSmall

        app = self.app
        # Textual lays the screens out again and repaints them for a Resize to the size
        # they already have (three arrive as the app starts: three more layouts and
        # paints of the menu after its first frame); only a new size goes on to them
        if event.size == self._sized:
            event.prevent_default()
        self._sized = event.size

        small = self.small(event.size)
        app.set_class(small, "-too-small")
        for notice in app.screen.query(TooSmall):
            notice.refresh()
        app.screen.refresh_bindings()  # a hidden table's keys leave its footer, and come back
        if app.served is None:
            return
        # a served player cannot see the server's terminal: say it wherever they are, once
        # the small size has lasted (the SSH door's repaint of a re-attached terminal
        # shrinks it by a row for a moment, and that is no reason to ask for a bigger one)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not small:
            self._said = False
            # the size is back: a warning still on screen is no longer true
            take_back_notices(app, TOO_SMALL)
        elif not self._said:
            self._timer = app.set_timer(SMALL_SETTLE, self._say_too_small)

    def _say_too_small(self) -> None:
        from tui.widgets.board import MIN_SIZE

        self._timer = None
        width, height = self.app.size
        if not self.small(self.app.size):
            return
        self._said = True
        self.app.notify(f"{TOO_SMALL}: the tables need {MIN_SIZE[0]}x{MIN_SIZE[1]} "
                        f"(this one is {width}x{height}).", severity="warning", timeout=6)
