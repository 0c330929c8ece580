"""Where Motherlode keeps its files: light, so the menu can look without importing the
saves' machinery."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """Motherlode's data directory; ``$MOTHERLODE_DATA_DIR`` overrides it (tests,
    portable installs)."""
    override = os.environ.get("MOTHERLODE_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("motherlode"))


def has_saves(kind: str, statuses: tuple[str, ...] = ("playing",)) -> bool:
    """Whether the saves database holds a save of ``kind`` (``net.saves``) with one of
    ``statuses``, or an old save file of that kind waits to be imported: a glance for
    the menu, read-only (it never creates the database), False on any trouble."""
    import sqlite3

    root = data_dir()
    try:
        if any(not f.name.startswith(".") for f in (root / kind).glob("*.json")):
            return True
        path = root / "motherlode.db"
        if not path.is_file():
            return False
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            marks = ",".join("?" * len(statuses))
            row = conn.execute(
                f"SELECT 1 FROM saves WHERE kind = ? AND status IN ({marks}) LIMIT 1",
                (kind, *statuses),
            ).fetchone()
        finally:
            conn.close()
        return row is not None
    except (OSError, sqlite3.Error):
        return False
