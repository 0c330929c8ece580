"""Lag-fair races at a table, sans-I/O, on a made-up clock: a grab is judged by when
the person acted (arrival minus their delay, capped), held until no earlier one can
still arrive; everything else is judged as it arrives."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from net import protocol as p
from net.games.foolsgold import moves as fm
from net.latency import DelayMeter, percentile
from net.protocol import Code
from tests.net.race import grabbed, race_table, run_until


def test_a_late_arriving_earlier_grab_wins():
    # P0 is 80 ms away and grabs at 10.000 (arrives 10.080); P1 (LAN) at 10.030
    table, (far, near, _), boxes = race_table(lags=(0.080, 0.0, 0.0))
    table.handle(near, fm.GRAB(), 10.030)
    assert grabbed(table) == []  # held: an earlier grab may still be on its way
    assert table.next_wakeup() == pytest.approx(10.030 + 0.080)
    table.handle(far, fm.GRAB(), 10.080)
    run_until(table, 10.2)
    assert [s for s, _ in grabbed(table)] == [0, 1]
    times = dict(grabbed(table))
    assert times[0] == pytest.approx(10.000)
    assert times[1] == pytest.approx(10.030)
    view = table.driver.view(1)
    assert view["grab_lags"] == pytest.approx([0.080, 0.0])
    # the log keeps both times: when judged and when acted, with the correction
    first = [e for e in table.log if e["action"] and e["action"]["move"] == "grab"][0]
    assert first["acted"] == pytest.approx(10.0) and first["lag"] == pytest.approx(0.08)
    # the events say it too, for the screens
    event = boxes[2].events("grabbed")[0]
    assert event.seat == 0 and event.lag == pytest.approx(0.08)


def test_the_correction_is_capped():
    # a claimed delay of 400 ms counts as the cap, 150 ms
    table, (cheat, honest, _), _ = race_table(lags=(0.400, 0.0, 0.0))
    table.handle(honest, fm.GRAB(), 10.000)  # acted at 10.000
    table.handle(cheat, fm.GRAB(), 10.200)  # counts as 10.050: after the honest one
    run_until(table, 11.0)
    assert [s for s, _ in grabbed(table)] == [1, 0]
    assert dict(grabbed(table))[0] == pytest.approx(10.050)
    assert table.play.correction(cheat) == pytest.approx(0.15)


def test_a_cap_of_zero_is_arrival_order_and_holds_nothing():
    table, (far, near, _), _ = race_table(lags=(0.080, 0.0, 0.0), lag_cap=0.0)
    table.handle(near, fm.GRAB(), 10.030)
    assert [s for s, _ in grabbed(table)] == [1]  # judged at once
    table.handle(far, fm.GRAB(), 10.080)
    assert [s for s, _ in grabbed(table)] == [1, 0]
    assert "grab_lags" not in table.driver.view(None)
    assert all("acted" not in e for e in table.log)


def test_nobody_with_a_delay_holds_nothing():
    table, (a, b, _), _ = race_table()
    table.handle(b, fm.GRAB(), 5.0)
    table.handle(a, fm.GRAB(), 5.001)
    assert [s for s, _ in grabbed(table)] == [1, 0]
    assert table.play.held_races == []


def test_the_hold_is_at_most_the_cap():
    table, (a, b, c), _ = race_table(lags=(0.5, 0.3, 0.0))
    assert table.play.race_hold() == pytest.approx(0.15)
    table.handle(c, fm.GRAB(), 20.0)
    assert table.next_wakeup() - 20.0 <= 0.15 + 1e-9
    run_until(table, 20.15)
    assert [s for s, _ in grabbed(table)] == [2]


def test_the_hold_counts_only_connected_people():
    table, (far, near, _), _ = race_table(lags=(0.1, 0.0, 0.0))
    table.disconnect(far, 1.0)
    assert table.play.race_hold() == 0.0
    table.handle(near, fm.GRAB(), 2.0)
    assert [s for s, _ in grabbed(table)] == [1]


def test_the_grabber_of_the_last_nugget_is_the_earliest():
    # two players, one nugget: the later-arriving but earlier grab takes it; the
    # other is told its grab came too late
    table, (far, near), boxes = race_table(players=2, lags=(0.1, 0.0))
    table.handle(near, fm.GRAB(), 3.050)
    table.handle(far, fm.GRAB(), 3.100)  # acted at 3.000
    run_until(table, 4.0)
    assert [s for s, _ in grabbed(table)] == [0]
    errors = boxes[1].of(p.Error)
    assert errors and errors[-1].code == Code.ILLEGAL_ACTION and errors[-1].ref == "grab"
    assert "race is over" in errors[-1].message


def test_a_refused_grab_is_refused_at_once_and_changes_nothing():
    table, (a, b, _), boxes = race_table(lags=(0.1, 0.0, 0.0))
    table.handle(b, fm.GRAB(), 1.0)
    table.handle(b, fm.GRAB(), 1.01)  # the same seat again, while the first is held
    assert boxes[1].of(p.Error)[-1].code == Code.ILLEGAL_ACTION
    assert len(table.play.held_races) == 1
    run_until(table, 2.0)
    table.handle(b, fm.GRAB(), 2.0)
    assert "already grabbed" in boxes[1].of(p.Error)[-1].message
    assert table.play.held_races == []


def test_passing_goes_on_as_it_arrives_until_the_first_grab_is_judged():
    table, (a, b, c), boxes = race_table(lags=(0.0, 0.0, 0.1))
    start = table.driver.view(None)["start"]
    starter = [a, b, c][start]
    other = [a, b, c][(start + 1) % 3]
    table.handle(other, fm.GRAB(), 1.0)  # held for 100 ms
    table.handle(starter, fm.DRAW(), 1.05)  # judged as it arrives: hands not frozen yet
    assert table.driver.view(start)["hand_sizes"][start] == 6
    run_until(table, 1.2)
    assert table.driver.view(None)["frozen"]


def test_a_call_held_at_the_call_window_is_judged_before_it_closes():
    table, (a, b, c), boxes = race_table(lags=(0.0, 0.0, 0.1), call_window=1.0)
    table.handle(a, fm.GRAB(), 1.0)
    run_until(table, 1.2)  # the grab at 1.0: the window closes at 2.0
    table.handle(b, fm.CALL(), 1.99)  # arrives before the time-out, held to 2.09
    run_until(table, 3.0)
    view = table.driver.view(None)
    assert view["caller"] == 1
    called = boxes[0].events("called")
    assert called and boxes[0].events("call_window_closed") == []


def test_a_held_grab_is_judged_before_the_grab_time_out():
    table, (a, b, c), boxes = race_table(lags=(0.0, 0.0, 0.1), grab_timeout=1.0,
                                         call_window=5.0)  # fmt: skip
    table.handle(a, fm.GRAB(), 1.0)
    run_until(table, 1.2)
    table.handle(b, fm.GRAB(), 1.995)  # the race closes at 2.0; held to 2.095
    run_until(table, 2.5)
    assert [s for s, _ in grabbed(table)] == [0, 1]
    over = boxes[0].events("race_over")[0]
    assert over.without == [2]


def test_a_lagged_race_replays_the_same_from_its_save():
    from net.saves import Store

    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        store = Store(Path(directory))
        table, (a, b, c), _ = race_table(lags=(0.12, 0.03, 0.0))
        table.on_change = store.touched
        table.handle(c, fm.GRAB(), 4.00)
        table.handle(b, fm.GRAB(), 4.02)
        table.handle(a, fm.GRAB(), 4.10)  # acted at 3.98: first
        run_until(table, 4.5)
        table.handle(c, fm.CALL(), 4.6)
        run_until(table, 5.0)
        # two nuggets: 3.98 (a), 3.99 (b); c's grab at 4.00 came third
        assert [s for s, _ in grabbed(table)] == [0, 1]
        store.touched(table, 5.0)
        saved = store.load(store.live_save(table))
        restored = saved.restore(6.0)  # replays every move, and checks it
        assert [tuple(g) for g in restored.driver.view(None)["grabbed"]] == grabbed(table)
        store.close()


def test_the_meter_takes_half_a_low_percentile_round_trip():
    meter = DelayMeter()
    now = 0.0
    for i in range(20):
        ident = meter.probe(now)
        rtt = 0.100 + (0.040 if i % 4 == 0 else 0.0)  # 100 ms, spikes to 140
        assert meter.answer(ident, now + rtt)
        now += 0.25
    assert meter.delay == pytest.approx(0.050)
    assert meter.jitter == pytest.approx(0.0)
    assert not meter.answer(999, now)  # never sent: refused, nothing changes
    assert not meter.answer(1, now)  # answered already
    assert len(meter.samples) == 20
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0


def test_a_grabber_cannot_pass_while_its_grab_is_held():
    # the grab came first: the hand it claims a set with may not change behind it
    table, members, boxes = race_table(lags=(0.0, 0.0, 0.1))
    start = table.driver.view(None)["start"]
    starter = members[start]
    table.handle(starter, fm.GRAB(), 1.0)  # held for 100 ms
    table.handle(starter, fm.DRAW(), 1.02)
    error = boxes[start].of(p.Error)[-1]
    assert error.code == Code.ILLEGAL_ACTION and "frozen" in error.message
    assert table.driver.view(start)["hand_sizes"][start] == 5
    run_until(table, 1.2)
    assert [s for s, _ in grabbed(table)] == [start]


@pytest.mark.parametrize("old", [1, 2])
async def test_a_client_of_an_older_protocol_is_refused_and_told_what_to_update(make_host, old):
    """Protocol 3 carries every game's moves in one ``move`` message: a client of
    protocol 1 or 2 would send moves the host no longer reads, so its hello is refused
    with what to update, the connection is closed, and the table is as it was."""
    from .helpers import Raw

    host = await make_host()
    table = host.create_table("Camp", "foolsgold", seats=3, bots=1, seed="v1")
    before = [s.name for s in table.seats]
    raw = await Raw.open(host.port)
    await raw.send(p.Hello(protocol=old, name="Ann"))
    error = await raw.expect(p.Error)
    assert error.code == Code.BAD_VERSION and error.ref == "hello"
    assert f"protocol {p.PROTOCOL_VERSION}, not {old}" in error.message
    assert "update Motherlode" in error.message
    assert await raw.recv() is None  # closed
    assert [s.name for s in table.seats] == before and not [
        m for m in table.members if m.name == "Ann"]
