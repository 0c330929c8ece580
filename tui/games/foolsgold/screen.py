"""The Fool's Gold table: your hand, the seats around the table, piles, grabs and calls."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import var

from net.games.foolsgold import SPEC as FOOLSGOLD
from net.games.foolsgold import views as v
from net.games.foolsgold.moves import CALL, DISCARD, DRAW, GRAB, CardRef
from net.text import clean_text
from tui.games.foolsgold.cards import CardClicked, HandView, Piles, Reveal, Seats
from tui.games.foolsgold.events import score_parts
from tui.games.foolsgold.phases import FOOLSGOLD_ACTIONS, foolsgold_now
from tui.keys import with_ids
from tui.messages import SendAction
from tui.phases import Now
from tui.screens.common import reconnecting
from tui.screens.table import TableScreen
from tui.widgets.board import TABLES_CSS, Hint, TurnBanner, fit_name
from tui.widgets.log import EventLog

LAYOUT_CSS = str(Path(__file__).resolve().parent / "layout.tcss")
FLASH_SECONDS = 0.5


CHURN = (v.Drew, v.Discarded)


def pass_label(name: str, width: int) -> str:
    """The words of a card's pass button in ``width`` cells, always what it does and
    to which card: "Pass Rattlesnake", the name whole; else shortened by its leading
    words ("Pass C. Kate", "Pass G. Monster": no two names of the deck end in the
    same word, so none is taken for another). The bar gives a button room for the
    verb and the longest single word, at 40 columns too (``TOUCH_WIDTH``); narrower
    than that (no phone is), the name's start is kept and marked ("Pass Rattles.")."""
    verb = DISCARD.touch
    room = max(1, width - len(verb) - 1)
    short = fit_name(name, room)
    if len(short) == 1:
        return f"{verb} {short[0].rstrip()}"
    return f"{verb} {name[:max(1, room - 1)].rstrip()}."


class FoolsGoldScreen(TableScreen):
    """Renders a Fool's Gold match view and turns keys into actions."""

    CSS_PATH = [TABLES_CSS, LAYOUT_CSS]  # the tables' rules, and this table's narrow and short

    TABLE_ID = "foolsgold-table"
    #: the least cells a touch bar's button takes here: room for "Pass Rattlesnake"
    #: (the verb and the deck's longest one-word name), two buttons a row at 40 columns
    TOUCH_WIDTH = 20

    BINDINGS = with_ids(FOOLSGOLD.key, [
        # the moves' keys and labels are their declarations' (net/games/foolsgold/moves.py)
        Binding(DRAW.key, "draw", DRAW.touch),
        # the footer names the pass while it is the move ("1-6 Pass"); its touch buttons
        # name the cards ("Pass Owl", ``touch_label``)
        Binding("1", "discard(0)", DISCARD.touch, key_display=DISCARD.key),
        *(Binding(str(i), f"discard({i - 1})", f"{DISCARD.touch} {i}", show=False)
          for i in range(2, 7)),
        Binding(GRAB.key, "grab", GRAB.touch),
        Binding(CALL.key, "call", CALL.touch),
        Binding("c", "app.chat", "Chat", show=False),
        Binding("q", "app.leave", "Leave"),
    ])
    HELP = [
        ("d / space", DRAW.description),
        (DISCARD.key, DISCARD.description),
        (GRAB.key, GRAB.description),
        (CALL.key, CALL.description),
        ("c", "chat (LAN games)"),
        ("j", "while the host is gone: try to reach it now"),
        ("q", "leave the table"),
    ]

    # a var, not a reactive: the widgets it feeds repaint themselves, and a reactive on
    # the screen would repaint the whole screen for every view of a busy table
    view: var[v.FoolsGoldView | None] = var(None, always_update=True)

    def __init__(self, seat: int | None, names: list[str], *, ascii_mode: bool = False,
                 host_now=None) -> None:
        super().__init__()
        # The host's clock as seen here (for the call window's countdown), or None.
        self.host_now = host_now
        self._countdown = None
        self.seat = seat
        self._keys_shown: tuple | None = None
        self._race_over = False  # the race of this round ended by its time-out
        # Peer text: the host cleans it, and we clean it again before it reaches a screen.
        self.names = [clean_text(str(n)) for n in names]
        self.ascii_mode = ascii_mode

    def compose_play(self) -> ComposeResult:
        with Horizontal(id="around"):
            yield Seats(id="seats")
            yield Piles(id="piles")
        yield Reveal(id="reveal")
        yield HandView(id="hand")

    def set_up_widgets(self) -> None:
        for widget in (self.query_one(Seats), self.query_one(Piles), self.query_one(HandView)):
            widget.ascii_mode = self.ascii_mode
        self.query_one(Seats).names = tuple(self.names)
        self.query_one(Reveal).names = tuple(self.names)

    def set_names(self, names: list[str]) -> None:
        self.names = [clean_text(str(n)) for n in names]
        if self._ready:
            self.query_one(Seats).names = tuple(self.names)
            self.query_one(Reveal).names = tuple(self.names)

    @property
    def finished(self) -> bool:
        """The match is over: leaving needs no confirmation."""
        return isinstance(self.view, v.FoolsGoldView) and self.view.winner is not None

    def show_away(self, away: frozenset[int]) -> None:
        self.query_one(Seats).away = away

    def show_reactions(self, marks: dict[int, str]) -> None:
        self.query_one(Seats).reactions = marks

    def set_seats(self, seats: list[int]) -> None:
        self.seat = seats[0] if seats else None
        if self.is_attached:
            self._refresh_keys()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footers true to the moment: a play key only while it would be accepted
        (``tui.games.foolsgold.phases.foolsgold_now``, which the status line reads too)."""
        if action == "retry_now":
            return reconnecting(self.app)
        if action not in FOOLSGOLD_ACTIONS:
            return True
        if reconnecting(self.app):
            return False
        return action in self.now().keys

    def on_key(self, event) -> None:
        """One key a card: with a card waiting (the footer offers d Draw), a card's
        number draws it and passes the card of that number. The footer keeps its one
        key for the moment; the number is the quicker way for those who know it."""
        key = event.key
        if len(key) == 1 and key in "123456" and not reconnecting(self.app):
            keys = self.now().keys
            if "discard" not in keys and "draw" in keys \
                    and self._card_in(int(key) - 1) is not None:
                event.stop()
                event.prevent_default()
                self.action_discard(int(key) - 1)

    def touch_buttons(self, buttons: list[tuple[str, str]],
                      width: int) -> list[tuple[str, str]]:
        """The touch bar's buttons (``tui.widgets.touchbar``): for the keys 1-6, one a
        card's name in the hand ("Pass Owl"), so a button stands for one card, not for
        whatever lies in a slot now; two Owls are one button."""
        out: list[tuple[str, str]] = []
        named: set[str] = set()
        for label, action in buttons:
            if not action.startswith("discard("):
                out.append((label, action))
                continue
            card = self._card_in(int(action[8:-1]))
            if card is not None and card.name not in named:
                named.add(card.name)
                out.append((pass_label(card.name, width), f"pass_card({card.name!r})"))
        return out

    def touch_rank(self, action: str) -> int | None:
        """A pass button's place among them: its card's first place in the hand, so the
        bar reads them in the hand's order and a card drawn takes the place of the
        one passed (``tui.widgets.touchbar``: a family's homes)."""
        if not action.startswith("pass_card(") or not self._ready:
            return None
        name = action[len("pass_card('"):-2]
        slots = self.query_one(HandView).slots
        return next((i for i, c in enumerate(slots) if c is not None and c.name == name), None)

    def action_pass_card(self, name: str) -> None:
        """A pass button: the first card of that name in the hand."""
        hand = self.query_one(HandView)
        index = next((i for i, c in enumerate(hand.slots) if c is not None and c.name == name),
                     None)
        if index is None:
            self.query_one(Hint).text = f"You hold no {name}."
            return
        self.action_discard(index)

    def _card_in(self, index: object) -> v.Card | None:
        if not isinstance(index, int) or not self._ready:
            return None
        return self.query_one(HandView).card_at(index)

    def now(self) -> Now:
        """The state of play from this seat: the keys accepted and the status line."""
        return foolsgold_now(self.view, self.seat, self.names, left=self._left(),
                             race_over=self._race_over)

    def show_state(self, view: v.FoolsGoldView, events: list[v.GameEvent]) -> None:
        """A new view from the host, with the events that led to it."""
        if not self._ready:
            self._pending.append(("state", view, events))
            return
        if not self.is_attached:  # torn down (the app is closing): nothing to draw on
            return
        # draws and passes are the churn of a round: the pile counts show them, and the
        # log keeps what matters (grabs, calls, results, chat) readable
        self.query_one(EventLog).add_events(
            [e for e in events if not isinstance(e, CHURN)], self.names, view)
        if not view.grabbed:
            self._race_over = False
        for event in events:
            if isinstance(event, v.RaceOver):
                self._race_over = True
            if isinstance(event, v.Grabbed) and event.order == 1:
                self.flash()
            elif isinstance(event, v.MatchOver):
                self.app.bell()
        self.view = view

    def flash(self) -> None:
        """The first grab: ring the bell and flash the whole table at once."""
        self.app.bell()
        table = self.query_one("#foolsgold-table")
        table.add_class("-flash")
        self.set_timer(FLASH_SECONDS, lambda: table.remove_class("-flash"))

    def watch_view(self, view: v.FoolsGoldView | None) -> None:
        if view is None or not self._ready:
            return
        self.query_one(Seats).view = view
        self.query_one(Piles).view = view
        self.query_one(Reveal).view = view
        hand = self.query_one(HandView)
        hand.show(view.hand, view.slots, view.drawn)
        hand.frozen = view.frozen
        self._update_banner(view)
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Redo the footer only when the keys it shows change (not on every view of a
        busy real-time table)."""
        # the keys, and the cards in the hand's slots: a card's number works while its
        # slot holds one, and its touch button names it
        slots = tuple(None if c is None else c.name for c in self.query_one(HandView).slots)
        keys = (self.now().keys, slots, self.finished)  # the end: the core's Play again
        if keys != self._keys_shown:
            self._keys_shown = keys
            self.refresh_bindings()

    def _seat_name(self, seat: int) -> str:
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return "?"

    def _update_banner(self, view: v.FoolsGoldView) -> None:
        self._tick_countdown(view)
        banner = self.query_one(TurnBanner)
        now = self.now()
        self.query_one(Hint).text = self.status_words(now.status)
        if self._keys_shown is None or now.keys != self._keys_shown[0]:
            self._refresh_keys()  # the call window closed: f leaves the footer
        if view.winner is not None:
            banner.show(f"{self._seat_name(view.winner)} wins the match!", "-over")
        elif view.settled:
            deltas = view.deltas or []
            mine = deltas[self.seat] if self.seat is not None and self.seat < len(deltas) else 0
            parts = score_parts(view, self.seat) if self.seat is not None else []
            why = f" ({', '.join(parts)})" if parts else ""
            banner.show(f"Round {view.round_no} over: you {mine:+d}{why}", "-bonus")
        elif view.grabbed:
            first = self._seat_name(view.grabbed[0][0])
            left = view.nuggets_left
            race = f"{first} GRABBED! Hands frozen, {left} nugget{'' if left == 1 else 's'} left"
            if self.seat is not None and self.seat in {s for s, _ in view.grabbed}:
                race += ": you have one"
            banner.show(race, "-bust")
        else:
            cap = "" if view.round_cap is None else f" of {view.round_cap} (house rule)"
            collect = f"Round {view.round_no or 1}{cap}: collect a set, then grab!"
            banner.show(collect, "-mine" if self.seat is not None else "")

    def _left(self) -> float | None:
        """Seconds left in the call window, while it is open and the host's time is
        known."""
        view = self.view
        if view is None or view.call_closes is None or self.host_now is None:
            return None
        return view.call_closes - self.host_now()

    def _tick_countdown(self, view: v.FoolsGoldView) -> None:
        """Redraw the hint a few times a second while the call window is open."""
        running = self._countdown is not None
        wanted = (self.host_now is not None and view.call_closes is not None
                  and view.caller is None and not view.settled)
        if wanted and not running:
            self._countdown = self.set_interval(0.2, lambda: self._update_banner(self.view))
        elif not wanted and running:
            self._countdown.stop()
            self._countdown = None

    # -- what the link tells -----------------------------------------------------------


    # -- intent flows up ----------------------------------------------------------

    def _send(self, action) -> None:
        if self.seat is None:
            self.query_one(Hint).text = "You are watching: you cannot act."
            return
        self.post_message(SendAction(action))

    def show_error(self, message: str) -> None:
        self.query_one(Hint).text = f"Refused: {message}"
        if self.view is not None:  # a grab refused: the hand is as the host says
            self.query_one(HandView).frozen = self.view.frozen

    def action_draw(self) -> None:
        self._send(DRAW())

    def action_discard(self, index: int) -> None:
        card = self.query_one(HandView).card_at(index)
        if card is None:
            self.query_one(Hint).text = f"You have no card {index + 1}."
            return
        keys = self.now().keys
        if "discard" not in keys and "draw" in keys:
            self._send(DRAW())  # one key a card: the waiting card first, then the pass
        self._send(DISCARD(card=CardRef(name=card.name, variant=card.variant,
                                        kind=card.kind)))

    @on(CardClicked)
    def _card_clicked(self, event: CardClicked) -> None:
        self.action_discard(event.index)

    def action_grab(self) -> None:
        self._send(GRAB())
        # the host may hold a grab a moment to judge the race fairly (lag-fair races):
        # your own hand freezes the moment you grab, not when the host has judged it
        if self.seat is not None and self.view is not None and not self.view.settled:
            self.query_one(HandView).frozen = True

    def action_call(self) -> None:
        self._send(CALL())
