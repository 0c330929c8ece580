"""Fool's Gold at the plain seat (``tui.plain``): the moves legal now (the rules' own
``legal_actions``), what the race asks for, the questions' answers, and a card typed
by its number in the hand (``discard 3``) or its name (``discard owl``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from foolsgold import draw_source, legal_actions
from net.games.foolsgold import views as v
from net.games.foolsgold.moves import CALL, DISCARD, DRAW, GRAB, CardRef
from net.views import to_plain
from tui.describe import describe, name
from tui.games.foolsgold.phases import PILES, call_window_open
from tui.plain.words import Generic

#: draws and passes are the churn of a round: the app's log leaves them out too
CHURN = (v.Drew, v.Discarded)
#: an incoming pile is said each time it grows past another this many cards
PILE_STEP = 10


class Plain(Generic):
    """One seat's adapter: it notes when the race ran out of time (a view cannot show
    that while the call window is still open), as the app's screen does."""

    def __init__(self, moves: Any) -> None:
        super().__init__(moves)
        self.race_over = False
        self.pile_step = 0  # the incoming pile's size last said, in PILE_STEPs

    def note(self, view: v.FoolsGoldView, events: Sequence[Any]) -> None:
        if not view.grabbed:
            self.race_over = False
        if any(isinstance(e, v.RaceOver) for e in events):
            self.race_over = True

    @staticmethod
    def words(event: Any, names: Sequence[str], view: v.FoolsGoldView) -> str | None:
        """The app's log's words, without the lag a race was judged by (a figure for
        the log's readers, noise in a listener's ear)."""
        if isinstance(event, v.Grabbed | v.Called) and event.lag:
            event = msgspec.structs.replace(event, lag=0.0)
        return describe(event, names, view)

    def news(self, view: v.FoolsGoldView, seat: int | None, names: Sequence[str],
             events: Sequence[Any]) -> list[str]:
        """A pile that grows while this seat is slow: said each time it passes another
        ``PILE_STEP`` cards (the app shows it always, on the pile)."""
        if seat is None or not 0 <= seat < view.players:
            return []
        waiting = view.incoming_sizes[seat]
        step = waiting // PILE_STEP
        said, self.pile_step = step > self.pile_step, step
        if not said:
            return []
        return [f"Your incoming pile holds {waiting} cards: the player on your right "
                "passes faster than you draw. Draw to catch up."]

    @staticmethod
    def over(view: v.FoolsGoldView) -> bool:
        return view.winner is not None

    @staticmethod
    def current(view: v.FoolsGoldView) -> int | None:
        return None  # everyone plays at once

    @staticmethod
    def shown(event: Any) -> bool:
        return not isinstance(event, CHURN)

    def legal(self, view: v.FoolsGoldView, seat: int | None) -> frozenset[str]:
        if seat is None or view.winner is not None or view.settled or not view.hand:
            return frozenset()
        return frozenset(legal_actions(to_plain(view), seat, race_over=self.race_over))

    def prompt(self, view: v.FoolsGoldView, seat: int | None, names: Sequence[str],
               left: float | None) -> tuple[str, str] | None:
        return prompt(self, view, seat, names, left)

    @staticmethod
    def answers(view: v.FoolsGoldView, seat: int | None, names: Sequence[str],
                left: float | None) -> dict[str, str]:
        return answers(view, seat, names, left)

    @staticmethod
    def parse(move: Any, words: list[str], view: v.FoolsGoldView, seat: int | None,
              names: Sequence[str]) -> dict[str, Any]:
        return parse(move, words, view, seat, names)


def _hand(view: v.FoolsGoldView) -> list[v.Card | None]:
    """The hand as the app lays it out: slot by slot, numbered from 1."""
    hand = view.hand or []
    if view.slots is None:
        return list(hand)
    return [None if i is None else hand[i] for i in view.slots]


def hand_words(view: v.FoolsGoldView) -> str:
    cards = _hand(view)
    if not cards:
        return "You hold no cards."
    said = [f"{i + 1} {card.name}" + (" (new)" if i == view.drawn else "")
            for i, card in enumerate(cards) if card is not None]
    return "Your hand: " + ", ".join(said) + ("." if not view.frozen else " (frozen).")


def prompt(adapter: Plain, view: v.FoolsGoldView, seat: int | None, names: Sequence[str],
           left: float | None) -> tuple[str, str] | None:
    keys = adapter.legal(view, seat)
    if not keys:
        return None
    window = f", {left:.0f} s left to call" if left is not None and left > 0 else ""
    if view.grabbed:
        first = name(names, view.grabbed[0][0])
        parts = (["grab a nugget: grab"] if GRAB.name in keys else []) + (
            [f"call Fool's Gold on {first}: call{window}"] if CALL.name in keys else [])
        return "Race", "; ".join(parts) + "."
    if DISCARD.name in keys:
        return "Your move", hand_words(view) + " Pass one: discard and its number" + (
            ", or grab with a set." if GRAB.name in keys else ".")
    if DRAW.name in keys:
        return "Your move", f"draw, from {PILES[draw_source(to_plain(view), seat)]}."
    return None


def answers(view: v.FoolsGoldView, seat: int | None, names: Sequence[str],
            left: float | None) -> dict[str, str]:
    people = [name(names, i) for i in range(view.players)]
    scores = "Scores: " + ", ".join(f"{n} {s}" for n, s in zip(people, view.scores,
                                                               strict=True))
    scores += f" (first to 3{'' if view.round_cap is None else f', or {view.round_cap} rounds'})."
    hands = ", ".join(f"{n} {h}" for n, h in zip(people, view.hand_sizes, strict=True))
    table = (f"Round {view.round_no}, {name(names, view.start)} starts. Draw pile "
             f"{view.draw_pile}, trash {view.trash_pile}. Cards in hand: {hands}. "
             f"Nuggets left {view.nuggets_left}.")
    if seat is not None and 0 <= seat < view.players:
        table += f" Your incoming pile: {view.incoming_sizes[seat]}."
    if view.grabbed:
        table += " Grabbed: " + ", ".join(name(names, s) for s, _ in view.grabbed) + "."
    if view.caller is not None:
        table += f" {name(names, view.caller)} called Fool's Gold."
    if not view.grabbed:
        time = "No race yet: the first grab starts it."
    elif view.deadline is not None:
        time = "The race is on" + (f"; {left:.1f} s left to call" if left else "") + "."
    elif call_window_open(view, left):
        time = f"The race is over; {left:.1f} s left to call." if left else \
            "The race is over; the call window is open."
    else:
        time = "The race and the call window are over."
    answers = {"scores": scores, "table": table, "time": time}
    if seat is not None:
        answers["hand"] = hand_words(view)
    return answers


def parse(move: Any, words: list[str], view: v.FoolsGoldView, seat: int | None,
          names: Sequence[str]) -> dict[str, Any]:
    if move.name != DISCARD.name:
        if words:
            raise ValueError(f"{move.name} takes nothing more: {move.usage()}")
        return {}
    cards = _hand(view)
    if not words:
        raise ValueError("discard which card? its number: " + hand_words(view))
    word = " ".join(words).casefold()
    if word.isdigit():
        index = int(word) - 1
        card = cards[index] if 0 <= index < len(cards) else None
        if card is None:
            raise ValueError(f"you have no card {word}. " + hand_words(view))
    else:
        found = [c for c in cards if c is not None and c.name.casefold().startswith(word)]
        if not found:
            raise ValueError(f"you hold no {word!r}. " + hand_words(view))
        card = found[0]
    return {"card": CardRef(name=card.name, variant=card.variant, kind=card.kind)}
