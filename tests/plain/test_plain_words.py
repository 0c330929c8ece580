"""The plain seat's words, at a real table on a fake clock (no process): every move a
game declares is reachable by a typed command in a phase where it is legal, a wrong
command gets one line and sends nothing, and every event the app's log shows is
exactly one line, the app's own words."""

from __future__ import annotations

import io
import random

import pytest

from net import protocol as p
from net.catalogue import games
from net.clock import FakeClock
from net.host import Host
from tests.hardening.harness import settle
from tests.plain.driver import Lines
from tui import modes
from tui.describe import describe
from tui.plain.seat import PlainSeat
from tui.saves import Saves
from tui.session import Session

pytestmark = pytest.mark.timeout(120)


async def _seat_at(game: str, seed: str, tmp_path) -> tuple[PlainSeat, Session, Host, FakeClock,
                                                              io.StringIO]:
    clock = FakeClock()
    launch = modes.Launch(name="Ann", table_options={"seed": seed, "bot_pace": 0.5},
                          host_clock=clock, saves=Saves())
    session = await modes.solo(launch, game, 1)
    out = Lines()
    seat = PlainSeat(out)
    seat.session = session
    sent: list = []
    original = session.send

    def send(message) -> None:
        sent.append(message)
        original(message)

    session.send = send  # type: ignore[method-assign]
    session.sent = sent  # type: ignore[attr-defined]
    session.start(seat)
    return seat, session, session.host, clock, out


async def _step(clock: FakeClock, host) -> None:
    """Let what is in flight arrive (the host sends a state once its save is committed,
    on the saves' writer thread), then move the host's clock to what is due next."""
    await settle()
    if host.store is not None:
        await host.store.wait_committed()
        await settle()
    due = clock.next_due()
    clock.advance_to(due if due is not None else clock.now() + 0.1)


async def _run(clock: FakeClock, host, until, limit: int = 5000) -> None:
    for _ in range(limit):
        if until():
            return
        await _step(clock, host)
    raise AssertionError("the table never got there")


@pytest.mark.parametrize("game", [g.key for g in games()])
async def test_every_declared_move_is_reachable_by_a_typed_command(game, tmp_path):
    """For each move the game declares, play on (random legal commands) until the move
    is legal at this seat, type it by its name with arguments the seat's words give, and
    see the host apply it: it reaches the log as this seat's move."""
    seat, session, host, clock, out = await _seat_at(game, f"reach-{game}", tmp_path)
    rng = random.Random(7)
    table = next(iter(host.tables.tables.values()))
    await _run(clock, host, lambda: seat.view is not None)
    declared = {move.name for move in seat.moves}
    applied: list[tuple[str, int]] = []  # every move the table applied: (name, seat)
    record = table.record

    def recorded(entry) -> None:
        action = entry.get("action") or {}
        applied.append((action.get("move"), action.get("seat")))
        record(entry)

    table.record = recorded  # type: ignore[method-assign]
    reached: set[str] = set()
    for _ in range(3000):
        if reached == declared or table.phase != "playing":
            break
        me = seat.acting_seat()
        legal = seat.adapter.legal(seat.view, me)
        # a race once won is left to the others: they grab first, and a call comes
        fresh = sorted(legal - reached) or sorted(
            m for m in legal if not seat.moves[m].race)
        if fresh:
            move = rng.choice(fresh)
            before, logged = len(session.sent), len(applied)
            await seat.command(" ".join([move, *_words(seat, move, rng)]))
            for _ in range(50 if len(session.sent) > before else 0):
                await _step(clock, host)
                if (move, me) in applied[logged:]:
                    reached.add(move)
                    break
        await _step(clock, host)
    assert reached == declared, (game, declared - reached, out.getvalue()[-2000:])
    await session.close()


def _words(seat: PlainSeat, move: str, rng: random.Random) -> list[str]:
    """Words a person would type after the move's name, read from what the seat says."""
    view = seat.view
    if move == "keep":
        from nuggets import legal_keeps

        options = legal_keeps(view.rolled or [], view.kept)
        return [f.value for f in rng.choice(options)] if options else []
    if move == "discard":
        cards = [i for i, s in enumerate(view.slots or []) if s is not None]
        return [str(rng.choice(cards) + 1)] if cards else []
    return []


async def test_a_wrong_command_gets_one_line_and_sends_nothing(tmp_path):
    seat, session, host, clock, out = await _seat_at("nuggets", "wrong", tmp_path)
    await _run(clock, host, lambda: seat.view is not None and seat.adapter.legal(seat.view, 0))
    for typed in ("dance", "keep 4", "stop", "keep", "roll 3 4", "steal nobody"):
        before, said = len(session.sent), len(out.getvalue().splitlines())
        await seat.command(typed)
        lines = out.getvalue().splitlines()[said:]
        assert len(lines) == 1 and len(session.sent) == before, (typed, lines)
    assert "Legal now: roll." in out.getvalue()
    await session.close()


@pytest.mark.parametrize("game", [g.key for g in games()])
async def test_each_event_the_log_shows_is_one_line_in_the_apps_words(game, tmp_path):
    """A game of bots watched at the seat: the lines are exactly the app's log lines
    for the events it shows (the same words, ``tui.describe``), one each, in order."""
    seat, session, host, clock, out = await _seat_at(game, f"lines-{game}", tmp_path)
    shown: list[str] = []
    original = seat._view

    def view(v, events) -> None:
        shown.extend(describe(e, seat.names, v) for e in events if seat.adapter.shown(e))
        original(v, events)

    seat._view = view  # type: ignore[method-assign]
    session.send(p.Leave(keep_seat=True))  # a stand-in plays Ann's seat from now
    table = next(iter(host.tables.tables.values()))
    await _run(clock, host, lambda: table.phase != "playing" and seat.view is not None, 200_000)
    lines = out.getvalue().splitlines()
    assert shown and [line for line in lines if line in shown] == shown
    assert all("\n" not in line for line in shown)
    await session.close()
