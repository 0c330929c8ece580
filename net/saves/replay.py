"""The replay engine: a game rebuilt from its seed and its moves, checked step by step.

It is the one place that replays a game. Restoring a save (``Saved.restore``), the
replay screen (``Saved.steps``), the player stats of an imported game and the checks of
``net.verify`` all go through :func:`replay`: deal from ``random.Random(seed)`` with the
same driver the host used (``net.games``), apply every log entry in order, compare each
step's events with the log, and the end with the snapshot of the views. Any difference
raises :class:`SaveError` naming the save and the move.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from net.catalogue import spec
from net.games import Driver, make_driver
from net.moves import logged_move
from net.saves.documents import Document, as_json, digest
from net.saves.errors import SaveError
from net.table import Settings
from net.table.settings import PACES


def seed_matches(seed: str, seed_hash: str) -> bool:
    """True when ``seed_hash`` is the SHA-256 of the UTF-8 ``seed`` (hex)."""
    return hashlib.sha256(seed.encode()).hexdigest() == seed_hash


@dataclass
class Step:
    """One step of a replayed game: the entry applied (None for the deal), its events."""

    index: int
    at: float
    by: str
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    pace: str | None = None  # the table's pace changed here (``net.table.guided``)


OnStep = Callable[[Driver, Step], None]


def settings_of(doc: Document, where: str) -> Settings:
    """The table's settings in ``doc`` (unknown keys of another version ignored, and a
    game's own settings read from where an older save kept them)."""
    try:
        return Settings.from_saved(doc.table.settings, doc.table.game)
    except (TypeError, ValueError) as exc:
        raise SaveError(f"{where} has bad table settings: {exc}") from None


def new_driver(doc: Document, where: str) -> Driver:
    """The game of ``doc`` dealt afresh from its seed, before its first step."""
    game = doc.game
    if game is None:
        raise SaveError(f"{where} is a table outside a game: it holds no game")
    settings = settings_of(doc, where)
    if game.pace is not None and game.pace not in PACES:
        raise SaveError(f"{where} has an unknown pace {game.pace!r}")
    try:
        driver = make_driver(
            doc.table.game,
            game.players,
            None if game.first_drawn else game.first,
            random.Random(game.seed),
            settings.own(doc.table.game, game.pace),  # the pace it was dealt at
            rules=game.rules,  # as it was played: an older save replays by its rules
        )
    except ValueError as exc:
        raise SaveError(f"{where} does not replay: {exc}") from None
    if driver.first != game.first:
        raise SaveError(f"{where} does not replay: the first player differs")
    return driver


def replay(
    doc: Document, where: str, on_step: OnStep | None = None, upto: int | None = None
) -> Driver:
    """Rebuild the game of ``doc``: deal, then every log entry in order (the first
    ``upto`` only, if given), checking each step's events against the log and, for a
    whole replay, the end against the snapshot. ``on_step`` sees the driver after
    each step, the deal included. Raises SaveError on any mismatch."""
    game = doc.game
    if game is None:
        raise SaveError(f"{where} is a table outside a game: it holds no game")
    if not seed_matches(game.seed, game.seed_hash):
        raise SaveError(f"{where} does not replay: the seed does not match its hash")
    driver = new_driver(doc, where)
    settings = settings_of(doc, where)
    snap = doc.snapshot
    early = snap.digest_entries if snap is not None and upto is None else None
    # a save committed as the game began, before its deal (a crash came before the
    # deal's own commit, so no view of it went out): it holds the game undealt, and
    # the seed deals it again
    undealt = upto is None and _is_undealt(doc, driver)
    events = driver.start(game.started_at)
    if on_step is not None:
        on_step(driver, Step(0, game.started_at, "host", None, None, events))
    if early == 0 and not undealt:
        _check_digest(doc, driver, where)
    entries = doc.log if upto is None else doc.log[:upto]
    for n, entry in enumerate(entries, 1):
        try:
            seat = None
            if entry.pace is not None:  # the change as the table made it, in its place
                if entry.pace not in PACES:
                    raise ValueError(f"an unknown pace {entry.pace!r}")
                driver.repace(spec(doc.table.game).options_of(
                    settings.own(doc.table.game, entry.pace)))
                events = []
            elif entry.action is None:
                events = driver.tick(entry.at)
            else:
                seat = entry.action.get("seat")
                action = logged_move(entry.action)  # dict to message (older saves too)
                events = driver.act(seat, action, entry.at, entry.acted, entry.lag)
        except (ValueError, msgspec.MsgspecError) as exc:
            raise SaveError(f"{where} does not replay: move {n} is refused ({exc})") from None
        if as_json(events) != entry.events:
            raise SaveError(f"{where} does not replay: move {n} gives other events")
        if on_step is not None:
            on_step(driver, Step(n, entry.at, entry.by, seat, entry.action, events,
                                 entry.pace))
        if n == early:
            _check_digest(doc, driver, where)
    if upto is None and not undealt:
        check_snapshot(doc, driver, where)
    return driver


def _is_undealt(doc: Document, driver: Driver) -> bool:
    """Whether ``doc``'s snapshot is of its game before the deal (``driver`` fresh)."""
    snap = doc.snapshot
    if snap is None or doc.game is None or snap.entries != 0 or doc.log:
        return False
    return (
        as_json(driver.view(None)) == snap.public
        and driver.over == snap.over
        and digest(driver, len(doc.game.players)) == snap.digest
    )


def check_snapshot(doc: Document, driver: Driver, where: str) -> None:
    """The replayed game must be the one the save's snapshot describes."""
    snap = doc.snapshot
    assert snap is not None and doc.game is not None  # documents.check refuses otherwise
    if snap.entries != len(doc.log):
        raise SaveError(f"{where} is inconsistent: {len(doc.log)} moves, "
                        f"but the snapshot was taken after {snap.entries}")  # fmt: skip
    if snap.digest_entries is not None and not 0 <= snap.digest_entries <= snap.entries:
        raise SaveError(f"{where} is inconsistent: its digest was taken after "
                        f"{snap.digest_entries} of {snap.entries} moves")  # fmt: skip
    if as_json(driver.view(None)) != snap.public or driver.over != snap.over:
        raise SaveError(f"{where} does not replay: the game differs from its snapshot "
                        "(the table as everyone sees it)")  # fmt: skip
    if snap.digest_entries is None:
        _check_digest(doc, driver, where)


def _check_digest(doc: Document, driver: Driver, where: str) -> None:
    """Every seat's view (the private state) as the snapshot's digest says."""
    assert doc.snapshot is not None and doc.game is not None
    if digest(driver, len(doc.game.players)) != doc.snapshot.digest:
        raise SaveError(f"{where} does not replay: the game differs from its snapshot "
                        "(what each seat sees)")  # fmt: skip


def steps(doc: Document, where: str) -> list[tuple[Step, list[dict[str, Any]]]]:
    """Every step with the views after it: ``views[i]`` for seat i, last the
    spectator's (for the replay viewer)."""
    out: list[tuple[Step, list[dict[str, Any]]]] = []
    seats = len(doc.game.players) if doc.game is not None else 0

    def keep(driver: Driver, step: Step) -> None:
        views = [as_json(driver.wire_view(i)) for i in range(seats)]  # as they were sent
        out.append((step, [*views, as_json(driver.wire_view(None))]))

    replay(doc, where, keep)
    return out
