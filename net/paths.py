"""Where Motherlode keeps its files: light, so the menu can look without importing the
saves' machinery."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """Motherlode's data directory; ``$MOTHERLODE_DATA_DIR`` overrides it (tests,
    portable installs)."""
    override = os.environ.get("MOTHERLODE_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("motherlode"))


class UnsafeDir(OSError):
    """A folder Motherlode would keep private files in that others can write to, and
    that it cannot fix (not the user's own): words for the person."""


def private_dir(path: Path, what: str = "the folder") -> str | None:
    """Check a folder Motherlode keeps tokens, pins or saves in: if others can write to
    it, someone could plant a symlink there. The user's own folder is fixed (made
    private) and a note for the person returned; someone else's raises
    :class:`UnsafeDir`. None if all is well (or the folder does not exist yet)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISDIR(st.st_mode):
        raise UnsafeDir(f"{what} {path} is not a folder")
    if not st.st_mode & 0o022:
        return None
    # a shared folder (sticky, like /tmp) is everyone's by design: never "fixed"
    if st.st_uid == os.getuid() and not st.st_mode & stat.S_ISVTX:
        os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o077)
        return (f"{what} {path} could be written by others; Motherlode made it private "
                "(only you can read or write it now).")
    raise UnsafeDir(f"{what} {path} is shared: others can write to it, so Motherlode "
                    "keeps nothing there; point MOTHERLODE_DATA_DIR / MOTHERLODE_STATE_DIR "
                    "at a folder of your own.")


def check_dirs(*dirs: tuple[Path, str]) -> list[str]:
    """``private_dir`` for each ``(path, what)``; the notes. Raises UnsafeDir."""
    return [note for path, what in dirs if (note := private_dir(path, what)) is not None]


def has_saves(kind: str, statuses: tuple[str, ...] = ("playing",)) -> bool:
    """Whether the saves database holds a save of ``kind`` (``net.saves``) with one of
    ``statuses``, or an old save file of that kind waits to be imported: a glance for
    the menu, read-only (it never creates the database), False on any trouble."""
    root = data_dir()
    try:
        if any(not f.name.startswith(".") for f in (root / kind).glob("*.json")):
            return True
        path = root / "motherlode.db"
        if not path.is_file():
            return False
    except OSError:
        return False
    import sqlite3  # only with a database to read: a new player's menu never loads it

    try:
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
