"""The benches' in-host bot tables (``bench/inhost.py``: ``people_first``,
``net_capacity --inhost``, ``net_gc``, ``net_spectators``) still hook the table's
actions: a refactor of ``net.table`` once left them calling a method that was gone,
and every one of those benches failed at its start."""

import sys
from pathlib import Path

import pytest

from net.clock import FakeClock
from net.table.play import Play

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from inhost import BotTables  # noqa: E402

pytestmark = pytest.mark.timeout(60)


async def test_the_benches_bot_tables_play_and_time_their_actions(make_host):
    clock = FakeClock()
    host = await make_host(clock=clock, listen=False)
    submit = Play.submit
    bots = BotTables(host, 2)
    try:
        for step in range(1, 400):
            clock.advance_to(step * 0.25)
        assert bots.moves > 20
        assert bots.late and all(late >= 0 for late in bots.late)
    finally:
        bots.close()
    assert Play.submit is submit  # the patch is undone
