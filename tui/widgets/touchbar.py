"""The touch bar: a grid of large buttons under a screen, one for each key its footer
shows now, so a game plays by taps (a phone at the web door) or clicks alone.

Built from the same bindings the footer shows, as the screen's ``check_action`` answers
for them, so it can never offer what the footer does not. A footer key that stands for
a family of keys (``1-6 Pass`` for ``discard(0)`` to ``discard(5)``) is a button for
each of them that works now; a screen may offer its own buttons for them
(``touch_buttons``: "Pass Owl", one a card's name, not "Pass 3"). The app shows it
through its ``-touch``
class (``MOTHERLODE_TOUCH=1``, or the command palette's toggle); a bar nobody sees
builds nothing.

Buttons stay put under a finger (issue 47), by :func:`place`:

- a button keeps its slot while it exists;
- a new one takes an empty slot that no other action held in the last
  :data:`SLOT_MEMORY` seconds (its own old slot first), else the end;
- the slots are counted from the bottom left, row by row upwards, and a row once made
  stays while the bar lives (an empty slot is a blank placeholder): the bar is docked
  at the screen's bottom, under the footer, so neither a row more nor a footer line
  more moves a button, and the columns do not change with the number of buttons;
- after a tap, its place ignores a tap of anything else for :data:`TAP_GUARD` seconds,
  in this bar or the bar of a screen that came up under the finger (the second half
  of a double tap never does a different thing than the first), and for as long
  after a button or its screen came there, if it came later (a loaded machine's new
  screen, or the one it went back to).

A family of buttons (actions of one name: Fool's Gold's ``pass_card(...)``, one a card
of the hand, in the hand's order) reads in order (issue 58), within those rules:

- new ones placed together take the slots the rules give them in reading order (top
  row first, left to right), the first of them highest: 1-2-3 above 4-5-6, never the
  slot order's 4-5-6 above 1-2-3;
- each member has a rank (the screen's ``touch_rank``: a card's place in the hand;
  else its place among the members), and the slot a rank first had is its home. A
  button goes to its rank's home: if another button holds it, it goes as any new one;
  if it is empty but the memory still keeps it for the button that left (a card drawn
  right after the pass of the card whose place it takes), the button waits, unshown,
  until the memory ends (a timer on the bar's clock, then ``recheck``). So the cards'
  buttons read in the hand's order after every pass and draw, and no place shows
  another button within the memory. A new width (other columns) starts the homes
  anew.

A screen may ask for wider buttons (``TOUCH_WIDTH``, the least cells a button takes;
else :data:`BUTTON_WIDTH`), and a button's words have its whole width: Fool's Gold's
20 gives two buttons a row at 40 columns, each with room for "Pass Rattlesnake".

Time comes from ``clock`` (``time.monotonic`` unless the bar or the app is given
one: ``touch_clock``), so tests need no sleep.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from textual.app import ComposeResult
from textual.containers import Grid
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button

BUTTON_WIDTH = 14  # cells a button takes in the bar's grid, at the least
SLOT_MEMORY = 2.0  # seconds a slot is kept from any other action after its own left it
TAP_GUARD = 0.5  # seconds a slot ignores a tap of another button after a tap
#: "1": the app runs where people tap, a browser (the web door sets it for its apps)
TOUCH_ENV = "MOTHERLODE_TOUCH"
#: a file each tap on a bar is written to, one JSON line (``_trail``)
TRAIL_ENV = "MOTHERLODE_TOUCH_TRAIL"


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


Freed = dict[int, tuple[str, float]]  # slot -> (the action that left it, when)


def place(slots: list[str | None], freed: Freed, wanted: list[str], now: float,
          memory: float = SLOT_MEMORY, columns: int = 1,
          homes: dict[str, int] | None = None) -> list[str | None]:  # fmt: skip
    """The actions in their slots after a change. ``slots``: the action in each slot
    before (None: empty); ``wanted``: the buttons now, in the footer's order; ``freed``
    (updated here) remembers which action left each slot and when; ``homes``: the slot
    an action of a family goes to (``TouchBar``): while that slot is empty but not yet
    open to it, the action is left out (it waits); one held by another goes as any
    new one. The bar's one rule of placement; the slots never get fewer. A family's new
    buttons placed together take the slots they get in reading order (the grid's
    ``columns``): the first of them in the footer's order the highest, at the left."""
    placed: list[str | None] = []
    for i, action in enumerate(slots):
        if action is not None and action not in wanted:
            freed[i] = (action, now)
            action = None
        placed.append(action)

    def open_to(i: int, action: str) -> bool:
        gone = freed.get(i)
        return gone is None or gone[0] == action or now - gone[1] >= memory

    homes = homes or {}
    got: dict[str, int] = {}
    for action in wanted:
        if action in placed:
            continue
        home = homes.get(action)
        if home is not None and home < len(placed) and placed[home] is None:
            if open_to(home, action):
                placed[home] = action
            continue  # else it waits for its home: the memory ends (``TouchBar``)
        own = next((i for i, held in enumerate(placed)
                    if held is None and freed.get(i, ("",))[0] == action), None)
        if own is not None:
            placed[own] = action
            continue
        free = next((i for i, held in enumerate(placed) if held is None and open_to(i, action)),
                    None)
        if free is None:
            free = len(placed)
            while not open_to(free, action):
                free += 1
            placed += [None] * (free + 1 - len(placed))
        placed[free] = action
        got[action] = free
    # each slot in ``got`` was open to any action (one that was some action's own went
    # to it above): a family's new ones trade theirs, to read in the footer's order
    for family in dict.fromkeys(_family(a) for a in got):
        members = [a for a in got if _family(a) == family]
        cells = sorted((got[a] for a in members), key=lambda s: reading(s, columns))
        for action, cell in zip(members, cells, strict=True):
            placed[cell] = action
    return placed


def reading(slot: int, columns: int) -> tuple[int, int]:
    """Where ``slot`` comes as the grid is read (top row first, then left to right):
    slot 0 is at the bottom left, and the slots go along a row, then up."""
    return -(slot // columns), slot % columns


def grid_order(count: int, columns: int) -> list[int]:
    """The slot in each cell of the grid, top left first: slot 0 is the bottom left,
    and the slots go along a row, then up (the bar grows upwards, away from its
    buttons)."""
    rows = max(1, -(-count // columns))
    return [(rows - 1 - cell // columns) * columns + cell % columns
            for cell in range(rows * columns)]


class Slot(Widget):
    """A cell of the bar: its button, or blank (a placeholder holding the others'
    places)."""

    def __init__(self, number: int) -> None:
        super().__init__(classes="touch-slot")
        self.number = number

    def render(self) -> str:
        return ""  # blank (a bare Widget would draw its name)


class TouchButton(Button):
    """A bar's button: it notes when it came and when it was pressed, on its bar's
    clock."""

    def __init__(self, *args: Any, clock: Callable[[], float], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clock = clock
        self.shown_at = clock()
        self.pressed_at = 0.0

    def press(self) -> TouchButton:
        self.pressed_at = self.clock()
        return super().press()


class TouchBar(Grid):
    """Buttons for the keys of its screen's footer (the screen's own bindings), in
    fixed slots (see the module's docstring)."""

    def __init__(self, *args: Any, clock: Callable[[], float] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clock = clock
        #: when its screen last became the one shown (mounted, pushed, popped back to)
        self.came_at = float("-inf")
        self._shown: tuple[tuple[str, str], ...] | None = None
        self.slots: list[str | None] = []  # the action in each slot (None: empty)
        self._freed: Freed = {}
        self._columns = 0
        #: each family's homes: a member's rank (the screen's ``touch_rank``: a card's
        #: place in the hand) -> its slot
        self._homes: dict[str, dict[int, int]] = {}

    def compose(self) -> ComposeResult:
        return iter(())

    def clock(self) -> float:
        """Now, in seconds: the clock given, else the app's ``touch_clock`` (a test's
        fake one), else ``time.monotonic``."""
        clock = self._clock or getattr(self.app, "touch_clock", None) or time.monotonic
        return clock()

    def on_mount(self) -> None:
        self.came_at = self.clock()
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        # at once, as the screen changes: a tap already on its way lands after it
        self.app.screen_change_signal.subscribe(self, self._screen_changed, immediate=True)
        self.rebuild()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)
        self.app.screen_change_signal.unsubscribe(self)

    def _screen_changed(self, screen: Any) -> None:
        if screen is self.screen:
            self.came_at = self.clock()

    def on_resize(self) -> None:
        if self._columns and self._columns != self._fitting_columns():
            self.rebuild()

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
            # the hidden keys of its family ("Pass" shows 1-6): answer(True) and
            # answer(False), Yes and No, are each shown, so each is a button of its own
            family = [(b, on) for a, (b, on) in own.items()
                      if _family(a) == _family(action) and (a == action or not b.show)]
            if len(family) == 1:
                out.append((binding.description, action))
                continue
            out += [(f"{binding.description} {b.key}", b.action) for b, on in family if on]
        own_buttons = getattr(screen, "touch_buttons", None)
        if own_buttons is not None:  # the screen's own words and actions for some
            out = own_buttons(out, self.label_width())
        return out

    def label_width(self) -> int:
        """The cells a button's words have (its edges taken off)."""
        columns = self._fitting_columns()
        room = self.app.size.width - 2 - (columns - 1)  # the bar's padding, the gutters
        return max(4, room // columns - 2)

    def _fitting_columns(self) -> int:
        width = getattr(self.screen, "TOUCH_WIDTH", BUTTON_WIDTH)  # a screen's words
        return max(1, self.app.size.width // width)

    def rebuild(self) -> None:
        """Build the buttons again if the keys changed (only while the bar is shown):
        in turn, on the bar's own queue."""
        self.call_later(self._rebuild)

    async def _rebuild(self) -> None:
        if not self.is_attached:
            return
        if not self.app.has_class("-touch"):
            self._shown = None
            self.set_class(False, "-shown")
            if not self.has_class("dialog"):
                self.screen.set_class(False, "-touch-bar")
            return
        shown = tuple(self.buttons())
        columns = self._fitting_columns()
        if self.has_class("dialog"):  # a box's few buttons, which never change: wide
            columns = max(1, min(columns, len(shown)))
        if shown == self._shown and columns == self._columns:
            return
        self._shown = shown
        wanted = [a for _, a in shown]
        if columns != self._columns:  # a new width: the homes as the grid reads now
            self._homes = {}
        self.slots = place(self.slots, self._freed, wanted, self.clock(), columns=columns,
                           homes=self._homes_of(wanted))  # fmt: skip
        self._remember_homes(wanted)
        self._waiting(wanted)
        with self.app.batch_update():
            await self._lay_out(dict((a, label) for label, a in shown), columns)

    def _rank(self, action: str, members: list[str]) -> int:
        """A family member's place in its family: the screen's (``touch_rank``: the
        card's first place in the hand), else its place among the members now."""
        ranked = getattr(self.screen, "touch_rank", None)
        found = ranked(action) if ranked is not None else None
        return members.index(action) if found is None else found

    def _homes_of(self, wanted: list[str]) -> dict[str, int]:
        """The slot each button of a family goes to: the home of its rank."""
        homes: dict[str, int] = {}
        for family, cells in self._homes.items():
            members = [a for a in wanted if _family(a) == family]
            for action in members:
                rank = self._rank(action, members)
                if rank in cells:
                    homes[action] = cells[rank]
        return homes

    def _remember_homes(self, wanted: list[str]) -> None:
        """A family member placed at a rank with no home yet: its slot is that rank's
        home (the first of a family placed together read in order, ``place``)."""
        for family in dict.fromkeys(_family(a) for a in wanted):
            members = [a for a in wanted if _family(a) == family]
            if len(members) < 2 and family not in self._homes:
                continue
            cells = self._homes.setdefault(family, {})
            for action in members:
                rank = self._rank(action, members)
                if rank not in cells and action in self.slots:
                    slot = self.slots.index(action)
                    if slot not in cells.values():
                        cells[rank] = slot

    def _waiting(self, wanted: list[str]) -> None:
        """A button waiting for its home (``place``): look again when the memory that
        holds the slot ends (the bar's clock; a test's advances, then ``recheck``)."""
        waits = [self._freed[home][1] + SLOT_MEMORY for a, home in
                 self._homes_of(wanted).items()
                 if a not in self.slots and home in self._freed]
        if waits:
            self.set_timer(max(0.01, min(waits) - self.clock()), self.recheck)

    def recheck(self) -> None:
        """Place the buttons again now, though the keys are the same (a wait is over)."""
        self._shown = None
        self.rebuild()

    async def _lay_out(self, labels: dict[str, str], columns: int) -> None:
        """The cells as the slots say, changing only those that changed: a button that
        stays keeps its widget (its words may change), a row is added at the top."""
        if columns != self._columns:  # a new width: every cell anew
            await self.remove_children()
            self._columns = columns
            self.styles.grid_size_columns = columns
        order = grid_order(len(self.slots), columns)
        cells: list[Slot] = list(self.query_children(Slot))
        if len(order) > len(cells):  # new rows, at the top
            new = [Slot(number) for number in order[:len(order) - len(cells)]]
            if cells:
                await self.mount_all(new, before=cells[0])
            else:
                await self.mount_all(new)
            cells = new + cells
        for cell in cells:
            action = self.slots[cell.number] if cell.number < len(self.slots) else None
            button = next(iter(cell.query_children(Button)), None)
            if button is not None and button.name == action:
                button.label = labels[action]
                continue
            if button is not None:
                await button.remove()
            if action is not None:
                button = TouchButton(labels[action], id=button_id(action), name=action,
                                     clock=self.clock)
                button.can_focus = False  # enter and space stay the table's keys
                await cell.mount(button)
        shown = bool(self.slots)
        self.set_class(shown, "-shown")
        if not self.has_class("dialog"):
            # the bar at the screen's very bottom, the footer above it: a footer of
            # more or fewer lines never moves a button (tui/motherlode.tcss)
            self.screen.set_class(shown, "-touch-bar")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = event.button
        action = button.name
        if action is None:
            return
        # when the tap was: a press may wait its turn in the bar's queue (a screen
        # still building), and the guard is for the finger's time
        now = button.pressed_at if isinstance(button, TouchButton) else self.clock()
        what = (action, str(button.label))
        last = _LAST_TAP.get(self.app)
        # a double tap's second half, on what took the first one's place: in this bar,
        # or in the bar of a screen that came up under the finger (a game started).
        # Its half second counts from the first tap, or from when the button came, if
        # it came after: a busy machine may take longer than that to bring the new
        # screen, and the second half then lands on a button just come
        came = max(self.came_at, button.shown_at if isinstance(button, TouchButton)
                   else float("-inf"))
        ignored = last is not None and last[1] != what and last[0].overlaps(button.region) \
            and now - max(last[2], came) < TAP_GUARD
        _trail(self.screen, what, ignored)
        if ignored:
            return
        _LAST_TAP[self.app] = (button.region, what, now)
        # as the key would: the screen's action ("app." ones are the app's)
        await self.app.run_action(action, self.screen)


#: each app's last tap on a touch bar: where, what (action, words), when
_LAST_TAP: WeakKeyDictionary[Any, tuple[Region, tuple[str, str], float]] = WeakKeyDictionary()


def _trail(screen: Any, what: tuple[str, str], ignored: bool) -> None:
    """Each tap, as one JSON line in the file ``MOTHERLODE_TOUCH_TRAIL`` names (for
    the phone's tests and for a bug report: what was tapped, and whether it ran)."""
    path = os.environ.get(TRAIL_ENV)
    if not path:
        return
    line = {"screen": type(screen).__name__, "action": what[0], "label": what[1],
            "ran": not ignored, "at": time.time()}
    with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as trail:
        trail.write(json.dumps(line) + "\n")
