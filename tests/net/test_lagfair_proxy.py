"""Lag-fair races end to end: scripted players with known press times race through
the delay proxy to a real host (in-process, on an asyncio loop in virtual time, so
every run is the same), a cheat that holds back its probe answers, and bad probe
answers."""

from __future__ import annotations

import asyncio

import pytest

from net import protocol as p
from net.host import Host
from net.protocol import Code
from tests.waiting import until, within

from .lagproxy import Link, Setting, proxied_client, run_races, run_virtual

pytestmark = pytest.mark.timeout(120)


def test_a_far_player_who_presses_first_wins_through_the_proxy():
    # 80 ms and 30 ms away against the LAN; gaps of 20 ms or more, a little jitter
    setting = Setting(delays=[0.08, 0.03, 0.0], jitter=0.004, gap_min=0.02, gap_max=0.06,
                      seed=7)  # fmt: skip
    races = run_virtual(run_races(setting, 12))
    assert len(races) == 12
    assert all(r.order_right(r.judged) for r in races)
    # the same races in arrival order get some wrong: the correction did the work
    assert sum(r.order_right(r.arrival_order()) for r in races) < 12
    # every correction is about the player's delay, and never more than the cap
    for race in races:
        for seat, lag in race.lags.items():
            assert lag <= 0.15 + 1e-9
            assert lag == pytest.approx(setting.delays[seat], abs=0.006)


def test_with_a_cap_of_zero_the_host_judges_in_arrival_order():
    setting = Setting(delays=[0.08, 0.0, 0.0], jitter=0.0, gap_min=0.02, gap_max=0.06,
                      lag_cap=0.0, seed=7)  # fmt: skip
    races = run_virtual(run_races(setting, 8))
    for race in races:
        nuggets = len(race.presses) - 1
        assert race.judged == race.arrival_order()[:nuggets]
        assert all(lag == 0 for lag in race.lags.values())


def test_a_cheat_that_holds_back_its_probe_answers_gains_at_most_the_cap():
    cap = 0.15
    setting = Setting(delays=[0.02, 0.02, 0.02], jitter=0.0, cheat={0: 0.5}, lag_cap=cap,
                      seed=3)  # fmt: skip
    races = run_virtual(run_races(setting, 10))
    gains = [r.presses[0] - r.judged_at[0] for r in races if 0 in r.judged_at]
    assert gains
    # it does look far away (its correction is the cap) ...
    assert all(r.lags[0] == pytest.approx(cap) for r in races if 0 in r.lags)
    # ... but counts at most the cap minus its real delay before it pressed
    assert max(gains) <= cap - 0.02 + 1e-6
    honest = [r.presses[s] - r.judged_at[s] for r in races for s in (1, 2) if s in r.judged_at]
    assert max(abs(g) for g in honest) < 0.002


def test_bad_probe_answers_get_a_clear_error_and_change_nothing():
    async def main():
        host = Host()
        table = host.create_table("Camp", "foolsgold", seats=2, seed="bad")
        reader, writer = host.open_local()
        conn = p.Connection(p.CLIENT)
        writer.write(conn.send(p.Hello(protocol=3, name="Eve")))
        await until(lambda: table.members, "Eve at the table")
        member = table.members[0]
        for line in (b'{"type":"probe_reply","id":999}\n',
                     b'{"type":"probe_reply","id":"one"}\n',
                     b'{"type":"probe_reply","id":-1}\n'):  # fmt: skip
            writer.write(line)
        messages = []

        async def three_errors():
            while sum(isinstance(m, p.Error) for m in messages) < 3:
                data = await reader.read(1 << 20)
                assert data, "the host closed the connection"
                conn.receive_data(data)
                while (m := conn.next_message()) is not p.NEED_DATA:
                    messages.append(m)

        await within(three_errors(), "answer to each of the three bad probe answers")
        errors = [m for m in messages if isinstance(m, p.Error)]
        assert [e.code for e in errors] == [Code.BAD_PROBE, Code.BAD_FIELD, Code.BAD_FIELD]
        assert "999" in errors[0].message
        assert member.lag == 0.0 and table.phase == "lobby"
        probes = [m for m in messages if isinstance(m, p.Probe)]
        assert probes  # the host probes a protocol 2 client from its welcome on
        writer.close()
        await host.close()

    run_virtual(main())


def test_probe_answers_do_not_use_up_the_rate_limit():
    from net.host import HostConfig

    async def main():
        host = Host(config=HostConfig(rate=1.0, burst=2.0))
        table = host.create_table("Camp", "foolsgold", seats=2, seed="rate")
        a = await proxied_client(host, "A", Link(0.03), Link(0.03))
        b = await proxied_client(host, "B", Link(0.0), Link(0.0))
        await a.send(p.Ready())
        await b.send(p.Ready())
        # 4 s of the game (in virtual time) is what is tested: 4 probes a second come
        # back, more than the rate limit lets through in that time
        await asyncio.sleep(4.0)
        assert table.phase == "playing"
        peers = {peer.member.name: peer for peer in host._peers if peer.member}
        # more than the limit lets through in 4 s (1 a second, 2 at once): about 9
        assert len(peers["A"].meter.samples) >= 8
        assert table.members[0].lag == pytest.approx(0.03, abs=0.001)
        await a.close()
        await b.close()
        await host.close()

    run_virtual(main())
