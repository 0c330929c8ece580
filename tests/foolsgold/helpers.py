"""Forced deck orders and state snapshots for the Fool's Gold tests."""


import pytest

from foolsgold import (
    Card,
    IllegalAction,
    Round,
)
from foolsgold.cards import ANIMAL_NAMES, SET_SIZE

PROSPECTORS = {"Dusty Dan", "Calamity Kate", "Sourdough Sam", "Panhandle Pete"}


def card(text: str) -> Card:
    """`card("Owl b")` -> the Owl of variant b (prospector names are known)."""
    name, variant = text.rsplit(" ", 1)
    return Card(name, "prospector" if name in PROSPECTORS else "animal", variant)


def cards(text: str) -> list[Card]:
    """`cards("Owl a, Owl b")` -> a list of cards."""
    return [card(part.strip()) for part in text.split(",") if part.strip()]


def forced_deck(players: int, start: int, hands: dict[int, str], pile: str = "") -> list[Card]:
    """The deck that deals `hands` (by seat) and leaves `pile` (top first) to draw."""
    deck = []
    for i in range(players):
        deck += cards(hands[(start + i) % players])
    return deck + cards(pile)


def filler(players: int, start: int, pile: str = "", **kw) -> Round:
    """A round where seat s holds five distinct animals nobody else holds."""
    names = list(ANIMAL_NAMES[:10])
    hands = {}
    for seat in range(players):
        hands[seat] = ", ".join(
            f"{names[(seat + j) % len(names)]} {chr(ord('a') + seat)}" for j in range(5)
        )
    return Round(players, start, forced_deck(players, start, hands, pile), **kw)


def snapshot(r: Round) -> tuple:
    """Everything a Round holds, for 'unchanged after an error' checks."""
    return tuple(sorted((k, repr(v)) for k, v in r.__dict__.items()))


def places(r: Round) -> list[Card]:
    """Every card the round holds, wherever it is."""
    out = [c for hand in r.hands for c in hand]
    out += [c for pile in r.incoming for c in pile]
    return out + r.draw_pile + r.trash_pile


assert SET_SIZE == {"animal": 3, "prospector": 5}


def refused(r: Round, action, now: float, message: str) -> None:
    """`action` is refused with a message containing `message`, and nothing changes."""
    before = snapshot(r)
    with pytest.raises(IllegalAction, match=message):
        r.apply(action, now)
    assert snapshot(r) == before
