"""Check a finished game's randomness against the seed the host revealed.

When a game starts, the host publishes ``seed_hash = sha256(seed)``; when it ends it
reveals ``seed``. Anyone who kept the messages can then check that the hash matches
and that the dice (or the deals) they saw are exactly what ``random.Random(seed)``
produces, drawn in the order ``net.games`` documents. ``verify_nuggets`` and
``verify_foolsgold`` do that from a client's messages alone (they hold no actions, so
those draws are all a client can check); ``verify_record`` checks a whole kept game (a
save, or an exported record) through the replay engine that restores and replays games
(``net.saves.replay``). Each returns a list of problems, empty when all is well.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from net import protocol as p
from net import views
from net.saves.replay import seed_matches

__all__ = ["seed_matches", "verify_foolsgold", "verify_nuggets", "verify_record"]


def verify_record(saved: Any) -> list[str]:
    """Problems with a kept game (``net.saves.Saved``): its seed against its hash, and
    every move replayed from the seed with the events it recorded, to the snapshot."""
    from net.saves import SaveError

    try:
        saved.replay()
    except SaveError as error:
        return [str(error)]
    return []


def _game(messages: list[Any]) -> tuple[p.Started, p.Over, bool]:
    """The game's start and end, and whether its first player was fixed (not drawn)."""
    start = next(i for i, m in enumerate(messages) if isinstance(m, p.Started))
    over = next(m for m in messages[start:] if isinstance(m, p.Over))
    tables = [m.table for m in messages[:start] if isinstance(m, p.TableUpdate | p.Welcome)]
    fixed = bool(tables) and tables[-1].settings.first_player is not None
    return messages[start], over, fixed


def verify_nuggets(messages: Iterable[Any]) -> list[str]:
    """Problems with a Gold Nuggets game's dice, from one client's messages."""
    import nuggets

    messages = list(messages)
    started, over, fixed = _game(messages)
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
            if isinstance(event, views.Rolled):
                expected = [f.value for f in nuggets.roll_dice(rng, len(event.faces))]
                if expected != event.faces:
                    problems.append(f"roll {event.faces} is not the seed's {expected}")
    return problems


def verify_foolsgold(messages: Iterable[Any], seat: int) -> list[str]:
    """Problems with a Fool's Gold match's deals, from the messages of one seat: the
    hand it was dealt each round must be the seed's."""
    from foolsgold import standard_deck

    messages = list(messages)
    started, over, fixed = _game(messages)
    players = len(started.players)
    problems = []
    if not seed_matches(over.seed, started.seed_hash):
        problems.append("the revealed seed does not hash to the published seed_hash")
    rng = random.Random(over.seed)
    if not fixed and rng.randrange(players) != started.first:
        problems.append("the first start player is not the seed's")
    for message in messages:
        if not isinstance(message, p.State) or message.seat != seat:
            continue
        if not any(isinstance(e, views.RoundStarted) for e in message.events):
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
