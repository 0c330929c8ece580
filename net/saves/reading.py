"""Reading one save back from the database (:func:`read_save`): its document and every
move, checked. The queries (``net.saves.queries``) and the league's backfill
(``net.saves.league``) share it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec

from net.saves import documents
from net.saves.documents import Entry
from net.saves.errors import SaveError
from net.saves.saved import Saved

_ENTRY = msgspec.json.Decoder(Entry)


def read_save(conn: sqlite3.Connection, ident: str, path: Path) -> Saved | None:
    """The save ``ident`` with every move, read on ``conn``; None if there is none.
    Raises SaveError for damaged rows."""
    where = f"saved game {ident!r} in {path}"
    row = conn.execute("SELECT doc, kind, moves FROM saves WHERE id = ?", (ident,)).fetchone()
    if row is None:
        return None
    moves = conn.execute("SELECT n, entry FROM moves WHERE save = ? ORDER BY n",
                         (ident,)).fetchall()  # fmt: skip
    data, kind, count = row
    doc, raw = documents.parse(data, where)
    if doc.id != ident:
        raise SaveError(f"{where} is damaged: its document names {doc.id!r}")
    if [n for n, _ in moves] != list(range(count)):
        raise SaveError(f"{where} is damaged: {count} moves, but rows {len(moves)} "
                        "are not numbered 0 on")  # fmt: skip
    try:
        doc.log = [_ENTRY.decode(entry) for _, entry in moves]
    except msgspec.MsgspecError as exc:
        raise SaveError(f"{where} is damaged: a move does not read ({exc})") from None
    saved = Saved(doc, raw, where)
    saved.kind = kind
    return saved
