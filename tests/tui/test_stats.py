"""Player stats from the saves database: the Stats screen (t at the menu), `motherlode
stats [NAME]`, and the figures against the games they count."""

from __future__ import annotations

from net.games.nuggets.stats import per_turn
from net.saves.cli import run as run_saves_command
from tests.tui.harness import a_finished_game
from tui.cli import build_parser
from tui.screens.menu import MenuScreen
from tui.screens.stats import StatsScreen

from .harness import make_app, until
from .helpers import screen_text


async def test_the_stats_count_each_turn_bust_and_steal_of_a_finished_game(tmp_path):
    store = await a_finished_game()
    (kept,) = store.kept()
    record = store.load(kept.id)
    winners, _ = record.replay().result()
    rows = {r.name: r for r in store.stats(bots=True)}
    assert len(rows) == 3 and {"Ann", "Bob"} <= set(rows)
    for seat, name in enumerate(record.players):
        events = [ev for e in record.doc.log for ev in e.events if ev.get("seat") == seat]
        ends = [ev for ev in events if ev["type"] in ("took", "stole", "bust")]
        row = rows[name]
        assert (row.played, row.won) == (1, int(seat in winners))
        assert row.turns == len(ends) > 0
        assert row.busts == sum(ev["type"] == "bust" for ev in ends)
        assert row.steals == sum(ev["type"] == "stole" for ev in ends)
        assert row.gained == sum(ev["amount"] for ev in ends if ev["type"] != "bust")
    assert {r.name for r in store.stats()} == {"Ann", "Bob"}  # people only, by default
    assert [r.name for r in store.stats("ANN")] == ["Ann"]  # any case


async def test_the_stats_screen_and_command(tmp_path, capsys):
    store = await a_finished_game()
    people = {r.name: r for r in store.stats()}
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the stats")
        text = screen_text(app)
        assert "Player stats" in text and "Gold Nuggets" in text
        ann = next(line for line in text.splitlines() if " Ann " in line)
        assert f"{per_turn(people['Ann']):.2f}" in ann
        assert "(bot)" not in text
        await pilot.press("b")
        await until(pilot, lambda: "(bot)" in screen_text(app), "the bots counted")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    parser = build_parser()
    assert run_saves_command(parser.parse_args(["stats"])) == 0
    out = capsys.readouterr().out
    assert "Ann" in out and "Bob" in out and "bust rate" in out
    assert run_saves_command(parser.parse_args(["stats", "bob"])) == 0
    out = capsys.readouterr().out
    assert "Bob" in out and "Ann" not in out
    assert run_saves_command(parser.parse_args(["stats", "nobody"])) == 0
    assert "No finished games for 'nobody'" in capsys.readouterr().out


async def test_export_writes_one_file_that_replays_and_refuses_to_overwrite(tmp_path, capsys):
    store = await a_finished_game()
    (kept,) = store.kept()
    parser = build_parser()
    target = tmp_path / "shared.json"
    assert run_saves_command(parser.parse_args(["export", kept.id[:12], "-o", str(target)])) == 0
    assert "motherlode replay" in capsys.readouterr().out
    from net.saves import Saved

    shared = Saved.load(target)
    assert shared.doc.log == store.load(kept.id).doc.log and shared.replay().over
    assert all(m.secret == "" for m in shared.doc.members)  # no seat can be taken with it
    before = target.read_bytes()
    assert run_saves_command(parser.parse_args(["export", kept.id, "-o", str(target)])) == 1
    assert "exists" in capsys.readouterr().err and target.read_bytes() == before
    assert run_saves_command(parser.parse_args(["export", "no-such-game"])) == 1
    assert "no file and no saved game 'no-such-game'" in capsys.readouterr().err


async def test_games_lists_the_kept_games_with_the_ids_replay_takes(tmp_path, capsys):
    parser = build_parser()
    assert run_saves_command(parser.parse_args(["games"])) == 0
    assert "No games kept yet" in capsys.readouterr().out
    store = await a_finished_game()
    (kept,) = store.kept()
    assert run_saves_command(parser.parse_args(["games"])) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == kept.id
    assert "Gold Nuggets: " in out and "Ann" in out and "won by" in out
    from tui.cli import _app_start  # what `motherlode replay ID` opens

    command, saved, _ = _app_start(parser, parser.parse_args(["replay", kept.id[:14]]))
    assert command == "replay" and saved.id == kept.id
    assert run_saves_command(parser.parse_args(["games", "--limit", "0"])) == 2
    assert "--limit must be 1 or more" in capsys.readouterr().err
