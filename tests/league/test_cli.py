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
