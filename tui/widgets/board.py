"""Around the table: the turn banner, the supply and holdings, the hint line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


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


class Hint(FitsContent, Widget):
    """One line under the dice: why a selection was refused, or what to do next."""

    text: reactive[str] = reactive("")

    def render(self) -> Text:
        return self.fit(Text(self.text, overflow="fold"), wraps=True)

    def on_resize(self) -> None:
        self._lines = -1  # the text may wrap differently now
        self.refresh(layout=True)


class Holdings(FitsContent, Widget):
    """The supply and every player's nuggets; `current` is marked, winners starred."""

    COMPONENT_CLASSES = {"holdings--supply", "holdings--current", "holdings--me"}

    players: reactive[tuple[str, ...]] = reactive(())
    holdings: reactive[tuple[int, ...]] = reactive(())
    supply: reactive[int] = reactive(0)
    current: reactive[int | None] = reactive(None)
    mine: reactive[frozenset[int]] = reactive(frozenset())
    winners: reactive[tuple[int, ...]] = reactive(())
    ascii_mode: reactive[bool] = reactive(False)

    def render(self) -> Text:
        nugget = "$" if self.ascii_mode else "◆"
        supply_style = self.get_component_rich_style("holdings--supply")
        entries = [Text(f"Supply {nugget} {self.supply}", supply_style)]
        for seat, name in enumerate(self.players):
            held = self.holdings[seat] if seat < len(self.holdings) else 0
            marker = ">" if self.ascii_mode else "▶"
            style = ""
            if seat == self.current:
                style = self.get_component_rich_style("holdings--current")
            elif seat in self.mine:
                style = self.get_component_rich_style("holdings--me")
            entry = Text(f"{marker} " if seat == self.current else "  ", style)
            entry.append(name, style)  # appended as plain text: never markup
            entry.append(f" {held}", style)
            if seat in self.winners:
                entry.append(" *" if self.ascii_mode else " ★", style)
            entries.append(entry)
        # a line breaks between players, never inside one: a name and its nuggets stay
        # together where a narrow screen cannot hold every player on one line
        width = self.size.width - 2 if self.size.width > 2 else 0
        out = Text(overflow="fold")
        used = 0
        for entry in entries:
            if used and width and used + 3 + entry.cell_len > width:
                out.append("\n")
                used = 0
            elif used:
                out.append("   ")
                used += 3
            out.append_text(entry)
            used += entry.cell_len
        return self.fit(out)

    def on_resize(self) -> None:
        self._lines = -1  # the players may break into lines differently now
        self.refresh(layout=True)


def cells(text: str, width: int) -> str:
    """``text`` cut or padded to exactly ``width`` terminal cells: a wide character
    (CJK, most emoji) takes two, so counting characters would push columns out of line."""
    return set_cell_size(text, width)


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
