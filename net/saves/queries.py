"""Reading saves back: the queries on a store's database (:class:`Queries`; the store,
``net.saves.store``, holds one, and builds on them the saves to resume, ``load_all``,
and a game to replay, ``open_game``) and the kept games (:class:`Kept`). A read first waits for
what the store has queued (``GroupCommit.read``), and reads one snapshot of the file.

Time: a table's log carries the host's clock. A host that resumes starts its clock at
the latest save's time (:func:`resume_time`), so the time the host was down does not
count: every pending deadline keeps the time it had left at the last save.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from net.saves.documents import ENCODER, Entry
from net.saves.errors import SaveError
from net.saves.mapping import delete_save
from net.saves.reading import read_save
from net.saves.saved import Saved
from net.saves.stats import PlayerStats, players
from net.saves.writer import GroupCommit

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
        found = self._commits.read(lambda conn: read_save(conn, ident, self.path))
        if found is None:
            raise SaveError(f"no saved game {ident!r} in {self.path}")
        return found

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
