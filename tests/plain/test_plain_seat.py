"""The plain seat played as a person who reads lines plays it: real ``motherlode``
processes on pipes (solo, hot-seat) and a LAN ``join --plain`` against a host on a
fake clock; every game to its end by typed commands alone, and not one escape
sequence in all they wrote (a byte scan, and pyte's screen shows only lines)."""

from __future__ import annotations

import asyncio

import pytest

from net.clock import FakeClock
from net.host import Host
from tests.hardening.harness import settle
from tests.plain.helpers import finish, process
from tests.plain.helpers import seat as _seat
from tests.waiting import until

pytestmark = pytest.mark.timeout(240)


@pytest.mark.slow
async def test_a_whole_gold_nuggets_game_solo_by_typed_commands():
    proc = await process("solo", "--plain", "--game", "nuggets", "--bot-pace", "0",
                          "--seed", "plain-1", "--name", "Ann")
    seat = _seat(proc)
    await seat.play(timeout=30)
    await finish(proc, seat)
    text = "\n".join(seat.lines)
    assert "The game starts: Gold Nuggets" in text
    assert any(line.startswith("Game over: ") for line in seat.lines)
    # it played: rolls, set-asides and takes of its own, by the words it typed
    assert {"roll", "stop"} <= set(seat.typed) and any(t.startswith("keep ") for t in seat.typed)
    assert not [line for line in seat.lines if line.startswith("Refused")]


@pytest.mark.slow
@pytest.mark.parametrize("game", ["foolsgold", "nuggets"])
async def test_a_whole_game_over_lan_join_plain(game):
    """``join --plain`` at a table on a fake clock: the host's time moves only as the
    test moves it, so the whole match or game is quick and the same every run."""
    clock = FakeClock()
    host = Host(clock=clock)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Camp", game, seats=2, bots=1, seed="plain-lan")
    proc = await process("join", "--plain", f"127.0.0.1:{host.port}", "--name", "Ann")
    seat = _seat(proc)
    player = asyncio.ensure_future(seat.play(
        timeout=60, also=lambda line: "ready" if "Type ready when you are" in line else None))
    async def step() -> bool:
        """The host's clock on to what is due (at most 50 ms); the person reads and
        types in real time between steps."""
        if player.done():
            return True
        await settle()
        due = clock.next_due()
        if due is not None:
            clock.advance_to(min(due, clock.now() + 0.05))
        else:
            clock.advance(0.05)
        return False

    try:
        await until(step, "the seat's match or game ends", 240, step=0.002)
        await asyncio.wait_for(player, 30)
    finally:
        await host.close()
    await finish(proc, seat)
    assert any(line.startswith(("Match over: ", "Game over: ")) for line in seat.lines), \
        seat.lines[-20:]
    assert table.games_played == 1
    played = {"foolsgold": ("draw", "discard "), "nuggets": ("roll", "keep ")}[game]
    assert played[0] in seat.typed and any(t.startswith(played[1]) for t in seat.typed)


@pytest.mark.slow
async def test_watching_in_plain_lines_says_everything_and_asks_nothing():
    """``join --plain --watch``: every event of a game of bots, one line each; no line
    asks the watcher for a move, and a move typed gets one line saying why not."""
    clock = FakeClock()
    host = Host(clock=clock)
    await host.start("127.0.0.1", 0)
    table = host.create_table("Den", "nuggets", seats=2, bots=2, seed="plain-watch",
                              bot_pace=0.5)
    proc = await process("join", "--plain", "--watch", f"127.0.0.1:{host.port}",
                          "--name", "Eve")
    seat = _seat(proc)
    asked: list[str] = []

    def also(line: str) -> str | None:
        if line.startswith("The game starts") and not asked:
            asked.append(line)
            return "roll"
        if line.startswith("Game over: "):
            return "leave"
        return None

    player = asyncio.ensure_future(seat.play(timeout=60, also=also))
    try:

        async def started() -> bool:
            if table.phase == "playing" or player.done():
                return True
            await settle()
            if len(table.members) > 0 and table.phase == "lobby":
                host.start_game(table)
            return False

        async def step() -> bool:
            if player.done():
                return True
            await settle()
            due = clock.next_due()
            clock.advance_to(due if due is not None else clock.now() + 0.1)
            return False

        await until(started, "the watcher in, the game started", 30, step=0.01)
        # the clock stands until the move typed is answered (else a loaded machine sees
        # the game over before the watcher's line is read)
        await until(lambda: player.done() or any(
            line.startswith("You cannot roll now.") for line in seat.lines),
            "the watcher's move answered", 30)
        await until(step, "the game ends", 240, step=0.001)
        await asyncio.wait_for(player, 30)
    finally:
        await host.close()
    await finish(proc, seat)
    assert "You are watching." in "\n".join(seat.lines)
    assert not [line for line in seat.lines if line.startswith(("Your turn", "Your move"))]
    refusal = seat.lines[seat.lines.index(next(line for line in seat.lines
                                               if line.startswith("The game starts"))) + 1:]
    assert any(line.startswith("You cannot roll now.") for line in refusal)
    assert any(line.startswith("Game over: ") for line in seat.lines)


@pytest.mark.slow
async def test_the_lobby_line_says_how_long_a_game_lasts(tmp_path):
    """The plain seat's lobby line carries the game's own measure of its length, as
    the app's lobby does (at the players seated: Ann and a bot), and counts the free
    seat in good English."""
    host = Host()
    await host.start("127.0.0.1", 0)
    host.create_table("Den", "nuggets", seats=3, bots=1, seed="plain-length", bot_pace=0.5)
    proc = await process("join", "--plain", f"127.0.0.1:{host.port}", "--name", "Ann")
    seat = _seat(proc)

    def also(line: str) -> str | None:
        return "leave" if line.startswith("Table ") else None

    try:
        await asyncio.wait_for(seat.play(timeout=30, also=also), 40)
    finally:
        await host.close()
    await finish(proc, seat)
    lobby = next(line for line in seat.lines if line.startswith("Table "))
    assert "A game lasts about 12 turns each." in lobby, lobby
    assert ", 1 seat free." in lobby, lobby  # one seat, not "1 seats"
    assert "(bot) (bot)" not in lobby and "(bot)" in lobby, lobby  # said once


def test_a_seats_name_says_bot_once_whatever_its_number():
    from net import protocol as p
    from tui.plain.lobby import seat_name

    def seat(name: str, kind: str) -> p.SeatInfo:
        return p.SeatInfo(seat=0, name=name, kind=kind, ready=False, connected=True)

    assert seat_name(seat("Hattie (bot)", "bot")) == "Hattie (bot)"
    assert seat_name(seat("Hattie (bot) 2", "bot")) == "Hattie (bot) 2"  # two Hatties
    assert seat_name(seat("Rex", "bot")) == "Rex (bot)"
    assert seat_name(seat("Ann\x1b[31m", "human")) == "Ann"  # peer text, cleaned
