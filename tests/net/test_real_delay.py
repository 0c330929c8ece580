"""Lag-fair races over a link whose delay the kernel sees (issue 35): 80 ms each way
between two network namespaces the test makes (``tests.netns``), real sockets, a real
host on the real clock.

- An honest player 80 ms away is corrected by its whole one-way delay: the kernel's
  bound (``net.tcpinfo``) takes nothing from a real link, and a grab sent 60 ms before
  a near player's wins although it arrives 20 ms after it. Every seat sees that order.
- The SSH door's measurement of a person's link over the same delay: honest
  keepalives give the whole delay; held ones give no more than the link's."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net import tcpinfo
from net.games.foolsgold import moves as fm
from net.host import Host
from net.latency import KERNEL_SLACK
from tests.netns import DelayedLink, why_not
from tests.waiting import until

from .helpers import Seat

DELAY = 0.080

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.skipif(why_not() is not None, reason=str(why_not())),
    pytest.mark.skipif(not tcpinfo.AVAILABLE, reason="TCP_INFO is Linux's"),
]


async def test_an_honest_player_80_ms_away_keeps_the_whole_correction_and_its_race():
    with DelayedLink(DELAY) as link:
        host = Host()
        await host.start(sock=link.listener())
        seats: list[Seat] = []
        try:
            host.create_table("Camp", "foolsgold", seats=3, seed="far-away")
            far = await Seat.open(await link.connect(host.port), "Far")
            near = await Seat.open(await link.connect(host.port, link.host), "Near")
            watcher = await Seat.open(await link.connect(host.port, link.host), "Bob")
            seats = [far, near, watcher]
            for seat in seats:
                await seat.raw.send(p.Ready())
            await watcher.expect(p.Started)
            table = host.tables.find("Camp")
            member = {m.name: m for m in table.members}
            await until(lambda: len(member["Far"].link.meter.samples) >= 6,
                        "six probes answered across the link", 20.0)  # fmt: skip
            meter = member["Far"].link.meter
            assert meter.kernel_rtt is not None and meter.kernel_rtt >= 2 * DELAY
            assert 0.9 * DELAY <= member["Far"].lag <= table.settings.lag_cap
            assert member["Near"].lag < 0.005 and member["Bob"].lag < 0.005

            await far.raw.send(fm.GRAB())  # arrives 80 ms from now
            # the time is what is tested: the near player's hand is 60 ms slower
            await asyncio.sleep(0.060)
            await near.raw.send(fm.GRAB())  # and arrives 20 ms before Far's

            def order(state: p.State) -> list[int]:
                return [seat for seat, _ in state.view.grabbed]

            far_seat, near_seat = far.number, near.number
            for seat in seats:  # every seat, the watcher too, sees who acted first
                seen = await seat.expect(p.State, lambda s: len(order(s)) == 2)
                assert order(seen) == [far_seat, near_seat]
                lags = seen.view.grab_lags or []
                assert lags[0] >= 0.9 * DELAY and lags[1] < 0.005
        finally:
            for seat in seats:
                seat.close()
            await host.close()


@pytest.mark.parametrize("hold", [0.0, 0.300])
async def test_the_ssh_doors_measurement_over_80_ms(hold):
    """An SSH client 80 ms away, answering keepalives at once or holding each 300 ms:
    the door credits the whole one-way delay, and never more than the link's."""
    import asyncssh

    from net.latency import DelayMeter
    from serve.ssh import measure_link

    meter = DelayMeter()
    measured: asyncio.Future = asyncio.get_running_loop().create_future()

    async def door(process):
        task = asyncio.ensure_future(measure_link(process, meter))
        await until(lambda: len(meter.samples) >= 3, "three keepalives timed", 30.0)
        task.cancel()
        measured.set_result(None)
        process.exit(0)

    class Open(asyncssh.SSHServer):
        def begin_auth(self, username):
            return False

    with DelayedLink(DELAY) as link:
        listener = link.listener()
        server = await asyncssh.listen(
            sock=listener, server_factory=Open, process_factory=door,
            server_host_keys=[asyncssh.generate_private_key("ssh-ed25519")])  # fmt: skip
        port = listener.getsockname()[1]
        try:
            sock = await link.connect(port)
            async with asyncssh.connect(sock=sock, known_hosts=None, username="ann") as conn:
                if hold:
                    answer = conn._report_global_response  # the client's answer
                    loop = asyncio.get_running_loop()
                    conn._report_global_response = lambda r: loop.call_later(hold, answer, r)
                process = await conn.create_process()
                await asyncio.wait_for(measured, 40)
                process.close()
        finally:
            server.close()
            await server.wait_closed()
    assert meter.kernel_rtt is not None and meter.kernel_rtt >= 2 * DELAY
    assert meter.lag >= 0.9 * DELAY  # the whole one-way delay
    assert meter.lag <= meter.kernel_rtt / 2 + KERNEL_SLACK  # never more than the link's
    if hold:
        assert meter.estimate >= 0.2  # the held answers alone would have claimed more
