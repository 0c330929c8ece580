"""The client's seat tokens on disk (net.seats): private files, one live holder per
seat, damaged and old files swept, another table's name moves the file."""

import json
import os
import time

import pytest

from net.seats import MAX_AGE, SeatStore, SeatToken


def seat(**changes):
    fields = {"host": "10.0.0.2", "port": 7777, "table": "Den", "name": "Ann",
              "token": "1.secret", "saved": time.time()}
    fields.update(changes)
    return SeatToken(**fields)


def test_a_held_seat_is_private_and_nobody_else_here_can_take_it(tmp_path):
    store = SeatStore(tmp_path / "seats")
    held = store.hold(seat())
    assert held is not None
    assert (tmp_path / "seats").stat().st_mode & 0o777 == 0o700
    for path in (tmp_path / "seats").iterdir():
        assert path.stat().st_mode & 0o777 == 0o600
    assert store.hold(seat()) is None and store.in_use(seat())
    assert store.seats_at("10.0.0.2", 7777, "ann") == []  # held: not offered
    held.release()
    assert not store.in_use(seat())
    assert [s.token for s in store.seats_at("10.0.0.2", 7777, "ANN")] == ["1.secret"]
    assert store.seats_at("10.0.0.2", 7778, "Ann") == [] and store.seats_at(
        "10.0.0.2", 7777, "Bob") == []


def test_damaged_and_old_files_are_swept_quietly(tmp_path):
    store = SeatStore(tmp_path / "seats")
    store.hold(seat(table="Old", saved=time.time() - MAX_AGE - 60)).release()
    store.hold(seat(table="Kept")).release()
    (tmp_path / "seats" / "junk.json").write_text("{not json")
    (tmp_path / "seats" / "wrong.json").write_text(json.dumps({"host": 1}))
    found = store.seats_at("10.0.0.2", 7777, "Ann")
    assert [s.table for s in found] == ["Kept"]
    assert sorted(p.name for p in (tmp_path / "seats").glob("*.json")) == [
        f"{seat(table='Kept').key}.json"]


def test_a_new_token_or_table_name_is_kept_and_forget_deletes(tmp_path):
    store = SeatStore(tmp_path / "seats")
    held = store.hold(seat())
    held.update("2.newer", "Den")
    assert json.loads(store._path(seat()).read_text())["token"] == "2.newer"
    held.update("2.newer", "Saloon")  # the table was renamed: the file follows it
    assert not store._path(seat()).exists() and store.in_use(seat(table="Saloon"))
    held.forget()
    assert list((tmp_path / "seats").iterdir()) == []
    assert not os.path.exists(store._lock_path(seat(table="Saloon")))


def test_seat_files_and_the_database_never_follow_a_planted_symlink(tmp_path):
    """A state folder others could write to is made private (told), someone else's is
    refused; a symlink planted for a seat file or the database is not followed."""
    import os

    from net.paths import UnsafeDir, private_dir
    from net.saves.db import connect
    from net.saves.errors import SaveError
    from net.seats import SeatStore, SeatToken

    shared = tmp_path / "state"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    assert "private" in private_dir(shared, "the state folder")
    assert shared.stat().st_mode & 0o777 == 0o700
    assert private_dir(shared) is None
    sticky = tmp_path / "everyone"
    sticky.mkdir()
    os.chmod(sticky, 0o1777)  # a shared folder like /tmp: refused, never changed
    with pytest.raises(UnsafeDir, match="shared"):
        private_dir(sticky, "the state folder")
    assert sticky.stat().st_mode & 0o7777 == 0o1777

    store = SeatStore(shared / "seats")
    seat = SeatToken("h", 1, "t", "Ann", "1.x")
    store.directory.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep")
    store._path(seat).symlink_to(victim)
    assert store._read(store._path(seat)) is None  # not read through the link
    tmp = store._path(seat).with_suffix(f".{os.getpid()}.tmp")
    tmp.symlink_to(victim)
    store._write(seat)  # nor written through one
    assert victim.read_text() == "keep"
    assert store._read(store._path(seat)) == seat

    db = tmp_path / "motherlode.db"
    db.symlink_to(victim)
    with pytest.raises(SaveError, match="symbolic link"):
        connect(db)
    assert victim.read_text() == "keep"
