"""A saves database written by main before the league (schema 2, made by
tests/saves/make_db3.py at b124e5e) opens in this version: its finished games are
rated in the order they were played, once, and ``--rebuild`` gives the same figures."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from net.league import ledger
from net.league.standings import standings
from net.saves import Store
from net.saves.db import FILE, SCHEMA_VERSION

pytestmark = pytest.mark.timeout(60)

DB3 = Path(__file__).parent.parent / "saves" / "legacy" / "db3" / FILE


@pytest.fixture
def old(tmp_path) -> Path:
    shutil.copy(DB3, tmp_path / FILE)
    return tmp_path


def _raw(path: Path, query: str) -> list[tuple]:
    conn = sqlite3.connect(path / FILE)
    try:
        return conn.execute(query).fetchall()
    finally:
        conn.close()


def test_the_old_database_is_schema_2_with_finished_and_abandoned_games(old):
    assert _raw(old, "PRAGMA user_version") == [(2,)]
    statuses = sorted(r[0] for r in _raw(old, "SELECT status FROM saves"))
    assert statuses.count("finished") == 4 and "abandoned" in statuses


def test_the_finished_games_are_rated_in_play_order_on_upgrade(old):
    finished = [r[0] for r in _raw(old, "SELECT id FROM saves WHERE status = 'finished' "
                                        "ORDER BY saved_wall")]  # fmt: skip
    stats = _raw(old, "SELECT * FROM seat_stats ORDER BY save, seat")
    store = Store(old, "tables")
    try:
        games = store.league(lambda c: c.execute(
            "SELECT save, rated FROM league_games ORDER BY n").fetchall())  # fmt: skip
        lines = store.league(lambda c: standings(c, "nuggets"))
    finally:
        store.close()
    assert _raw(old, "PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(3,)]
    assert [g for g, _ in games] == finished and all(r for _, r in games)
    by_name = {s.name: s for s in lines}
    assert set(by_name) == {"Ann", "Bob", "Easy bot", "Normal bot", "Hard bot"}
    assert (by_name["Ann"].games, by_name["Bob"].games, by_name["Easy bot"].games) == (4, 1, 2)
    assert all(s.provisional and s.rating is None for s in lines)
    assert _raw(old, "SELECT * FROM seat_stats ORDER BY save, seat") == stats  # untouched
    # once: a second open records nothing again
    Store(old, "tables").close()
    assert _raw(old, "SELECT COUNT(*) FROM league_games") == [(4,)]


def test_rebuild_reproduces_the_backfilled_standings_exactly(old):
    store = Store(old, "tables")
    try:
        before = store.league(lambda c: (standings(c), c.execute(
            "SELECT * FROM league_seats ORDER BY n, seat").fetchall()))  # fmt: skip
        assert store.league_change(ledger.rebuild) == 4
        after = store.league(lambda c: (standings(c), c.execute(
            "SELECT * FROM league_seats ORDER BY n, seat").fetchall()))  # fmt: skip
    finally:
        store.close()
    assert after == before and before[0]
