"""The file-based saves of versions 1 to 3, before the database: reading them, and
importing them into the database on first start.

Those saves were ``<data>/tables/<id>.json`` (LAN tables), ``hotseat/`` and ``solo/``
(games on this machine) and ``games/`` (finished and abandoned games), a long game's
early moves in ``<id>.history`` beside its save (one JSON entry per line, committed by
the save with its length and SHA-256; bytes past that length were a torn append).

:func:`import_files` copies every one that reads into the database (one transaction
per file, so a crash leaves each file imported or not) and then moves it, with its
history file, to ``<data>/imported/<folder>/``: nothing is deleted. A file that does
not read stays where it is, and each start says so. A file whose id the database holds
already (imported before a crash cut the move short, or a game archived after its
live save was written) is only moved aside.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from net.saves.errors import SaveError
from net.saves.saved import Saved

# folder -> the store kind its saves belong to; finished games first, so a live save
# whose game was archived before a crash removed it is the one set aside
FOLDERS = {"games": None, "tables": "tables", "hotseat": "hotseat", "solo": "solo"}
IMPORTED = "imported"


def pending(root: Path) -> bool:
    """Whether ``root`` holds old save files to import (cheap: one listing a folder)."""
    return any(
        (root / folder).is_dir() and any((root / folder).glob("*.json")) for folder in FOLDERS
    )


def import_files(conn: sqlite3.Connection, root: Path, add) -> list[str]:
    """Import every old save file under ``root`` (see the module docstring).
    ``add(conn, saved, kind)`` writes one save's rows (the store's, inside the
    transaction). Returns a message for each file that does not read."""
    problems = []
    for folder, kind in FOLDERS.items():
        directory = root / folder
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.json")):
            if path.name.startswith("."):
                continue
            try:
                saved = Saved.load(path)
            except SaveError as exc:
                problems.append(f"{exc}. The file is kept; move it away to silence this.")
                continue
            known = conn.execute("SELECT 1 FROM saves WHERE id = ?", (saved.id,)).fetchone()
            if not known:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    add(conn, saved, kind or _kind_of(saved))
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            _set_aside(path, root / IMPORTED / folder)
        for stray in directory.glob(".*.tmp"):  # a write a crash cut short: never a save
            _set_aside(stray, root / IMPORTED / folder)
        for history in directory.glob("*.history"):  # its save went, or never was
            if not history.with_suffix(".json").exists():
                _set_aside(history, root / IMPORTED / folder)
        with contextlib.suppress(OSError):  # gone once empty; kept if a file did not read
            directory.rmdir()
    return problems


def _kind_of(saved: Saved) -> str:
    """The store a finished game came from, from its table (for its listing)."""
    settings = saved.doc.table.settings
    if settings.get("hotseat"):
        return "hotseat"
    if any(s.kind == "human" for s in saved.doc.seats):
        return "tables"
    return "solo"


def _set_aside(path: Path, target: Path) -> None:
    """Move ``path`` (and its history file) into ``target``, never over a file there."""
    target.mkdir(parents=True, exist_ok=True, mode=0o700)
    sources = [path, path.with_suffix(".history")] if path.suffix == ".json" else [path]
    for source in sources:
        if not source.exists():
            continue
        dest = target / source.name
        n = 1
        while dest.exists():
            dest = target / f"{source.stem}.{n}{source.suffix}"
            n += 1
        with contextlib.suppress(FileNotFoundError):
            os.replace(source, dest)
