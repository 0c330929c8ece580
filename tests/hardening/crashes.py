"""Kill -9 a real host process over and over during one game, and check every save.

Shared by the CI test (``tests/hardening/test_crash.py``) and the long version
(``bench/stress_crash.py``). One run:

1. starts ``python -m tests.hardening.crash_host`` (a real host with saves on) on a
   fixed port; its players are bot clients over TCP (``net.botclient.run_bot`` on a
   ``net.client.Client``: they reconnect by themselves with their resume tokens), and
   a spectator records every state it is sent;
2. each host process kills itself with SIGKILL at a commit step drawn from a seeded
   generator (inside a transaction whose rows are written, or right after a commit),
   or the run kills it from outside after a drawn number of states;
3. after each kill: every save in the database must load, replay and match its
   snapshot; then the host restarts with ``--resume``;
4. at the end: the finished game's record replays, the game is over, every state
   the spectator saw before each kill is in the final history (nothing acknowledged
   was lost), and the players still hold their own seats.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from net import protocol as p
from net import saves as persist
from net.botclient import run_bot
from net.client import Client, Disconnected
from net.games.foolsgold import moves as fm
from net.views import to_events, to_view

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Figures:
    kills: int = 0
    inner_kills: int = 0  # at a commit step
    mid_commit_kills: int = 0  # of those, inside a transaction holding new moves
    outer_kills: int = 0  # SIGKILL from outside
    saves_checked: int = 0
    resumes: int = 0
    reconnects: int = 0
    moves: int = 0
    states_seen: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    lost: int = 0  # acknowledged states missing from the final history (goal: 0)


class _Host:
    def __init__(self, proc: asyncio.subprocess.Process, port: int) -> None:
        self.proc = proc
        self.port = port


async def _start_host(
    directory: Path, port: int, *, resume: bool, kill_at: tuple[int, str],
    options: dict[str, Any],
) -> _Host:  # fmt: skip
    args = [
        sys.executable, "-m", "tests.hardening.crash_host", "--dir", str(directory),
        "--port", str(port), "--kill-at", str(kill_at[0]), "--kill-stage", kill_at[1],
    ]  # fmt: skip
    for key, value in options.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    if resume:
        args.append("--resume")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    errors = open(directory / "host-stderr.txt", "ab")  # noqa: SIM115 - the child writes it
    proc = await asyncio.create_subprocess_exec(
        *args, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=errors
    )
    errors.close()
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 20.0)
    if not line.startswith(b"READY"):
        await proc.wait()
        if proc.returncode == -signal.SIGKILL:
            # its kill point came while it restored (a bot's move was due at once):
            # a crash like any other
            return _Host(proc, port)
        err = (directory / "host-stderr.txt").read_bytes()
        raise AssertionError(f"the host did not start: {line!r} {err.decode()[-2000:]}")
    return _Host(proc, int(line.split()[1]))


async def passer(client: Client) -> list[p.Over]:
    """A scripted Fool's Gold player who passes cards at once and never grabs or calls;
    it rides out the host's crashes on the client's own reconnect."""
    await client.send(p.Ready())
    async for message in client:
        if isinstance(message, p.Over):
            return [message]
        if isinstance(message, Disconnected):
            return []
        if isinstance(message, p.Welcome) and message.table.phase == "lobby":
            # back after a crash in the lobby: everyone comes back not ready
            await client.send(p.Ready())
            continue
        if not isinstance(message, p.State) or message.seat != client.seat:
            continue
        view = message.view
        if view.frozen or view.settled or view.hand is None:
            continue
        hand = view.hand
        if len(hand) == 6:
            card = hand[0]
            await client.send(fm.DISCARD(card=fm.CardRef(name=card.name, variant=card.variant)))
        elif view.seat == view.start:
            if view.draw_pile or view.trash_pile:
                await client.send(fm.DRAW())
        elif view.incoming_sizes[view.seat]:
            await client.send(fm.DRAW())
    return []


def _where(directory: Path) -> str:
    """Where a stuck game stands, from its live save (for the failure message)."""
    store = persist.Store(directory)
    try:
        for ident in store.unfinished():
            saved = store.load(ident)
            return f"{len(saved.doc.log)} moves; last {saved.doc.log[-3:]}; {saved.doc.snapshot}"
        return "no live save"
    finally:
        store.close()


def saved_moves(directory: Path) -> int:
    """Moves in the one live save under ``directory`` (a save follows every change)."""
    store = persist.Store(directory)
    try:
        (ident,) = store.unfinished()
        return store.load(ident).moves
    finally:
        store.close()


def check_saves(directory: Path) -> int:
    """Every save in the database of ``directory`` loads, replays and matches its
    snapshot. Returns how many were checked."""
    store = persist.Store(directory)
    count = 0
    try:
        for ident in store.find(""):
            saved = store.load(ident)  # raises SaveError
            if saved.status != "lobby":  # a lobby save holds no game to replay
                saved.replay()
            count += 1
    finally:
        store.close()
    return count


def history(record: persist.Saved) -> list[tuple[Any, Any]]:
    """(events, public view) after each step of a game, as a spectator receives them
    (typed, as ``net.views`` Structs)."""
    out = []
    for step, views in record.steps():
        out.append((to_events(step.events), to_view(views[-1])))
    return out


def _in_order(seen: list[tuple[Any, Any]], final: list[tuple[Any, Any]]) -> int:
    """How many of ``seen`` cannot be matched, in order, in ``final``."""
    i = missing = 0
    for item in seen:
        while i < len(final) and final[i] != item:
            i += 1
        if i == len(final):
            missing += 1
        else:
            i += 1
    return missing


class Spectator:
    """Watches the table; records (events, view) of every state, per host life."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.lives: list[list[tuple[Any, Any]]] = []
        self.over: p.Over | None = None
        self.task: asyncio.Task | None = None

    async def watch(self) -> None:
        try:
            client = await Client.connect(
                "127.0.0.1", self.port, "watcher", spectate=True, reconnect=False, timeout=5.0
            )
        except Exception:
            return  # the host died before the spectator got in
        life: list[tuple[Any, Any]] = []
        self.lives.append(life)
        try:
            async for message in client:
                if isinstance(message, p.State) and message.events:
                    life.append((message.events, message.view))
                elif isinstance(message, p.Over):
                    self.over = message
                elif isinstance(message, Disconnected):
                    return
        finally:
            await client.close()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.watch())


async def crash_run(
    directory: Path,
    *,
    game: str = "nuggets",
    seed: int = 1,
    kills: int = 5,
    humans: int = 2,
    bots: int = 1,
    speed: float = 10.0,
    supply: int = 20,
    outer_every: int = 3,
    passive: bool = False,
    max_step: int = 20,
    timeout: float = 60.0,
    mid_commit: bool = False,
) -> Figures:
    """One game with ``kills`` crashes; raises AssertionError on any failure.

    ``passive``: the people are scripted Fool's Gold passers (:func:`passer`) who
    never grab or call, so a match against one bot lasts three rounds: a bounded
    real-time game for CI. ``mid_commit``: every other kill at a commit step lands
    inside a transaction that holds new moves, written but not committed."""
    from tests.hardening.crash_host import ScaledClock

    rng = random.Random(f"crash/{game}/{seed}")
    figures = Figures()
    port = free_port()
    options = {"game": game, "seed": f"g{seed}", "speed": speed, "humans": humans,
               "bots": bots, "supply": supply}  # fmt: skip
    kills_file = directory / "kills.txt"

    def kill_point(n: int) -> tuple[tuple[int, str], int]:
        """((write step to die at or 0, its name or any), states to see before a kill
        from outside, or 0)"""
        if n >= kills:
            return (0, ""), 0
        if outer_every and n % outer_every == outer_every - 1:
            return (0, ""), rng.randint(2, max_step)
        if mid_commit and n % 2:
            return (rng.randint(1, 3), "moves written"), 0
        # the first host must live until everyone is seated (a join is one commit, two
        # steps: its rows written, then committed): the players' first connect does
        # not retry
        first = 2 * humans + 1 if n == 0 else 1
        return (rng.randint(first, max_step * 2), ""), 0

    inner, outer = kill_point(0)
    host = await _start_host(directory, port, resume=False, kill_at=inner, options=options)
    clock = ScaledClock(speed)
    players: list[Client] = []
    tasks: list[asyncio.Task] = []
    results: list[list[p.Over]] = []
    seats: list[int | None] = []
    for i in range(humans):
        # a player keeps trying for the whole run, as the app does (retry_for): a host
        # that restarts slowly on a busy machine costs attempts, never the seat (with
        # the backoff alone, 3 s of the real clock at speed 10, it could give up)
        client = await Client.connect("127.0.0.1", port, f"P{i}", clock=clock, timeout=5.0,
                                      retry_for=timeout * speed)
        players.append(client)
        seats.append(client.seat)
    for i, client in enumerate(players):
        if passive:
            play = passer(client)
        else:
            play = run_bot(client, "normal", rng=random.Random(f"{seed}/{i}"), pace=0.3, games=1)
        tasks.append(asyncio.create_task(play))
    spectator = Spectator(port)
    spectator.start()
    deadline = time.monotonic() + timeout
    try:
        while True:
            ended = asyncio.create_task(host.proc.wait())
            waiters = {ended, *[t for t in tasks if not t.done()]}
            outer_fired = False
            while not ended.done():
                if all(t.done() for t in tasks):
                    break
                if outer and spectator.lives and len(spectator.lives[-1]) >= outer:
                    host.proc.send_signal(signal.SIGKILL)
                    outer_fired = True
                    await ended
                    break
                if time.monotonic() > deadline:
                    raise AssertionError(
                        f"{game} seed {seed}: no end after {timeout} s; {_where(directory)}"
                    )
                await asyncio.wait(waiters, timeout=0.02)
            if not ended.done():  # the game is over and the host still runs
                ended.cancel()
                break
            # the host is dead: every save must be whole
            code = host.proc.returncode
            if code != -signal.SIGKILL:
                err = (directory / "host-stderr.txt").read_bytes()
                raise AssertionError(f"the host exited with {code}: {err.decode()[-3000:]}")
            figures.kills += 1
            figures.outer_kills += outer_fired
            figures.inner_kills += not outer_fired
            if not outer_fired:
                figures.mid_commit_kills += (
                    kills_file.read_text().splitlines()[-1] == "moves written"
                )
            figures.saves_checked += check_saves(directory)
            if spectator.task is not None:
                await asyncio.wait_for(spectator.task, 10.0)
            began = time.monotonic()
            inner, outer = kill_point(figures.kills)
            host = await _start_host(directory, port, resume=True, kill_at=inner, options=options)
            figures.restart_seconds.append(time.monotonic() - began)
            figures.resumes += 1
            spectator.start()
        results = [await asyncio.wait_for(t, 30.0) for t in tasks]
    finally:
        for t in tasks:
            t.cancel()
        if spectator.task is not None:
            spectator.task.cancel()
        for client in players:
            await client.close()
        if host.proc.returncode is None:
            host.proc.send_signal(signal.SIGKILL)
            await host.proc.wait()
    # the end: one finished record, whole, over, with the spectator's every state
    store = persist.Store(directory)
    records = [g for g in store.kept() if g.status == "finished"]
    assert len(records) == 1, f"expected one finished game, found {records}"
    record = store.load(records[0].id)
    # (players who came back after the end may have started another game at the table:
    # its save is another row)
    assert record.id not in store.unfinished(), "the finished game is still unfinished"
    store.close()
    assert record.status == "finished"
    driver = record.replay()
    assert driver.over
    winners, scores = driver.result()
    for over in results:
        assert over and over[-1].winners == winners and over[-1].scores == scores
    final = history(record)
    figures.moves = len(record.doc.log)
    for life in spectator.lives:
        figures.states_seen += len(life)
        figures.lost += _in_order(life, final)
    for i, client in enumerate(players):
        assert client.seat == seats[i], "a player lost their seat"
        assert record.doc.seats[seats[i]].name == f"P{i}"  # type: ignore[index]
        if figures.kills:
            # the last welcome came from a resume by token
            assert client.welcome is not None and client.welcome.resumed
            figures.reconnects += 1
    return figures
