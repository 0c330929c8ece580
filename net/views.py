"""The typed shape of every game's view and every event, as they go on the wire.

The rules packages stay pure and return plain dicts (``Game.view``, ``Match.view``
and the events of ``apply``: their public API, ``docs/ARCHITECTURE.md``). These
msgspec Structs are the one written-down shape of those dicts: the host turns the
rules' output into them (:func:`to_view`, :func:`to_events`), ``net.protocol.State``
carries them, a client decodes them (a view or event that does not fit is a
``bad_field`` protocol error, never a crash), and the TUI reads their attributes.
``python -m net.schema`` writes their JSON Schema into ``docs/protocol.schema.json``.

A view is tagged by its ``game`` key, an event by its ``type``; the JSON keys are the
rules' own, in the rules' order, so the bytes on the wire are what they were when the
host sent the dicts themselves.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from net.catalogue import FOOLSGOLD, NUGGETS

Seat = Annotated[int, Meta(ge=0, le=63)]
Count = Annotated[int, Meta(ge=0)]
Face = Literal["nugget", "lasso", "2", "3", "4", "5"]
Phase = Literal["roll", "keep", "choose", "take", "over"]
Pile = Literal["draw", "trash", "incoming"]


class Card(Struct, frozen=True, kw_only=True):
    """A Fool's Gold card; ``(name, variant)`` identifies it in the standard deck."""

    name: str
    kind: Literal["animal", "prospector"]
    variant: str


# ---------------------------------------------------------------------------
# Views


class NuggetsView(Struct, tag_field="game", tag=NUGGETS.key, kw_only=True):
    """Gold Nuggets: ``nuggets.Game.view(seat)``. Everything in it is public."""

    seat: Seat | None
    players: list[str]
    current: Seat
    phase: Phase
    supply: Count
    holdings: list[Count]
    kept: list[Face]
    kept_value: Count
    rolled: list[Face] | None
    dice_left: Count
    can_steal: bool
    over: bool
    winners: list[Seat]


class FoolsGoldView(Struct, tag_field="game", tag=FOOLSGOLD.key, kw_only=True):
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


View = NuggetsView | FoolsGoldView
VIEWS: dict[str, type[View]] = {NUGGETS.key: NuggetsView, FOOLSGOLD.key: FoolsGoldView}


# ---------------------------------------------------------------------------
# Events: every one holds only public information, so every seat gets them all


class _Event(Struct, tag_field="type", kw_only=True):
    pass


# Gold Nuggets (``nuggets.rules``)


class Turn(_Event, tag="turn"):
    seat: Seat


class Rolled(_Event, tag="rolled"):
    seat: Seat
    faces: list[Face]


class Bust(_Event, tag="bust"):
    seat: Seat
    lost: Count


class Kept(_Event, tag="kept"):
    seat: Seat
    faces: list[Face]
    value: Count
    dice_left: Count


class Took(_Event, tag="took"):
    seat: Seat
    amount: Count
    value: Count
    supply: Count


class Stole(_Event, tag="stole"):
    seat: Seat
    victim: Seat
    amount: Count
    value: Count


class BonusTurn(_Event, tag="bonus_turn"):
    seat: Seat


class GameOver(_Event, tag="game_over"):
    winners: list[Seat]
    holdings: list[Count]


# Fool's Gold (``foolsgold.round``, ``foolsgold.match``, and the host's ``next_round``)


class RoundStarted(_Event, tag="round_started"):
    round_no: Count
    start: Seat


class Drew(_Event, tag="drew"):
    seat: Seat
    pile: Pile


class Discarded(_Event, tag="discarded"):
    seat: Seat
    pile: Literal["incoming", "trash"]
    to: Seat | None


class Grabbed(_Event, tag="grabbed", omit_defaults=True):
    seat: Seat
    at: float
    order: Count
    nuggets_left: Count
    lag: float = 0.0  # protocol 2: the host's correction for the grabber's delay


class Called(_Event, tag="called", omit_defaults=True):
    seat: Seat
    at: float
    grabber: Seat
    lag: float = 0.0  # protocol 2: the host's correction for the caller's delay


class Revealed(_Event, tag="revealed"):
    seat: Seat
    hand: list[Card]
    set: bool


class CallWindowClosed(_Event, tag="call_window_closed"):
    at: float


class RaceOver(_Event, tag="race_over"):
    at: float
    reason: Literal["nuggets", "timeout"]  # the nuggets ran out (not the game's key)
    without: list[Seat]


class Settled(_Event, tag="settled"):
    deltas: list[int]
    scorer: Seat | None


class Scores(_Event, tag="scores"):
    scores: list[int]
    start: Seat


class TieBreak(_Event, tag="tie_break"):
    """The round cap is reached with these seats level on the highest score."""

    seats: list[Seat]


class MatchOver(_Event, tag="match_over"):
    winner: Seat
    scores: list[int]


class NextRound(_Event, tag="next_round"):
    """The host's own (``net.games``): the next round is dealt at ``at``."""

    at: float


NuggetsEvent = Turn | Rolled | Bust | Kept | Took | Stole | BonusTurn | GameOver
FoolsGoldEvent = (
    RoundStarted
    | Drew
    | Discarded
    | Grabbed
    | Called
    | Revealed
    | CallWindowClosed
    | RaceOver
    | Settled
    | Scores
    | TieBreak
    | MatchOver
    | NextRound
)
Event = NuggetsEvent | FoolsGoldEvent
EVENTS: dict[str, tuple[type[Struct], ...]] = {
    NUGGETS.key: NuggetsEvent.__args__,
    FOOLSGOLD.key: FoolsGoldEvent.__args__,
}


def check(view: View) -> str | None:
    """What makes a decoded view impossible (lists whose lengths disagree with the number
    of seats, a seat past the last), or None. The types alone cannot say it; a client
    refuses such a view as a protocol error rather than draw it. (Written for speed: a
    client runs it on every view.)"""
    if view.__class__ is FoolsGoldView:
        seats = view.players
        if not (
            len(view.hand_sizes) == len(view.incoming_sizes) == len(view.scores) == seats
            and (view.deltas is None or len(view.deltas) == seats)
        ):
            return "every by-seat list must have one entry per seat"
        slots = view.slots
        if slots is not None:
            hand = view.hand
            if hand is None or sorted(i for i in slots if i is not None) != list(
                range(len(hand))
            ):
                return "the slots must hold each card of the hand once"
            drawn = view.drawn
            if drawn is not None and (drawn >= len(slots) or slots[drawn] is None):
                return "the card just drawn must lie in a slot"
        elif view.drawn is not None:
            return "a card just drawn needs the slots"
        last = max(view.start, view.caller or 0, view.winner or 0, view.seat or 0)
        if view.grabbed:
            last = max(last, *(s for s, _ in view.grabbed))
    else:
        seats = len(view.players)
        if not 1 <= seats <= 64 or len(view.holdings) != seats:
            return "players and holdings must list the same seats"
        if view.dice_left > 7 or len(view.kept) > 7 or (view.rolled and len(view.rolled) > 7):
            return "a turn has seven dice"
        last = max(view.current, view.seat or 0, *view.winners)
    if last >= seats:
        return f"a seat past the last one ({seats - 1})"
    return None


def tag(struct: Struct) -> str:
    """The ``game`` of a view, the ``type`` of an event."""
    return type(struct).__struct_config__.tag


# ---------------------------------------------------------------------------
# From the rules' dicts (the host, replays of saved games)


def to_view(view: dict[str, Any]) -> View:
    """A rules view (a dict) as its Struct; raises ``msgspec.ValidationError`` if it
    does not fit, which on the host is a bug in the rules."""
    return msgspec.convert(view, VIEWS[view["game"]])


class _Events(Struct):
    events: list[Event]


def to_events(events: list[dict[str, Any]]) -> list[Event]:
    """Rules events (dicts) as their Structs."""
    # through a Struct: msgspec caches a Struct's decoding plan, not a bare list[...]'s
    # (converting to list[Event] directly costs 40 times more)
    return msgspec.convert({"events": events}, _Events).events


def to_plain(value: Any) -> Any:
    """A view or events back in the rules' form (dicts), for the bots' policies."""
    plain = msgspec.to_builtins(value)
    if value.__class__ is FoolsGoldView and plain.get("round_cap", 0) is None:
        # the rules name the round cap only when the house rule is on
        del plain["round_cap"]
    return plain
