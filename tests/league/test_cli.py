"""``motherlode league`` from the shell: standings, --json, --vs, seasons, --rebuild,
and clear one-line errors (on the database main wrote before the league)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from net.saves.db import FILE
from tui.cli import main

pytestmark = pytest.mark.timeout(60)

DB3 = Path(__file__).parent.parent / "saves" / "legacy" / "db3" / FILE


@pytest.fixture
def data(tmp_path, monkeypatch):
    shutil.copy(DB3, tmp_path / FILE)
    monkeypatch.setenv("MOTHERLODE_DATA_DIR", str(tmp_path))
    return tmp_path


def test_standings_json_vs_season_and_rebuild(data, capsys):
    assert main(["league"]) == 0
    text = capsys.readouterr().out
    assert "Gold Nuggets, all time" in text and "new (4 of 10)" in text
    assert main(["league", "--json", "--game", "nuggets"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == {"Ann", "Bob", "Easy bot", "Normal bot", "Hard bot"}
    assert all(set(r) == {"name", "game", "rating", "games", "wins", "provisional"}
               for r in rows)
    ann = next(r for r in rows if r["name"] == "Ann")
    assert (ann["rating"], ann["games"], ann["provisional"]) == (None, 4, True)
    assert main(["league", "--vs", "ANN", "bob"]) == 0
    assert "Ann against Bob: 1 game together" in capsys.readouterr().out
    assert main(["league", "season", "Winter", "2026"]) == 0
    assert "Season 1, 'Winter 2026'" in capsys.readouterr().out
    assert main(["league", "--season", "winter 2026", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["league", "--json"]) == 0
    before = capsys.readouterr().out
    assert main(["league", "--rebuild"]) == 0
    assert "from 4 rated games" in capsys.readouterr().out
    assert main(["league", "--json"]) == 0
    assert capsys.readouterr().out == before


@pytest.mark.parametrize("argv, said", [
    (["league", "--game", "chess"], "no game called 'chess'"),
    (["league", "--season", "Spring"], "no season called 'Spring'"),
    (["league", "--vs", "Ann", "Zed"], "'Zed' has played no game"),
    (["league", "season"], "motherlode league season NAME"),
])
def test_bad_requests_say_why_in_one_line(data, capsys, argv, said):
    assert main(argv) != 0
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and err.count("\n") == 1


def test_export_carries_a_games_ratings_and_the_whole_league(data, capsys, tmp_path,
                                                            monkeypatch):
    from net.saves.saved import Saved

    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)
    assert main(["league", "season", "Winter 2026"]) == 0
    assert main(["export", "two-"]) == 0
    (written,) = out.glob("two-*.json")
    record = json.loads(written.read_text())
    league = record["league"]
    assert league["rated"] is True and league["season"] is None  # played before it
    assert league["seasons"] == ["Winter 2026"]
    assert [(s["name"], s["place"], s["rated"], s["games"]) for s in league["seats"]] == [
        ("Hard bot", 1, True, 1), ("Ann", 2, True, 3)]
    assert Saved.load(written).id == record["id"]  # still a record replay reads
    assert main(["export", "--league"]) == 0
    whole = json.loads((out / "league.json").read_text())
    assert [s["name"] for s in whole["seasons"]] == ["Winter 2026"]
    alltime = [r for r in whole["ratings"] if r["season"] is None]
    assert {r["name"] for r in alltime} == {"Ann", "Bob", "Easy bot", "Normal bot",
                                            "Hard bot"}
    assert main(["export"]) == 2
    assert "name a game's ID, or --league" in capsys.readouterr().err
