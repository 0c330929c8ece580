"""The touch bar: a row of large buttons under a screen, one for each key its footer
shows now, so a game plays by taps (a phone at the web door) or clicks alone.

Built from the same bindings the footer shows, as the screen's ``check_action`` answers
for them, so it can never offer what the footer does not. A footer key that stands for
a family of keys (``1-6 Discard`` for ``discard(0)`` to ``discard(5)``) is a button for
each of them that works now ("Discard 1" ... "Discard 6"). The app shows it through
its ``-touch`` class (``MOTHERLODE_TOUCH=1``, or the command palette's toggle); a bar
nobody sees builds nothing.

Buttons stay put under a finger (:func:`place`): a button keeps its slot while it
exists; a new one takes an empty slot that no other action held in the last
:data:`SLOT_MEMORY` seconds, else the end; the bar's columns do not change with the
number of buttons. After a tap, the slot ignores a tap of a different action for
:data:`TAP_GUARD` seconds (a double tap never does two different things). A screen may
name a button better than its key (``touch_label``: "Pass Owl", not "Discard 3").
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import Button

BUTTON_WIDTH = 14  # cells a button takes in the bar's grid, at the least
SLOT_MEMORY = 2.0  # seconds a slot is kept from another action after its own left it
TAP_GUARD = 0.5  # seconds a slot ignores a tap of another action after a tap
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


def place(slots: list[str | None], freed: dict[int, tuple[str, float]],
          wanted: list[str], now: float, memory: float = SLOT_MEMORY) -> list[str | None]:
    """The actions in their slots after a change (``wanted``: the buttons now, in the
    order the footer gives them). ``freed`` (changed here) remembers each slot an
    action left and when. Pure but for ``freed``; the bar's one rule of placement."""
    placed: list[str | None] = []
    for i, action in enumerate(slots):
        if action is not None and action not in wanted:
            freed[i] = (action, now)
            action = None
        placed.append(action)
    for action in wanted:
        if action in placed:
            continue
        def open_to(i: int, action: str = action) -> bool:
            return i not in freed or freed[i][0] == action or now - freed[i][1] >= memory

        free = next((i for i, held in enumerate(placed) if held is None and open_to(i)),
                    None)
        if free is None:  # the end, past any slot another action left just now
            free = len(placed)
            while not open_to(free):
                free += 1
            placed += [None] * (free + 1 - len(placed))
        placed[free] = action
    # an empty slot at the end goes only once nothing was in it for the memory: the bar
    # keeps its rows, so a button does not slide into the place of one that just left
    # (the bar sits at the screen's bottom: one row less moves every row down)
    while placed and placed[-1] is None and (
            len(placed) - 1 not in freed or now - freed[len(placed) - 1][1] >= memory):
        placed.pop()
    return placed


class TouchBar(Grid):
    """Buttons for the keys of its screen's footer (the screen's own bindings)."""

    _shown: tuple[tuple[str, str], ...] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._slots: list[str | None] = []  # the action in each slot (None: empty)
        self._freed: dict[int, tuple[str, float]] = {}
        self._tapped: dict[int, tuple[str, float]] = {}  # slot -> (action, when)

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
        name = getattr(screen, "touch_label", None)
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
        if name is not None:
            out = [(name(action, label), action) for label, action in out]
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
        labels = {action: label for label, action in shown}
        self._slots = place(self._slots, self._freed, list(labels), time.monotonic())
        await self.remove_children()
        buttons = []
        for slot, action in enumerate(self._slots):
            if action is None:  # an empty slot keeps the others where they are
                button = Button("", id=f"touch-slot-{slot}", classes="-empty", disabled=True)
            else:
                button = Button(labels[action], id=button_id(action), name=action)
            button.can_focus = False  # enter and space stay the table's keys
            buttons.append(button)
        await self.mount_all(buttons)
        self._lay_out()
        if self._slots and self._slots[-1] is None:  # kept for its rows: let it go later
            self.set_timer(SLOT_MEMORY + 0.05, self._tidy)

    def _tidy(self) -> None:
        """Build again once the memory is over: the end's empty slots go."""
        self._shown = None
        self.rebuild()

    def _lay_out(self) -> None:
        count = len(self._shown or ())
        # as many columns as fit, however many buttons: a button's place never moves
        # because another came or went
        columns = max(1, self.app.size.width // BUTTON_WIDTH)
        self.styles.grid_size_columns = columns
        self.set_class(self.app.has_class("-touch") and count > 0, "-shown")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        action = event.button.name
        if action is None:
            return
        slot = self._slots.index(action) if action in self._slots else -1
        now = time.monotonic()
        last = self._tapped.get(slot)
        if last is not None and last[0] != action and now - last[1] < TAP_GUARD:
            return  # a double tap's second half, on what took the first one's place
        self._tapped[slot] = (action, now)
        if action is not None:
            # as the key would: the screen's action ("app." ones are the app's)
            await self.app.run_action(action, self.screen)
