"""What a Fool's Gold table accepts now and what is true now (``tui.phases``): the
keys are the rules' own legal actions (``foolsgold.legal_actions``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from foolsgold import call_window_open as window_open
from foolsgold import draw_source, legal_actions, race_open
from net.games.foolsgold.views import FoolsGoldView
from net.views import to_plain
from tui.phases import Now, namer

FOOLSGOLD_ACTIONS = frozenset({"draw", "discard", "grab", "call"})
CALL = "f calls \"Fool's Gold!\""


#
# What is legal is the rules' answer (``foolsgold.legal_actions``, the checks that
# ``Round.apply`` makes), read from the view in the rules' own form (``to_plain``);
# here only the words for it.

PILES = {"draw": "the draw pile", "trash": "the trash pile", "incoming": "your incoming pile"}


def call_window_open(view: FoolsGoldView, left: float | None = None) -> bool:
    """Whether a call would be accepted from anyone but the first grabber: the rules'
    call window (``foolsgold.call_window_open``), and, when ``left`` (the seconds the
    host's clock leaves in it) is known, not yet run out."""
    return window_open(to_plain(view)) and (left is None or left > 0)


def foolsgold_now(view: FoolsGoldView | None, seat: int | None, names: Sequence[str] = (),
                  *, left: float | None = None, race_over: bool = False) -> Now:
    """A Fool's Gold table for ``seat`` (None: a spectator). ``left``: the seconds left
    in the call window, when the host's clock is known; ``race_over``: the race ended by
    its time-out (the view shows only nuggets running out)."""
    if view is None:
        return Now("joining", frozenset(), "")
    name = namer(names)
    if view.winner is not None:
        return Now("match-over", frozenset(), "q leaves the table.")
    if view.settled:
        more = "" if view.scores and max(view.scores) >= 3 else " The next round starts shortly."
        return Now("round-over", frozenset(),
                   "Points of this round in ( ), match points under pts." + more)
    window = f" (call window: {left:.1f} s)" if left is not None and left > 0 else ""
    plain = to_plain(view)
    if seat is not None and not 0 <= seat < view.players:
        seat = None  # not a seat of this table: it can only watch
    if view.grabbed:
        return _race(view, plain, seat, name, window, race_over)
    if seat is None:
        return Now("watching", frozenset(), "You are watching.")
    if not view.hand:
        return Now("dealing", frozenset(), "The cards are being dealt.")
    keys = legal_actions(plain, seat)  # no grab yet: ``race_over`` is of no race here
    if "discard" in keys:
        return Now("discard", keys, "Pass a card: 1-6 (g grabs a nugget).")
    if "draw" in keys:
        return Now("draw", keys, f"d draws from {PILES[draw_source(plain, seat)]}.")
    if seat == view.start:
        return Now("wait-card", keys,
                   "The draw and trash piles are empty: waiting for a discard.")
    return Now("wait-card", keys, "Waiting for a card from your right neighbour.")


def _race(view: FoolsGoldView, plain: dict[str, Any], seat: int | None,
          name: Callable[[int | None], str], window: str, race_over: bool) -> Now:
    """After the first grab: hands are frozen, the race and the call window run."""
    first = view.grabbed[0][0]
    racing = race_open(plain, race_over)
    calling = window_open(plain)
    keys = legal_actions(plain, seat, race_over=race_over)
    parts = []
    if "grab" in keys:
        parts.append("g grabs a nugget")
    if "call" in keys:
        parts.append(CALL)
    said = f"{name(view.caller)} called Fool's Gold! " if view.caller is not None else ""
    gone = "No nuggets left" if view.nuggets_left == 0 else "The race is over"
    if parts:
        lead = said if racing else f"{gone}: "
        status = lead + ", ".join(parts) + (window if "call" in keys else "") + "."
        return Now("race" if racing else "race-over", keys, status)
    if racing:
        return Now("race", frozenset(), said + "Waiting for the race to end.")
    if calling:
        who = "the others" if seat == first else "the players"
        return Now("race-over", frozenset(),
                   f"{gone}: {who} may call \"Fool's Gold!\" until the window closes{window}.")
    return Now("race-over", frozenset(), f"{gone}: the round is being settled.")
