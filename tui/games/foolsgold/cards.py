"""The Fool's Gold table: your hand, the seats around the table, the piles, the reveal."""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive, var
from textual.widget import Widget

from net.games.foolsgold.views import Card, FoolsGoldView
from net.text import NAME_MAX
from tui.games.foolsgold import glyphs
from tui.widgets.board import FitsContent, cells, fit_name

HAND_MAX = 6
LINE_CARD = 20  # a card as one line, "1 Calamity Kate 1/5", where the pictures do not fit


# One colour per look (tui.glyphs.look_colour): a card's look follows from its name.
LOOK_COLOURS = ("#d8b35a", "#7fb3d5", "#c39bd3", "#82c99a", "#e59866", "#f1948a",
                "#76d7c4", "#f7dc6f")


def layout(hand: list[Card], slots: list[int | None] | None) -> list[Card | None]:
    """The cards of ``hand`` in their slots, as the host lays them out (``slots``: the
    index in ``hand`` of each slot's card, None for an empty slot); in ``hand``'s order
    when the view has no slots (an older host)."""
    if slots is None:
        return list(hand)
    return [None if i is None else hand[i] for i in slots]


def progress(hand: list[Card]) -> list[tuple[str, int, int]]:
    """(name, cards held, cards a set needs), closest to a set first."""
    need = {"animal": 3, "prospector": 5}
    counts: dict[str, list[int]] = {}
    for card in hand:
        entry = counts.setdefault(card.name, [0, need[card.kind]])
        entry[0] += 1
    rows = [(name, have, needed) for name, (have, needed) in counts.items()]
    return sorted(rows, key=lambda r: (r[2] - r[1], -r[1], r[0]))


class CardClicked(Message):
    """A card in the hand was clicked: discard it, as its number key would."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class RepaintsOnChange:
    """For a widget fed every view of a busy table, most of which leave it as it was: a
    new view repaints it only when the text it shows changes. ``content()`` builds that
    text from what the widget holds now; ``render`` draws it and keeps it, and
    ``repaint_if_changed`` (called when new data is set) compares against it. Building
    the text is cheap (a fraction of a millisecond); Textual's repaint of it is not (a
    few milliseconds a widget, on this 2-core machine under load)."""

    _shown: Text | None = None

    def content(self) -> Text:
        raise NotImplementedError

    def shown(self) -> Text:
        """The text to draw now, kept to compare the next view's against."""
        self._shown = self.content()
        return self._shown

    def repaint_if_changed(self) -> None:
        if self.content() != self._shown:
            self.refresh()  # type: ignore[attr-defined]


class HandView(Widget):
    """Your hand as cards with their pass keys 1-6 (face-down for a spectator).

    Cards keep their slots: passing one leaves its slot empty until the next card comes,
    so no other card moves under your fingers. The card just drawn is marked. Both come
    from the host (the view's ``slots`` and ``drawn``, kept from the game's history), so
    an app that starts afresh, or a host restored after a crash, shows the hand as it
    was. Cards of one name share a look (art and colour), which follows from the name
    alone (``glyphs.name_look``), and each shows how far the hand is toward a set of
    its name."""

    COMPONENT_CLASSES = {"hand--frozen", "hand--empty", "hand--fresh"}

    hand: reactive[tuple[Card, ...] | None] = reactive(None)
    frozen: reactive[bool] = reactive(False)
    ascii_mode: reactive[bool] = reactive(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.slots: list[Card | None] = []
        self.fresh: int | None = None

    def show(self, hand: list[Card] | None, slots: list[int | None] | None = None,
             drawn: int | None = None) -> None:
        """A seat's hand (None: watching) laid out in the host's slots. Repainted only
        when it changed: most views of a busy table are other seats' moves."""
        before = (self.hand, self.slots, self.fresh)
        if hand is None:
            self.slots, self.fresh = [], None
        else:
            self.slots = layout(hand, slots)
            self.fresh = drawn if slots is not None else None
        self.set_reactive(HandView.hand, None if hand is None else tuple(hand))
        if (self.hand, self.slots, self.fresh) != before:  # (frozen, ascii: reactives)
            self.refresh()

    def card_at(self, index: int) -> Card | None:
        """The card under key ``index + 1``, or None for an empty slot."""
        return self.slots[index] if 0 <= index < len(self.slots) else None

    def on_resize(self) -> None:
        self.refresh()

    def columns(self) -> int:
        """0: the cards as pictures side by side; else how many one-line cards a row
        holds (a narrow terminal)."""
        width = self.content_size.width
        if width >= HAND_MAX * glyphs.CARD_WIDTH:
            return 0
        return max(1, width // LINE_CARD)

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="crop")
        if self.hand is None:
            return Text("No hand: a spectator sees no one's cards.",
                        self.get_component_rich_style("hand--empty"))
        if not self.hand:
            return Text("No cards.", self.get_component_rich_style("hand--empty"))
        held = {name: have for name, have, _ in progress(list(self.hand))}
        if self.columns():
            return self._render_lines(held)
        # a short terminal: the pictures without their two rows of art
        short = self.content_size.height < glyphs.CARD_HEIGHT
        pictures = []
        for i, card in enumerate(self.slots):
            if card is None:
                pictures.append((glyphs.empty_slot_lines(ascii_mode=self.ascii_mode,
                                                         key=str(i + 1)), None))
                continue
            name = card.name
            look = glyphs.name_look(name)
            lines = glyphs.card_lines(card, ascii_mode=self.ascii_mode, key=str(i + 1),
                                      look=look, have=held.get(name),
                                      selected=i == self.fresh,
                                      mark="new" if i == self.fresh else "")
            pictures.append((lines, look))
        frozen = self.get_component_rich_style("hand--frozen") if self.frozen else None
        fresh = self.get_component_rich_style("hand--fresh")
        rows = [r for r in range(glyphs.CARD_HEIGHT) if not (short and r in glyphs.ART_ROWS)]
        for row in rows:
            for i, (picture, look) in enumerate(pictures):
                if look is None:
                    style = self.get_component_rich_style("hand--empty")
                else:
                    style = Style.parse(LOOK_COLOURS[glyphs.look_colour(look)])
                    if i == self.fresh:
                        style += fresh
                out.append(picture[row], frozen + style if frozen else style)
            if row != rows[-1]:
                out.append("\n")
        return out

    def _style(self, i: int, card: Card | None) -> Style:
        if card is None:
            return self.get_component_rich_style("hand--empty")
        style = Style.parse(LOOK_COLOURS[glyphs.look_colour(glyphs.name_look(card.name))])
        if i == self.fresh:
            style += self.get_component_rich_style("hand--fresh")
        if self.frozen:
            style = self.get_component_rich_style("hand--frozen") + style
        return style

    def _render_lines(self, held: dict[str, int]) -> Text:
        """Each card on a line of its own, "1 Owl 2/3", as many to a row as fit."""
        out = Text(no_wrap=True, overflow="crop")
        columns = self.columns()
        need = {"animal": 3, "prospector": 5}
        for i, card in enumerate(self.slots):
            if i and i % columns == 0:
                out.append("\n")
            if card is None:
                line = f"{i + 1} " + "-" * 8
            else:
                have = f"{held.get(card.name, 0)}/{need.get(card.kind, '?')}"
                mark = "*" if i == self.fresh else " "
                # the name whole where it fits, else by its words ("P. Pete"), not cut
                line = f"{i + 1}{mark}{fit_name(card.name, LINE_CARD - 7)[0]} {have}"
            out.append(cells(line, LINE_CARD), self._style(i, card))
        return out

    def on_click(self, event: Click) -> None:
        at = event.get_content_offset(self)
        if at is None:
            return
        columns = self.columns()
        if columns:
            index = at.y * columns + at.x // LINE_CARD
        else:
            index = at.x // glyphs.CARD_WIDTH
        if self.card_at(index) is not None:
            self.post_message(CardClicked(index))


def grab_gaps(grabbed: list[tuple[int, float]]) -> list[tuple[int, int]]:
    """(seat, milliseconds after the first grab) in grab order. The host's times are
    when each grabber acted, corrected for their network delay (lag-fair races)."""
    if not grabbed:
        return []
    first = grabbed[0][1]
    return [(seat, round((at - first) * 1000)) for seat, at in grabbed]


def lag_note(lags: list[float], order: int) -> str:
    """" (lag +35ms)" when the host counted grab ``order`` (from 0) that much earlier
    than it arrived, for its grabber's network delay; "" when it did not."""
    ms = round(lags[order] * 1000) if order < len(lags) else 0
    return f" (lag +{ms}ms)" if ms > 0 else ""


class Seats(FitsContent, Widget):
    """One line per seat: name, hand and incoming sizes, score, grab, call."""

    COMPONENT_CLASSES = {"seats--me", "seats--start", "seats--head", "seats--grab",
                         "seats--away"}

    # nearly every view changes a hand or an incoming pile: repainted for each
    view: reactive[FoolsGoldView | None] = reactive(None, always_update=True)
    names: reactive[tuple[str, ...]] = reactive(())
    ascii_mode: reactive[bool] = reactive(False)
    #: seats whose person is gone (a drop, or a stand-in playing): marked "away"
    away: reactive[frozenset[int]] = reactive(frozenset())
    #: seat -> a reaction's words, marked by the name until it fades
    reactions: reactive[dict[int, str]] = reactive(dict)

    def render(self) -> Text:
        view = self.view
        if view is None:
            return self.fit(Text(""))
        out = Text(no_wrap=True, overflow="ellipsis")
        # a narrow table: shorter names keep the numbers and the race in sight (32
        # cells: the start mark, hand, incoming, points and a grab's "◆#2 +1156ms
        # (+1)"); a longer name widens the column while 26 cells stay (the grab's
        # "◆#2 +1156ms"), and one longer still is shortened by its words or wrapped,
        # never cut (issue 47: "Dusty (bo")
        content = self.content_size.width
        base = max(9, min(14, content - 32 if content else 14))
        longest = max((cell_len(n) for n in self.names), default=0)
        width = max(base, min(NAME_MAX, longest, content - 26))
        out.append(f"{'':2}{'player':<{width + 1}}{'hand':>4}{'in':>3}{'pts':>4} grab\n",
                   self.get_component_rich_style("seats--head"))
        gaps = dict((s, (k, ms)) for k, (s, ms) in enumerate(grab_gaps(view.grabbed)))
        scores = view.scores
        deltas = view.deltas
        for seat in range(view.players):
            name = self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"
            style = ""
            if seat == view.seat:
                style = self.get_component_rich_style("seats--me")
            start = seat == view.start
            out.append(("S " if self.ascii_mode else "● ") if start else "  ", style)
            lines = fit_name(name, width)
            out.append(lines[0] + " ", style)  # literal text, never markup
            hand = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
            incoming = view.incoming_sizes
            inc = incoming[seat] if seat < len(incoming) else 0
            score = scores[seat] if seat < len(scores) else 0
            out.append(f"{hand:>4}{inc:>3}{score:>4} ", style)
            if seat in gaps:
                order, ms = gaps[seat]
                nug = "$" if self.ascii_mode else "◆"
                out.append(f"{nug}#{order + 1} +{ms}ms" if order else f"{nug}#1 first",
                           self.get_component_rich_style("seats--grab"))
                out.append(lag_note(view.grab_lags or [], order))
            if view.caller == seat:
                out.append(" called", self.get_component_rich_style("seats--grab"))
            if deltas is not None and seat < len(deltas) and deltas[seat]:
                out.append(f" ({deltas[seat]:+d})", "bold")
            if seat in self.away:
                out.append(" away", self.get_component_rich_style("seats--away"))
            if view.winner == seat:  # the match's winner: a mark, not a colour alone
                out.append(" *" if self.ascii_mode else " ★", "bold")
            if seat in self.reactions:  # literal words, from the six canned ones
                words = self.reactions[seat]
                out.append(f" <{words}>" if self.ascii_mode else f" «{words}»", "italic")
            for more in lines[1:]:  # the rest of a wrapped name, under its start
                out.append("\n  ")
                out.append(more.rstrip(), style)
            if seat < view.players - 1:
                out.append("\n")
        return self.fit(out)


class Piles(RepaintsOnChange, FitsContent, Widget):
    """Your incoming pile, the draw and trash piles, the nuggets left, and the race."""

    COMPONENT_CLASSES = {"piles--incoming"}

    view: var[FoolsGoldView | None] = var(None, always_update=True)
    ascii_mode: reactive[bool] = reactive(False)

    @property
    def compact(self) -> bool:
        """Two lines (the layout of a narrow or short table gives the piles a row of
        their own, 40 cells or more) rather than a column beside the seats (26)."""
        return self.content_size.width >= 36

    def watch_view(self) -> None:
        self.repaint_if_changed()

    def on_resize(self) -> None:
        self.refresh()

    def render(self) -> Text:
        return self.fit(self.shown())

    def content(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        if self.compact:
            return self._compact(view)
        out = Text(overflow="fold")
        seat = view.seat
        incoming = view.incoming_sizes
        if seat is not None and seat < len(incoming):
            # up to 22 cards can wait there: the one pile a player must watch
            out.append(f"Your incoming {incoming[seat]:>2}\n",
                       self.get_component_rich_style("piles--incoming"))
        out.append(f"Draw pile  {view.draw_pile:>3}\n")
        out.append(f"Trash pile {view.trash_pile:>3}\n")
        left = view.nuggets_left
        taken = len(view.grabbed)
        full, empty = ("$", ".") if self.ascii_mode else ("◆", "◇")
        out.append(f"Nuggets left {left:>2}\n")
        out.append(full * left + empty * taken)
        if view.round_no:
            out.append(f"\nRound {view.round_no}")
        return out

    def _compact(self, view: FoolsGoldView) -> Text:
        out = Text(overflow="ellipsis", no_wrap=True)
        seat = view.seat
        incoming = view.incoming_sizes
        if seat is not None and seat < len(incoming):
            out.append(f"Your incoming {incoming[seat]}",
                       self.get_component_rich_style("piles--incoming"))
            out.append("  ")
        out.append(f"Draw {view.draw_pile}  Trash {view.trash_pile}\n")
        full, empty = ("$", ".") if self.ascii_mode else ("◆", "◇")
        out.append(full * view.nuggets_left + empty * len(view.grabbed))
        out.append(f" {view.nuggets_left} nugget{'' if view.nuggets_left == 1 else 's'} left")
        if view.round_no:
            out.append(f"  Round {view.round_no}")
        return out


class Reveal(RepaintsOnChange, FitsContent, Widget):
    """After a call: the grabber's hand, face up, and whether it holds a set."""

    view: var[FoolsGoldView | None] = var(None, always_update=True)
    names: reactive[tuple[str, ...]] = reactive(())

    def watch_view(self) -> None:
        self.repaint_if_changed()

    def render(self) -> Text:
        return self.fit(self.shown(), wraps=True)

    def content(self) -> Text:
        view = self.view
        out = Text(overflow="fold")
        if view is None or not view.revealed:
            return out
        grabbed = view.grabbed
        seat = grabbed[0][0] if grabbed else None
        who = self.names[seat] if seat is not None and seat < len(self.names) else "?"
        out.append(who)
        out.append("'s hand: ")
        out.append(", ".join(c.name for c in view.revealed))
        out.append("  - a set!" if view.revealed_set else "  - no set!", "bold")
        return out
