"""Gold Nuggets events in words, for the event log (``tui.describe``)."""

from __future__ import annotations

from collections.abc import Sequence

from net.games.nuggets import views as v
from tui.describe import faces, name, plural


def describe(event: v.GameEvent, names: Sequence[str]) -> str | None:
    """One line for one of this game's events (None: not one of them)."""
    match event:
        case v.Rolled():
            return f"{name(names, event.seat)} rolled {faces(event.faces)}"
        case v.Bust(lost=lost):
            set_aside = f" ({lost} set aside)" if lost else ""
            return f"{name(names, event.seat)} went bust: nothing this turn{set_aside}"
        case v.Kept(dice_left=left):
            dice = "die" if left == 1 else "dice"
            return f"{name(names, event.seat)} set aside {faces(event.faces)}: " \
                f"worth {event.value}, {left} {dice} left"
        case v.Took():
            return f"{name(names, event.seat)} took {plural(event.amount, 'nugget')} " \
                "from the supply"
        case v.Stole():
            return f"{name(names, event.seat)} stole {plural(event.amount, 'nugget')} " \
                f"from {name(names, event.victim)}"
        case v.BonusTurn():
            return f"{name(names, event.seat)} set aside all seven dice: a bonus turn!"
        case v.Turn():
            return f"{name(names, event.seat)}'s turn"
        case v.GameOver():
            winners = [name(names, s) for s in event.winners]
            return "Game over: " + (" and ".join(winners) or "nobody") + " won"
    return None
