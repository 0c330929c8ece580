"""A guided first game's pace ends with its guided opening (issue 58, finding 5).

``solo --guided`` (and the menu's offer) plays the guided opening at the guide's pace
(relaxed) and the rest of the game at the pace the player would have had. The host
changes it at a boundary between rounds, as an event of the game: in the log (a save
resumes at the pace it reached, a replay plays the change back) and told to every seat
as a change in the lobby is (a ``notice`` and the ``table`` update). Each test plays a
host on a fake clock: a person's seat (played by a stand-in, so the game goes on) and
bots, the windows read from what the person's seat is sent."""

from __future__ import annotations

import asyncio

from net import protocol as p
from net.clock import FakeClock
from net.games import Slowed
from net.host import Host
from net.saves import Store, load_all, resume_time
from net.table import Member
from tests.hardening.harness import drive
from tests.net.race import Box


def _guided(tmp_path, game: str, seed: str, **more) -> tuple[FakeClock, Store, Host, object,
                                                              Box]:  # fmt: skip
    """A guided table in play: Ann (a person, her seat played by a stand-in) and bots,
    relaxed until the opening is over, then normal."""
    clock = FakeClock(5.0)
    store = Store(tmp_path, "solo")
    host = Host(clock=clock, store=store)
    table = host.create_table("Camp", game, seats=3, seed=seed, pace="relaxed",
                              after_guide="normal", bot_pace=0.2, **more)  # fmt: skip
    box = Box()
    table.join(Member(name="Ann", deliver=box.deliver), clock.now())
    table.add_bot()
    table.add_bot()
    host.start_game(table)
    table.play.stand_in(0, clock.now())
    host.touched(table)
    return clock, store, host, table, box


def _windows(box: Box) -> tuple[list[float], list[float]]:
    """What Ann's seat was sent: each round's call window (from its first grab to the
    window's close) and each pause between rounds (from the settling to the deal)."""
    calls, pauses = [], []
    for state in box.of(p.State):
        for event in state.events:
            kind = p.message_type(event)
            if kind == "grabbed" and event.order == 1:
                calls.append(round(state.view.call_closes - event.at, 6))
            elif kind == "next_round":
                pauses.append(round(event.at - state.at, 6))
    return calls, pauses


def _told(box: Box) -> list[str]:
    return [n.detail for n in box.of(p.Notice) if n.event == "pace"]


def test_the_guided_round_is_relaxed_and_round_two_normal(tmp_path):
    """Fool's Gold: round 1 (the guide's) has the relaxed windows, the pause after it
    too (the guide's last step is read then); round 2 on has the normal ones. Ann's
    seat is told once, between the rounds, and her table now says normal."""

    async def run():
        clock, _, host, table, box = _guided(tmp_path, "foolsgold", "guided-pace")
        await drive(clock, lambda: len(_windows(box)[0]) >= 3)
        await host.close()
        return table, box

    table, box = asyncio.run(run())
    calls, pauses = _windows(box)
    assert calls[:3] == [20.0, 5.0, 5.0], calls  # relaxed x4, then the game's own 5 s
    assert pauses[:2] == [16.0, 4.0], pauses
    assert _told(box) == ["relaxed -> normal"]
    assert box.of(p.TableUpdate)[-1].table.settings.pace == "normal"
    # told after round 1's settling reached the seat, before round 2 was dealt
    order = [m for m in box.messages if isinstance(m, p.Notice | p.State)]
    told = next(i for i, m in enumerate(order) if isinstance(m, p.Notice) and m.event == "pace")
    assert any(p.message_type(e) == "settled" for m in order[:told] if isinstance(m, p.State)
               for e in m.events)
    assert not any(p.message_type(e) == "round_started" and e.round_no == 2
                   for m in order[:told] if isinstance(m, p.State) for e in m.events)
    # the bots play at the normal pace from then on too
    assert table.settings.after_guide is None


def test_a_game_saved_in_round_two_resumes_at_normal_pace_and_replays_the_change(tmp_path):
    async def play_into_round_two():
        clock, store, host, table, box = _guided(tmp_path, "foolsgold", "guided-pace")
        await drive(clock, lambda: table.driver.match.round_no == 2)
        await store.wait_committed()
        await host.close()

    asyncio.run(play_into_round_two())
    store = Store(tmp_path, "solo")
    (saved,), problems = load_all(store)
    assert problems == [] and saved.status == "playing"
    assert saved.doc.game.pace == "relaxed"  # dealt at the guide's pace
    assert saved.settings().pace == "normal" and saved.settings().after_guide is None
    steps = []
    saved.replay(lambda driver, step: steps.append((step.pace, driver.match.round_no)))
    assert [(pace, n) for pace, n in steps if pace is not None] == [("normal", 1)]

    async def resume():
        clock = FakeClock(resume_time([saved]))
        host = Host(clock=clock, store=store)
        table = host.restore(saved)
        box = Box()
        member = table.seats[0].member
        table.resume(member, member.secret, Member(name="Ann", deliver=box.deliver),
                     clock.now())
        table.play.stand_in(0, clock.now())
        host.touched(table)
        assert table.settings.pace == "normal"
        assert all(not isinstance(s.brain, Slowed) for s in table.seats)
        await drive(clock, lambda: len(_windows(box)[0]) >= 2)
        await host.close()
        return box, table

    box, table = asyncio.run(resume())
    calls, pauses = _windows(box)
    assert calls[:2] == [5.0, 5.0] and pauses and set(pauses) == {4.0}, (calls, pauses)
    assert _told(box) == []  # nothing changes again


def test_the_dice_guides_pace_ends_after_the_persons_second_turn(tmp_path):
    """Gold Nuggets: the guide covers Ann's first two turns (and the bots' between), at
    relaxed; the bots play normally from the turn after her second."""

    async def run():
        clock, _, host, table, box = _guided(tmp_path, "nuggets", "guided-dice",
                                             first_player=0, supply=60)
        slowed = []

        def done() -> bool:
            slowed.append((table.driver.turns[0], isinstance(table.seats[1].brain, Slowed)))
            return table.driver.turns[0] >= 3 or table.phase != "playing"

        await drive(clock, done)
        await host.close()
        return box, slowed

    box, slowed = asyncio.run(run())
    assert _told(box) == ["relaxed -> normal"]
    # told as the turn passed on from Ann's second: her seat had seen two turns begin
    order = [m for m in box.messages if isinstance(m, p.Notice | p.State)]
    told = next(i for i, m in enumerate(order) if isinstance(m, p.Notice) and m.event == "pace")
    turns = [e.seat for m in order[:told] if isinstance(m, p.State) for e in m.events
             if p.message_type(e) == "turn"]
    assert turns.count(0) == 2 and turns[-1] != 0, turns
    # the bots were slowed (x4) through Ann's first two turns, and not in her third
    assert any(n < 2 for n, _ in slowed) and any(n >= 3 for n, _ in slowed)
    assert all(s for n, s in slowed if n < 2)
    assert not any(s for n, s in slowed if n >= 3)
