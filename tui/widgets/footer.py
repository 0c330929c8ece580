"""The footer: a screen's keys, drawn by one widget.

Textual's Footer is a container of one ``FooterKey`` widget a key, each styled with its
component classes, composed, mounted, measured and rendered on its own. The menu's nine
keys were a third of the time from ``App.run`` to its first frame (14 of 42 ms), and a
busy table rebuilt or showed and hid key widgets as its keys came and went (issue 22).
This footer draws the same keys, in the same colours, as one line of text (or rows of a
grid where one line does not fit), and a change of keys repaints that text.

What it shows is what Textual's shows: each binding of the screen's active bindings
with ``show`` set, one key an action (its first binding), in their order, a key that
does nothing now dimmed; a key's description, its tooltip on hover, and a click or a
tap on a key presses it (a bell for a dimmed one).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.dom import NoScreen
from textual.widget import Widget


class Key(NamedTuple):
    """One key the footer shows."""

    key: str  # what a click presses
    display: str  # how it is written
    description: str
    enabled: bool
    tooltip: str


class Footer(Widget, can_focus=False):
    """The keys of its screen, as Textual's footer shows them, in one widget."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--hover"}
    DEFAULT_CSS = """
    Footer {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.keys: tuple[Key, ...] | None = None  # None: not read from the screen yet
        self._hover: int | None = None
        # where each key is drawn: (row, first column, past its last column)
        self._places: list[tuple[int, int, int]] = []
        self._laid_for: tuple[tuple[Key, ...], int] | None = None

    # -- the keys --------------------------------------------------------------------

    def read_keys(self) -> tuple[Key, ...]:
        """The keys to show now, as Textual's footer picks them."""
        app = self.app
        keys: dict[str, Key] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = Key(binding.key, app.get_key_display(binding),
                                           binding.description, bool(enabled),
                                           tooltip or binding.tooltip or "")
        return tuple(keys.values())

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.update_keys()

    def _bindings_changed(self, screen: Any) -> None:
        if self.is_attached and screen is self.screen:
            # (after the refresh, as Textual's footer: the screen's state settled)
            self.call_after_refresh(self.update_keys)

    def update_keys(self) -> None:
        """Read the keys again; repaint if they changed, and lay the screen out again
        only if the footer's height changes."""
        try:
            keys = self.read_keys()
        except NoScreen:
            return  # its screen gone meanwhile (a call after the refresh)
        if keys == self.keys:
            return
        self.keys = keys
        self._fit(self.size.width or self.app.size.width)
        self.refresh()

    def on_resize(self) -> None:
        self._fit(self.size.width)

    # -- where each key goes -----------------------------------------------------------

    @staticmethod
    def entry(key: Key) -> tuple[str, str]:
        """(key part, description part) as Textual's FooterKey pads them."""
        if key.description:
            return f" {key.display} ", f"{key.description} "
        return key.display, ""

    def _fit(self, width: int) -> None:
        """Keys that do not fit one row (a narrow terminal) go in rows of a grid, each
        key whole, rather than off the edge; one row again when they fit."""
        if self.keys is None or width <= 0 or self._laid_for == (self.keys, width):
            return
        self._laid_for = (self.keys, width)
        sizes = [sum(map(cell_len, self.entry(key))) for key in self.keys]  # in cells
        places: list[tuple[int, int, int]] = []
        if not sizes or sum(sizes) - 1 <= width:  # (the last key's trailing space may go)
            x = 0
            for size in sizes:
                places.append((0, x, x + size))
                x += size
            rows = 1
        else:
            # equal columns, each as wide as the widest key (its trailing space may go)
            cell = max(sizes) - 1
            columns = max(1, min(len(sizes), width // cell))
            rows = -(-len(sizes) // columns)
            for n, size in enumerate(sizes):
                x = (n % columns) * width // columns
                places.append((n // columns, x, x + size))
        self._places = places
        if self.styles.height is None or self.styles.height.value != rows:
            self.styles.height = rows

    def key_at(self, x: int, y: int) -> int | None:
        """The index of the key drawn at (x, y) of the footer, if any."""
        for n, (row, start, end) in enumerate(self._places):
            if row == y and start <= x < end:
                return n
        return None

    # -- drawing ---------------------------------------------------------------------

    def render(self) -> Text:
        if self.keys is None:
            self.keys = self.read_keys()
        self._fit(self.size.width)
        key_style = self.get_component_rich_style("footer-key--key")
        description_style = self.get_component_rich_style("footer-key--description")
        hover_style = self.get_component_rich_style("footer-key--hover", partial=True)
        rows = 1 + max((row for row, _, _ in self._places), default=0)
        lines = [Text(no_wrap=True, end="") for _ in range(rows)]
        for n, (key, (row, start, _end)) in enumerate(zip(self.keys, self._places,
                                                          strict=True)):
            line = lines[row]
            if line.cell_len > start:
                line.truncate(start)  # a key's trailing space, where the next begins
            elif start > line.cell_len:
                line.append(" " * (start - line.cell_len))
            extra = Style() if key.enabled else Style(dim=True)
            if n == self._hover:
                extra = hover_style + extra
            head, tail = self.entry(key)
            line.append(head, key_style + extra)
            if tail:
                line.append(tail, description_style + extra)
        for line in lines:
            line.truncate(max(0, self.size.width))
        return Text("\n", no_wrap=True, end="").join(lines)

    # -- the mouse -------------------------------------------------------------------

    def _hover_at(self, index: int | None) -> None:
        if index != self._hover:
            self._hover = index
            tooltip = self.keys[index].tooltip if index is not None and self.keys else ""
            self.tooltip = tooltip or None
            self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover_at(self.key_at(event.x, event.y))

    def on_leave(self) -> None:
        self._hover_at(None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self.key_at(event.x, event.y)
        if index is None or self.keys is None:
            return
        key = self.keys[index]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
