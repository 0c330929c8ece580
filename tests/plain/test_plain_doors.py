"""The plain seat through the other ways in: solo Fool's Gold (a round-capped match,
on the real clock), hot-seat Gold Nuggets (the keyboard passed between two people), and
the SSH door: ``ssh HOST plain`` with no terminal at all, and a client whose terminal
says ``TERM=dumb``. Every game to its end by typed commands alone; no escape sequence
in anything the seat or the door wrote."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from tests.plain.helpers import finish, process, served
from tests.plain.helpers import seat as _seat
from tests.serve.helpers import ServeProcess, _Keyless

from .driver import Seat, assert_plain

pytestmark = pytest.mark.timeout(300)


@pytest.mark.slow
async def test_a_whole_fools_gold_match_solo_on_the_real_clock():
    # asked for the normal pace (the plain seat's own is relaxed, four times as long)
    proc = await process("solo", "--plain", "--game", "foolsgold", "--bots", "1",
                         "--seed", "plain-fg", "--name", "Ann", "--set", "round_cap=1",
                         "--pace", "normal")
    seat = _seat(proc)
    await seat.play(timeout=60)
    await finish(proc, seat)
    assert any(line.startswith("Match over: ") for line in seat.lines), seat.lines[-10:]
    assert "draw" in seat.typed and any(t.startswith("discard ") for t in seat.typed)


@pytest.mark.slow
async def test_hot_seat_names_the_player_and_passes_the_keyboard():
    proc = await process("hotseat", "--plain", "Ann", "Bob")
    seat = _seat(proc)
    await seat.play(timeout=30)
    await finish(proc, seat)
    turns = [line.split(",")[0] for line in seat.lines if ", your turn: " in line]
    assert {"Ann", "Bob"} <= set(turns)
    # each change of player is a hand-over: said, then answered with enter, before
    # the next player's first line that needs them
    handovers = [i for i, line in enumerate(seat.lines) if line.startswith("Pass the keyboard")]
    assert handovers and "" in seat.typed
    for i in handovers:
        who = seat.lines[i].removeprefix("Pass the keyboard to ").split(",")[0]
        after = next(line for line in seat.lines[i + 1:] if ", your turn: " in line)
        assert after.startswith(f"{who}, your turn: ")
    assert any(line.startswith("Game over: ") for line in seat.lines)


async def _ssh(port: int, name: str, *, term: str | None):
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, encoding=None, client_keys=[],
        agent_path=None, password=None, preferred_auth="keyboard-interactive",
        client_factory=_Keyless), 20.0)  # fmt: skip
    if term is None:
        proc = await conn.create_process("plain", stderr=asyncssh.STDOUT)
    else:
        proc = await conn.create_process(term_type=term, term_size=(80, 24),
                                         stderr=asyncssh.STDOUT)
    return conn, proc


@pytest.mark.slow
async def test_the_ssh_door_plain_with_no_terminal_and_with_term_dumb(tmp_path):
    serve = await ServeProcess.start(tmp_path / "serve", "--game", "foolsgold", "--bots", "1",
                                     "--seats", "2", "--seed", "plain-ssh", "--bot-pace", "0",
                                     "--set", "round_cap=1")
    try:
        # no terminal: `ssh -p PORT ann@HOST plain`, a Gold Nuggets table of its own
        conn, proc = await _ssh(serve.ssh_port, "ann", term=None)
        seat = Seat(proc.stdout.readline, proc.stdin.write)
        await asyncio.wait_for(seat.play(timeout=60, also=served(seat.lines, "nuggets")), 200)
        conn.close()
        assert_plain(seat.raw)
        assert b"\r" not in seat.raw  # plain new lines: no terminal turns them into CRLF
        assert any(line.startswith("Game over: ") for line in seat.lines), seat.lines[-10:]
        assert "roll" in seat.typed and "stop" in seat.typed
        # TERM=dumb on a terminal: the plain seat without asking, at the card table
        conn, proc = await _ssh(serve.ssh_port, "bo", term="dumb")
        seat = Seat(proc.stdout.readline, proc.stdin.write)
        await asyncio.wait_for(seat.play(timeout=60, also=served(seat.lines, None)), 250)
        conn.close()
        assert_plain(seat.raw)
        assert any(line.startswith("Match over: ") for line in seat.lines), seat.lines[-10:]
        assert "draw" in seat.typed
        # and each game the other way: cards with no terminal, dice with TERM=dumb
        for name, term, new, over in (("cy", None, "foolsgold", "Match over: "),
                                      ("di", "dumb", "nuggets", "Game over: ")):
            conn, proc = await _ssh(serve.ssh_port, name, term=term)
            seat = Seat(proc.stdout.readline, proc.stdin.write)
            await asyncio.wait_for(seat.play(timeout=60, also=served(seat.lines, new)), 250)
            conn.close()
            assert_plain(seat.raw)
            assert any(line.startswith(over) for line in seat.lines), (name, seat.lines[-10:])
    finally:
        await serve.stop()
    assert "Traceback" not in serve.output
