"""Pig Dice's moves, declared once (``net.moves``): two of its own words and a move no
other game has (``double``), read by the host's codec, its app and a raw client."""

from __future__ import annotations

from net.moves import Moves, MoveSpec

ROLL = MoveSpec("roll", "roll the die: a 1 loses this turn's total", key="r", touch="Roll")
BANK = MoveSpec("bank", "bank this turn's total and pass the die", key="b", touch="Bank")
DOUBLE = MoveSpec("double", "throw once more: 4-6 doubles this turn's total, 1-3 loses it",
                  key="d", touch="Double")
MOVES = Moves(ROLL, BANK, DOUBLE)
