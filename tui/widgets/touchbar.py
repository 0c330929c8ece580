"""The touch bar: a row of large buttons under a screen, one for each key its footer
shows now, so a game plays by taps (a phone at the web door) or clicks alone.

Built from the same bindings the footer shows, as the screen's ``check_action`` answers
for them, so it can never offer what the footer does not. A footer key that stands for
a family of keys (``1-6 Discard`` for ``discard(0)`` to ``discard(5)``) is a button for
each of them that works now ("Discard 1" ... "Discard 6"). The app shows it through
its ``-touch`` class (``MOTHERLODE_TOUCH=1``, or the command palette's toggle); a bar
nobody sees builds nothing.
"""

from __future__ import annotations

import os
import re
from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import Button

BUTTON_WIDTH = 14  # cells a button takes in the bar's grid, at the least
#: "1": the app runs where people tap, a browser (the web door sets it for its apps)
TOUCH_ENV = "MOTHERLODE_TOUCH"


def touch_wanted() -> bool:
    """Whether the app starts with the touch bar shown (``MOTHERLODE_TOUCH=1``)."""
    return os.environ.get(TOUCH_ENV, "") == "1"


def show_touch_bars(app: Any, on: bool) -> None:
    """Show (or hide) the touch bar of every screen: the app's ``-touch`` class."""
    app.set_class(on, "-touch")
    for screen in app.screen_stack:
        for bar in screen.query(TouchBar):
            bar.rebuild()


def button_id(action: str) -> str:
    """The id of the button of ``action``: ``touch-roll``, ``touch-discard-0``."""
    return "touch-" + re.sub(r"[^a-z0-9]+", "-", action.lower()).strip("-")


def _family(action: str) -> str:
    return action.split("(", 1)[0]


class TouchBar(Grid):
    """Buttons for the keys of its screen's footer (the screen's own bindings)."""

    _shown: tuple[tuple[str, str], ...] | None = None

    def compose(self) -> ComposeResult:
        return iter(())

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.rebuild()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def on_resize(self) -> None:
        self._lay_out()

    def _bindings_changed(self, _screen: Any) -> None:
        self.rebuild()

    def buttons(self) -> list[tuple[str, str]]:
        """(label, action) of each button the footer's keys make now."""
        screen = self.screen
        own: dict[str, tuple[Any, bool]] = {}
        for node, binding, enabled, _tooltip in screen.active_bindings.values():
            if node is screen and binding.action not in own:
                own[binding.action] = (binding, bool(enabled))
        out: list[tuple[str, str]] = []
        for action, (binding, enabled) in own.items():
            if not binding.show or not enabled:
                continue
            # the hidden keys of its family ("Discard" shows 1-6): answer(True) and
            # answer(False), Yes and No, are each shown, so each is a button of its own
            family = [(b, on) for a, (b, on) in own.items()
                      if _family(a) == _family(action) and (a == action or not b.show)]
            if len(family) == 1:
                out.append((binding.description, action))
                continue
            out += [(f"{binding.description} {b.key}", b.action) for b, on in family if on]
        return out

    def rebuild(self) -> None:
        """Build the buttons again if the keys changed (only while the bar is shown):
        in turn, on the bar's own queue (the old buttons go before the new come)."""
        self.call_later(self._rebuild)

    async def _rebuild(self) -> None:
        if not self.is_attached:
            return
        if not self.app.has_class("-touch"):
            self._shown = None
            self.set_class(False, "-shown")
            return
        shown = tuple(self.buttons())
        if shown == self._shown:
            return
        self._shown = shown
        await self.remove_children()
        buttons = []
        for label, action in shown:
            button = Button(label, id=button_id(action), name=action)
            button.can_focus = False  # enter and space stay the table's keys
            buttons.append(button)
        await self.mount_all(buttons)
        self._lay_out()

    def _lay_out(self) -> None:
        count = len(self._shown or ())
        columns = max(1, min(count, self.app.size.width // BUTTON_WIDTH))
        self.styles.grid_size_columns = columns
        self.set_class(self.app.has_class("-touch") and count > 0, "-shown")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = event.button.name
        if action is not None:
            # as the key would: the screen's action ("app." ones are the app's)
            await self.app.run_action(action, self.screen)
