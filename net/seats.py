"""The seats this machine holds at other people's tables: resume tokens on disk.

A host gives each seated connection a resume token (``welcome.token``). A client that
keeps it only in memory loses the seat when its process dies (a closed terminal, a
dropped SSH session, ``kill``). So the app writes each token to a small file under the
state directory, keyed by the host's address, the table and the name the player asked
for, and the next ``join`` to that host takes the seat back without the player doing
anything.

- One file per seat, mode 0600, in a 0700 directory; written atomically.
- A live session holds an advisory lock (``flock``) on its file, so a second ``join``
  from this machine with the same name never takes over a seat someone is playing at;
  the kernel drops the lock when the process dies, however it dies.
- A token the host no longer knows is dropped quietly and the player joins anew;
  giving the seat up drops it; files older than ``MAX_AGE`` are swept.

Headless (no Textual): the command line, the app and tests share it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs

MAX_AGE = 7 * 24 * 3600.0  # seconds: a seat not used for a week is long gone
NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


def state_dir() -> Path:
    """Where the app keeps state between runs; ``$MOTHERLODE_STATE_DIR`` overrides it."""
    override = os.environ.get("MOTHERLODE_STATE_DIR")
    return Path(override) if override else Path(platformdirs.user_state_dir("motherlode"))


@dataclass(frozen=True)
class SeatToken:
    """One seat at a host's table: what a ``hello`` needs to take it back."""

    host: str
    port: int
    table: str
    name: str  # the name the player asked for (the host may have added a suffix)
    token: str
    saved: float = 0.0

    @property
    def key(self) -> str:
        parts = (self.host.casefold(), str(self.port), self.table.casefold(), self.name.casefold())
        raw = "\0".join(parts)
        return hashlib.sha256(raw.encode()).hexdigest()[:24]


class Held:
    """A seat this process is using: its lock file stays locked until ``release``."""

    def __init__(self, store: SeatStore, seat: SeatToken, fd: int) -> None:
        self.store = store
        self.seat = seat
        self._fd: int | None = fd

    def update(self, token: str, table: str) -> None:
        """The host gave a new token or the table another name: keep the newest."""
        if token == self.seat.token and table == self.seat.table:
            return
        old = self.seat
        self.seat = SeatToken(old.host, old.port, table, old.name, token, time.time())
        if self.seat.key == old.key:
            self.store._write(self.seat)
            return
        # another table name: another file (and lock)
        self.forget_file(old)
        self.release()
        held = self.store.hold(self.seat)
        if held is not None:
            self._fd, held._fd = held._fd, None

    def forget_file(self, seat: SeatToken) -> None:
        for path in (self.store._path(seat), self.store._lock_path(seat)):
            with contextlib.suppress(OSError):
                path.unlink()

    def forget(self) -> None:
        """The seat is given up or gone: delete its files."""
        self.forget_file(self.seat)
        self.release()

    def release(self) -> None:
        """Stop holding the seat (it stays on disk for the next ``join``)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


class SeatStore:
    """The directory of seat files (see the module docstring)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or state_dir() / "seats"

    def _path(self, seat: SeatToken) -> Path:
        return self.directory / f"{seat.key}.json"

    def _lock_path(self, seat: SeatToken) -> Path:
        return self.directory / f"{seat.key}.lock"

    def _write(self, seat: SeatToken) -> None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self._path(seat)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        # never through a symlink someone planted: a fresh file, not followed
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(asdict(seat), out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)

    def _read(self, path: Path) -> SeatToken | None:
        try:
            fd = os.open(path, os.O_RDONLY | NOFOLLOW)
            with os.fdopen(fd, encoding="utf-8") as src:
                data = json.loads(src.read(1 << 16))
            seat = SeatToken(**data)
        except (OSError, ValueError, TypeError):
            return None
        if not all(isinstance(getattr(seat, f), str) for f in ("host", "table", "name", "token")):
            return None
        if not isinstance(seat.port, int) or not isinstance(seat.saved, int | float):
            return None
        return seat

    def seats_at(self, host: str, port: int, name: str) -> list[SeatToken]:
        """Seats kept for ``name`` at ``host:port`` that no live process holds, newest
        first (damaged or old files are swept on the way)."""
        found: list[SeatToken] = []
        if not self.directory.is_dir():
            return found
        now = time.time()
        for path in self.directory.glob("*.json"):
            seat = self._read(path)
            if seat is None or now - seat.saved > MAX_AGE:
                with contextlib.suppress(OSError):
                    path.unlink()
                continue
            wanted = (host.casefold(), port, name.casefold())
            if (seat.host.casefold(), seat.port, seat.name.casefold()) == wanted \
                    and not self.in_use(seat):
                found.append(seat)
        return sorted(found, key=lambda s: s.saved, reverse=True)

    def _lock(self, seat: SeatToken) -> int | None:
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self._lock_path(seat), os.O_RDWR | os.O_CREAT | NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return fd

    def hold(self, seat: SeatToken) -> Held | None:
        """Lock ``seat`` for this process and write it; None if another live process
        holds it (that seat is in use on this machine)."""
        fd = self._lock(seat)
        if fd is None:
            return None
        try:
            self._write(seat)
        except OSError:
            os.close(fd)
            raise
        return Held(self, seat, fd)

    def in_use(self, seat: SeatToken) -> bool:
        """True if a live process holds this seat."""
        if not self._lock_path(seat).exists():
            return False
        fd = self._lock(seat)
        if fd is None:
            return True
        os.close(fd)
        return False
