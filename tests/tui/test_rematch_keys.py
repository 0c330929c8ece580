"""The rematch in the app (issue 61), at a real LAN host in this process: Bob (a
hand-driven client) offers it; Ann's status line says who said what and her keys, the
footer shows p, N and the owner's S; Ann starts it with those who said yes (S), and Cy,
who had not answered, is freed to watch."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net.clock import FakeClock
from net.lan import LanHost
from tests.net.helpers import Raw, greedy_nuggets
from tests.tui.harness import make_app, until
from tui.screen_text import screen_text
from tui.settings import Settings

pytestmark = pytest.mark.timeout(60)


async def raw4(port: int, name: str) -> Raw:
    raw = await Raw.open(port)
    await raw.send(p.Hello(protocol=4, name=name))
    await raw.expect(p.Welcome)
    return raw


async def test_the_owner_starts_the_rematch_with_those_who_said_yes(tmp_path):
    lan = LanHost(save=False, clock=FakeClock())
    # Bob starts and the supply holds one nugget: his first take ends the game
    lan.host.create_table("Main", "nuggets", seats=3, first_player=1, supply=1,
                          seed="rematch-keys")
    await lan.listen("127.0.0.1", 0)
    try:
        app = make_app(tmp_path, settings=Settings(name="Ann"),
                       start=("join", "127.0.0.1", lan.port, False))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby is not None and app.screen is app.lobby,
                        "the lobby")
            bob, cy = await raw4(lan.port, "Bob"), await raw4(lan.port, "Cy")
            await pilot.press("r")
            await bob.send(p.Ready())
            await cy.send(p.Ready())
            over = False
            while not over:  # Bob plays until the game ends (a bust passes to Cy: none
                message = await asyncio.wait_for(bob.recv(), 10)  # with this seed)
                if isinstance(message, p.State) and not message.view.over and \
                        message.view.current == 1:
                    await bob.send(greedy_nuggets(message.view))
                over = isinstance(message, p.Over)
            await until(pilot, lambda: app.table is not None and app.table.finished,
                        "the game over")
            await bob.send(p.Again(answer="yes"))
            await until(pilot, lambda: "Rematch offered by Bob; yes: Bob; waiting for Ann, "
                        "Cy. p: yes, N: no." in screen_text(app), "the offer")
            await until(pilot, lambda: all(key in screen_text(app) for key in (
                "p Play again", "N No rematch", "S Start now")), "p, N and S in the footer")
            await pilot.press("S")
            await until(pilot, lambda: app.session.seats == [0] and app.table is not None
                        and not app.table.finished and app.table.view is not None,
                        "the new game, Ann at seat 1")
            assert [s.name for s in app.session.table.seats] == ["Ann", "Bob"]
            welcome = await asyncio.wait_for(cy.expect(p.Welcome), 10)
            assert welcome.seats == [] and welcome.token is None  # Cy watches
            for raw in (bob, cy):
                raw.close()
    finally:
        await lan.close()
