"""Fool's Gold from one seat's messages: the hands it was dealt are the revealed seed's
(``net.verify``). The host draws from ``random.Random(seed)``: the first start player
(unless fixed), then one shuffled deck a round (``net.games.foolsgold``)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from foolsgold import standard_deck
from net import protocol as p
from net.games.foolsgold import views as foolsgold_views
from net.verify import game_bounds, seed_matches


def verify(messages: Iterable[Any], seat: int | None = None) -> list[str]:
    """Problems with a Fool's Gold match's deals, from the messages of one seat: the
    hand it was dealt each round must be the seed's. A spectator sees no hand: only
    the seed and the first player are checked."""
    messages = list(messages)
    started, over, fixed = game_bounds(messages)
    players = len(started.players)
    problems = []
    if not seed_matches(over.seed, started.seed_hash):
        problems.append("the revealed seed does not hash to the published seed_hash")
    rng = random.Random(over.seed)
    if not fixed and rng.randrange(players) != started.first:
        problems.append("the first start player is not the seed's")
    if seat is None:
        return problems  # a spectator was dealt nothing to check
    for message in messages:
        if not isinstance(message, p.State) or message.seat != seat:
            continue
        if not any(isinstance(e, foolsgold_views.RoundStarted) for e in message.events):
            continue
        deck = standard_deck(players)
        rng.shuffle(deck)
        view = message.view
        i = (seat - view.start) % players
        dealt = sorted((c.name, c.variant) for c in deck[5 * i : 5 * i + 5])
        hand = sorted((c.name, c.variant) for c in view.hand or [])
        if dealt != hand:
            problems.append(f"round {view.round_no}: the hand dealt is not the seed's")
    return problems
