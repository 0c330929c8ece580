"""A flood of typed lines or keys at one seat, as an attacker sends it: a process of its
own (``python -m tests.serve.floods KIND PORT SECONDS``), so the flood's own work is
never in the test's measurements.

It sits down first where the seat has a table (``1``, the serve host's first table),
waits until the seat has said its lobby line (the app page: its first frame), prints
``ready`` (``join-plain``: its app's pid before it) and waits for a line on its stdin.
Then it sends 990-character lines as fast as the seat takes them, reading (and
dropping) what comes back, for ``SECONDS``, and prints how it ended and the bytes it
got out: ``ended`` (it sent to the end), ``held`` (still held back by the door when
the time was up) or ``closed (...)`` (the door closed the connection)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections.abc import Awaitable, Callable

LINE = "x" * 990
SENT = [0]  # bytes out so far (a flood the door stops reading is cut off at the end)


GONE: list[asyncio.Event] = []  # set once "go" is read: the flood's time starts


async def _go() -> None:
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    GONE[0].set()


async def _flood(send: Callable[[], Awaitable[int]], seconds: float,
                 open_: Callable[[], bool]) -> None:  # fmt: skip
    end = time.monotonic() + seconds
    while time.monotonic() < end and open_():
        SENT[0] += await send()


async def _web(port: int, seconds: float, *, plain: bool) -> None:
    import aiohttp

    query = "plain=1" if plain else "width=80&height=24"
    async with aiohttp.ClientSession() as http, \
            http.ws_connect(f"http://127.0.0.1:{port}/ws?{query}") as ws:
        seen: list = []
        ready = asyncio.Event()

        async def drain() -> None:
            async for message in ws:
                if plain and message.type == aiohttp.WSMsgType.TEXT:
                    said = json.loads(message.data)
                    ready.set() if said[1:] and str(said[1]).startswith("Table ") else None
                elif message.type == aiohttp.WSMsgType.BINARY:
                    seen.append(len(message.data))
                    ready.set() if sum(seen) > 1024 else None

        reading = asyncio.ensure_future(drain())
        if plain:
            for word in ("Flo", "1"):
                await ws.send_str(json.dumps(["stdin", word + "\n"]))
        await asyncio.wait_for(ready.wait(), 60)
        await _go()
        frame = json.dumps(["stdin", LINE + "\n" if plain else LINE])

        async def send() -> int:
            await ws.send_str(frame)
            return len(LINE) + plain

        await _flood(send, seconds, lambda: not ws.closed)
        reading.cancel()


async def _ssh_plain(port: int, seconds: float) -> None:
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect("127.0.0.1", port, username="flossh", known_hosts=None,
                                encoding=None, client_keys=[key], agent_path=None,
                                password=None) as conn:
        proc = await conn.create_process("plain", stderr=asyncssh.STDOUT)
        await _lines_until_lobby(proc.stdout, b"1\n", proc.stdin.write)
        reading = asyncio.ensure_future(_drain(proc.stdout))
        await _go()
        data = (LINE + "\n").encode()

        async def send() -> int:
            proc.stdin.write(data)
            await proc.stdin.drain()
            return len(data)

        await _flood(send, seconds, lambda: not proc.is_closing())
        reading.cancel()


async def _join_plain(port: int, seconds: float) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "join", "--plain", f"127.0.0.1:{port}",
        "--name", "Flojo", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    print(proc.pid, flush=True)
    try:
        await _lines_until_lobby(proc.stdout, None, proc.stdin.write)
        reading = asyncio.ensure_future(_drain(proc.stdout))
        await _go()
        data = (LINE + "\n").encode()

        async def send() -> int:
            assert proc.stdin is not None
            proc.stdin.write(data)
            await proc.stdin.drain()
            return len(data)

        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            await _flood(send, seconds, lambda: proc.returncode is None)
        reading.cancel()
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


async def _lines_until_lobby(out, first: bytes | None, write) -> None:
    """Read the seat's lines until its lobby line; ``first`` typed at the outset."""
    if first is not None:
        write(first)
    while True:
        line = await asyncio.wait_for(out.readline(), 60)
        if not line:
            raise ConnectionError("the seat ended before its lobby")
        if line.startswith(b"Table "):
            return


async def _drain(out) -> None:
    while await out.read(65536):
        pass


KINDS: dict[str, Callable[[int, float], Awaitable[None]]] = {
    "plain-page": lambda port, s: _web(port, s, plain=True),
    "app-page": lambda port, s: _web(port, s, plain=False),
    "ssh-plain": _ssh_plain,
    "join-plain": _join_plain,
}


def main() -> None:
    kind, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    with contextlib.suppress(OSError):
        os.nice(10)  # an attacker on a machine of its own: the players' cores come first

    async def run() -> str:
        task = asyncio.ensure_future(KINDS[kind](port, seconds))
        try:
            await task
        except Exception as error:  # the door closed the connection: said, with the count
            return f"closed ({type(error).__name__})"
        return "ended"

    async def bounded() -> str:
        # the flood is cut off SECONDS after go, even while the door holds it back
        GONE.append(asyncio.Event())
        started = asyncio.ensure_future(run())
        await asyncio.wait({started, asyncio.ensure_future(GONE[0].wait())},
                           return_when=asyncio.FIRST_COMPLETED)
        try:
            return await asyncio.wait_for(started, seconds + 1)
        except TimeoutError:
            return "held"

    print(f"{asyncio.run(bounded())} sent {SENT[0]}", flush=True)


if __name__ == "__main__":
    main()
