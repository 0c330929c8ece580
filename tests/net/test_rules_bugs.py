"""A bug in a rules package is not an illegal move: the table catches exactly the rules'
``IllegalAction`` classes; anything else is logged, answered ``internal``, and the
table goes on."""

import asyncio
import logging

import pytest

from net import protocol as p
from net.client import Client
from net.clock import FakeClock
from net.games import Refused, make_driver
from net.games.foolsgold import moves as fm
from net.games.nuggets import moves as nm
from net.games.nuggets import views as nuggets_views
from net.host import Host


def test_the_host_refuses_under_its_own_name_exactly_what_the_rules_refuse():
    """The rules' ``IllegalAction`` reaches the table as the host's ``Refused``, with the
    rules' message and error kept; a plain ``ValueError`` (a bug) is not a refusal."""
    import random

    import foolsgold
    import nuggets

    assert not issubclass(ValueError, Refused) and issubclass(Refused, ValueError)
    dice = make_driver("nuggets", ["Ann", "Bob"], 0, random.Random(1))
    with pytest.raises(Refused, match="turn") as refused:
        dice.act(1, nm.ROLL(), 0.0)  # not Bob's turn: the driver's own refusal
    dice.act(0, nm.ROLL(), 0.0)
    with pytest.raises(Refused) as refused:
        dice.act(0, nm.STOP(), 0.0)  # nothing set aside yet: the rules refuse
    assert isinstance(refused.value.__cause__, nuggets.IllegalAction)
    assert str(refused.value) == str(refused.value.__cause__)
    cards = make_driver("foolsgold", ["Ann", "Bob", "Cy"], 0, random.Random(1))
    cards.start(0.0)
    with pytest.raises(Refused) as refused:
        cards.act(0, fm.CALL(), 0.1)  # nobody grabbed: the rules refuse
    assert isinstance(refused.value.__cause__, foolsgold.IllegalAction)


@pytest.mark.timeout(20)
async def test_a_bug_in_the_rules_is_an_internal_error_logged_and_the_game_goes_on(caplog):
    host = Host(clock=FakeClock())
    table = host.create_table("Den", "nuggets", seats=2, bots=1, seed="bug", first_player=1,
                              bot_pace=5.0)
    client = await Client.local(host, "Ann")
    try:
        await client.send(p.Start())
        while not isinstance(await asyncio.wait_for(client.recv(), 5), p.State):
            pass
        real = table.driver.act

        def broken(seat, action, now):
            raise ValueError("a bug in the rules")  # not an IllegalAction

        table.driver.act = broken
        with caplog.at_level(logging.ERROR):
            await client.send(nm.ROLL())
            while True:
                item = await asyncio.wait_for(client.recv(), 5)
                if isinstance(item, p.Error):
                    break
        assert item.code == "internal" and "a bug in the rules" not in item.message
        assert any("a bug in the rules" in r.getMessage() or (r.exc_info and "a bug in the rules"
                   in str(r.exc_info[1])) for r in caplog.records)
        table.driver.act = real
        await client.send(nm.ROLL())  # the table lives on: the same move now works
        while True:
            item = await asyncio.wait_for(client.recv(), 5)
            if isinstance(item, p.State) and item.events:
                break
        assert isinstance(item.events[0], nuggets_views.Rolled)
    finally:
        await client.close()
        await host.close()
