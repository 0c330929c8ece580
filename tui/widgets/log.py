"""The event log: the newest events in words, one line each, newest at the bottom.

A plain widget that draws the tail that fits its height (and keeps the last
`MAX_LINES`), rather than a scrolling log: on a busy table every event would otherwise
grow a virtual size and cost a new layout each frame.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from net.views import Event
from tui.describe import describe

MAX_LINES = 500


class EventLog(Widget):
    """Lines are Text objects: peer names stay literal."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.lines: deque[Text] = deque(maxlen=MAX_LINES)

    def add_events(self, events: Sequence[Event], names: Sequence[str],
                   view: object = None) -> None:
        """The events in words (``view``: the view they led to, for the games that
        explain more with it)."""
        for event in events:
            self.lines.append(Text(describe(event, names, view)))
        if events:
            self.refresh()

    def add_line(self, line: str, style: str = "") -> None:
        self.lines.append(Text(line, style))
        self.refresh()

    def render(self) -> Text:
        height = max(1, self.content_size.height)
        width = max(1, self.content_size.width)
        shown: list[Text] = []
        used = 0
        # Newest first, until the height is full; a long line may take several rows.
        for line in reversed(self.lines):
            rows = max(1, -(-line.cell_len // width))
            if used + rows > height:
                break
            shown.append(line)
            used += rows
        out = Text(overflow="fold")
        for i, line in enumerate(reversed(shown)):
            if i:
                out.append("\n")
            out.append_text(line)
        return out
