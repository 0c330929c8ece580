"""Saved tables and games, in one SQLite database (``docs/PROTOCOL.md``, "Saved tables").

The rules are deterministic given their actions, and the host draws every dice face
and deck from ``random.Random(seed)`` in play order (``net.games``). So a save holds
the table's settings, seats and resume tokens, the seed, and the table's ordered log
of applied actions; restoring rebuilds the game by replaying that log through the
same driver the host used, checks every step's events against the log and the end
against a snapshot of the views, and refuses loudly (the save is kept) on any
mismatch.

One idea a module:

- ``db``: the database file, its schema, WAL and the checkpoint thread (durability);
- ``store``: :class:`Store`, what the host calls after every change, composed of the
  three parts below;
- ``mapping``: what a store remembers of each table, and the rows each change writes;
- ``writer``: the group commit, a loop turn's changes committed by a writer thread;
- ``queries``: reading saves back (:func:`load_all`, :func:`open_game`, the kept
  games, the stats);
- ``documents``: the save document (the JSON of a save and of an exported record);
- ``saved``: :class:`Saved`, a save read back: its facts, and ``restore``;
- ``replay``: the replay engine (restore, the replay screen, stats, ``net.verify``);
- ``stats``: the per-seat summary of a finished game, and the queries on them;
- ``legacy``: the file-based saves of versions 1 to 3: reading them, importing them.
"""

from __future__ import annotations

import importlib
from typing import Any

# names -> the module that owns them; imported when first asked for, so that
# ``net.saves.cli`` (argparse only) and ``net.saves.errors`` stay light to import
_OWNERS = {
    "SaveError": "errors",
    "Step": "replay",
    "Saved": "saved",
    "KINDS": "store",
    "Kept": "queries",
    "Store": "store",
    "load_all": "store",
    "open_game": "store",
    "resume_time": "queries",
    "resumed_clock": "queries",
}
__all__ = sorted(_OWNERS)


def __getattr__(name: str) -> Any:
    owner = _OWNERS.get(name)
    if owner is None:
        raise AttributeError(f"module 'net.saves' has no attribute {name!r}")
    return getattr(importlib.import_module(f"net.saves.{owner}"), name)
