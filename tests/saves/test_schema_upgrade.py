"""A saves database of schema 1 (each game's statistics a column of ``seat_stats``)
opens in this version: its rows' figures move into the JSON ``counts`` by the names the
games declare, in one transaction, and the stats read the same as before."""

from __future__ import annotations

import sqlite3

import pytest

from net.saves import Store
from net.saves.db import FILE, SCHEMA_VERSION

pytestmark = pytest.mark.timeout(60)

# schema 1 as Motherlode wrote it (net/saves/db.py at 1f52ac0)
SCHEMA_1 = """
CREATE TABLE saves (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,         -- "tables", "hotseat" or "solo": who resumes it
    status TEXT NOT NULL,       -- "lobby", "playing", "finished", "abandoned"
    name TEXT NOT NULL,         -- the table's name
    game TEXT NOT NULL,         -- its key in net.catalogue
    players TEXT NOT NULL,      -- the names by seat, as a JSON list
    moves INTEGER NOT NULL,     -- rows in ``moves`` for this save
    saved_at REAL NOT NULL,     -- the host clock's time of the last change
    saved_wall REAL NOT NULL,   -- the wall clock's
    doc BLOB NOT NULL           -- the save document without its log (JSON)
);
CREATE INDEX saves_by_kind ON saves (kind, status);  -- no time in it: a commit that
CREATE INDEX saves_by_status ON saves (status);     -- changes no status leaves them be
CREATE TABLE moves (
    save TEXT NOT NULL,
    n INTEGER NOT NULL,         -- 0, 1, 2, ... in play order
    entry BLOB NOT NULL,        -- {"at", "by", "action", "events"} (JSON)
    PRIMARY KEY (save, n)
) WITHOUT ROWID;
CREATE TABLE seat_stats (
    save TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,         -- as played
    who TEXT NOT NULL,          -- the name casefolded: one player across games
    kind TEXT NOT NULL,         -- "human", "local" or "bot"
    game TEXT NOT NULL,
    won INTEGER NOT NULL,
    turns INTEGER NOT NULL,     -- a game of turns: turns played
    gained INTEGER NOT NULL,    -- nuggets taken (from the supply and by steals)
    busts INTEGER NOT NULL,
    steals INTEGER NOT NULL,
    rounds INTEGER NOT NULL,    -- a game of rounds: rounds played
    grabs INTEGER NOT NULL,     -- first grabs (a set claimed)
    bluffs INTEGER NOT NULL,    -- of those, without a set
    calls INTEGER NOT NULL,
    calls_right INTEGER NOT NULL,
    finished_wall REAL NOT NULL,
    PRIMARY KEY (save, seat)
) WITHOUT ROWID;
CREATE INDEX seat_stats_by_who ON seat_stats (who, game);
"""


ROWS = [  # save, seat, name, who, kind, game, won, turns, gained, busts, steals, rounds,
    # grabs, bluffs, calls, calls_right, finished_wall
    ("g1", 0, "Ann", "ann", "human", "nuggets", 1, 9, 40, 2, 1, 0, 0, 0, 0, 0, 1.0),
    ("g1", 1, "Dusty (bot)", "dusty (bot)", "bot", "nuggets", 0, 8, 37, 3, 0, 0, 0, 0, 0, 0, 1.0),
    ("g2", 0, "ANN", "ann", "human", "nuggets", 0, 5, 10, 1, 2, 0, 0, 0, 0, 0, 2.0),
    ("g3", 2, "Ann", "ann", "human", "foolsgold", 1, 0, 0, 0, 0, 7, 3, 1, 4, 2, 3.0),
]


def test_a_schema_1_database_opens_and_its_stats_read_the_same(tmp_path):
    path = tmp_path / FILE
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_1)
    conn.executemany(f"INSERT INTO seat_stats VALUES ({', '.join('?' * 17)})", ROWS)
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()

    stats = {(r.name, r.game): r for r in Store(tmp_path, "tables").stats(bots=True)}
    ann_dice = next(r for (n, g), r in stats.items() if g == "nuggets" and n != "Dusty (bot)")
    assert (ann_dice.played, ann_dice.won) == (2, 1)
    assert ann_dice.counts == {"turns": 14, "gained": 50, "busts": 3, "steals": 3}
    ann_cards = next(r for (n, g), r in stats.items() if g == "foolsgold")
    assert ann_cards.counts == {"rounds": 7, "grabs": 3, "bluffs": 1, "calls": 4,
                                "calls_right": 2}
    assert ann_cards.calls_right == 2 and ann_dice.gained == 50  # as attributes too
    dusty = next(r for (n, g), r in stats.items() if n == "Dusty (bot)")
    assert dusty.counts["gained"] == 37
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    columns = [row[1] for row in conn.execute("PRAGMA table_info(seat_stats)")]
    assert "counts" in columns and "gained" not in columns
    assert conn.execute("SELECT COUNT(*) FROM seat_stats").fetchone()[0] == len(ROWS)
    conn.close()
    # opened again: nothing more to move, the same figures
    again = {(r.name, r.game): r.counts for r in Store(tmp_path, "tables").stats(bots=True)}
    assert again == {k: r.counts for k, r in stats.items()}
