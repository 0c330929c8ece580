"""The saves' side of the league (``net.league``): what a finished game records, as
the store commits it, and the backfill of the games finished before the league.

A game's end is recorded in the transaction that marks it finished
(:func:`record_finished`, on the store's writer thread, off the host's loop): each
seat's identity, place and share (``net.league.seats``), and its rating change, which
the host then sends the table (``rated``). The backfill (:func:`backfill`, on the
first open of a database of schema 2) replays each finished game, in the order they
finished, and records it the same way; the names of games from before identities
count as they were.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from net import catalogue
from net.league import ledger
from net.league.seats import league_seats, shares
from net.saves.errors import SaveError
from net.saves.reading import read_save

log = logging.getLogger(__name__)


def record_finished(conn: sqlite3.Connection, save: str, game: str, wall: float,
                    seats: Sequence[tuple[str, str, str, bool]], scores: Sequence[float],
                    winners: Sequence[int]) -> list[ledger.Change]:  # fmt: skip
    """Record a finished game in the league (its moves are in ``conn`` already): the
    changes of its rated seats."""
    entries = (msgspec.json.decode(row[0]) for row in conn.execute(
        "SELECT entry FROM moves WHERE save = ? ORDER BY n", (save,)))  # fmt: skip
    placed = league_seats(seats, scores, winners, shares(entries, len(seats)))
    return ledger.record(conn, save, game, wall, placed)


def pending(conn: sqlite3.Connection) -> bool:
    """Whether the games finished before the league still wait to be recorded."""
    row = conn.execute("SELECT value FROM league_state WHERE key = 'backfill'").fetchone()
    return row is not None and row[0] != "done"


def backfill(conn: sqlite3.Connection, path: Path) -> int:
    """Record every finished game saved before the league, in the order they
    finished, in one transaction; returns the games recorded. A game that no longer
    replays (or of a game not installed) is left out, and logged."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        done = 0
        if pending(conn):  # not raced
            rows = conn.execute("SELECT id, game, saved_wall FROM saves WHERE status = "
                                "'finished' ORDER BY saved_wall, id").fetchall()  # fmt: skip
            for ident, game, wall in rows:
                done += _backfill_one(conn, path, ident, game, wall)
            conn.execute("UPDATE league_state SET value = 'done' WHERE key = 'backfill'")
        conn.execute("COMMIT")
        return done
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _backfill_one(conn: sqlite3.Connection, path: Path, ident: str, game: str,
                  wall: float) -> int:  # fmt: skip
    if not catalogue.known(game):
        return 0
    try:
        saved = read_save(conn, ident, path)
        if saved is None:
            return 0
        driver = saved.replay()
    except SaveError as exc:
        log.warning("the league leaves out %s: %s", ident, exc)
        return 0
    winners, scores = driver.result()
    seats = [(s.name, s.kind, s.difficulty, True) for s in saved.doc.seats]
    entries: list[Any] = [msgspec.to_builtins(e) for e in saved.doc.log]
    placed = league_seats(seats, scores, winners, shares(entries, len(seats)))
    ledger.record(conn, ident, game, wall, placed)
    return 1
