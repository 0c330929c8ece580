"""Gold Nuggets from one client's messages: the dice it saw are the revealed seed's
(``net.verify``). The host rolls from ``random.Random(seed)``: the first player (unless
fixed), then every roll in play order (``net.games.nuggets``)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import nuggets
from net import protocol as p
from net.games.nuggets import views as nuggets_views
from net.verify import game_bounds, seed_matches


def verify(messages: Iterable[Any], seat: int | None = None) -> list[str]:
    """Problems with a Gold Nuggets game's dice, from one client's messages (every die
    is public: any seat, or a spectator, checks them all)."""
    messages = list(messages)
    started, over, fixed = game_bounds(messages)
    problems = []
    if not seed_matches(over.seed, started.seed_hash):
        problems.append("the revealed seed does not hash to the published seed_hash")
    rng = random.Random(over.seed)
    if not fixed and rng.randrange(len(started.players)) != started.first:
        problems.append("the first player is not the seed's")
    states = [m for m in messages if isinstance(m, p.State)]
    for message in states:
        if message.seat != states[0].seat:
            continue  # a hot-seat client sees each change once per seat
        for event in message.events:
            if isinstance(event, nuggets_views.Rolled):
                expected = [f.value for f in nuggets.roll_dice(rng, len(event.faces))]
                if expected != event.faces:
                    problems.append(f"roll {event.faces} is not the seed's {expected}")
    return problems
