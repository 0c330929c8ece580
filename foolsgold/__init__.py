"""Fool's Gold: the pure rules engine of the real-time card game, and its bots.

Pure: no clock, no sockets, no global random. The deck order comes in as an
argument and time as `now`; see `Round` and `Match`. `legal_actions(view, seat)` says
what a seat may do now, judged from a view by the checks `Round.apply` makes. Bots live
in `foolsgold.bots`, the virtual-clock simulator in `foolsgold.sim`.
"""

from foolsgold.actions import (
    ACTIONS,
    Call,
    Discard,
    Draw,
    Grab,
    IllegalAction,
    Tick,
    call_window_open,
    draw_source,
    legal_actions,
    race_open,
)
from foolsgold.cards import Card, DeckError, check_deck, is_set, standard_deck
from foolsgold.match import Match
from foolsgold.round import RULES, Round, no_nugget_costs

__all__ = [
    "ACTIONS",
    "RULES",
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
    "call_window_open",
    "check_deck",
    "draw_source",
    "is_set",
    "legal_actions",
    "no_nugget_costs",
    "race_open",
    "standard_deck",
]
