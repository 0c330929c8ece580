"""A ``leave`` sent just before ``close()`` reaches the host (found by the slowloris run).

``net.client.Client.close()`` used to close the socket at once. When messages from the host
are still unread at that moment (the table update and notices that follow a welcome),
the kernel answers the close with a reset, and the host can lose the ``leave`` that was
already on its way: the seat then stays "away" for the grace period instead of being
given up. The TUI (``tui/session.py``) and ``motherlode bot`` both send ``leave`` and
close at once. The host runs in its own process here, as in play: in one process the
host's loop happens to read the ``leave`` before the reset arrives. ``close()`` now
half-closes and reads until the host closes before it closes the socket.
"""


import pytest

from net import protocol as p
from net.client import Client, TableFull
from tests.waiting import until

from .harness import Raw
from .hostproc import HostProcess


@pytest.fixture
def host_process():
    host = HostProcess({"tables": [{"name": "Saloon", "game": "foolsgold", "seats": 8}]})
    yield host
    host.stop()


async def test_leave_then_close_gives_the_seat_up(host_process):
    refused = 0
    for _ in range(40):
        try:
            client = await Client.connect("127.0.0.1", host_process.port, "Probe", reconnect=False)
        except TableFull:  # every seat held by a probe whose leave was lost
            refused += 1
            continue
        await client.send(p.Leave())
        await client.close()
    # a spectator looks once the host has seen every connection end (none is still
    # connected), well within the 15 s grace after which "away" seats are freed anyway
    async def seats_now():
        spy = await Raw.open(host_process.port)
        seats = (await spy.hello("Spy", spectate=True)).table.seats
        spy.close()
        return seats

    async def nobody_connected():
        return not any(s.connected for s in await seats_now())

    await until(nobody_connected, "every connection seen to end", 10, step=0.05)
    seats = await seats_now()
    assert ([(s.name, s.connected) for s in seats], refused) == ([], 0)
