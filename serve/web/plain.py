"""The web door's plain seat (``?plain=1``): the page (``templates/plain_index.html``)
is a log of lines and a command box, for a screen reader or a braille display. Its
websocket carries JSON: ``["line", text]`` for each line the seat says, and
``["stdin", text]`` for what the person types. The seat is the served app run with
``--plain`` on pipes: the same app, its lines words only (``tui.plain``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from serve.inflow import Inflow
from serve.warm import Warm
from serve.web.forked import fork_piped, shell_command, without_secrets
from serve.web.frames import FrameError, read_frame, refusal

log = logging.getLogger(__name__)

#: the most one typed line may be (the rest is dropped): a command is a few words
MAX_LINE = 1000


async def plain_session(websocket: web.WebSocketResponse, argv: list[str],
                        extra: dict[str, str], home: Path, warm: Warm | None) -> None:
    """Run the plain seat ``argv`` (with ``extra`` in its environment) for one tab until
    the tab or the seat ends: forked from ``warm``'s parent where one is ready
    (``serve.web.forked``), else the old way.

    What the tab types reaches the seat at most ``serve.inflow``'s rate, and the seat
    reads ahead only a few lines (``tui.plain.Lines``): a flood waits in the tab's own
    socket. When the tab goes, the seat is hung up on as the app page's app and an SSH
    terminal are (SIGHUP): its connection closes as a dropped line does, so the others
    see the seat away and the browser's next tab takes it back."""
    env = without_secrets(dict(os.environ)) | extra
    proc: Any = await fork_piped(warm, argv, env, home, stderr=False)
    if proc is None:
        proc = await asyncio.create_subprocess_shell(
            shell_command(argv, extra), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env=without_secrets(dict(os.environ)), start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None

    async def say() -> None:
        assert proc.stdout is not None
        while True:
            try:
                line = await proc.stdout.readline()
            except ValueError:  # a line longer than the pipe's limit: the seat's own
                continue  # lines are short; never a reason to end the tab
            if not line:
                break
            # the bell before a line that needs the person is for a terminal: the page
            # announces each line as it comes (aria-live) and rings nothing
            text = line.decode("utf-8", "replace").rstrip("\r\n").replace("\a", "")
            with contextlib.suppress(ConnectionResetError):
                await websocket.send_str(json.dumps(["line", text]))
        with contextlib.suppress(Exception):
            await websocket.close()

    saying = asyncio.get_running_loop().create_task(say())
    inflow = Inflow()
    try:
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, text = read_frame(message.data)
            except FrameError as error:
                await websocket.send_str(refusal(error))
                continue
            if kind == "stdin" and isinstance(text, str) and proc.returncode is None:
                line = text.replace("\r", "").split("\n")[0][:MAX_LINE]
                data = line.encode("utf-8", "replace") + b"\n"
                await inflow.take(len(data))
                proc.stdin.write(data)
                with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                    await proc.stdin.drain()
            elif kind == "ping" and isinstance(text, str | int | float):
                await websocket.send_json(["pong", text])
    finally:
        await hang_up(proc)
        saying.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await saying


async def hang_up(proc: Any, within: float = 5.0) -> None:
    """The tab is gone: SIGHUP to its seat (``tui.plain``: the connection closes as a
    dropped line does), and wait until it has ended, killed after ``within`` seconds (a
    browser's next tab waits for it: its seat token must be free)."""
    if proc.returncode is None:
        for send in (os.kill, os.killpg):  # the seat, and its session once it has one
            with contextlib.suppress(ProcessLookupError, PermissionError):
                send(proc.pid, signal.SIGHUP)
    try:  # its input stays open meanwhile: an end of input would read as leave
        await asyncio.wait_for(proc.wait(), within)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        with contextlib.suppress(asyncio.TimeoutError, ChildProcessError):
            await asyncio.wait_for(proc.wait(), within)
    with contextlib.suppress(Exception):
        proc.stdin.close()
