"""Reading saves back: the queries on a store's database (:class:`Queries`; the store,
``net.saves.store``, holds one), the saves to resume (:func:`load_all`), a game to
replay (:func:`open_game`) and the kept games (:class:`Kept`). A read first waits for
what the store has queued (``GroupCommit.read``), and reads one snapshot of the file.

Time: a table's log carries the host's clock. A host that resumes starts its clock at
the latest save's time (:func:`resume_time`), so the time the host was down does not
count: every pending deadline keeps the time it had left at the last save.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from net.saves import documents
from net.saves.documents import ENCODER, Entry
from net.saves.errors import SaveError
from net.saves.mapping import delete_save
from net.saves.saved import Saved
from net.saves.stats import PlayerStats, players
from net.saves.writer import GroupCommit

if TYPE_CHECKING:
    from net.saves.store import Store

log = logging.getLogger("net.saves.store")  # (the store's log: this is its part)

_ENTRY = msgspec.json.Decoder(Entry)

#: the statuses of a kept game, as ``motherlode games --status`` names them: a game in
#: play (or stopped half-way by a host that stopped), a table outside a game, a game
#: played to its end, a game left half-way
KEPT_STATUSES = ("playing", "lobby", "finished", "abandoned")


@dataclass(frozen=True)
class Kept:
    """A kept game (or a table outside a game), as lists of games show it."""

    id: str
    game: str
    status: str
    players: list[str]
    moves: int
    when: float
    winners: list[str] = field(default_factory=list)

    def result(self) -> str:
        moves = f"{self.moves} move{'' if self.moves == 1 else 's'}"
        if self.status == "playing":
            return f"unfinished after {moves}"
        if self.status == "lobby":
            return "a table outside a game"
        if self.status != "finished":
            return f"left after {moves}"
        return "won by " + " and ".join(self.winners) if self.winners else "finished"


class Queries:
    """The reads of the database at ``path`` for a store of ``kind`` (each after what
    ``commits`` holds is committed), and the direct commits on kept saves."""

    def __init__(self, commits: GroupCommit, path: Path, kind: str) -> None:
        self._commits = commits
        self.path = path
        self.kind = kind

    def unfinished(self) -> list[str]:
        """The ids of this store's saves to resume (games in play, tables outside a
        game), oldest first."""
        rows = self._commits.read(lambda conn: conn.execute(
            "SELECT id FROM saves WHERE kind = ? AND status IN ('playing', 'lobby') "
            "ORDER BY saved_wall, id", (self.kind,)).fetchall())  # fmt: skip
        return [row[0] for row in rows]

    def load(self, ident: str) -> Saved:
        """A save of the database with every move; raises SaveError (the id unknown,
        or its rows damaged), changing nothing."""
        where = f"saved game {ident!r} in {self.path}"

        def query(conn: sqlite3.Connection):
            row = conn.execute("SELECT doc, kind, moves FROM saves WHERE id = ?",
                               (ident,)).fetchone()  # fmt: skip
            if row is None:
                return None
            moves = conn.execute("SELECT n, entry FROM moves WHERE save = ? ORDER BY n",
                                 (ident,)).fetchall()  # fmt: skip
            return row, moves

        found = self._commits.read(query)
        if found is None:
            raise SaveError(f"no saved game {ident!r} in {self.path}")
        (data, kind, count), moves = found
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

    def find(self, prefix: str) -> list[str]:
        """The ids of every save that start with ``prefix`` (any kind)."""
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._commits.read(lambda conn: conn.execute(
            "SELECT id FROM saves WHERE id LIKE ? ESCAPE '\\' ORDER BY id",
            (pattern,)).fetchall())  # fmt: skip
        return [row[0] for row in rows]

    def kept(self, limit: int = 300,
             statuses: Iterable[str] = ("finished", "abandoned")) -> list[Kept]:
        """The saves of every kind whose status is one of ``statuses`` (of
        :data:`KEPT_STATUSES`; by default the finished and abandoned games, which the
        Replays list shows), newest first."""
        wanted = list(dict.fromkeys(statuses))
        wrong = [s for s in wanted if s not in KEPT_STATUSES]
        if wrong or not wanted:
            raise ValueError(f"a kept game's status is one of {', '.join(KEPT_STATUSES)}, "
                             f"not {', '.join(map(repr, wrong)) or 'none'}")
        marks = ", ".join("?" * len(wanted))
        rows = self._commits.read(lambda conn: conn.execute(
            "SELECT s.id, s.game, s.status, s.players, s.moves, s.saved_wall, "
            "(SELECT json_group_array(t.name) FROM seat_stats t WHERE t.save = s.id AND t.won) "
            f"FROM saves s WHERE s.status IN ({marks}) "
            "ORDER BY s.saved_wall DESC, s.id LIMIT ?", (*wanted, limit)).fetchall())  # fmt: skip
        out = []
        for ident, game, status, names, moves, when, winners in rows:
            try:
                names, winners = msgspec.json.decode(names), msgspec.json.decode(winners or "[]")
            except msgspec.DecodeError:
                names, winners = ["?"], []
            out.append(Kept(ident, game, status, [str(n) for n in names], moves, when,
                            [str(w) for w in winners]))  # fmt: skip
        return out

    def abandon(self, save: Saved | str) -> str:
        """Keep an unfinished save only as an abandoned game (for replays); a lobby
        save, which holds no game, is deleted. Returns its id."""
        saved = save if isinstance(save, Saved) else self.load(save)
        if saved.status == "lobby":
            self._commits.commit(lambda conn: delete_save(conn, saved.id))
            return saved.id
        raw = {k: v for k, v in saved.raw.items() if k != "log"}
        raw["status"], raw["log"] = "abandoned", []
        doc = ENCODER.encode(raw)
        self._commits.commit(lambda conn: conn.execute(
            "UPDATE saves SET status = 'abandoned', doc = ? WHERE id = ?", (doc, saved.id)))
        return saved.id

    def delete(self, ident: str) -> None:
        """Delete a game for good: its save, moves and stats."""
        self._commits.commit(lambda conn: delete_save(conn, ident))

    def stats(self, name: str | None = None, *, bots: bool = False) -> list[PlayerStats]:
        """Every player's figures per game, or one player's (``net.saves.stats``)."""
        return self._commits.read(lambda conn: players(conn, name, bots=bots))


def resume_time(saves: Iterable[Saved]) -> float:
    """The host clock's start for resuming ``saves``: the latest save's time."""
    return max((s.saved_at for s in saves), default=0.0)


def resumed_clock(saves: Iterable[Saved]) -> Any:
    """The real clock of a host that resumes ``saves``: it starts at the latest save's
    time (see the module docstring). Call it inside the running loop."""
    from net.clock import RealClock

    return RealClock(start=resume_time(saves))


def load_all(store: Store) -> tuple[list[Saved], list[str]]:
    """Every save of ``store`` to resume that reads, and a message for each that does
    not (those are kept as they are). ``Saved.restore`` replays and checks them.

    A table has one save to resume: a lobby save is dropped when another save of the
    same table holds the same people (a token in common) and wins: an unfinished game,
    or a newer lobby save (old files can hold both). Saves of one name with nobody in
    common (a host started anew without ``--resume``) are all kept; a host restores
    the first and refuses the others by name."""
    try:
        idents = store.unfinished()
    except SaveError as exc:
        return [], [str(exc)]
    problems = list(store.problems)
    good: list[Saved] = []
    for ident in idents:
        try:
            good.append(store.load(ident))
        except SaveError as exc:
            problems.append(f"{exc}. It is kept as it was.")
    kept = []
    for i, saved in enumerate(good):  # oldest first
        if saved.status == "lobby" and any(
            other.name.casefold() == saved.name.casefold()
            and (other.status == "playing" or j > i)
            and _same_people(saved, other)
            for j, other in enumerate(good)
            if other is not saved
        ):
            try:
                store.delete(saved.id)
            except (sqlite3.Error, SaveError):
                log.exception("cannot delete the lobby save %s", saved.id)
            continue
        kept.append(saved)
    return kept, problems


def _same_people(one: Saved, other: Saved) -> bool:
    """Whether two saves share a person (a whole token: ids alone repeat across hosts)."""
    return bool({(m.id, m.secret) for m in one.doc.members}
                & {(m.id, m.secret) for m in other.doc.members})  # fmt: skip


def open_game(target: str, store: Store | None = None) -> Saved:
    """A game to replay or export: a record file at ``target``, or the saved game whose
    id is ``target`` (or begins with it, if only one does). Raises SaveError with a
    message for a person: no such file or game, several games, a damaged one."""
    path = Path(target)
    if path.is_file():
        return Saved.load(path)
    if store is None:
        from net.saves.store import Store  # (it holds these queries)

        store = Store.default("tables")
    matches = store.find(target) if target else []
    if target in matches:
        matches = [target]
    if not matches:
        raise SaveError(f"no file and no saved game {target!r} (`motherlode games` and the "
                        "app's Replays list the games kept)")  # fmt: skip
    if len(matches) > 1:
        listed = ", ".join(matches[:5]) + (", ..." if len(matches) > 5 else "")
        raise SaveError(f"{len(matches)} saved games begin with {target!r}: {listed}")
    return store.load(matches[0])
