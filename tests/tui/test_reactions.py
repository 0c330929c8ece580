"""Quick reactions in the app (issue 61), at a real LAN host in this process: one key
each at the table (listed in ? Keys; e picks one, the touch bar's button), a fading mark
by the player's name and one log line at every seat and watcher; the app keeps to one
every 2 s itself (on the screen's clock, a test's own here)."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net.clock import FakeClock
from net.lan import LanHost
from tests.net.helpers import Raw
from tests.tui.harness import log_text, make_app, until
from tui.screen_text import screen_text
from tui.settings import Settings
from tui.widgets.touchbar import TouchBar, show_touch_bars

pytestmark = pytest.mark.timeout(60)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def raw4(port: int, name: str, **kw) -> Raw:
    raw = await Raw.open(port)
    await raw.send(p.Hello(protocol=4, name=name, **kw))
    await raw.expect(p.Welcome)
    return raw


def marks(app) -> str:
    return str(app.table.query_one("Holdings").render())


async def test_a_reaction_key_reaches_every_seat_and_watcher_and_its_mark_fades(tmp_path):
    host_clock = FakeClock()
    lan = LanHost(save=False, clock=host_clock)
    lan.host.create_table("Main", "nuggets", seats=2, bot_pace=0.0)
    await lan.listen("127.0.0.1", 0)
    try:
        app = make_app(tmp_path, settings=Settings(name="Ann"),
                       start=("join", "127.0.0.1", lan.port, False))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.screen is app.lobby,
                        "the lobby")
            bob = await raw4(lan.port, "Bob")
            eve = await raw4(lan.port, "Eve", spectate=True)
            await pilot.press("r")
            await bob.send(p.Ready())
            await until(pilot, lambda: app.table is not None and app.screen is app.table
                        and app.table.view is not None, "the table")
            clock = Clock()
            app.table.clock = clock
            assert "e React" in screen_text(app)
            await pilot.press("question_mark")  # ? Keys lists all six
            await until(pilot, lambda: hasattr(app.screen, "sections"), "the keys")
            listed = dict(app.screen.sections)["Every table"]
            assert [line for key, line in listed if line.startswith("react: ")] == [
                f"react: {words}" for words in p.REACTIONS.values()]
            assert ("i", "react: Nice!") in listed and ("k", "react: Thanks") in listed
            await pilot.press("escape")

            await pilot.press("i")  # Nice!
            await until(pilot, lambda: "Ann reacts: Nice!" in log_text(app.table), "the line")
            for raw in (bob, eve):
                said = await asyncio.wait_for(raw.expect(p.Reaction), 10)
                assert (said.seat, said.name, said.reaction) == (0, "Ann", "nice")
            await until(pilot, lambda: "Ann 0 «Nice!»" in marks(app), "Ann's mark")
            await pilot.press("o")  # within 2 s: not sent, said
            await until(pilot, lambda: any("One reaction every 2 s" in n.message
                                           for n in app._notifications), "the limit said")
            await bob.send(p.React(reaction="gg"))
            await until(pilot, lambda: "Bob reacts: Good game" in log_text(app.table),
                        "Bob's line")
            await until(pilot, lambda: "Bob 0 «Good game»" in marks(app), "Bob's mark")
            for raw in (bob, eve):  # Ann's "o" never left her app
                assert (await asyncio.wait_for(raw.expect(p.Reaction), 10)).reaction == "gg"
            clock.now += 4.0  # the marks fade
            app.table.fade_reactions()
            await until(pilot, lambda: "«" not in marks(app), "the marks gone")
            assert log_text(app.table).count("reacts:") == 2

            # e picks one (the phone's touch bar has it as a button, React): 2 s on (the
            # app's and the host's), sent
            show_touch_bars(app, True)
            await until(pilot, lambda: ("React", "react_pick") in
                        app.table.query_one(TouchBar).buttons(), "the touch bar's React")
            clock.now += 2.0
            host_clock.advance(2.0)
            await pilot.press("e")
            await until(pilot, lambda: "Bluff? (b)" in screen_text(app), "the picker")
            await pilot.press("3")
            await until(pilot, lambda: "Ann reacts: Bluff?" in log_text(app.table), "bluff")
            said = await asyncio.wait_for(bob.expect(p.Reaction), 10)
            assert (said.name, said.reaction) == ("Ann", "bluff")
            for raw in (bob, eve):
                raw.close()
    finally:
        await lan.close()
