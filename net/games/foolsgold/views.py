"""Fool's Gold on the wire: the typed shape of its view (``foolsgold.Match.view``) and
of its events (``foolsgold.round``, ``foolsgold.match`` and the host's ``next_round``),
as ``net.views`` describes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from net.games.foolsgold import SPEC
from net.views import Count, GameEvent, GameView, Seat

Pile = Literal["draw", "trash", "incoming"]


class Card(Struct, frozen=True, kw_only=True):
    """A Fool's Gold card; ``(name, variant)`` identifies it in the standard deck."""

    name: str
    kind: Literal["animal", "prospector"]
    variant: str


class FoolsGoldView(GameView, tag=SPEC.key, kw_only=True):
    """Fool's Gold: ``foolsgold.Match.view(seat)``, the round's view and the match's."""

    seat: Seat | None
    players: Annotated[int, Meta(ge=1, le=64)]
    start: Seat
    hand: list[Card] | None
    hand_sizes: list[Count]
    incoming_sizes: list[Count]
    draw_pile: Count
    trash_pile: Count
    nuggets_left: Count
    grabbed: list[tuple[Seat, float]]
    # lag-fair races (protocol 2): the host's correction of each grab in ``grabbed``,
    # in seconds; present only once some grab of the round was corrected (UNSET is
    # left out of the encoding; it is falsy, so read it as ``view.grab_lags or []``)
    grab_lags: list[float] | UnsetType = UNSET
    caller: Seat | None
    revealed: list[Card] | None
    revealed_set: bool | None
    frozen: bool
    deadline: float | None
    call_closes: float | None
    settled: bool
    deltas: list[int] | None
    scores: list[int]
    winner: Seat | None
    round_no: Count
    # the host's, beside the rules (``net.games.foolsgold``): where this seat's cards lie
    # (for each slot from the left, the index in ``hand`` of its card, or None for an
    # empty slot), and the slot of the card just drawn; None for a spectator
    slots: list[Count | None] | None = None
    drawn: Count | None = None
    #: the house rule of a round cap (None: off, as in the rules)
    round_cap: Count | None = None

    def check(self) -> str | None:
        seats = self.players
        if not (
            len(self.hand_sizes) == len(self.incoming_sizes) == len(self.scores) == seats
            and (self.deltas is None or len(self.deltas) == seats)
        ):
            return "every by-seat list must have one entry per seat"
        slots = self.slots
        if slots is not None:
            hand = self.hand
            if hand is None or sorted(i for i in slots if i is not None) != list(
                range(len(hand))
            ):
                return "the slots must hold each card of the hand once"
            drawn = self.drawn
            if drawn is not None and (drawn >= len(slots) or slots[drawn] is None):
                return "the card just drawn must lie in a slot"
        elif self.drawn is not None:
            return "a card just drawn needs the slots"
        last = max(self.start, self.caller or 0, self.winner or 0, self.seat or 0)
        if self.grabbed:
            last = max(last, *(s for s, _ in self.grabbed))
        if last >= seats:
            return f"a seat past the last one ({seats - 1})"
        return None

    def is_over(self) -> bool:
        return self.winner is not None

    def window_closes(self) -> float | None:
        return self.call_closes

    def plain(self) -> dict[str, Any]:
        plain = super().plain()
        if plain.get("round_cap", 0) is None:
            # the rules name the round cap only when the house rule is on
            del plain["round_cap"]
        return plain


# ---------------------------------------------------------------------------
# Events: every one holds only public information, so every seat gets them all


class RoundStarted(GameEvent, tag="round_started", kw_only=True):
    round_no: Count
    start: Seat


class Drew(GameEvent, tag="drew", kw_only=True):
    seat: Seat
    pile: Pile


class Discarded(GameEvent, tag="discarded", kw_only=True):
    seat: Seat
    pile: Literal["incoming", "trash"]
    to: Seat | None


class Grabbed(GameEvent, tag="grabbed", omit_defaults=True, kw_only=True):
    seat: Seat
    at: float
    order: Count
    nuggets_left: Count
    lag: float = 0.0  # protocol 2: the host's correction for the grabber's delay


class Called(GameEvent, tag="called", omit_defaults=True, kw_only=True):
    seat: Seat
    at: float
    grabber: Seat
    lag: float = 0.0  # protocol 2: the host's correction for the caller's delay


class Revealed(GameEvent, tag="revealed", kw_only=True):
    seat: Seat
    hand: list[Card]
    set: bool


class CallWindowClosed(GameEvent, tag="call_window_closed", kw_only=True):
    at: float


class RaceOver(GameEvent, tag="race_over", kw_only=True):
    at: float
    reason: Literal["nuggets", "timeout"]  # the nuggets ran out (not the game's key)
    without: list[Seat]


class Settled(GameEvent, tag="settled", kw_only=True):
    deltas: list[int]
    scorer: Seat | None


class Scores(GameEvent, tag="scores", kw_only=True):
    scores: list[int]
    start: Seat


class TieBreak(GameEvent, tag="tie_break", kw_only=True):
    """The round cap is reached with these seats level on the highest score."""

    seats: list[Seat]


class MatchOver(GameEvent, tag="match_over", kw_only=True):
    winner: Seat
    scores: list[int]


class NextRound(GameEvent, tag="next_round", kw_only=True):
    """The host's own (``net.games``): the next round is dealt at ``at``."""

    at: float


#: what ``net.views`` asks of a game: its view, and every event it sends
VIEW = FoolsGoldView
EVENTS = (RoundStarted, Drew, Discarded, Grabbed, Called, Revealed, CallWindowClosed, RaceOver,
          Settled, Scores, TieBreak, MatchOver, NextRound)  # fmt: skip
