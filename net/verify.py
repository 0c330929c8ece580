"""Check a finished game's randomness against the seed the host revealed.

When a game starts, the host publishes ``seed_hash = sha256(seed)``; when it ends it
reveals ``seed``. Anyone who kept the messages can then check that the hash matches
and that the dice (or the deals) they saw are exactly what ``random.Random(seed)``
produces, drawn in the order ``net.games`` documents. :func:`verify_messages`
does that from a client's messages alone, through the game's own ``verify`` module
(``net.games.<key>.verify``: a client's messages hold no actions, so the draws are all
it can check); :func:`verify_record` checks a whole kept game (a
save, or an exported record) through the replay engine that restores and replays games
(``net.saves.replay``). Each returns a list of problems, empty when all is well.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from net import protocol as p
from net.catalogue import spec
from net.saves.replay import seed_matches

__all__ = ["game_bounds", "seed_matches", "verify_messages", "verify_record"]


def verify_record(saved: Any) -> list[str]:
    """Problems with a kept game (``net.saves.Saved``): its seed against its hash, and
    every move replayed from the seed with the events it recorded, to the snapshot."""
    from net.saves import SaveError

    try:
        saved.replay()
    except SaveError as error:
        return [str(error)]
    return []


def verify_messages(messages: Iterable[Any], seat: int | None = None) -> list[str]:
    """Problems with a finished game's randomness, from the messages one client kept
    (``seat``: the seat they were sent to; None for a spectator): the game's own
    module checks what that seat could see."""
    messages = list(messages)
    tables = [m.table for m in messages if isinstance(m, p.TableUpdate | p.Welcome)]
    if not tables:
        return ["no welcome or table update: which game this was is unknown"]
    game = spec(tables[0].game)
    problems = game.game.verify(messages, seat)
    if problems is None:
        return [f"{game.title} games cannot be checked from a client's messages"]
    return problems


def game_bounds(messages: list[Any]) -> tuple[p.Started, p.Over, bool]:
    """The game's start and end, and whether its first player was fixed (not drawn)."""
    start = next(i for i, m in enumerate(messages) if isinstance(m, p.Started))
    over = next(m for m in messages[start:] if isinstance(m, p.Over))
    tables = [m.table for m in messages[:start] if isinstance(m, p.TableUpdate | p.Welcome)]
    fixed = bool(tables) and tables[-1].settings.first_player is not None
    return messages[start], over, fixed
