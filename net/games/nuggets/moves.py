"""Gold Nuggets' moves, declared once (``net.moves``): the wire, the host's codec, the
app, the plain seat and the bots read them here."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from net.moves import Moves, MoveSpec
from net.protocol import Seat, Text

FACES = ("nugget", "lasso", "2", "3", "4", "5")


class KeepArgs(Struct, forbid_unknown_fields=True, kw_only=True):
    #: the faces set aside, one word a die (``"nugget"``, ``"lasso"``, ``"2"``-``"5"``)
    faces: Annotated[list[Text], Meta(max_length=7)]


class StopArgs(Struct, forbid_unknown_fields=True, kw_only=True):
    #: with three lassos set aside: the seat to steal from (None takes from the supply)
    steal_from: Seat | None = None


ROLL = MoveSpec("roll", "roll the dice that are not set aside", key="enter", touch="Roll on",
                aliases=("r",))
KEEP = MoveSpec(
    "keep",
    "set aside dice of one face (nuggets and lassos may go with numbers)",
    args=KeepArgs,
    key="1-7",
    touch="Set aside",
    aliases=("k", "set"),
    arg_words={"faces": "the faces to set aside: nugget, lasso, 2, 3, 4 or 5, one a die"},
)
STOP = MoveSpec(
    "stop",
    "stop: take your set-aside's worth from the supply, or steal it with three lassos",
    args=StopArgs,
    key="t",
    touch="Take",
    aliases=("take", "s"),
    arg_words={"steal_from": "with three lassos, the player to steal from"},
)
MOVES = Moves(ROLL, KEEP, STOP)
