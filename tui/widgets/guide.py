"""The guided first round's box (issue 47): the step in front of a first-timer, in a
few lines above the log. Each game says the words (``tui.games.<key>.guided``)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.widgets.board import FitsContent


class Guide(FitsContent, Widget):
    """What to do now and why; x ends the guide."""

    text: reactive[str] = reactive("")

    def on_mount(self) -> None:
        self.border_title = "Guide"
        self.border_subtitle = "x ends the guide"

    def render(self) -> Text:
        return self.fit(Text(self.text, overflow="fold"), wraps=True)

    def on_resize(self) -> None:
        self._lines = -1
        self.refresh(layout=True)
