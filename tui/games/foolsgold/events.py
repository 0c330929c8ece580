"""Fool's Gold events in words, for the event log (``tui.describe``)."""

from __future__ import annotations

from collections.abc import Sequence

from net.games.foolsgold import views as v
from tui.describe import lag, name

#: what a seat without a nugget reads at a table of two (F12: F8 does not apply there)
NO_NUGGET_AT_TWO = "at two there is no nugget to lose"


def score_parts(view: v.FoolsGoldView | None, seat: int) -> list[str]:
    """What made ``seat``'s points of a settled round, in words ("+1 for a right call",
    "-1 for no nugget"), read from the settled view (F10-F12). At a table of two the
    seat without the nugget reads "at two there is no nugget to lose" (F12); a match
    saved under the rules before F12 settled with F8 there too, and its replay says
    "-1 for no nugget" as its points were counted (read from the round's deltas)."""
    if view is None or not view.settled or not view.grabbed:
        return []
    grabbed = [s for s, _ in view.grabbed]
    first, caller = grabbed[0], view.caller
    parts = []
    made = 0  # the points of the grab and the call, before any for a missing nugget
    if seat == first:
        if caller is None:
            parts.append("+1 for the first grab, not called")
            made = 1
        elif view.revealed_set:
            parts.append("+1 for a set, called wrongly")
            made = 1
        else:
            parts.append("-1 for a bluff called")
            made = -1
    elif seat == caller:
        parts.append("-1 for a wrong call" if view.revealed_set else "+1 for a right call")
        made = -1 if view.revealed_set else 1
    if seat not in grabbed:
        deltas = view.deltas
        costs = view.players > 2 if deltas is None else deltas[seat] == made - 1
        if costs:
            parts.append("-1 for no nugget")
        elif parts:
            parts[-1] += f"; {NO_NUGGET_AT_TWO}"
        else:
            parts.append(NO_NUGGET_AT_TWO)
    return parts


def _settled(event: v.Settled, names: Sequence[str], view: v.FoolsGoldView | None) -> str:
    said = []
    for seat, delta in enumerate(event.deltas):
        parts = score_parts(view, seat)
        if delta or parts:
            why = f" ({', '.join(parts)})" if parts else ""
            said.append(f"{name(names, seat)} {delta:+d}{why}")
    return "Round settled: " + ("; ".join(said) or "no change")


def describe(event: v.GameEvent, names: Sequence[str],
             view: v.FoolsGoldView | None = None) -> str | None:
    """One line for one of this game's events (None: not one of them); ``view``, the
    view the events led to, explains a settled round's points."""
    match event:
        case v.Drew():
            return f"{name(names, event.seat)} drew from the {event.pile} pile"
        case v.Discarded():
            who = name(names, event.seat)
            if event.pile == "trash":
                return f"{who} discarded to the trash"
            return f"{who} passed a card to {name(names, event.to)}"
        case v.Grabbed():
            return f"{name(names, event.seat)} grabbed a nugget (#{event.order}" \
                f"{lag(event.lag)})"
        case v.Called():
            return f"{name(names, event.seat)} called \"Fool's Gold!\" on " \
                f"{name(names, event.grabber)}" + (f" ({lag(event.lag)[2:]})"
                                                    if lag(event.lag) else "")
        case v.Revealed():
            verdict = "holds a set" if event.set else "holds no set"
            return f"{name(names, event.seat)}'s hand is revealed: it {verdict}"
        case v.CallWindowClosed():
            return "The call window closed"
        case v.RaceOver():
            without = [name(names, s) for s in event.without]
            tail = f"; no nugget: {', '.join(without)}" if without else ""
            return f"The race is over{tail}"
        case v.Settled():
            return _settled(event, names, view)
        case v.RoundStarted():
            return f"Round {event.round_no} begins; {name(names, event.start)} starts"
        case v.Scores():
            scores = ", ".join(f"{name(names, s)} {p}" for s, p in enumerate(event.scores))
            return "Scores: " + scores
        case v.NextRound():
            return "The next round starts in a moment"
        case v.TieBreak():
            level = ", ".join(name(names, s) for s in event.seats)
            return f"Round cap reached with {level} level: one more round"
        case v.MatchOver():
            return f"Match over: {name(names, event.winner)} wins"
    return None
