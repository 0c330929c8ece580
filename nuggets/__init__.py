"""Gold Nuggets (Reiner Knizia): the pure rules engine, exact advisor and bots.

`nuggets.rules` holds the game (rulings N1-N9), `nuggets.odds` the exact advisor,
`nuggets.bots` the policies and `nuggets.sim` a command-line simulator.
"""

from nuggets.odds import (
    Advice,
    advise,
    best_keep,
    bust_chance,
    expected_keep,
    expected_roll,
    expected_stop,
    expected_turn,
    solve,
)
from nuggets.rules import (
    DICE,
    NUMBERS,
    STARTING_SUPPLY,
    Face,
    Game,
    IllegalAction,
    Keep,
    Roll,
    Stop,
    check_keep,
    is_bust,
    legal_keeps,
    roll_dice,
    score,
)

__all__ = [
    "Advice",
    "advise",
    "best_keep",
    "bust_chance",
    "expected_keep",
    "expected_roll",
    "expected_stop",
    "expected_turn",
    "solve",
    "DICE",
    "NUMBERS",
    "STARTING_SUPPLY",
    "Face",
    "Game",
    "IllegalAction",
    "Keep",
    "Roll",
    "Stop",
    "check_keep",
    "is_bust",
    "legal_keeps",
    "roll_dice",
    "score",
]
