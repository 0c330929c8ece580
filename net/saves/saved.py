"""A save read back and checked (:class:`Saved`): its facts, its replay, and a live
table rebuilt from it (``restore``), the game replayed through the replay engine and
held until its people are back (``Table.hold``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from net import protocol as p
from net.catalogue import title
from net.games import Driver, make_brain, repaced
from net.saves import documents, replay
from net.saves.documents import Document, GameDoc
from net.saves.errors import SaveError
from net.saves.replay import Step
from net.saves.stats import Tally
from net.table import Member, Seat, Settings, Table
from net.table.phase import Phase
from net.table.settings import PACES
from net.table.snapshot import Snapshot


class Saved:
    """A save, read and checked: a row of the database with its moves, or a record
    file (``motherlode export``, or a file of the old file-based saves). ``replay()``
    rebuilds the game step by step; ``where`` names it in every message."""

    def __init__(
        self, doc: Document, raw: dict[str, Any], where: str, path: Path | None = None
    ) -> None:
        self.doc = doc  # its log is the whole game's
        self.raw = raw
        self.where = where
        self.path = path  # the record file it came from, if any
        self.kind: str | None = None  # the store's kind, for a save of the database
        #: the stats of the game so far, by seat; counted by ``restore``
        self.tally: Tally | None = None

    @classmethod
    def load(cls, path: Path | str) -> Saved:
        """Read a record file (an export, or an old save with its history file);
        raises SaveError naming the file and the reason."""
        path = Path(path)
        return cls(*documents.read_file(path), str(path), path)

    @classmethod
    def parse(cls, data: bytes, where: str = "the save") -> Saved:
        """A record from its bytes (the whole log inline)."""
        doc, raw = documents.parse(data, where)
        if doc.history is not None:
            raise SaveError(
                f"{where} keeps its early moves in {doc.history.file}: load it from its file"
            )
        return cls(doc, raw, where)

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
    def _game(self) -> GameDoc:
        if self.doc.game is None:
            raise SaveError(f"{self.where} is a table outside a game: it holds no game")
        return self.doc.game

    @property
    def saved_at(self) -> float:
        return self.doc.saved_at

    @property
    def moves(self) -> int:
        return len(self.doc.log)

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
        return f"{game} at {self.name!r}: {', '.join(self.players)}; {self.moves} moves{when}"

    def result(self) -> str:
        """Who won, or how far an unfinished game got (for lists of games)."""
        if self.status != "finished":
            moves = self.moves
            return f"left after {moves} move{'' if moves == 1 else 's'}"
        names = self.players
        for entry in reversed(self.doc.log):
            for event in entry.events:
                if event.get("type") == "game_over":
                    won = [names[w] for w in event.get("winners", []) if 0 <= w < len(names)]
                    return "won by " + " and ".join(won)
                if event.get("type") == "match_over" and event.get("winner") is not None:
                    winner = event["winner"]
                    return f"won by {names[winner]}" if 0 <= winner < len(names) else "finished"
        return "finished"

    # -- replay ----------------------------------------------------------------------

    def settings(self) -> Settings:
        return replay.settings_of(self.doc, self.where)

    def new_driver(self) -> Driver:
        return replay.new_driver(self.doc, self.where)

    def replay(
        self, on_step: Callable[[Driver, Step], None] | None = None, upto: int | None = None
    ) -> Driver:
        """Rebuild and check the game (``net.saves.replay.replay``)."""
        return replay.replay(self.doc, self.where, on_step, upto)

    def steps(self) -> list[tuple[Step, list[dict[str, Any]]]]:
        """Every step with the views after it (``net.saves.replay.steps``)."""
        return replay.steps(self.doc, self.where)

    def export(self, *, tokens: bool = True, extra: dict[str, Any] | None = None) -> bytes:
        """The one-file record (the whole log inline; ``motherlode export``). Without
        ``tokens`` the members' secrets are blank: a shared record takes no seat.
        ``extra`` adds fields (the league's record of the game; a reader ignores them)."""
        head = {k: v for k, v in self.raw.items() if k not in ("history", "log")}
        head.update(extra or {})
        if not tokens:
            head["members"] = [{**m, "secret": ""} for m in head.get("members", [])]
        head["history"], head["log"] = None, []  # log last: the moves go in there
        entries = (documents.ENCODER.encode(e) for e in self.doc.log)
        return b"".join(documents.record_chunks(documents.ENCODER.encode(head), entries))

    # -- restoring -------------------------------------------------------------------

    def restore(self, now: float, report: Callable[[str], None] | None = None) -> Table:
        """A live table in the state of the save: the game replayed, the bots as they
        were, every person away since ``now`` (they come back with their tokens), the
        game held until they are (``Table.hold``).
        ``now`` must not be before the save's time (see ``resume_time``). A lobby
        save gives the table outside a game, its people away likewise."""
        if self.status == "lobby":
            return self._restore_lobby(now, report)
        if self.status != "playing":
            raise SaveError(f"{self.where} holds a {self.status} game: replay it instead")
        self._check_time(now)
        doc, game = self.doc, self._game
        if len(doc.seats) != len(game.players):
            raise SaveError(f"{self.where} is inconsistent: seats and players differ")
        table = Table(doc.table.name, doc.table.game, self.settings(), report=report)
        members = self._members(table)
        brains = {}
        slow = PACES.get(game.pace or table.settings.pace, 1.0)  # the pace of the deal
        for i, s in enumerate(doc.seats):
            if s.kind == "bot":
                rng = random.Random(f"{game.seed}/bot/{i}")
                brains[i] = make_brain(
                    doc.table.game, i, s.difficulty, rng, table.settings.bot_pace, slow
                )
        plans: dict[int, Any] = {}
        tally = Tally(len(game.players))

        def think(driver: Driver, step: Step) -> None:
            if step.pace is not None:  # a guided game's pace changed: its bots' too
                for i, brain in brains.items():
                    brains[i] = repaced(brain, PACES.get(step.pace, 1.0))
            tally.step(driver, step.events)
            # the bots see every change, as they did at the live table
            if driver.over:
                return
            for i, brain in brains.items():
                plans[i] = brain.plan(driver.view(i), step.at)

        driver = self.replay(think)
        if driver.over:
            raise SaveError(f"{self.where} holds a game that is over")
        self.tally = tally
        # the table's clock goes on from where it stood at the save
        at = doc.clock if doc.clock is not None else self.saved_at
        if at > self.saved_at:
            raise SaveError(f"{self.where} is inconsistent: its clock is ahead of the save")
        seats = []
        for i, s in enumerate(doc.seats):
            member = members.get(s.member) if s.member is not None else None
            seat = Seat(name=s.name, kind=s.kind, member=member, difficulty=s.difficulty)
            if s.kind == "bot":
                seat.brain, seat.plan = brains[i], plans.get(i)
            elif member is not None:
                seat.away_since = now  # a fresh grace: the players reconnect
            seats.append(seat)
        table.restore(Snapshot(
            Phase.PLAYING, doc.table.games_played, seats, list(members.values()),
            members.get(doc.owner) if doc.owner is not None else None,
            seed=game.seed, seed_hash=game.seed_hash, driver=driver,
            held=now - at, log_base=len(doc.log)))  # every move is stored already
        for i, seat in enumerate(table.seats):
            if seat.kind != "bot" and seat.member is None:
                table.play.stand_in(i)  # the player had left for good
                if seat.brain is not None:
                    seat.plan = seat.brain.plan(driver.view(i), at)
        table.play.dealt_pace = game.pace
        table.play.reseated()  # who plays each seat, for a game whose views say so
        table.hold(now)  # nothing happens until the people are back (or the grace ends)
        return table

    def _check_time(self, now: float) -> None:
        if now < self.saved_at:
            raise SaveError(
                f"cannot restore {self.where} at {now:.3f}: the host's clock must "
                f"start at the save's time {self.saved_at:.3f} or later"
            )

    def _members(self, table: Table) -> dict[int, Member]:
        """The saved people, away, and a check of every seat against them."""
        doc = self.doc
        members = {
            m.id: Member(name=m.name, id=m.id, secret=m.secret, connected=False, table=table)
            for m in doc.members
        }
        for i, s in enumerate(doc.seats):
            if s.kind not in ("human", "local", "bot"):
                raise SaveError(f"{self.where}: seat {i} is of an unknown kind {s.kind!r}")
            if (s.kind == "bot" and s.member is not None) or (
                s.kind == "local" and s.member is None
            ):
                raise SaveError(f"{self.where}: seat {i} does not match its member")
            if s.member is not None and s.member not in members:
                raise SaveError(f"{self.where}: seat {i} names an unknown member")
        return members

    def _restore_lobby(self, now: float, report: Callable[[str], None] | None) -> Table:
        """The table outside a game: seats, owner, settings; every person away since
        ``now``, not ready. An away seat is freed after the grace period, as when a
        player drops in the lobby."""
        doc = self.doc
        self._check_time(now)
        table = Table(doc.table.name, doc.table.game, self.settings(), report=report)
        members = self._members(table)
        if any(s.kind == "human" and s.member is None for s in doc.seats):
            raise SaveError(f"{self.where}: a lobby seat has no player")
        result = None
        if doc.result is not None:
            try:
                result = msgspec.convert({"type": "over", **doc.result}, p.Over)
            except msgspec.ValidationError as exc:
                raise SaveError(f"{self.where} has a damaged result: {exc}") from None
        seats = []
        for s in doc.seats:
            member = members.get(s.member) if s.member is not None else None
            seat = Seat(name=s.name, kind=s.kind, member=member, difficulty=s.difficulty)
            if member is not None:
                seat.away_since = now
            seats.append(seat)
        seated = [m for m in members.values() if any(s.member is m for s in seats)]
        owner = members.get(doc.owner) if doc.owner is not None else None
        if owner not in seated:
            owner = next((s.member for s in seats if s.kind == "human"), None)
        table.restore(Snapshot(
            Phase.OVER if doc.phase == Phase.OVER else Phase.LOBBY, doc.table.games_played,
            seats, seated, owner, seed_hash=result.seed_hash if result else None,
            result=result))
        return table
