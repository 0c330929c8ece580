"""Saved tables: crash-safe saves, resume after a crash, and game records for replays.

The rules are deterministic given their actions, and the host draws every dice face
and deck from ``random.Random(seed)`` in play order (``net.games``). So a save holds
the table's settings, seats and resume tokens, the seed, and the table's ordered log
of applied actions; restoring rebuilds the game by replaying that log through the
same driver the host used, checks every step's events against the log and the end
against a snapshot of the views, and refuses loudly (the file is kept) on any
mismatch. ``docs/PROTOCOL.md`` ("Saved tables") documents the file format.

Saves are atomic (a temp file in the same directory, fsync, ``os.replace``, fsync of
the directory) and happen before the host sends anyone the views of a change: the
table calls :meth:`Store.touched` synchronously after every change, before it sends
anything about it, so a change that anyone saw is on disk.

A LAN host's store (``lobbies=True``) also saves each table outside a game, in the
lobby and between games, while a person holds a seat (status ``lobby``: seats, tokens,
owner, settings, the last result), so every token survives a crash at any moment; a
game's start and end hand over between the two kinds of save in the order that keeps
one of them whole, and :func:`load_all` resumes one save per table.

A long game does not make memory or saves grow: once the table holds ``spill``
entries, the store appends them to the game's history file (``<id>.history``, one
JSON entry per line, fsynced) and the table forgets them. The save names the history
file with its entry count, byte length and SHA-256, so the save stays the commit
point: bytes past that length (an append a crash cut short) are ignored and
overwritten by the next append. A finished or abandoned game is archived as one
self-contained file (the history inlined), written as a stream.

Time: a table's log carries the host's clock. A host that resumes starts its clock
at the latest save's time (:func:`resume_time`), so the time the host was down does
not count: every pending deadline (a grab race, a call window, the pause between
rounds, a bot's planned move) keeps the time it had left at the last save.

Files (``data_dir()`` is platformdirs' user data dir, or ``$MOTHERLODE_DATA_DIR``)::

    <data>/tables/<id>.json    a LAN table's unfinished game, or the table outside a
                               game (lobby, between games)     (motherlode host --resume)
    <data>/tables/<id>.history the early moves of a long unfinished game (hotseat/ alike)
    <data>/hotseat/<id>.json   a hot-seat game on this keyboard (the menu's "Resume");
                               one left before its first move is not kept
    <data>/solo/<id>.json      a game against bots, while it runs; left half-way, it
                               is archived as abandoned
    <data>/games/<id>.json     every finished or abandoned game (motherlode replay FILE)
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import random
import re
import secrets
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import msgspec

from net import protocol as p
from net.catalogue import known, title
from net.games import Driver, make_brain, make_driver
from net.paths import data_dir
from net.table import Member, Seat, Settings, Table

log = logging.getLogger(__name__)

FORMAT = "motherlode-table"
VERSION = 3
# version 1: the whole log inline, no history file; version 2: the history file;
# version 3: lobby saves (status "lobby") and the table's clock (``clock``)
READABLE = (1, 2, 3)
SPILL = 64  # entries a table keeps in memory before the store moves them to history
STATUSES = ("playing", "finished", "abandoned", "lobby")
_ACTION = msgspec.json.Decoder(p.GameAction)
_ENCODER = msgspec.json.Encoder()


class SaveError(Exception):
    """A save that cannot be restored or replayed; the message names the file and why.
    The file itself is left as it was."""


def atomic_write(
    path: Path, data: bytes | Iterable[bytes], stage: Callable[[str], None] | None = None
) -> None:
    """Replace ``path`` with ``data`` (bytes, or chunks written as they come)
    atomically: temp file in the same directory, fsync, ``os.replace``, fsync of the
    directory. The file is private (0600): it holds resume tokens and the seed.
    ``stage`` is called between the steps (a fault-injection seam for the crash
    tests)."""
    stage = stage or (lambda name: None)
    directory = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in (data,) if isinstance(data, bytes) else data:
                out.write(chunk)
            stage("written")
            out.flush()
            os.fsync(out.fileno())
        stage("synced")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    stage("replaced")
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(directory, flags)
    except OSError:  # e.g. Windows cannot open a directory; replace is durable there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    return slug[:40] or "table"


def _json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, and so on)."""
    return msgspec.json.decode(_ENCODER.encode(value))


def _digest(driver: Driver, seats: int) -> str:
    """A hash of every seat's view: it covers the private state (hands, piles)."""
    views = [driver.view(i) for i in range(seats)]
    return hashlib.sha256(_ENCODER.encode(views)).hexdigest()


# ---------------------------------------------------------------------------
# Writing


@dataclass
class _Record:
    """What a store remembers of a table between saves."""

    id: str
    game_no: int
    players: list[str]
    first_drawn: bool
    started_at: float
    key: tuple = ()
    archived: bool = False
    # the history file: entries and bytes committed by the last save, and their hash
    history_entries: int = 0
    history_bytes: int = 0
    history_hash: Any = field(default_factory=hashlib.sha256)

    @property
    def history_file(self) -> str:
        return f"{self.id}.history"


@dataclass
class _Lobby:
    """A table's save outside a game: its file id, and what it last saved."""

    id: str
    key: tuple = ()
    saved: bool = False  # its file exists


class Store:
    """Saves the tables of a host after every change (see the module docstring).

    ``directory`` holds the live saves; ``archive`` keeps finished and abandoned
    games. ``Host(store=...)`` calls :meth:`touched` after every change. A table
    keeps at most ``spill`` log entries in memory; earlier ones are in the history
    file."""

    def __init__(
        self,
        directory: Path | str,
        archive: Path | str | None = None,
        *,
        report: Callable[[str], None] | None = None,
        spill: int = SPILL,
        lobbies: bool = True,
    ) -> None:
        if spill < 1:
            raise ValueError("spill must be at least 1")
        #: save tables outside a game too (lobby, between games), while a person holds
        #: a seat, so their tokens survive a crash; a hot-seat store does not
        self.lobbies = lobbies
        self.directory = Path(directory)
        self.archive = Path(archive) if archive is not None else self.directory.parent / "games"
        self.report = report or (lambda text: None)
        self.spill = spill
        self._records: dict[int, _Record] = {}  # by id(table)
        self._lobbies: dict[int, _Lobby] = {}  # by id(table)
        self._failed = False
        self.saves = 0  # files written (figures for the benchmarks)

    @classmethod
    def default(cls, kind: str = "tables", **kwargs: Any) -> Store:
        """The store under the data directory: ``kind`` is "tables", "hotseat" or
        "solo"."""
        root = data_dir()
        kwargs.setdefault("lobbies", kind == "tables")
        return cls(root / kind, root / "games", **kwargs)

    def _stage(self, name: str) -> None:
        """Called between the steps of a write; a no-op (the crash tests override it)."""

    def adopt(self, table: Table, save: Saved) -> None:
        """Continue saving a restored table into the file it came from."""
        if save.status == "lobby":
            self._lobbies[id(table)] = _Lobby(save.id, self._lobby_key(table), saved=True)
            return
        self._records[id(table)] = _Record(
            id=save.id,
            game_no=table.games_played,
            players=list(save.players),
            first_drawn=save.first_drawn,
            started_at=save.started_at,
            key=self._key(table),
            history_entries=save.history_entries,
            history_bytes=save.history_bytes,
            history_hash=save.history_hash.copy(),
        )

    @staticmethod
    def _key(table: Table) -> tuple:
        # cheap, and changes with every change worth a save: a log entry, a seat, a
        # member coming or going, the phase, a new game
        return (
            table.phase,
            table.games_played,
            table.moves,
            id(table.owner),
            tuple((s.name, s.kind, id(s.member), s.standin) for s in table.seats),
        )

    def touched(self, table: Table, now: float) -> None:
        """Save ``table`` if it changed since its last save; the table calls this
        before it sends anyone the views of a change. Never raises: a failed save is
        reported once and logged, and the game goes on."""
        try:
            if table.driver is not None and table.seed is not None:
                if self._touched_game(table, now):
                    return
            if self.lobbies:
                self._touched_lobby(table, now)
        except Exception as exc:  # a full disk must not end the game
            log.exception("cannot save the table %s", table.name)
            if not self._failed:
                self._failed = True
                self.report(f"cannot save {table.name!r}: {exc}; the game goes on unsaved")

    def _touched_game(self, table: Table, now: float) -> bool:
        """Save the table's current game; False once that game is over and archived
        (then the table is saved as a lobby)."""
        record = self._records.get(id(table))
        if record is None or record.game_no != table.games_played:
            record = self._new_record(table, now)
            self._records[id(table)] = record
        if record.archived:
            return False  # this game is over and kept; the next one gets a new file
        key = self._key(table)
        if key == record.key:
            return True
        finished = table.driver is None or table.driver.over or table.phase != "playing"
        if finished and self.lobbies:
            # the lobby after the game first: a crash before the archive leaves both
            # saves, and the unfinished game wins (load_all); after it, the lobby
            self._touched_lobby(table, now)
        self._save(table, record, now, finished)
        record.key = key
        record.archived = finished
        if not finished:
            self._drop_lobby(table)  # the game's save holds the seats from now on
        return True

    def _touched_lobby(self, table: Table, now: float) -> None:
        """Save a table outside a game (its seats, tokens, owner and settings) while a
        person holds a seat; with nobody to come back, its save is removed."""
        lobby = self._lobbies.get(id(table))
        if lobby is None:
            lobby = self._lobbies[id(table)] = _Lobby(self._new_id(table))
        if not any(s.member is not None for s in table.seats):
            self._drop_lobby(table)
            return
        key = self._lobby_key(table)
        if lobby.saved and key == lobby.key:
            return
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        document = lobby_document(table, lobby.id, now)
        atomic_write(self.directory / f"{lobby.id}.json", _ENCODER.encode(document), self._stage)
        self.saves += 1
        lobby.key, lobby.saved = key, True

    def _drop_lobby(self, table: Table) -> None:
        lobby = self._lobbies.get(id(table))
        if lobby is not None and lobby.saved:
            self._remove(self.directory / f"{lobby.id}.json")
            lobby.saved, lobby.key = False, ()

    def closed(self, table: Table) -> None:
        """The host closed cleanly and told everyone: a table outside a game has
        nothing to resume, so its lobby save goes (a game in play stays saved)."""
        if table.phase != "playing":
            try:
                self._drop_lobby(table)
            except OSError:
                log.exception("cannot remove the lobby save of %s", table.name)

    @staticmethod
    def _lobby_key(table: Table) -> tuple:
        return (
            table.phase,
            table.games_played,
            id(table.owner),
            tuple((s.name, s.kind, id(s.member), s.difficulty) for s in table.seats),
            tuple(asdict(table.settings).values()),
        )

    @staticmethod
    def _new_id(table: Table) -> str:
        return f"{_slug(table.name)}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"

    def _new_record(self, table: Table, now: float) -> _Record:
        ident = self._new_id(table)
        first = table.settings.first_player
        first_drawn = first is None or first >= len(table.seats)
        return _Record(
            id=ident,
            game_no=table.games_played,
            players=[s.name for s in table.seats],
            first_drawn=first_drawn,
            started_at=table.started_at if table.started_at is not None else now,
        )

    def _save(self, table: Table, record: _Record, now: float, finished: bool) -> None:
        live = self.directory / f"{record.id}.json"
        if finished:
            document = table_document(table, record, now, "finished")
            history = self.directory / record.history_file
            chunks = self_contained(document, history, record.history_bytes)
            self.archive.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic_write(self.archive / f"{record.id}.json", chunks, self._stage)
            self._remove(live)
        else:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            if len(table.log) >= self.spill:
                self._spill(table, record)
            atomic_write(live, encode_table(table, record, now, "playing"), self._stage)
        self.saves += 1

    def _spill(self, table: Table, record: _Record) -> None:
        """Append the table's in-memory entries to the history file (fsynced) and let
        the table forget them. The next save commits them: until it is written the old
        save still holds them itself, and whatever this append left past the old
        length is ignored, then overwritten here."""
        chunk = b"".join(_ENCODER.encode(entry) + b"\n" for entry in table.log)
        path = self.directory / record.history_file
        created = not path.exists()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.ftruncate(fd, record.history_bytes)
            os.lseek(fd, record.history_bytes, os.SEEK_SET)
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view) :]
            self._stage("history written")
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            _fsync_dir(self.directory)
        self._stage("history synced")
        record.history_entries += len(table.log)
        record.history_bytes += len(chunk)
        record.history_hash.update(chunk)
        table.forget(len(table.log))

    def _remove(self, live: Path) -> None:
        """Delete a live save and its history (once archived), then sync the folder."""
        for path in (live, live.with_suffix(".history")):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        _fsync_dir(live.parent)

    def live_save(self, table: Table) -> Path | None:
        """The live save of ``table``'s current game, if it has one on disk."""
        record = self._records.get(id(table))
        if record is None or record.archived:
            return None
        path = self.directory / f"{record.id}.json"
        return path if path.exists() else None

    def close_table(self, table: Table, *, keep: bool) -> Path | None:
        """The table's game ends half-way (its player left): ``keep`` archives it as
        abandoned, for replays; otherwise its live save is deleted (nothing to keep,
        e.g. a game nobody moved in). Returns the archived file, if any."""
        live = self.live_save(table)
        if live is None:
            return None
        self._records.pop(id(table), None)
        if keep:
            return self.abandon(live)
        self._remove(live)
        return None

    # -- reading ---------------------------------------------------------------------

    def unfinished(self) -> list[Path]:
        """The live saves, oldest first (stray temp files of a crash are ignored)."""
        if not self.directory.is_dir():
            return []
        files = [f for f in self.directory.glob("*.json") if not f.name.startswith(".")]
        return sorted(files, key=lambda f: (f.stat().st_mtime, f.name))

    def sweep(self) -> int:
        """Delete what a crash left behind: temp files of a write, the live save of a
        game already archived, a history without its save. Returns how many."""
        if not self.directory.is_dir():
            return 0
        count = 0
        strays = list(self.directory.glob(".*.tmp"))
        for live in self.directory.glob("*.json"):
            if not live.name.startswith(".") and (self.archive / live.name).exists():
                strays.append(live)  # the game finished; the crash came before the delete
        for history in self.directory.glob("*.history"):
            if not history.with_suffix(".json").exists() or history.with_suffix(".json") in strays:
                strays.append(history)
        for stray in strays:
            with contextlib.suppress(OSError):
                stray.unlink()
                count += 1
        return count

    def abandon(self, path: Path | str) -> Path:
        """Move an unfinished save to the archive, marked abandoned (kept for replays);
        a lobby save, which holds no game, is deleted. Returns where it went."""
        path = Path(path)
        raw = msgspec.json.decode(path.read_bytes())
        if raw.get("status") == "lobby":
            self._remove(path)  # a table outside a game: nothing to replay
            return path
        raw["status"] = "abandoned"
        history = raw.get("history") or {"file": "", "bytes": 0}
        chunks = self_contained(raw, path.parent / history["file"], history["bytes"])
        self.archive.mkdir(parents=True, exist_ok=True, mode=0o700)
        target = self.archive / path.name
        atomic_write(target, chunks)
        self._remove(path)
        return target


def self_contained(document: dict[str, Any], history: Path, size: int) -> Iterator[bytes]:
    """``document`` (a save) as one file, with the first ``size`` bytes of its history
    file inlined before its own entries: chunks, so a long game is never in memory
    whole."""
    tail = document.get("log", [])
    rest = {k: v for k, v in document.items() if k not in ("history", "log")}
    head = _ENCODER.encode({**rest, "history": None, "log": []})
    assert head.endswith(b'"log":[]}'), "log must be the last key of a save"
    yield head[:-2]
    emitted = False
    if size:
        with open(history, "rb") as source:
            left = size
            while left:
                block = source.read(min(left, 1 << 20))
                if not block:
                    raise SaveError(f"{history} is shorter than its save says")
                left -= len(block)
                if not left:
                    block = block[:-1]  # the last newline
                yield block.replace(b"\n", b",")
        emitted = True
    for entry in tail:
        yield (b"," if emitted else b"") + _ENCODER.encode(entry)
        emitted = True
    yield b"]}"


def encode_table(table: Table, record: _Record, now: float, status: str) -> bytes:
    """The save file of a table's current game (see docs/PROTOCOL.md)."""
    return _ENCODER.encode(table_document(table, record, now, status))


def table_document(table: Table, record: _Record, now: float, status: str) -> dict[str, Any]:
    """A save of the table's current game: its log is the entries the table holds, after
    the ``history`` file's (see docs/PROTOCOL.md)."""
    driver = table.driver
    assert driver is not None and table.seed is not None
    document = {
        "format": FORMAT,
        "version": VERSION,
        "status": status,
        "id": record.id,
        "saved_at": now,
        "saved_wall": time.time(),
        "clock": table.clock(now),
        "table": {
            "name": table.name,
            "game": table.game,
            "settings": asdict(table.settings),
            "games_played": table.games_played,
        },
        "seats": _seats_doc(table.seats),
        "members": _members_doc(table.seats),
        "owner": None if table.owner is None else table.owner.id,
        "game": {
            "players": record.players,
            "seed": table.seed,
            "seed_hash": table.seed_hash,
            "first": driver.first,
            "first_drawn": record.first_drawn,
            "started_at": record.started_at,
        },
        "snapshot": {
            "entries": table.moves,
            "over": driver.over,
            "public": driver.view(None),
            "digest": _digest(driver, len(record.players)),
        },
        "history": None,
        "log": table.log,  # last: self_contained() splices the history in before it
    }
    if record.history_entries:
        document["history"] = {
            "file": record.history_file,
            "entries": record.history_entries,
            "bytes": record.history_bytes,
            "sha256": record.history_hash.hexdigest(),
        }
    return document


def lobby_document(table: Table, ident: str, now: float) -> dict[str, Any]:
    """A save of a table outside a game (see docs/PROTOCOL.md): who holds which seat,
    their tokens, the owner and the settings; and after a game, its result. Ready
    flags are not kept: everyone comes back not ready."""
    # a game that just ended is saved as the table it leaves: the seats of players who
    # left for good are freed (as Table._finish does)
    seats = [s for s in table.seats if s.kind == "bot" or s.member is not None]
    result = None
    driver = table.driver
    if table.phase != "lobby" and driver is not None and driver.over and table.seed:
        winners, scores = driver.result()
        result = {"winners": winners, "scores": scores, "seed": table.seed,
                  "seed_hash": table.seed_hash}  # fmt: skip
    return {
        "format": FORMAT,
        "version": VERSION,
        "status": "lobby",
        "id": ident,
        "saved_at": now,
        "saved_wall": time.time(),
        "table": {
            "name": table.name,
            "game": table.game,
            "settings": asdict(table.settings),
            "games_played": table.games_played,
        },
        "phase": "lobby" if table.phase == "lobby" else "over",
        "result": result,
        "seats": _seats_doc(seats),
        "members": _members_doc(seats),
        "owner": None if table.owner is None else table.owner.id,
        "game": None,
        "snapshot": None,
        "history": None,
        "log": [],
    }


def _seats_doc(seats: list[Seat]) -> list[dict[str, Any]]:
    return [
        {
            "name": s.name,
            "kind": s.kind,
            "member": None if s.member is None else s.member.id,
            "difficulty": s.difficulty,
        }
        for s in seats
    ]


def _members_doc(seats: list[Seat]) -> list[dict[str, Any]]:
    members: dict[int, dict[str, Any]] = {}
    for seat in seats:
        member = seat.member
        if member is not None and member.id not in members:
            members[member.id] = {"id": member.id, "name": member.name, "secret": member.secret}
    return list(members.values())


# ---------------------------------------------------------------------------
# Reading and replaying


class _SeatsDoc(msgspec.Struct):
    name: str
    kind: str
    member: int | None
    difficulty: str = "normal"


class _MemberDoc(msgspec.Struct):
    id: int
    name: str
    secret: str


class _TableDoc(msgspec.Struct):
    name: str
    game: str
    settings: dict[str, Any]
    games_played: int = 1


class _GameDoc(msgspec.Struct):
    players: list[str]
    seed: str
    seed_hash: str
    first: int
    first_drawn: bool
    started_at: float


class _Snapshot(msgspec.Struct):
    entries: int
    over: bool
    public: dict[str, Any]
    digest: str


class _Entry(msgspec.Struct):
    at: float
    by: str
    action: dict[str, Any] | None
    events: list[dict[str, Any]]


class _History(msgspec.Struct):
    file: str
    entries: int
    bytes: int
    sha256: str


class _Document(msgspec.Struct):
    format: str
    version: int
    status: str
    id: str
    saved_at: float
    table: _TableDoc
    seats: list[_SeatsDoc]
    members: list[_MemberDoc]
    owner: int | None
    game: _GameDoc | None = None  # None only in a lobby save
    log: list[_Entry] = []
    snapshot: _Snapshot | None = None  # None only in a lobby save
    saved_wall: float | None = None
    history: _History | None = None
    phase: str = "lobby"  # a lobby save's: "lobby", or "over" (between games)
    clock: float | None = None  # the table's clock at the save (before version 3: saved_at)
    result: dict[str, Any] | None = None  # a lobby save's last game result


@dataclass
class Step:
    """One step of a replayed game: the entry applied (None for the deal), its events."""

    index: int
    at: float
    by: str
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]


class Saved:
    """A save file, read and checked: ``replay()`` rebuilds the game step by step."""

    def __init__(self, path: Path | None, doc: _Document, raw: dict[str, Any]) -> None:
        self.path = path
        self.doc = doc  # its log is the whole game's, the history file's entries first
        self.raw = raw
        self.history_entries = 0
        self.history_bytes = 0
        self.history_hash = hashlib.sha256()

    @classmethod
    def load(cls, path: Path | str) -> Saved:
        """Read a save; raises SaveError (naming the file and the reason)."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise SaveError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls.parse(data, path)

    @classmethod
    def parse(cls, data: bytes, path: Path | None = None) -> Saved:
        where = str(path) if path is not None else "the save"
        try:
            raw = msgspec.json.decode(data)
        except msgspec.DecodeError as exc:
            raise SaveError(f"{where} is not a whole save (damaged or cut short): {exc}") from None
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise SaveError(f"{where} is not a Motherlode save")
        if raw.get("version") not in READABLE:
            raise SaveError(
                f"{where} is a save of format version {raw.get('version')!r}; this Motherlode "
                f"reads versions {', '.join(map(str, READABLE))}"
            )
        try:
            doc = msgspec.convert(raw, _Document)
        except msgspec.ValidationError as exc:
            raise SaveError(f"{where} is damaged: {exc}") from None
        if doc.status not in STATUSES:
            raise SaveError(f"{where} has an unknown status {doc.status!r}")
        if not known(doc.table.game):
            raise SaveError(f"{where} is of an unknown game {doc.table.game!r}")
        if doc.status == "lobby":
            if doc.phase not in ("lobby", "over"):
                raise SaveError(f"{where} has an unknown phase {doc.phase!r}")
        elif doc.game is None or doc.snapshot is None:
            raise SaveError(f"{where} is damaged: a {doc.status} game without its game or snapshot")
        saved = cls(path, doc, raw)
        if doc.history is not None:
            saved._read_history(doc.history)
        return saved

    def _read_history(self, history: _History) -> None:
        """Put the history file's entries before the save's own (see the module
        docstring); the file must hold at least the committed bytes, with their hash."""
        where = self._where()
        if self.path is None:
            raise SaveError(
                f"{where} keeps its early moves in {history.file}: load it from its file"
            )
        if history.file != f"{self.doc.id}.history":
            raise SaveError(f"{where} names a history file {history.file!r} that is not its own")
        source = self.path.parent / history.file
        try:
            with open(source, "rb") as f:
                data = f.read(history.bytes)
        except OSError as exc:
            raise SaveError(
                f"{where} keeps its early moves in {source}, which cannot be read: "
                f"{exc.strerror or exc}"
            ) from None
        digest = hashlib.sha256(data)
        if len(data) < history.bytes or digest.hexdigest() != history.sha256:
            raise SaveError(
                f"{where} does not match its history file {source} (damaged or cut short)"
            )
        try:
            entries = [msgspec.json.decode(line, type=_Entry) for line in data.splitlines()]
        except msgspec.MsgspecError as exc:
            raise SaveError(f"{source} is damaged: {exc}") from None
        if len(entries) != history.entries:
            raise SaveError(f"{source} holds {len(entries)} moves; its save says {history.entries}")
        self.doc.log = entries + self.doc.log
        self.history_entries = history.entries
        self.history_bytes = history.bytes
        self.history_hash = digest

    # -- facts -----------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.doc.id

    @property
    def name(self) -> str:
        return self.doc.table.name

    @property
    def game(self) -> str:
        return self.doc.table.game

    @property
    def status(self) -> str:
        return self.doc.status

    @property
    def players(self) -> list[str]:
        """The names by seat: the game's, or a lobby's seats."""
        if self.doc.game is None:
            return [s.name for s in self.doc.seats]
        return list(self.doc.game.players)

    @property
    def first_drawn(self) -> bool:
        return self._game.first_drawn

    @property
    def started_at(self) -> float:
        return self._game.started_at

    @property
    def _game(self) -> _GameDoc:
        if self.doc.game is None:
            raise SaveError(f"{self._where()} is a table outside a game: it holds no game")
        return self.doc.game

    @property
    def saved_at(self) -> float:
        return self.doc.saved_at

    def token(self, member: int) -> str:
        """The resume token of a saved member (a hot-seat player resumes with it)."""
        for m in self.doc.members:
            if m.id == member:
                return f"{m.id}.{m.secret}"
        raise KeyError(member)

    def seat_tokens(self) -> dict[int, str]:
        """The resume token of every seat held by a person, by seat."""
        return {
            i: self.token(s.member) for i, s in enumerate(self.doc.seats) if s.member is not None
        }

    def describe(self) -> str:
        """One line for a person: game, table, players, progress."""
        game = title(self.game)
        when = ""
        if self.doc.saved_wall:
            when = ", saved " + time.strftime("%Y-%m-%d %H:%M", time.localtime(self.doc.saved_wall))
        if self.status == "lobby":
            where = "in the lobby" if self.doc.phase == "lobby" else "between games"
            return f"{game} at {self.name!r}, {where}: {', '.join(self.players)}{when}"
        return (
            f"{game} at {self.name!r}: {', '.join(self.players)}; {len(self.doc.log)} moves{when}"
        )

    # -- replay ----------------------------------------------------------------------

    def settings(self) -> Settings:
        known = {f.name for f in fields(Settings)}
        values = {k: v for k, v in self.doc.table.settings.items() if k in known}
        try:
            return Settings(**values)
        except TypeError as exc:
            raise SaveError(f"{self._where()} has bad table settings: {exc}") from None

    def _where(self) -> str:
        return str(self.path) if self.path is not None else "the save"

    def new_driver(self) -> Driver:
        settings, game = self.settings(), self._game
        driver = make_driver(
            self.game,
            game.players,
            None if game.first_drawn else game.first,
            random.Random(game.seed),
            grab_timeout=settings.grab_timeout,
            call_window=settings.call_window,
            intermission=settings.intermission,
            supply=settings.supply,
        )
        if driver.first != game.first:
            raise SaveError(f"{self._where()} does not replay: the first player differs")
        return driver

    def replay(
        self, on_step: Callable[[Driver, Step], None] | None = None, upto: int | None = None
    ) -> Driver:
        """Rebuild the game: deal, then every log entry in order, checking each step's
        events against the log and the end against the snapshot. ``on_step`` sees the
        driver after each step. Raises SaveError on any mismatch."""
        where, game = self._where(), self._game
        if hashlib.sha256(game.seed.encode()).hexdigest() != game.seed_hash:
            raise SaveError(f"{where} does not replay: the seed does not match its hash")
        driver = self.new_driver()
        events = driver.start(game.started_at)
        if on_step is not None:
            on_step(driver, Step(0, game.started_at, "host", None, None, events))
        entries = self.doc.log if upto is None else self.doc.log[:upto]
        for n, entry in enumerate(entries, 1):
            try:
                if entry.action is None:
                    events = driver.tick(entry.at)
                    seat = None
                else:
                    seat = entry.action.get("seat")
                    action = _ACTION.decode(_ENCODER.encode(entry.action))
                    events = driver.act(seat, action, entry.at)
            except (ValueError, msgspec.MsgspecError) as exc:
                raise SaveError(f"{where} does not replay: move {n} is refused ({exc})") from None
            if _json(events) != entry.events:
                raise SaveError(f"{where} does not replay: move {n} gives other events")
            if on_step is not None:
                on_step(driver, Step(n, entry.at, entry.by, seat, entry.action, events))
        if upto is None:
            self._check_snapshot(driver)
        return driver

    def _check_snapshot(self, driver: Driver) -> None:
        snap, where = self.doc.snapshot, self._where()
        assert snap is not None  # parse() refuses a game without one
        if snap.entries != len(self.doc.log):
            raise SaveError(f"{where} is inconsistent: {len(self.doc.log)} moves, "
                            f"but the snapshot was taken after {snap.entries}")  # fmt: skip
        if (
            _json(driver.view(None)) != snap.public
            or driver.over != snap.over
            or _digest(driver, len(self.players)) != snap.digest
        ):
            raise SaveError(f"{where} does not replay: the game differs from its snapshot")

    def steps(self) -> list[tuple[Step, list[dict[str, Any]]]]:
        """Every step with the views after it: ``views[i]`` for seat i, last the
        spectator's (for the replay viewer)."""
        out: list[tuple[Step, list[dict[str, Any]]]] = []
        seats = len(self.players)

        def keep(driver: Driver, step: Step) -> None:
            views = [_json(driver.view(i)) for i in range(seats)]
            out.append((step, [*views, _json(driver.view(None))]))

        self.replay(keep)
        return out

    # -- restoring -------------------------------------------------------------------

    def restore(self, now: float, report: Callable[[str], None] | None = None) -> Table:
        """A live table in the state of the save: the game replayed, the bots as they
        were, every person away since ``now`` (they come back with their tokens), the
        game held until they are (``Table.hold``).
        ``now`` must not be before the save's time (see :func:`resume_time`). A lobby
        save gives the table outside a game, its people away likewise."""
        if self.status == "lobby":
            return self._restore_lobby(now, report)
        if self.status != "playing":
            raise SaveError(f"{self._where()} holds a {self.status} game: replay it instead")
        if now < self.saved_at:
            raise SaveError(
                f"cannot restore {self._where()} at {now:.3f}: the host's clock must "
                f"start at the save's time {self.saved_at:.3f} or later"
            )
        doc, game = self.doc, self._game
        if len(doc.seats) != len(game.players):
            raise SaveError(f"{self._where()} is inconsistent: seats and players differ")
        table = Table(doc.table.name, doc.table.game, self.settings(), report=report)
        members = self._members(table)
        table.seed = game.seed
        table.seed_hash = game.seed_hash
        table.games_played = doc.table.games_played
        brains = {}
        for i, s in enumerate(doc.seats):
            if s.kind == "bot":
                rng = random.Random(f"{table.seed}/bot/{i}")
                brains[i] = make_brain(
                    doc.table.game, i, s.difficulty, rng, table.settings.bot_pace
                )
        plans: dict[int, Any] = {}

        def think(driver: Driver, step: Step) -> None:
            # the bots see every change, as they did at the live table
            if driver.over:
                return
            for i, brain in brains.items():
                plans[i] = brain.plan(driver.view(i), step.at)

        driver = self.replay(think)
        if driver.over:
            raise SaveError(f"{self._where()} holds a game that is over")
        # the table's clock goes on from where it stood at the save
        at = doc.clock if doc.clock is not None else self.saved_at
        if at > self.saved_at:
            raise SaveError(f"{self._where()} is inconsistent: its clock is ahead of the save")
        table.held = now - at
        table.driver = driver
        table.phase = "playing"
        table.log = [msgspec.to_builtins(e) for e in doc.log[self.history_entries :]]
        table.log_base = self.history_entries
        for i, s in enumerate(doc.seats):
            member = members.get(s.member) if s.member is not None else None
            seat = Seat(name=s.name, kind=s.kind, member=member, difficulty=s.difficulty)
            if s.kind == "bot":
                seat.brain, seat.plan = brains[i], plans.get(i)
            elif member is not None:
                seat.away_since = now  # a fresh grace: the players reconnect
            table.seats.append(seat)
        for i, seat in enumerate(table.seats):
            if seat.kind != "bot" and seat.member is None:
                table._stand_in(i)  # the player had left for good
                if seat.brain is not None:
                    seat.plan = seat.brain.plan(driver.view(i), at)
        table.members = list(members.values())
        table.owner = members.get(doc.owner) if doc.owner is not None else None
        table.hold(now)  # nothing happens until the people are back (or the grace ends)
        return table


    def _members(self, table: Table) -> dict[int, Member]:
        """The saved people, away, and a check of every seat against them."""
        doc = self.doc
        members = {
            m.id: Member(name=m.name, id=m.id, secret=m.secret, connected=False, table=table)
            for m in doc.members
        }
        for i, s in enumerate(doc.seats):
            if s.kind not in ("human", "local", "bot"):
                raise SaveError(f"{self._where()}: seat {i} is of an unknown kind {s.kind!r}")
            if (s.kind == "bot" and s.member is not None) or (
                s.kind == "local" and s.member is None
            ):
                raise SaveError(f"{self._where()}: seat {i} does not match its member")
            if s.member is not None and s.member not in members:
                raise SaveError(f"{self._where()}: seat {i} names an unknown member")
        return members

    def _restore_lobby(self, now: float, report: Callable[[str], None] | None) -> Table:
        """The table outside a game: seats, owner, settings; every person away since
        ``now``, not ready. An away seat is freed after the grace period, as when a
        player drops in the lobby."""
        doc = self.doc
        if now < self.saved_at:
            raise SaveError(
                f"cannot restore {self._where()} at {now:.3f}: the host's clock must "
                f"start at the save's time {self.saved_at:.3f} or later"
            )
        table = Table(doc.table.name, doc.table.game, self.settings(), report=report)
        members = self._members(table)
        if any(s.kind == "human" and s.member is None for s in doc.seats):
            raise SaveError(f"{self._where()}: a lobby seat has no player")
        table.phase = doc.phase
        table.games_played = doc.table.games_played
        if doc.result is not None:
            try:
                table.result = msgspec.convert({"type": "over", **doc.result}, p.Over)
            except msgspec.ValidationError as exc:
                raise SaveError(f"{self._where()} has a damaged result: {exc}") from None
            table.seed_hash = table.result.seed_hash
        for s in doc.seats:
            member = members.get(s.member) if s.member is not None else None
            seat = Seat(name=s.name, kind=s.kind, member=member, difficulty=s.difficulty)
            if member is not None:
                seat.away_since = now
            table.seats.append(seat)
        table.members = [m for m in members.values() if table.seats_of(m)]
        table.owner = members.get(doc.owner) if doc.owner is not None else None
        if table.owner not in table.members:
            table.owner = next((s.member for s in table.seats if s.kind == "human"), None)
        return table


def resume_time(saves: Iterable[Saved]) -> float:
    """The host clock's start for resuming ``saves``: the latest save's time."""
    return max((s.saved_at for s in saves), default=0.0)


def load_all(store: Store) -> tuple[list[Saved], list[str]]:
    """Every unfinished save of ``store`` that reads, and a message for each that does
    not (those files are left in place). ``Saved.restore`` replays and checks them.

    A table has one save to resume: a lobby save is dropped (its file deleted) when
    another save of the same table holds the same people (a token in common) and
    wins: an unfinished game (a crash came between the two writes of a game's start or
    end, and the game is the one anyone saw), or a newer lobby save. Saves of one name
    with nobody in common (a host started anew without ``--resume``) are all kept; a
    host restores the first and refuses the others by name."""
    store.sweep()
    good: list[Saved] = []
    problems = []
    for path in store.unfinished():
        try:
            saved = Saved.load(path)
            if saved.status not in ("playing", "lobby"):
                raise SaveError(f"{path} is marked {saved.status}")
        except SaveError as exc:
            problems.append(f"{exc}. The file is kept; move it away to silence this.")
            continue
        good.append(saved)
    kept = []
    for i, saved in enumerate(good):  # oldest first
        if saved.status == "lobby" and any(
            other.name.casefold() == saved.name.casefold()
            and (other.status == "playing" or j > i)
            and _same_people(saved, other)
            for j, other in enumerate(good)
            if other is not saved
        ):
            if saved.path is not None:
                with contextlib.suppress(OSError):
                    saved.path.unlink()
            continue
        kept.append(saved)
    return kept, problems


def _same_people(one: Saved, other: Saved) -> bool:
    """Whether two saves share a person (a whole token: ids alone repeat across hosts)."""
    return bool({(m.id, m.secret) for m in one.doc.members}
                & {(m.id, m.secret) for m in other.doc.members})  # fmt: skip


def resumed_clock(saves: Iterable[Saved]) -> Any:
    """The real clock of a host that resumes ``saves``: it starts at the latest save's
    time (see the module docstring). Call it inside the running loop."""
    from net.clock import RealClock

    return RealClock(start=resume_time(saves))
