"""The save document: one JSON object per save (``docs/PROTOCOL.md``, "Saved tables").

The database keeps each save's document without its moves (``saves.doc``) and the
moves a row each (``moves``); the one-file record for sharing (``motherlode export``)
is the same document with every move inline, which is also what the file-based saves
of versions 1 to 3 were. This module builds documents from a live table, checks
documents read back, and writes the one-file record as a stream.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from net.catalogue import known
from net.saves.errors import SaveError
from net.table.phase import Phase

if TYPE_CHECKING:
    from net.games import Driver
    from net.table import Seat, Table

FORMAT = "motherlode-table"
VERSION = 3
# version 1: the whole log inline, no history file; version 2: the history file;
# version 3: lobby saves (status "lobby") and the table's clock (``clock``). The
# database keeps version 3 documents without their log (``history`` null), and an
# exported record is one with its whole log inline, as a finished game's file was.
READABLE = (1, 2, 3)
STATUSES = ("playing", "finished", "abandoned", "lobby")
DIGEST_EVERY = 16  # moves between two digests of every seat's view in a live save
ENCODER = msgspec.json.Encoder()


def as_json(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, and so on)."""
    return msgspec.json.decode(ENCODER.encode(value))


def digest(driver: Driver, seats: int) -> str:
    """A hash of every seat's view: it covers the private state (hands, piles)."""
    views = [driver.view(i) for i in range(seats)]
    return hashlib.sha256(ENCODER.encode(views)).hexdigest()


# ---------------------------------------------------------------------------
# Reading


class SeatDoc(msgspec.Struct):
    name: str
    kind: str
    member: int | None
    difficulty: str = "normal"


class MemberDoc(msgspec.Struct):
    id: int
    name: str
    secret: str


class TableDoc(msgspec.Struct):
    name: str
    game: str
    settings: dict[str, Any]
    games_played: int = 1


class GameDoc(msgspec.Struct):
    players: list[str]
    seed: str
    seed_hash: str
    first: int
    first_drawn: bool
    started_at: float
    # the version of the game's rules it is played under (``GameSpec.rules``); a save
    # made before games recorded it holds a game of version 1
    rules: int = 1
    # the table's pace at the deal (a guided game's changes later: its log's ``pace``
    # entries); None in a save made before the pace could change in a game, whose
    # table's settings say the pace it was played at throughout
    pace: str | None = None


class Snapshot(msgspec.Struct):
    entries: int
    over: bool
    public: dict[str, Any]
    digest: str
    # the moves after which ``digest`` was taken, when fewer than ``entries`` (a live
    # save takes it every DIGEST_EVERY moves: it costs every seat's view)
    digest_entries: int | None = None


class Entry(msgspec.Struct, omit_defaults=True):
    at: float
    by: str
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    # a race action the table held and judged by when the person acted (lag-fair
    # races): that time, and the correction (it arrived at ``acted + lag``); absent
    # for every other entry, and in saves made before them
    acted: float | None = None
    lag: float = 0.0
    # the table's pace changed here (a guided game's opening is over,
    # ``net.table.guided``): no action, no events; absent for every other entry
    pace: str | None = None


class History(msgspec.Struct):
    """A version 2 or 3 file save's early moves in ``<id>.history`` (``net.saves.legacy``)."""

    file: str
    entries: int
    bytes: int
    sha256: str


class Document(msgspec.Struct):
    format: str
    version: int
    status: str
    id: str
    saved_at: float
    table: TableDoc
    seats: list[SeatDoc]
    members: list[MemberDoc]
    owner: int | None
    game: GameDoc | None = None  # None only in a lobby save
    log: list[Entry] = []
    snapshot: Snapshot | None = None  # None only in a lobby save
    saved_wall: float | None = None
    history: History | None = None
    phase: str = "lobby"  # a lobby save's: "lobby", or "over" (between games)
    clock: float | None = None  # the table's clock at the save (before version 3: saved_at)
    result: dict[str, Any] | None = None  # a lobby save's last game result


def parse(data: bytes, where: str) -> tuple[Document, dict[str, Any]]:
    """Read and check a document (a record file, or a save's row with its moves put
    back); raises SaveError naming ``where`` and the reason."""
    try:
        raw = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise SaveError(f"{where} is not a whole save (damaged or cut short): {exc}") from None
    return check(raw, where), raw


def check(raw: Any, where: str) -> Document:
    """``raw`` (decoded JSON) as a checked :class:`Document`; raises SaveError."""
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{where} is not a Motherlode save")
    if raw.get("version") not in READABLE:
        raise SaveError(
            f"{where} is a save of format version {raw.get('version')!r}; this Motherlode "
            f"reads versions {', '.join(map(str, READABLE))}"
        )
    try:
        doc = msgspec.convert(raw, Document)
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
    return doc


def read_file(path: Path) -> tuple[Document, dict[str, Any]]:
    """Read a record file, or an old save with its history file; raises SaveError
    naming the file and the reason, and changes nothing."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SaveError(f"cannot read {path}: {exc.strerror or exc}") from None
    doc, raw = parse(data, str(path))
    if doc.history is not None:  # a version 2 or 3 save of a long game
        doc.log = _history(path, doc.id, doc.history) + doc.log
        doc.history = None
    return doc, raw


def _history(path: Path, ident: str, history: History) -> list[Entry]:
    """The early moves in a save's history file: at least the committed bytes, with
    their hash (a torn append past them is ignored)."""
    where = str(path)
    if history.file != f"{ident}.history":
        raise SaveError(f"{where} names a history file {history.file!r} that is not its own")
    source = path.parent / history.file
    try:
        with open(source, "rb") as f:
            data = f.read(history.bytes)
    except OSError as exc:
        raise SaveError(
            f"{where} keeps its early moves in {source}, which cannot be read: "
            f"{exc.strerror or exc}"
        ) from None
    if len(data) < history.bytes or hashlib.sha256(data).hexdigest() != history.sha256:
        raise SaveError(f"{where} does not match its history file {source} (damaged or cut short)")
    try:
        entries = [msgspec.json.decode(line, type=Entry) for line in data.splitlines()]
    except msgspec.MsgspecError as exc:
        raise SaveError(f"{source} is damaged: {exc}") from None
    if len(entries) != history.entries:
        raise SaveError(f"{source} holds {len(entries)} moves; its save says {history.entries}")
    return entries


# ---------------------------------------------------------------------------
# Writing


def game_document(
    table: Table, ident: str, game: dict[str, Any], now: float, status: str,
    taken: tuple[int, str] | None = None, wall: float | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The document of the table's current game without its log (the database keeps
    the moves). ``game`` is the fixed part: players, seed, first player, start.
    ``taken`` is an earlier digest of the views (moves then, digest) to keep; None
    takes one now. ``wall``: the wall clock's time (now if None)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "status": status,
        "id": ident,
        "saved_at": now,
        "saved_wall": time.time() if wall is None else wall,
        "clock": table.clock(now),
        "table": _table(table),
        "seats": _seats(table.seats),
        "members": _members(table.seats),
        "owner": None if table.owner is None else table.owner.id,
        "game": game,
        "snapshot": snapshot(table, len(game["players"]), taken),
        "history": None,
        "log": [],  # last: the record splices the moves in here
    }


def game_frame(table: Table, ident: str, game: dict[str, Any]) -> tuple[bytes, bytes]:
    """The encoded parts of a game in play's document that moves do not change (its
    table, seats, members, owner and game), around the parts they do: a move's
    document is ``game_moved(frame, ...)``, the very bytes ``game_document`` encodes."""
    head = ENCODER.encode({"format": FORMAT, "version": VERSION, "status": "playing",
                           "id": ident})  # fmt: skip
    middle = ENCODER.encode({
        "table": _table(table),
        "seats": _seats(table.seats),
        "members": _members(table.seats),
        "owner": None if table.owner is None else table.owner.id,
        "game": game,
    })  # fmt: skip
    return head[:-1] + b',"saved_at":', b"," + middle[1:-1] + b',"snapshot":'


def game_moved(frame: tuple[bytes, bytes], table: Table, seats: int, now: float,
               wall: float, taken: tuple[int, str] | None = None) -> bytes:  # fmt: skip
    """The encoded document of a game in play after a move, in its ``game_frame``: only
    the times, the table's clock and the snapshot are built anew."""
    return b"".join((
        frame[0], ENCODER.encode(now), b',"saved_wall":', ENCODER.encode(wall), b',"clock":',
        ENCODER.encode(table.clock(now)), frame[1], ENCODER.encode(snapshot(table, seats, taken)),
        b',"history":null,"log":[]}',
    ))  # fmt: skip


def snapshot(table: Table, seats: int, taken: tuple[int, str] | None) -> dict[str, Any]:
    """What everyone sees of the game now, and a digest of every seat's view (now,
    or ``taken`` earlier)."""
    driver = table.driver
    assert driver is not None and table.seed is not None
    found: dict[str, Any] = {
        "entries": table.moves,
        "over": driver.over,
        "public": driver.view(None),
    }
    if taken is None or taken[0] == table.moves:
        found["digest"] = taken[1] if taken else digest(driver, seats)
    else:
        found["digest"], found["digest_entries"] = taken[1], taken[0]
    return found


def lobby_document(table: Table, ident: str, now: float) -> dict[str, Any]:
    """A save of a table outside a game: who holds which seat, their tokens, the owner
    and the settings; and after a game, its result. Ready flags are not kept:
    everyone comes back not ready."""
    # a game that just ended is saved as the table it leaves: the seats of players who
    # left for good are freed (as Play._finish does)
    seats = [s for s in table.seats if s.kind == "bot" or s.member is not None]
    result = None
    driver = table.driver
    if table.phase != Phase.LOBBY and driver is not None and driver.over and table.seed:
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
        "table": _table(table),
        "phase": "lobby" if table.phase == Phase.LOBBY else "over",
        "result": result,
        "seats": _seats(seats),
        "members": _members(seats),
        "owner": None if table.owner is None else table.owner.id,
        "game": None,
        "snapshot": None,
        "history": None,
        "log": [],
    }


def _table(table: Table) -> dict[str, Any]:
    return {
        "name": table.name,
        "game": table.game,
        "settings": table.settings.saved(),
        "games_played": table.games_played,
    }


def _seats(seats: list[Seat]) -> list[dict[str, Any]]:
    return [
        {
            "name": s.name,
            "kind": s.kind,
            "member": None if s.member is None else s.member.id,
            "difficulty": s.difficulty,
        }
        for s in seats
    ]


def _members(seats: list[Seat]) -> list[dict[str, Any]]:
    members: dict[int, dict[str, Any]] = {}
    for seat in seats:
        member = seat.member
        if member is not None and member.id not in members:
            members[member.id] = {"id": member.id, "name": member.name, "secret": member.secret}
    return list(members.values())


def record_chunks(head: bytes, entries: Iterable[bytes]) -> Iterator[bytes]:
    """The one-file record: ``head`` (a document whose last key is an empty ``log``)
    with the encoded ``entries`` spliced in, as chunks (a long game is never in
    memory whole)."""
    assert head.endswith(b'"log":[]}'), "log must be the last key of a save"
    yield head[:-2]
    first = True
    for entry in entries:
        yield entry if first else b"," + entry
        first = False
    yield b"]}"
