"""Fool's Gold's actions, and what is legal, judged on a view.

The actions a seat takes (`Draw`, `Discard`, `Grab`, `Call`; `Tick` applies the
time-outs due, and nothing else), and `IllegalAction`, what the rules raise for one
they refuse. What is legal is written once, as functions of a view (`legal_actions`
and the `_why_not_*` checks below): `foolsgold.round.Round.apply` judges every action by
them on its own view, and bots, the host and the app ask `legal_actions` of the views
they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from foolsgold.cards import Card

#: the cards a hand is dealt (F3), and the most it holds: a sixth drawn before one is
#: passed (F4)
HAND = 5
HAND_MAX = 6


class IllegalAction(ValueError):
    """An action the rules refuse; the message says why, and the state is unchanged."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card: the start player from the draw pile (then the trash pile),
    everyone else from their own incoming pile."""

    seat: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard `card` face down onto the left neighbour's incoming pile (F4)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Grab:
    """Grab a nugget: the first grab claims a set, true or a bluff (F6).

    ``at`` is when the person acted, if the host corrected the time for their network
    delay (the lag-fair race, ``docs/PROTOCOL.md``), and ``lag`` that correction, kept
    for the record; by default the grab happened at ``now``."""

    seat: int
    at: float | None = None
    lag: float = 0.0


@dataclass(frozen=True, slots=True)
class Call:
    """Call "Fool's Gold!" on the first grabber (F7); ``at`` and ``lag`` as for Grab."""

    seat: int
    at: float | None = None
    lag: float = 0.0


@dataclass(frozen=True, slots=True)
class Tick:
    """Apply the time-outs due at `now`, and nothing else."""


Action = Draw | Discard | Grab | Call | Tick

#: The kinds of action a seat may take, as `legal_actions` names them.
ACTIONS = ("draw", "discard", "grab", "call")


# -- what is legal, judged on a view ---------------------------------------------------
#
# Each check reads only public keys of a view (any seat's, or a spectator's) and says
# why the action is refused, or None. `Round.apply` raises with these very reasons,
# judged on its own view, and `legal_actions` offers what none of them refuses.


def check_seat(seat: object, players: int) -> None:
    """Raise IllegalAction unless `seat` is a seat of a table of `players`."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(f"a seat is a whole number, not {seat!r}")
    if not 0 <= seat < players:
        raise IllegalAction(
            f"seat {seat} is out of range: this round has seats 0 to {players - 1}"
        )


def call_window_open(view: Mapping[str, Any]) -> bool:
    """Whether a call would be accepted from anyone but the first grabber (F7): someone
    grabbed, nobody called, the round is not settled, and the call window has not
    closed. A view's `deadline` is the earliest time-out still to come, so the window is
    open while that deadline is not past the window's closing time (`call_closes`)."""
    closes, deadline = view["call_closes"], view["deadline"]
    return (
        bool(view["grabbed"])
        and view["caller"] is None
        and not view["settled"]
        and closes is not None
        and deadline is not None
        and deadline <= closes
    )


def race_open(view: Mapping[str, Any], race_over: bool = False) -> bool:
    """Whether grabs are still taken from those without a nugget (F6): the round is not
    settled, nuggets are left, and the race has not run out of time (`race_over`: a
    view cannot show that, see `legal_actions`)."""
    return not (race_over or view["settled"] or not view["nuggets_left"])


def draw_source(view: Mapping[str, Any], seat: int) -> str:
    """The pile `seat` draws from (F4): "draw", "trash" or "incoming"."""
    if seat != view["start"]:
        return "incoming"
    return "draw" if view["draw_pile"] else "trash"


def _why_not_pass(view: Mapping[str, Any]) -> str | None:
    if view["settled"]:
        return "the round is settled"
    if view["frozen"]:
        return "hands are frozen: a nugget was grabbed"
    return None


def _why_not_draw(view: Mapping[str, Any], seat: int, race_over: bool) -> str | None:
    why = _why_not_pass(view)
    if why is not None:
        return why
    held = view["hand_sizes"][seat]
    if held >= HAND_MAX:
        return f"you hold {held} cards: discard before drawing again"
    if seat == view["start"]:
        if not view["draw_pile"] and not view["trash_pile"]:
            return "the draw pile and the trash pile are both empty: wait for a discard"
    elif not view["incoming_sizes"][seat]:
        return "your incoming pile is empty: only the start player draws from the draw pile"
    return None


def _why_not_discard(view: Mapping[str, Any], seat: int, race_over: bool) -> str | None:
    why = _why_not_pass(view)
    if why is not None:
        return why
    held = view["hand_sizes"][seat]
    if held < HAND_MAX:
        return f"you hold {held} cards: draw before discarding"
    return None


def _why_not_grab(view: Mapping[str, Any], seat: int, race_over: bool) -> str | None:
    for grabber, _ in view["grabbed"]:
        if grabber == seat:
            return "you already grabbed a nugget"
    if not race_open(view, race_over):
        if not view["nuggets_left"]:
            return "the race is over: no nuggets are left"
        return "the race is over: the grab time-out ran out"
    return None


def _why_not_call(view: Mapping[str, Any], seat: int, race_over: bool) -> str | None:
    if view["caller"] is not None:
        return "a call was already made"
    if view["settled"]:
        return "the round is settled"
    if not view["grabbed"]:
        return "nobody has grabbed a nugget yet: there is nothing to call"
    if seat == view["grabbed"][0][0]:
        return "the first grabber cannot call"
    if not call_window_open(view):
        return "the call window has closed"
    return None


_WHY_NOT: dict[str, Callable[[Mapping[str, Any], int, bool], str | None]] = {
    "draw": _why_not_draw,
    "discard": _why_not_discard,
    "grab": _why_not_grab,
    "call": _why_not_call,
}
# every answer built once, by whether each of ACTIONS is legal: bots ask at every change
# of their view, so `legal_actions` calls the checks one by one (no loop, no new set)
_ANSWERS = {
    legal: frozenset(kind for kind, ok in zip(ACTIONS, legal, strict=True) if ok)
    for legal in product((False, True), repeat=len(ACTIONS))
}
_NOTHING: frozenset[str] = frozenset()
assert tuple(_WHY_NOT) == ACTIONS


def legal_actions(
    view: Mapping[str, Any], seat: int | None, *, race_over: bool = False
) -> frozenset[str]:
    """The actions `seat` may take now, of "draw", "discard", "grab" and "call": those
    `Round.apply` would accept (`Draw(seat)`, a `Discard` of a card it holds,
    `Grab(seat)`, `Call(seat)`), judged by the very checks `apply` uses.

    `view` is a view in the rules' dict form: `Round.view` or `Match.view` (a host's
    view as the bots get it, or `net.views.to_plain` of one). Only public keys are
    read, so any seat's view or a spectator's gives the same answer: `players`, `start`,
    `hand_sizes`, `incoming_sizes`, `draw_pile`, `trash_pile`, `nuggets_left`,
    `grabbed`, `caller`, `frozen`, `deadline`, `call_closes` and `settled`. A match's
    view before its first deal (no cards in any hand) allows nothing.

    The answer is for the moment of the view: a time-out still to come changes it once
    it is applied (the host applies `Tick` at the view's `deadline`; the view after
    that answers anew). One fact is not in a view: a race that ran out of time while
    the call window is still open, which happens only when the grab time-out is shorter
    than the call window. Pass `race_over=True` once a `race_over` event said so.

    A spectator (`seat` None) may do nothing; a seat not at the table raises
    IllegalAction."""
    if seat is None:
        return _NOTHING
    if seat.__class__ is not int or not 0 <= seat < view["players"]:  # the fast case first
        check_seat(seat, view["players"])
    if not any(view["hand_sizes"]):
        return _NOTHING
    return _ANSWERS[
        _why_not_draw(view, seat, race_over) is None,
        _why_not_discard(view, seat, race_over) is None,
        _why_not_grab(view, seat, race_over) is None,
        _why_not_call(view, seat, race_over) is None,
    ]
