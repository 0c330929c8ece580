"""The Fool's Gold table: your hand, the seats around the table, piles, grabs and calls."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer

from net import protocol as p
from net import views as v
from net.catalogue import FOOLSGOLD
from net.text import clean_text
from tui.messages import CardClicked, SendAction
from tui.screens.common import with_ids
from tui.screens.table import TableScreen
from tui.widgets.board import Hint, TooSmall, TurnBanner
from tui.widgets.cards import HandView, Piles, Reveal, Seats
from tui.widgets.log import EventLog

FLASH_SECONDS = 0.5


CHURN = (v.Drew, v.Discarded)


class FoolsGoldScreen(TableScreen):
    """Renders a Fool's Gold match view and turns keys into actions."""

    BINDINGS = with_ids(FOOLSGOLD.key, [
        Binding("d,space", "draw", "Draw"),
        *(Binding(str(i), f"discard({i - 1})", f"Discard {i}", show=False) for i in range(1, 7)),
        Binding("g", "grab", "Grab!"),
        Binding("f", "call", "Fool's Gold!"),
        Binding("c", "app.chat", "Chat", show=False),
        Binding("q", "app.leave", "Leave"),
    ])
    HELP = [
        ("d / space", "draw a card (from your incoming pile, or the draw pile if you start)"),
        ("1-6", "discard that card to your left neighbour"),
        ("g", "grab a nugget: the first grab claims a set (or bluffs one)"),
        ("f", "call \"Fool's Gold!\" on the first grabber"),
        ("c", "chat (LAN games)"),
        ("q", "leave the table"),
    ]

    view: reactive[v.FoolsGoldView | None] = reactive(None, always_update=True)

    def __init__(self, seat: int | None, names: list[str], *, ascii_mode: bool = False,
                 host_now=None) -> None:
        super().__init__()
        # The host's clock as seen here (for the call window's countdown), or None.
        self.host_now = host_now
        self._countdown = None
        self.seat = seat
        self._keys_shown: tuple[bool, bool] | None = None
        # Peer text: the host cleans it, and we clean it again before it reaches a screen.
        self.names = [clean_text(str(n)) for n in names]
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        with Vertical(id="foolsgold-table"):
            yield TurnBanner(id="banner")
            with Horizontal(id="around"):
                yield Seats(id="seats")
                yield Piles(id="piles")
            yield Reveal(id="reveal")
            yield HandView(id="hand")
            yield Hint(id="hint")
            yield Hint(id="status")
            yield EventLog(id="log")
        yield TooSmall()
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._ready = True
        for widget in (self.query_one(Seats), self.query_one(Piles), self.query_one(HandView)):
            widget.ascii_mode = self.ascii_mode
        self.query_one(Seats).names = tuple(self.names)
        self.query_one(Reveal).names = tuple(self.names)
        if self.view is not None:
            self.watch_view(self.view)
        self._replay_pending()

    def set_names(self, names: list[str]) -> None:
        self.names = [clean_text(str(n)) for n in names]
        if self._ready:
            self.query_one(Seats).names = tuple(self.names)
            self.query_one(Reveal).names = tuple(self.names)

    def set_seats(self, seats: list[int]) -> None:
        self.seat = seats[0] if seats else None
        if self.is_attached:
            self._refresh_keys()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footers true to the moment: a spectator has no play keys, nor anyone once the
        match is over."""
        if action not in ("draw", "discard", "grab", "call"):
            return True
        return self.seat is not None and (self.view is None or self.view.winner is None)

    def show_state(self, view: v.FoolsGoldView, events: list[v.Event]) -> None:
        """A new view from the host, with the events that led to it."""
        if not self._ready:
            self._pending.append(("state", view, events))
            return
        if not self.is_attached:  # torn down (the app is closing): nothing to draw on
            return
        # draws and passes are the churn of a round: the pile counts show them, and the
        # log keeps what matters (grabs, calls, results, chat) readable
        self.query_one(EventLog).add_events(
            [e for e in events if not isinstance(e, CHURN)], self.names)
        for event in events:
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
        hand.hand = None if view.hand is None else tuple(view.hand)
        hand.frozen = view.frozen
        self._update_banner(view)
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        """Redo the footer only when what it shows can change (not on every view of a
        busy real-time table)."""
        keys = (self.seat is not None, self.view is None or self.view.winner is None)
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
        hint = self.query_one(Hint)
        scores = view.scores
        if view.winner is not None:
            banner.show(f"{self._seat_name(view.winner)} wins the match!", "-over")
            hint.text = "q leaves the table."
            return
        if view.settled:
            deltas = view.deltas or []
            mine = deltas[self.seat] if self.seat is not None and self.seat < len(deltas) else 0
            banner.show(f"Round {view.round_no} over: you {mine:+d}", "-bonus")
            hint.text = "Points of this round in ( ), match points under pts. " + (
                "The next round starts shortly." if not scores or max(scores) < 3 else ""
            )
            return
        grabbed = view.grabbed
        if grabbed:
            first = self._seat_name(grabbed[0][0])
            mine = [s for s, _ in grabbed]
            left = view.nuggets_left
            race = f"{first} GRABBED! Hands frozen, {left} nugget{'' if left == 1 else 's'} left"
            if self.seat is not None and self.seat in mine:
                race += ": you have one"
            banner.show(race, "-bust")
            parts = []
            if self.seat is not None and self.seat not in mine:
                parts.append("g grabs a nugget")
            if self.seat is not None and view.caller is None and self.seat != grabbed[0][0]:
                parts.append("f calls \"Fool's Gold!\"")
            hint.text = (", ".join(parts) + ".") if parts else "Waiting for the race to end."
            if view.caller is not None:
                hint.text = f"{self._seat_name(view.caller)} called Fool's Gold!"
            else:
                hint.text += self._window_left(view)
            return
        collect = f"Round {view.round_no or 1}: collect a set, then grab!"
        if self.seat is None:
            banner.show(collect)
            hint.text = "You are watching."
            return
        banner.show(collect, "-mine")
        size = len(view.hand or [])
        incoming = view.incoming_sizes
        if size >= 6:
            hint.text = "Discard a card: 1-6."
        elif self.seat == view.start:
            hint.text = "d draws (from the draw pile, or your incoming pile)."
        elif self.seat < len(incoming) and incoming[self.seat]:
            hint.text = "d draws from your incoming pile."
        else:
            hint.text = "Waiting for a card from your right neighbour."

    def _window_left(self, view: v.FoolsGoldView) -> str:
        """" (call window: 3.2 s)" while it is open and the host's time is known."""
        closes = view.call_closes
        if closes is None or self.host_now is None:
            return ""
        left = closes - self.host_now()
        return f" (call window: {left:.1f} s)" if left > 0 else " (the call window closed)"

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
        self._send(p.Draw())

    def action_discard(self, index: int) -> None:
        card = self.query_one(HandView).card_at(index)
        if card is None:
            self.query_one(Hint).text = f"You have no card {index + 1}."
            return
        self._send(p.Discard(card=p.CardRef(name=card.name, variant=card.variant,
                                            kind=card.kind)))

    @on(CardClicked)
    def _card_clicked(self, event: CardClicked) -> None:
        self.action_discard(event.index)

    def action_grab(self) -> None:
        self._send(p.Grab())
        # the host may hold a grab a moment to judge the race fairly (lag-fair races):
        # your own hand freezes the moment you grab, not when the host has judged it
        if self.seat is not None and self.view is not None and not self.view.settled:
            self.query_one(HandView).frozen = True

    def action_call(self) -> None:
        self._send(p.Call())
