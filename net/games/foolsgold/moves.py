"""Fool's Gold's moves, declared once (``net.moves``): the wire, the host's codec, the
app, the plain seat and the bots read them here. A grab and a call are races: the table
orders them by when the person acted (lag-fair races)."""

from __future__ import annotations

from msgspec import Struct

from net.moves import Moves, MoveSpec
from net.protocol import Text


class CardRef(Struct, forbid_unknown_fields=True, kw_only=True):
    """A card named by the client: ``name`` and ``variant`` identify it."""

    name: Text
    variant: Text
    kind: Text | None = None


class DiscardArgs(Struct, forbid_unknown_fields=True, kw_only=True):
    card: CardRef


DRAW = MoveSpec("draw", "draw a card (from your incoming pile, or the draw pile if you start)",
                key="d,space", touch="Draw", aliases=("d",))
DISCARD = MoveSpec(
    "discard",
    "discard that card to your left neighbour",
    args=DiscardArgs,
    key="1-6",
    touch="Pass",  # the buttons name the card: "Pass Owl"
    aliases=("pass", "p"),
    arg_words={"card": "the card to pass"},
)
GRAB = MoveSpec("grab", "grab a nugget: the first grab claims a set (or bluffs one)", key="g",
                touch="Grab!", race=True, aliases=("g",))
CALL = MoveSpec("call", 'call "Fool\'s Gold!" on the first grabber', key="f",
                touch="Fool's Gold!", race=True, aliases=("f", "fools"))
MOVES = Moves(DRAW, DISCARD, GRAB, CALL)
