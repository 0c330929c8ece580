"""Around every table: the turn banner, the hint line, the size notice."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static


class FitsContent:
    """For height:auto widgets that re-render on every view: a new layout only when the
    number of lines changes, so a busy table repaints instead of re-laying out."""

    _lines = -1

    def fit(self, text: Text, *, wraps: bool = False) -> Text:
        rows = text.plain.split("\n")
        width = max(1, self.size.width - 2)  # type: ignore[attr-defined]
        lines = sum(-(-cell_len(row) // width) or 1 for row in rows) if wraps else len(rows)
        if lines != self._lines:
            self._lines = lines
            self.call_later(self.refresh, layout=True)  # type: ignore[attr-defined]
        return text


def show_text(static: Static, text: Text) -> None:
    """Set ``static``'s text, doing no more than the change needs: nothing for the same
    text, and a repaint of this widget alone (no new layout of its screen) when its size
    cannot change: as many lines as before, each within the width it has (so none
    wraps), and a width that is not the text's own (``width: auto``). A lobby's ready
    flag then repaints one widget, where ``update`` lays the screen out again and
    repaints what that touched (issue 48: the key to every other screen)."""
    old = static.content
    if isinstance(old, Text) and old == text and old.style == text.style:
        return
    static.update(text, layout=not (isinstance(old, Text) and _same_size(static, old, text)))


def _same_size(static: Static, old: Text, new: Text) -> bool:
    width = static.styles.width
    if width is not None and width.is_auto:
        return False
    room = static.content_region.width
    was, now = old.plain.split("\n"), new.plain.split("\n")
    return (room > 0 and len(was) == len(now)
            and all(cell_len(line) <= room for line in (*was, *now)))


class TurnBanner(Widget):
    """Whose turn it is and what they do now. Text is literal: names are peer text."""

    MOODS = ("-mine", "-bust", "-bonus", "-steal", "-over")

    text: reactive[str] = reactive("")

    def show(self, text: str, mood: str = "") -> None:
        """Set the text and the one mood class (or none); styles change only if it differs."""
        self.text = text
        for cls in self.MOODS:
            if self.has_class(cls) != (cls == mood):
                self.set_class(cls == mood, cls)

    def render(self) -> Text:
        return Text(self.text, no_wrap=True, overflow="ellipsis", justify="center")


class Hint(Widget):
    """One line under the dice: why a selection was refused, or what to do next."""

    # a new text lays the screen out again in the same refresh: a height fitted a frame
    # later (FitsContent) left a hint that grew a row cut in a real terminal (issue 47)
    text: reactive[str] = reactive("", layout=True)

    def render(self) -> Text:
        return Text(self.text, overflow="fold")


def cells(text: str, width: int) -> str:
    """``text`` cut or padded to exactly ``width`` terminal cells: a wide character
    (CJK, most emoji) takes two, so counting characters would push columns out of line."""
    return set_cell_size(text, width)


def fit_name(name: str, width: int) -> list[str]:
    """A name in lines of exactly ``width`` cells, never cut: whole on one line if it
    fits; else its leading words shortened to initials ("P. Pete (bot)" for Panhandle
    Pete (bot)), its last word and any "(bot)" kept; else wrapped, a word too long for
    a line broken across two."""
    width = max(1, width)
    if cell_len(name) <= width:
        return [cells(name, width)]
    words = name.split(" ")
    real = [i for i, word in enumerate(words) if word and not word.startswith("(")]
    short = list(words)
    for i in real[:-1]:  # the first words first: the last one keeps the name known
        short[i] = short[i][:1] + "."
        if cell_len(" ".join(short)) <= width:
            return [cells(" ".join(short), width)]
    lines: list[str] = []
    line = ""
    for word in words:
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        while cell_len(word) > width:
            head = set_cell_size(word, width).rstrip()
            lines.append(head)
            word = word[len(head):]
        line = word
    if line:
        lines.append(line)
    return [cells(line, width) for line in lines]


def names_line(names: Sequence[str], seats: Sequence[int]) -> str:
    """"Ann and Bob" for a list of seats."""
    picked = [names[s] if 0 <= s < len(names) else f"seat {s}" for s in seats]
    if len(picked) <= 1:
        return "".join(picked)
    return ", ".join(picked[:-1]) + " and " + picked[-1]


#: Below this no screen has a layout (each table and the lobby have a narrow one for
#: 40-79 columns and a short one for 14-23 rows): the size notice asks for it.
MIN_SIZE = (40, 14)

#: The stylesheet of these widgets, the tables and the lobby (their screens' CSS_PATH):
#: Textual loads it when the first of them opens, so the menu's first frame parses only
#: the app's. An absolute path, so that a subclass defined anywhere finds it.
TABLES_CSS = str(Path(__file__).resolve().parent.parent / "tables.tcss")


def hidden_by_size(app: object) -> bool:
    """The terminal is too small for any layout: the size notice hides the tables and
    the lobby (the app's ``-too-small`` class), and a hidden screen takes no keys."""
    return bool(getattr(app, "has_class", None) and app.has_class("-too-small"))  # type: ignore[attr-defined]


class TooSmall(Widget):
    """In place of a table when the terminal is smaller than it needs: what size to make
    it (the app shows it through its ``-too-small`` class)."""

    def render(self) -> Text:
        width, height = self.app.size
        need_w, need_h = MIN_SIZE
        return Text(
            f"This table needs a terminal of at least {need_w}x{need_h}; this one is "
            f"{width}x{height}.\nMake the window bigger (or the font smaller).",
            justify="center",
        )
