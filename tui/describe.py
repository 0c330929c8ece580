"""Events in words, for the event log: one short line per event.

Headless and pure. Names are peer text: callers put the returned strings into
`rich.text.Text` objects (never markup), so a name like "[bold]" prints as typed.
"""

from __future__ import annotations

from collections.abc import Sequence


def _name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _faces(faces: object) -> str:
    if not isinstance(faces, list):
        return "?"
    return " ".join(str(f) for f in faces) or "nothing"


def _plural(n: object, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(event: dict, names: Sequence[str]) -> str:
    """One line for an event of either game; unknown events still get a line."""
    kind = event.get("type")
    who = _name(names, event.get("seat"))
    match kind:
        # Gold Nuggets
        case "rolled":
            return f"{who} rolled {_faces(event.get('faces'))}"
        case "bust":
            lost = event.get("lost", 0)
            return f"{who} went bust: nothing this turn" + (f" ({lost} set aside)" if lost else "")
        case "kept":
            left = event.get("dice_left")
            dice = "die" if left == 1 else "dice"
            return f"{who} set aside {_faces(event.get('faces'))}: worth {event.get('value')}, " \
                f"{left} {dice} left"
        case "took":
            return f"{who} took {_plural(event.get('amount'), 'nugget')} from the supply"
        case "stole":
            victim = _name(names, event.get("victim"))
            return f"{who} stole {_plural(event.get('amount'), 'nugget')} from {victim}"
        case "bonus_turn":
            return f"{who} set aside all seven dice: a bonus turn!"
        case "turn":
            return f"{who}'s turn"
        case "game_over":
            winners = [_name(names, s) for s in event.get("winners") or []]
            return "Game over: " + (" and ".join(winners) or "nobody") + " won"
        # Fool's Gold
        case "drew":
            return f"{who} drew from the {event.get('pile')} pile"
        case "discarded":
            if event.get("pile") == "trash":
                return f"{who} discarded to the trash"
            return f"{who} passed a card to {_name(names, event.get('to'))}"
        case "grabbed":
            return f"{who} grabbed a nugget (#{event.get('order')})"
        case "called":
            return f"{who} called \"Fool's Gold!\" on {_name(names, event.get('grabber'))}"
        case "revealed":
            verdict = "holds a set" if event.get("set") else "holds no set"
            return f"{who}'s hand is revealed: it {verdict}"
        case "call_window_closed":
            return "The call window closed"
        case "race_over":
            without = [_name(names, s) for s in event.get("without") or []]
            tail = f"; no nugget: {', '.join(without)}" if without else ""
            return f"The race is over{tail}"
        case "settled":
            deltas = event.get("deltas") or []
            parts = [f"{_name(names, s)} {d:+d}" for s, d in enumerate(deltas) if d]
            return "Round settled: " + (", ".join(parts) or "no change")
        case "round_started":
            start = _name(names, event.get("start"))
            return f"Round {event.get('round_no')} begins; {start} starts"
        case "scores":
            scores = event.get("scores") or []
            return "Scores: " + ", ".join(f"{_name(names, s)} {p}" for s, p in enumerate(scores))
        case "next_round":
            return "The next round starts in a moment"
        case "match_over":
            return f"Match over: {_name(names, event.get('winner'))} wins"
    detail = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"{kind}: {detail}" if detail else str(kind)
