"""The event log: one line per event, newest at the bottom."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import RichLog

from tui.describe import describe


class EventLog(RichLog):
    """A scrolling log of events in words. Lines are Text: peer names stay literal."""

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, highlight=False, wrap=True, max_lines=500, **kwargs)

    def add_events(self, events: Sequence[dict], names: Sequence[str]) -> None:
        for event in events:
            self.write(Text(describe(event, names)))

    def add_line(self, line: str, style: str = "") -> None:
        self.write(Text(line, style))
