"""Events in words, for the event log: one short line per event.

Headless and pure. Events are the typed ``net.views`` Structs a client decodes. Names
are peer text: callers put the returned strings into `rich.text.Text` objects (never
markup), so a name like "[bold]" prints as typed.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from net import views as v


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _lag(lag: float) -> str:
    """", lag +35 ms": the host counted the action that much before it arrived, for
    its sender's network delay (lag-fair races); "" for none."""
    ms = round(lag * 1000)
    return f", lag +{ms} ms" if ms > 0 else ""


def _faces(faces: Sequence[str]) -> str:
    return " ".join(faces) or "nothing"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(event: v.Event, names: Sequence[str]) -> str:
    """One line for an event of either game."""
    match event:
        # Gold Nuggets
        case v.Rolled():
            return f"{_name(names, event.seat)} rolled {_faces(event.faces)}"
        case v.Bust(lost=lost):
            set_aside = f" ({lost} set aside)" if lost else ""
            return f"{_name(names, event.seat)} went bust: nothing this turn{set_aside}"
        case v.Kept(dice_left=left):
            dice = "die" if left == 1 else "dice"
            return f"{_name(names, event.seat)} set aside {_faces(event.faces)}: " \
                f"worth {event.value}, {left} {dice} left"
        case v.Took():
            return f"{_name(names, event.seat)} took {_plural(event.amount, 'nugget')} " \
                "from the supply"
        case v.Stole():
            return f"{_name(names, event.seat)} stole {_plural(event.amount, 'nugget')} " \
                f"from {_name(names, event.victim)}"
        case v.BonusTurn():
            return f"{_name(names, event.seat)} set aside all seven dice: a bonus turn!"
        case v.Turn():
            return f"{_name(names, event.seat)}'s turn"
        case v.GameOver():
            winners = [_name(names, s) for s in event.winners]
            return "Game over: " + (" and ".join(winners) or "nobody") + " won"
        # Fool's Gold
        case v.Drew():
            return f"{_name(names, event.seat)} drew from the {event.pile} pile"
        case v.Discarded():
            who = _name(names, event.seat)
            if event.pile == "trash":
                return f"{who} discarded to the trash"
            return f"{who} passed a card to {_name(names, event.to)}"
        case v.Grabbed():
            return f"{_name(names, event.seat)} grabbed a nugget (#{event.order}" \
                f"{_lag(event.lag)})"
        case v.Called():
            return f"{_name(names, event.seat)} called \"Fool's Gold!\" on " \
                f"{_name(names, event.grabber)}" + (f" ({_lag(event.lag)[2:]})"
                                                    if _lag(event.lag) else "")
        case v.Revealed():
            verdict = "holds a set" if event.set else "holds no set"
            return f"{_name(names, event.seat)}'s hand is revealed: it {verdict}"
        case v.CallWindowClosed():
            return "The call window closed"
        case v.RaceOver():
            without = [_name(names, s) for s in event.without]
            tail = f"; no nugget: {', '.join(without)}" if without else ""
            return f"The race is over{tail}"
        case v.Settled():
            parts = [f"{_name(names, s)} {d:+d}" for s, d in enumerate(event.deltas) if d]
            return "Round settled: " + (", ".join(parts) or "no change")
        case v.RoundStarted():
            return f"Round {event.round_no} begins; {_name(names, event.start)} starts"
        case v.Scores():
            scores = ", ".join(f"{_name(names, s)} {p}" for s, p in enumerate(event.scores))
            return "Scores: " + scores
        case v.NextRound():
            return "The next round starts in a moment"
        case v.TieBreak():
            level = ", ".join(_name(names, s) for s in event.seats)
            return f"Round cap reached with {level} level: one more round"
        case v.MatchOver():
            return f"Match over: {_name(names, event.winner)} wins"
    # an event this version does not put in words (a newer net.views): its fields
    fields = msgspec.to_builtins(event)
    kind = fields.pop("type", type(event).__name__)
    detail = ", ".join(f"{k}={val}" for k, val in fields.items())
    return f"{kind}: {detail}" if detail else str(kind)
