"""Fool's Gold: the pure rules engine of the real-time card game, and its bots.

Pure: no clock, no sockets, no global random. The deck order comes in as an
argument and time as `now`; see `Round` and `Match`. Bots live in `foolsgold.bots`,
the virtual-clock simulator in `foolsgold.sim`.
"""

from foolsgold.cards import Card, DeckError, check_deck, is_set, standard_deck
from foolsgold.match import Match
from foolsgold.round import Call, Discard, Draw, Grab, IllegalAction, Round, Tick

__all__ = [
    "Call",
    "Card",
    "DeckError",
    "Discard",
    "Draw",
    "Grab",
    "IllegalAction",
    "Match",
    "Round",
    "Tick",
    "check_deck",
    "is_set",
    "standard_deck",
]
