"""Fool's Gold's guided first round (issue 47): what to do now and why, a step at a
time, beside the table's own hint. Offered once, on a person's first game."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tui.games.foolsgold.events import score_parts

NEED = {"animal": 3, "prospector": 5}


def points(view: Any, names: list[str]) -> str:
    """Each player's points of the settled round and why ("Ann +1 (+1 for the first
    grab, not called); Bob -1 (-1 for no nugget)"), as the log's line says them."""
    said = []
    for seat, delta in enumerate(view.deltas or []):
        parts = score_parts(view, seat)
        if delta or parts:
            who = names[seat] if 0 <= seat < len(names) else "?"
            said.append(f"{who} {delta:+d}" + (f" ({', '.join(parts)})" if parts else ""))
    return "; ".join(said) or "nobody's points changed"


class FoolsGoldGuide:
    """Reads the table screen (``FoolsGoldScreen``) and says the step in front of the
    person; None once the first round is settled and the next one begins."""

    def words(self, screen: Any) -> str | None:
        view = screen.view
        if view is None or view.winner is not None or view.round_no > 1:
            return None
        if view.settled:  # the points in the box itself: at 80x24 the box leaves the
            # log no rows, so a step that named the log would point at nothing
            return (f"Round over: {points(view, screen.names)}. The first to 3 points wins "
                    "the match. The guide ends here; ? lists every key.")
        now = screen.now()
        if view.grabbed:
            first = view.grabbed[0][0]
            two = view.players == 2  # F12: one nugget, and no point lost for lacking it
            if first == screen.seat:
                if two:
                    return ("You grabbed the nugget: +1 unless your opponent calls a bluff "
                            "(then -1 for you, +1 for them; a set wins the point anyway).")
                return ("You grabbed first: +1 if nobody calls your bluff (or you hold a "
                        "set). The others race for the nuggets left.")
            if two:
                return ("Your opponent grabbed the nugget! At two there is no nugget to "
                        "lose. Press f if you think they bluffed: a right call is +1 for "
                        "you, a wrong one -1; no call gives them +1.")
            return ("Someone grabbed first! Press g to grab a nugget too (whoever is left "
                    "without one loses a point), or f if you think they bluffed: a right call "
                    "is +1 for you, a wrong one -1.")
        hand = view.hand or []
        held = Counter(card.name for card in hand)
        if any(held[c.name] >= NEED.get(c.kind, 99) for c in hand):
            return "You hold a set! Press g now to grab a nugget: the first grab scores +1."
        if now.phase == "discard":
            return ("Six cards: pass one to your left with its number (1-6). Keep the names "
                    "you collect; pass the others.")
        if now.phase == "draw":
            return ("Everyone plays at once. Collect a set: 3 of one animal or 5 of one "
                    "prospector (each card's foot says how far you are). Press the number of "
                    "the card to pass: it draws the waiting card and passes that one.")
        return ("Everyone plays at once: a card comes to you from your right. Collect 3 of "
                "an animal or 5 of a prospector, then grab with g.")
