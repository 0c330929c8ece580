"""`motherlode replay ID|FILE`: a saved game (by its id in the saves database, or an
exported file) steps forward and back at its own table, seen from any seat or as a
spectator; a damaged file gets a message, an unknown id a clear error, never a
traceback."""

from __future__ import annotations

import pytest

from net.clock import FakeClock
from net.host import Host
from net.saves import Saved, Store
from net.views import to_plain
from tests.hardening.harness import drive
from tui.cli import _app_start, build_parser
from tui.games.foolsgold.replay import FoolsGoldReplayScreen
from tui.games.nuggets.replay import NuggetsReplayScreen
from tui.screens.common import MessageScreen
from tui.screens.menu import MenuScreen

from .harness import make_app, until
from .helpers import screen_text


async def _saved_game(tmp_path, game: str):
    clock = FakeClock()
    store = Store.default("solo")
    host = Host(clock=clock, store=store)
    own = {"supply": 10} if game == "nuggets" else {}  # a setting of that game's own
    table = host.create_table("Replay", game, seats=3, bots=3, seed="rp", bot_pace=0.2, **own)
    host.start_game(table)
    if game == "nuggets":
        await drive(clock, lambda: table.phase == "over")
    else:  # a match in progress: an unfinished save replays too
        await drive(clock, lambda: table.driver.match.round_no >= 2)
    await host.close()
    (ident,) = [g.id for g in store.kept()] if game == "nuggets" else store.unfinished()
    return ident


@pytest.mark.slow
async def test_step_through_a_dice_game_from_each_seat(tmp_path):
    ident = await _saved_game(tmp_path, "nuggets")
    saved = Store.default("solo").load(ident)
    assert saved.status == "finished"
    steps = saved.steps()
    app = make_app(tmp_path, start=("replay", ident, None))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NuggetsReplayScreen), "replay")
        screen = app.screen
        assert screen.index == 0 and screen.watching is None
        assert "Replay 0/" in screen_text(app) and "seen by a spectator" in screen_text(app)
        await pilot.press("right", "right", "right")
        assert screen.index == 3
        assert screen.view.holdings == steps[3][1][-1]["holdings"]
        assert screen.view.rolled == steps[3][1][-1]["rolled"]
        await pilot.press("left")
        assert screen.index == 2
        await pilot.press("s")
        assert screen.watching == 0 and screen.my_seats == [0]
        assert f"seen by {saved.players[0]}" in screen_text(app)
        await pilot.press("end")
        assert screen.index == len(steps) - 1 and screen.view.over
        assert screen.finished
        await pilot.press("right")  # past the end: stays
        assert screen.index == len(steps) - 1
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("enter", "t")  # the game's keys do nothing in a replay
        assert screen.index == 0
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "back at the menu")


@pytest.mark.slow
async def test_a_card_game_shows_only_the_chosen_seats_hand(tmp_path):
    ident = await _saved_game(tmp_path, "foolsgold")
    path = tmp_path / "shared.json"  # `motherlode export`'s file: the same game
    path.write_bytes(Store.default("solo").load(ident).export(tokens=False))
    steps = Saved.load(path).steps()
    assert steps == Store.default("solo").load(ident).steps()
    app = make_app(tmp_path, start=("replay", str(path), 1))
    async with app.run_test(size=(110, 44)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldReplayScreen), "replay")
        screen = app.screen
        await pilot.press("pagedown")
        assert screen.index == 20
        assert screen.seat == 1 and to_plain(screen.view.hand) == steps[20][1][1]["hand"]
        await pilot.press("w")
        assert screen.seat is None and screen.view.hand is None
        await pilot.press("3")
        assert to_plain(screen.view.hand) == steps[20][1][2]["hand"]
        await pilot.press("9")  # no such seat: nothing changes
        assert screen.watching == 2


async def test_a_damaged_file_gets_a_message(tmp_path):
    path = tmp_path / "broken.json"
    path.write_bytes(b'{"format": "motherlode-table", "version": 1, "status"')
    app = make_app(tmp_path, start=("replay", str(path), None))
    async with app.run_test() as pilot:
        await until(pilot, lambda: isinstance(app.screen, MessageScreen), "a message")
        await until(pilot, lambda: "not a whole save" in screen_text(app), "the message drawn")


async def test_the_replay_command(tmp_path):
    parser = build_parser()
    path = tmp_path / "game.json"
    path.write_text("{}")
    args = parser.parse_args(["replay", str(path), "--seat", "2"])
    assert _app_start(parser, args) == ("replay", str(path), 1)  # the app reads it
    ident = await _saved_game(tmp_path, "nuggets")
    for given in (ident, ident[:-3]):  # the id, or the start of it
        command, saved, seat = _app_start(parser, parser.parse_args(["replay", given]))
        assert (command, saved.id, seat) == ("replay", ident, None)
    for missing in (str(tmp_path / "missing.json"), "no-such-game"):
        args = parser.parse_args(["replay", missing])
        with pytest.raises(SystemExit):
            _app_start(parser, args)
