"""Old save files (versions 1, 2 and 3, made by the file-based saves: ``legacy/``, see
``make_legacy.py``) are imported into the saves database on first start: every one
resumes or replays as before, the originals are moved aside to ``imported/`` byte for
byte, and a file that does not read is named, left in place and never half-imported."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from net.paths import has_saves
from net.saves import Store, load_all
from tests.saves.helpers import play_on

LEGACY = Path(__file__).parent / "legacy"


def _copy(version: str, root: Path) -> dict[str, bytes]:
    """The old data directory of ``version`` under ``root``; its files' bytes by path."""
    shutil.copytree(LEGACY / version, root, dirs_exist_ok=True)
    return {str(f.relative_to(root)): f.read_bytes() for f in root.rglob("*") if f.is_file()}


def _ids(root: Path) -> set[str]:
    return {f.stem for f in root.rglob("*.json")}


def test_version_3_files_are_imported_and_resume_and_replay(tmp_path):
    before = _copy("v3", tmp_path)
    store = Store(tmp_path, "tables")
    saves, problems = load_all(store)
    assert problems == []
    # every file moved aside unchanged; nothing left where the old saves were
    moved = {str(f.relative_to(tmp_path / "imported")): f.read_bytes()
             for f in (tmp_path / "imported").rglob("*") if f.is_file()}  # fmt: skip
    assert moved == before
    assert list(tmp_path.glob("*/*.json")) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["imported", "motherlode.db"] + sorted(
        p.name for p in tmp_path.glob("motherlode.db-*"))  # the emptied folders are gone
    # the LAN tables: a game in play (its history file read) and a lobby
    by_status = {s.status: s for s in saves}
    assert set(by_status) == {"playing", "lobby"}
    game = by_status["playing"]
    assert game.moves == 14 and game.doc.history is None
    assert game.replay() is not None
    lobby = by_status["lobby"]
    assert lobby.players == ["Cat <b>[red]"] and lobby.settings().grace == 45.0
    assert lobby.restore(lobby.saved_at).phase == "lobby"
    # the hot-seat and solo games resume from their own stores
    hot, _ = load_all(Store(tmp_path, "hotseat"))
    solo, _ = load_all(Store(tmp_path, "solo"))
    assert [s.game for s in hot] == ["nuggets"] and [s.game for s in solo] == ["foolsgold"]
    # finished and abandoned games are kept for replays, with their stats
    kept = store.kept()
    assert sorted(k.status for k in kept) == ["abandoned", "finished", "finished"]
    for k in kept:
        record = store.load(k.id)
        assert record.replay() is not None
        original = json.loads(before[f"games/{k.id}.json"])
        assert json.loads(record.export()) == {**original, "history": None}
    assert len(store.stats(bots=True)) == 3 + 3  # the seats of the two finished games
    # and the game in play goes on to its end, in the database
    assert play_on(Store(tmp_path, "tables"), game) == "finished"


def test_the_menu_sees_a_hot_seat_game_before_and_after_the_import(tmp_path, monkeypatch):
    monkeypatch.setenv("MOTHERLODE_DATA_DIR", str(tmp_path))
    assert has_saves("hotseat") is False  # nothing at all: no database is made
    assert not (tmp_path / "motherlode.db").exists()
    _copy("v3", tmp_path)
    assert has_saves("hotseat") is True  # an old file waits
    store = Store.default("hotseat")
    (ident,) = store.unfinished()
    assert has_saves("hotseat") is True and not list((tmp_path / "hotseat").glob("*.json"))
    store.abandon(ident)
    assert has_saves("hotseat") is False


def test_versions_1_and_2_are_imported(tmp_path):
    _copy("v1", tmp_path / "one")
    _copy("v2", tmp_path / "two")
    one = Store(tmp_path / "one")
    (kept,) = one.kept()
    record = one.load(kept.id)
    assert record.doc.version == 1 and record.status == "finished" and record.replay().over
    assert len(one.stats(bots=True)) == 3
    saves, problems = load_all(Store(tmp_path / "two"))
    assert problems == [] and [s.moves for s in saves] == [14]
    assert saves[0].doc.clock is None  # version 2: the table's clock is the save's time
    assert play_on(Store(tmp_path / "two"), saves[0]) == "finished"


def _history_case(root: Path, change) -> tuple[Path, Path]:
    _copy("v3", root)
    (save,) = (root / "tables").glob("saloon-*.json")
    history = save.with_suffix(".history")
    change(save, history)
    return save, history


@pytest.mark.parametrize(("case", "expected"), [
    ("cut short", "does not match its history"),
    ("edited", "does not match its history"),
    ("missing", "cannot be read"),
    ("another file", "not its own"),
    ("not JSON", "not a whole save"),
])  # fmt: skip
def test_a_damaged_old_file_is_named_and_left_in_place(tmp_path, case, expected):
    def change(save: Path, history: Path) -> None:
        data = history.read_bytes()
        if case == "cut short":
            history.write_bytes(data[: len(data) // 2])
        elif case == "edited":
            history.write_bytes(data.replace(b'"by":"player"', b'"by":"bot"', 1))
        elif case == "missing":
            history.unlink()
        elif case == "another file":
            doc = json.loads(save.read_bytes())
            doc["history"]["file"] = "../x.history"
            save.write_text(json.dumps(doc))
        else:
            save.write_bytes(save.read_bytes()[:100])

    save, history = _history_case(tmp_path, change)
    kept = {p: p.read_bytes() for p in (save, history) if p.exists()}
    store = Store(tmp_path)
    saves, problems = load_all(store)
    assert len(problems) == 1 and str(save) in problems[0] and expected in problems[0]
    assert [s.status for s in saves] == ["lobby"]  # the others came in
    assert {p: p.read_bytes() for p in kept} == kept  # left where it was, as it was
    assert store.find(save.stem) == []  # nothing of it half-imported
    _, again = load_all(Store(tmp_path))
    assert again == problems  # said again at each start until it is moved away


def test_a_torn_append_is_ignored_and_strays_are_set_aside(tmp_path):
    def torn(save: Path, history: Path) -> None:
        with open(history, "ab") as f:
            f.write(b'{"at": 1.0, "by": "pla')  # a crash cut an append short

    save, history = _history_case(tmp_path, torn)
    (tmp_path / "tables" / ".saloon-x.json.abc.tmp").write_bytes(b'{"torn"')
    (tmp_path / "tables" / "gone.history").write_bytes(b"{}\n")
    saves, problems = load_all(Store(tmp_path))
    assert problems == []
    game = next(s for s in saves if s.status == "playing")
    assert game.moves == 14 and game.replay() is not None
    aside = {p.name for p in (tmp_path / "imported" / "tables").iterdir()}
    assert {".saloon-x.json.abc.tmp", "gone.history", save.name, history.name} <= aside


def test_an_import_cut_short_is_finished_at_the_next_start_without_doubles(tmp_path):
    """A crash after a file's rows were committed and before it was moved leaves it in
    place: the next start moves it aside and adds nothing twice."""
    before = _copy("v3", tmp_path)
    Store(tmp_path).check()  # the first start imports everything
    again = tmp_path / "games"
    again.mkdir(exist_ok=True)  # a crash before the move would have left it
    for name, data in before.items():
        if name.startswith("games/"):
            (tmp_path / name).write_bytes(data)  # as if the moves had not happened
    store = Store(tmp_path)
    saves, problems = load_all(store)
    assert problems == [] and list(again.glob("*.json")) == []
    assert len(store.kept()) == 3
    copies = [p.name for p in (tmp_path / "imported" / "games").iterdir()]
    assert len(copies) == 6  # the second copies kept too, with a number: nothing deleted
    digest = {hashlib.sha256(p.read_bytes()).hexdigest()
              for p in (tmp_path / "imported" / "games").iterdir()}  # fmt: skip
    assert len(digest) == 3


def test_a_database_of_the_previous_protocol_resumes_and_replays(tmp_path):
    """``legacy/db1`` was written at 1f52ac0 (``make_db1.py``): protocol 2, saves schema
    1, every move logged by its own message type, a game's settings beside the table's,
    a column a statistic. This version opens it: the games in play resume and go on to
    their ends, the lobby comes back, the finished game replays, and its stats read."""
    shutil.copy(LEGACY / "db1" / "motherlode.db", tmp_path / "motherlode.db")
    with sqlite3.connect(tmp_path / "motherlode.db") as old:  # schema 1's own columns
        rows = old.execute("SELECT name, turns, gained, busts, steals FROM seat_stats")
        before = {name: figures for name, *figures in rows}
    store = Store(tmp_path, "tables")
    saves, problems = load_all(store)
    assert problems == []
    by_game = {(s.status, s.game): s for s in saves}
    assert set(by_game) == {("playing", "nuggets"), ("playing", "foolsgold"),
                            ("lobby", "nuggets")}
    dice = by_game[("playing", "nuggets")]
    assert dice.settings().game["supply"] == 30 and dice.replay() is not None
    lobby = by_game[("lobby", "nuggets")]
    assert lobby.restore(lobby.saved_at).phase == "over"  # the table after its game
    (done,) = store.kept()
    assert store.load(done.id).replay() is not None
    stats = {r.name: r for r in store.stats(bots=True)}
    assert stats["Ann"].played == 1 and stats["Ann"].turns > 0
    assert {r.name: [r.turns, r.gained, r.busts, r.steals] for r in stats.values()} == before
    for saved in (dice, by_game[("playing", "foolsgold")]):
        assert play_on(Store(tmp_path, "tables"), saved) == "finished"
