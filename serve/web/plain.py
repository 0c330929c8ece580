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
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from serve.warm import Warm
from serve.web.forked import fork_piped, shell_command, without_secrets

log = logging.getLogger(__name__)

#: the most one typed line may be (the rest is dropped): a command is a few words
MAX_LINE = 1000


async def plain_session(websocket: web.WebSocketResponse, argv: list[str],
                        extra: dict[str, str], home: Path, warm: Warm | None) -> None:
    """Run the plain seat ``argv`` (with ``extra`` in its environment) for one tab until
    the tab or the seat ends: forked from ``warm``'s parent where one is ready
    (``serve.web.forked``), else the old way. The seat is asked to leave when the tab
    goes, then stopped."""
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
        while line := await proc.stdout.readline():
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            with contextlib.suppress(ConnectionResetError):
                await websocket.send_str(json.dumps(["line", text]))
        with contextlib.suppress(Exception):
            await websocket.close()

    saying = asyncio.get_running_loop().create_task(say())
    try:
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                kind, text = json.loads(message.data)
            except (ValueError, TypeError):
                continue
            if kind == "stdin" and isinstance(text, str) and proc.returncode is None:
                line = text.replace("\r", "").split("\n")[0][:MAX_LINE]
                proc.stdin.write(line.encode("utf-8", "replace") + b"\n")
                with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                    await proc.stdin.drain()
            elif kind == "ping":
                await websocket.send_json(["pong", text])
    finally:
        if proc.returncode is None:
            with contextlib.suppress(Exception):
                proc.stdin.write(b"leave\n")
                proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 5.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        saying.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await saying
