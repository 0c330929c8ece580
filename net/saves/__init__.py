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
- ``store``: :class:`Store`, what the host calls after every change, and reading
  saves back (:func:`load_all`, the kept games, the stats);
- ``documents``: the save document (the JSON of a save and of an exported record);
- ``saved``: :class:`Saved`, a save read back: its facts, and ``restore``;
- ``replay``: the replay engine (restore, the replay screen, stats, ``net.verify``);
- ``stats``: the per-seat summary of a finished game, and the queries on them;
- ``legacy``: the file-based saves of versions 1 to 3: reading them, importing them.
"""

from net.saves.errors import SaveError
from net.saves.replay import Step
from net.saves.saved import Saved
from net.saves.store import KINDS, Kept, Store, load_all, resume_time, resumed_clock

__all__ = ["KINDS", "Kept", "SaveError", "Saved", "Step", "Store", "load_all", "resume_time",
           "resumed_clock"]  # fmt: skip
