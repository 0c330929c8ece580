"""The app's guided first round ends at the guide's pace (issue 58, finding 5): ``solo
--guided`` plays Fool's Gold's first round at relaxed pace and the rest of the match at
the pace the player would have had (normal here), the change said in the table's log in
the pace's words. Once it lasted the whole match: 16 s pauses for every round."""

from __future__ import annotations

from net.clock import FakeClock
from tests.tui.harness import dealt, log_text, make_app, until
from tui.widgets.guide import Guide


async def test_the_guided_round_is_relaxed_and_round_two_normal(tmp_path):
    clock = FakeClock()
    app = make_app(tmp_path, start=("solo", "foolsgold", 2, True), host_clock=clock,
                   table_options={"seed": "phases-cards", "bot_pace": 0.5})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await dealt(app, pilot)
        assert screen.query(Guide) and app.session.table.settings.pace == "relaxed"
        windows = []
        for round_no in (1, 2):
            await until(pilot, lambda n=round_no: screen.view.round_no == n
                        and not screen.view.grabbed and bool(screen.view.hand),
                        f"round {round_no} dealt")
            await pilot.press("g")  # Ann grabs at once: the race and the call window open
            await until(pilot, lambda: bool(screen.view.grabbed), "Ann's grab")
            first, at = screen.view.grabbed[0]
            assert first == screen.seat
            windows.append(screen.view.call_closes - at)

            async def on(n=round_no) -> bool:  # the host's clock on to the next round
                clock.advance(0.5)
                return screen.view.round_no > n or screen.view.winner is not None

            await until(pilot, on, f"round {round_no} over and the next dealt")
        assert windows == [20.0, 5.0]  # the guide's (x4), then the game's own call window
        assert app.session.table.settings.pace == "normal"
        assert ("The rest of the game is at normal pace (it was relaxed for the guided "
                "round).") in log_text(screen)


async def test_a_replay_shows_the_pace_change_where_it_came(tmp_path):
    """A guided game's save, stepped through: the step where the guided round ended
    says the pace changed, and the log says it in words."""
    from net.host import Host
    from net.saves import Store
    from tests.hardening.harness import drive
    from tui.games.foolsgold.replay import FoolsGoldReplayScreen
    from tui.screen_text import screen_text

    clock = FakeClock()
    store = Store.default("solo")
    host = Host(clock=clock, store=store)
    table = host.create_table("Guided", "foolsgold", seats=3, bots=3, seed="rp",
                              bot_pace=0.2, pace="relaxed", after_guide="normal")
    host.start_game(table)
    await drive(clock, lambda: table.driver.match.round_no >= 2)
    await host.close()
    (ident,) = store.unfinished()
    steps = Store.default("solo").load(ident).steps()
    (at,) = [i for i, (step, _) in enumerate(steps) if step.pace is not None]
    app = make_app(tmp_path, start=("replay", ident, None))
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, FoolsGoldReplayScreen), "replay")
        screen = app.screen
        await pilot.press(*["right"] * (at - 1))
        assert "the pace" not in screen_text(app)
        assert "The rest of the game is at" not in log_text(screen)
        await pilot.press("right")
        assert screen.index == at
        assert f"Replay {at}/{len(steps) - 1} (the pace: normal from here)" in screen_text(app)
        assert "The rest of the game is at normal pace." in log_text(screen)
