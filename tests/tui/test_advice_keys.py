"""The advisor's words and its one key in a steal position, through a real host.

Last turn: Ann 27, Bob 45, supply 5. Taking the 5 ends the game with Bob ahead; the
advice is to steal from Bob, and the panel, the hint and the space key all say and do
exactly that (issue 19: the panel used to figure a steal the keys never played)."""

from __future__ import annotations

import pytest

from net.host import Host

from .harness import Rigged, make_app, ready_at_dice_table, until
from .helpers import screen_text

pytestmark = pytest.mark.timeout(60)


def flat(app) -> str:
    """The screen's text with the wrapping undone."""
    return " ".join(screen_text(app).split())


async def _last_turn(tmp_path, pilot_keys):
    host = Host()
    await host.start(bind="127.0.0.1", port=0)
    try:
        host.create_table("Saloon", "nuggets", seats=2, bots=1, bot_pace=0.0, seed="steal-1",
                          first_player=1)
        table = next(iter(host.tables.tables.values()))
        app = make_app(tmp_path, start=("join", "127.0.0.1", host.port))
        async with app.run_test(size=(100, 30)) as pilot:
            screen = await ready_at_dice_table(pilot)
            await until(pilot, lambda: screen.acting_seat is not None, "Ann's turn")
            me = screen.acting_seat
            bob = 1 - me
            game = table.driver.state
            game.holdings[me], game.holdings[bob] = 27, 45
            game.supply = 5
            table.driver.rng = Rigged(["lasso", "lasso", "5", "5", "5", "2", "3", "lasso", "5"])
            names = screen.view.players
            await pilot.press("enter")  # roll all seven
            await until(pilot, lambda: screen.view.phase == "keep", "the roll")
            await pilot.press("l", "f5", "enter")  # two lassos and three 5s, roll on
            await until(pilot, lambda: screen.view.phase == "keep" and screen.view.dice_left == 2,
                        "the last two dice")
            result = await pilot_keys(pilot, screen, names[bob])
            return result, game, me, bob
    finally:
        await host.close()


@pytest.mark.slow
async def test_the_panel_and_hint_name_the_steal_and_space_plays_it(tmp_path):
    async def keys(pilot, screen, bob):
        text = flat(pilot.app)
        assert "then stop and steal 5 from " + bob in text
        assert f"Then: win steal from {bob} 22.1% / take 0.0%" in text
        assert f"Advised: set aside 1x lasso + 1x 5 and stop and steal 5 from {bob}" in text
        await pilot.press("space")  # selects the set-aside
        await pilot.pause()
        assert f"then stop and steal 5 from {bob}: space plays it" in flat(pilot.app)
        await pilot.press("space")  # plays it: keep, then steal
        await until(pilot, lambda: screen.view.phase != "take" and screen.view.kept == []
                    or screen.view.over, "the steal is played")

    _, game, me, bob = await _last_turn(tmp_path, keys)
    assert (game.holdings[me], game.holdings[bob], game.supply) == (32, 40, 5)
    assert not game.over


@pytest.mark.slow
async def test_enter_alone_plays_the_steal_too(tmp_path):
    async def keys(pilot, screen, bob):
        await pilot.press("enter")  # nothing selected: the advice, asked first
        await pilot.pause()
        assert f"and stop and steal 5 from {bob}, as the advisor would" in flat(pilot.app)
        await pilot.press("enter")
        await until(pilot, lambda: screen.view.kept == [] or screen.view.over, "played")

    _, game, me, bob = await _last_turn(tmp_path, keys)
    assert (game.holdings[me], game.holdings[bob]) == (32, 40) and not game.over


@pytest.mark.slow
async def test_after_the_set_aside_the_hint_names_s_and_space_steals(tmp_path):
    async def keys(pilot, screen, bob):
        await pilot.press("l", "f5")
        await pilot.press("enter")  # sets aside lasso and 5 (all seven): must take now
        await until(pilot, lambda: screen.view.phase == "take", "all seven set aside")
        text = flat(pilot.app)
        assert f"stop and steal 5 from {bob}: win 22.1%; take from the supply: 0.0%" in text
        assert f"Advised: stop and steal 5 from {bob} (space or s)" in text
        await pilot.press("space")
        await until(pilot, lambda: screen.view.phase != "take", "the steal")

    _, game, me, bob = await _last_turn(tmp_path, keys)
    assert (game.holdings[me], game.holdings[bob]) == (32, 40) and not game.over
