"""The supply and every player's nuggets, above Gold Nuggets' dice."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.widgets.board import FitsContent


class Holdings(FitsContent, Widget):
    """The supply and every player's nuggets; `current` is marked, winners starred."""

    COMPONENT_CLASSES = {"holdings--supply", "holdings--current", "holdings--me",
                         "holdings--away"}

    players: reactive[tuple[str, ...]] = reactive(())
    holdings: reactive[tuple[int, ...]] = reactive(())
    supply: reactive[int] = reactive(0)
    current: reactive[int | None] = reactive(None)
    mine: reactive[frozenset[int]] = reactive(frozenset())
    winners: reactive[tuple[int, ...]] = reactive(())
    #: seats whose person is gone (a drop, or a stand-in playing): marked "away"
    away: reactive[frozenset[int]] = reactive(frozenset())
    #: seat -> a reaction's words, marked by the name until it fades
    reactions: reactive[dict[int, str]] = reactive(dict)
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
            if seat in self.away:
                entry.append(" (away)", self.get_component_rich_style("holdings--away"))
            if seat in self.winners:
                entry.append(" *" if self.ascii_mode else " ★", style)
            if seat in self.reactions:  # literal words, from the six canned ones
                entry.append(f" «{self.reactions[seat]}»" if not self.ascii_mode
                             else f" <{self.reactions[seat]}>", "italic")
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
