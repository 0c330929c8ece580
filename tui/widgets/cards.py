"""The Fool's Gold table: your hand, the seats around the table, the piles, the reveal."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.reactive import reactive
from textual.widget import Widget

from tui import glyphs
from tui.messages import CardClicked
from tui.widgets.board import FitsContent

HAND_MAX = 6


def _variant_style(variant: str) -> str:
    # A tint per art variant; the ornaments already differ without colour.
    return {
        "a": "#d8b35a",
        "b": "#7fb3d5",
        "c": "#c39bd3",
        "d": "#82c99a",
        "e": "#e59866",
        "f": "#f1948a",
    }.get(variant, "#cccccc")


class HandView(Widget):
    """Your hand as cards with their discard keys 1-6 (face-down for a spectator)."""

    COMPONENT_CLASSES = {"hand--frozen", "hand--empty"}

    hand: reactive[tuple[dict, ...] | None] = reactive(None)
    frozen: reactive[bool] = reactive(False)
    ascii_mode: reactive[bool] = reactive(False)

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        if self.hand is None:
            return Text("You are watching: no hand.", self.get_component_rich_style("hand--empty"))
        if not self.hand:
            return Text("No cards.", self.get_component_rich_style("hand--empty"))
        pictures = [
            glyphs.card_lines(card, ascii_mode=self.ascii_mode, key=str(i + 1))
            for i, card in enumerate(self.hand)
        ]
        frozen = self.get_component_rich_style("hand--frozen") if self.frozen else None
        for row in range(glyphs.CARD_HEIGHT):
            for card, picture in zip(self.hand, pictures, strict=True):
                style = Style.parse(_variant_style(str(card.get("variant", ""))))
                out.append(picture[row], frozen + style if frozen else style)
            if row < glyphs.CARD_HEIGHT - 1:
                out.append("\n")
        return out

    def on_click(self, event: Click) -> None:
        index = event.x // glyphs.CARD_WIDTH
        if self.hand and 0 <= index < len(self.hand):
            self.post_message(CardClicked(index))


def grab_gaps(grabbed: list) -> list[tuple[int, int]]:
    """(seat, milliseconds after the first grab) in grab order."""
    if not grabbed:
        return []
    first = float(grabbed[0][1])
    return [(int(seat), round((float(at) - first) * 1000)) for seat, at in grabbed]


class Seats(FitsContent, Widget):
    """One line per seat: name, hand and incoming sizes, score, grab, call."""

    COMPONENT_CLASSES = {"seats--me", "seats--start", "seats--head", "seats--grab"}

    view: reactive[dict | None] = reactive(None, always_update=True)
    names: reactive[tuple[str, ...]] = reactive(())
    ascii_mode: reactive[bool] = reactive(False)

    def render(self) -> Text:
        view = self.view
        if not view:
            return self.fit(Text(""))
        out = Text(no_wrap=True, overflow="ellipsis")
        out.append(f"{'':2}{'player':<15}{'hand':>4}{'in':>3}{'pts':>4} grab\n",
                   self.get_component_rich_style("seats--head"))
        gaps = dict((s, (k, ms)) for k, (s, ms) in enumerate(grab_gaps(view.get("grabbed") or [])))
        scores = view.get("scores") or []
        deltas = view.get("deltas")
        for seat in range(int(view.get("players", 0))):
            name = self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"
            style = ""
            if seat == view.get("seat"):
                style = self.get_component_rich_style("seats--me")
            start = seat == view.get("start")
            out.append(("S " if self.ascii_mode else "● ") if start else "  ", style)
            out.append(name[:14].ljust(15), style)  # literal text, never markup
            hand = view["hand_sizes"][seat] if seat < len(view.get("hand_sizes", [])) else 0
            incoming = view.get("incoming_sizes", [])
            inc = incoming[seat] if seat < len(incoming) else 0
            score = scores[seat] if seat < len(scores) else 0
            out.append(f"{hand:>4}{inc:>3}{score:>4} ", style)
            if seat in gaps:
                order, ms = gaps[seat]
                nug = "$" if self.ascii_mode else "◆"
                out.append(f"{nug}#{order + 1} +{ms}ms" if order else f"{nug}#1 first",
                           self.get_component_rich_style("seats--grab"))
            if view.get("caller") == seat:
                out.append(" called", self.get_component_rich_style("seats--grab"))
            if deltas is not None and seat < len(deltas) and deltas[seat]:
                out.append(f" ({deltas[seat]:+d})", "bold")
            if seat < int(view.get("players", 0)) - 1:
                out.append("\n")
        return self.fit(out)


class Piles(FitsContent, Widget):
    """The draw and trash piles, the nuggets left, and the state of the race."""

    view: reactive[dict | None] = reactive(None, always_update=True)
    ascii_mode: reactive[bool] = reactive(False)

    def render(self) -> Text:
        view = self.view
        if not view:
            return self.fit(Text(""))
        out = Text(overflow="fold")
        out.append(f"Draw pile  {view.get('draw_pile', 0):>3}\n")
        out.append(f"Trash pile {view.get('trash_pile', 0):>3}\n")
        left = int(view.get("nuggets_left", 0))
        taken = len(view.get("grabbed") or [])
        full, empty = ("$", ".") if self.ascii_mode else ("◆", "◇")
        out.append(f"Nuggets left {left:>2}\n")
        out.append(full * left + empty * taken)
        if view.get("round_no"):
            out.append(f"\nRound {view['round_no']}")
        return self.fit(out)


class Reveal(FitsContent, Widget):
    """After a call: the grabber's hand, face up, and whether it holds a set."""

    view: reactive[dict | None] = reactive(None, always_update=True)
    names: reactive[tuple[str, ...]] = reactive(())

    def render(self) -> Text:
        view = self.view or {}
        revealed = view.get("revealed")
        out = Text(overflow="fold")
        if not revealed:
            return self.fit(out)
        if revealed:
            grabbed = view.get("grabbed") or []
            seat = grabbed[0][0] if grabbed else None
            who = self.names[seat] if isinstance(seat, int) and seat < len(self.names) else "?"
            out.append(who)
            out.append("'s hand: ")
            out.append(", ".join(f"{c.get('name')} {c.get('variant')}" for c in revealed))
            out.append("  - a set!" if view.get("revealed_set") else "  - no set!", "bold")
        return self.fit(out, wraps=True)
