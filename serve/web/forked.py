"""The web door's apps (:class:`TabApp`), forked from the warm parent (``serve.warm``)
as the SSH door's are: a tab's app, or its plain seat, on three pipes instead of a pty.

textual-serve starts each app with ``asyncio.create_subprocess_shell`` and speaks to
it on its stdin and stdout (Textual's ``WebDriver``: packets of a type byte, a length
and a payload), reading its stderr for the log. :func:`fork_piped` asks the warm parent
for the same on three pipes and hands back a :class:`Piped`, as much of
``asyncio.subprocess.Process`` as textual-serve's ``AppService`` and the plain page use.
The app learns it is in a browser from its environment (``TEXTUAL_DRIVER``), which the
forked app reads as a fresh interpreter would (``tui.cli``). None (no parent ready, or
one whose code is old): the caller starts the app the old way."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from pathlib import Path
from typing import Any

from textual_serve.app_service import AppService

from serve.warm import Forked, Warm

# the server's variables an app must not see (a secret, or the server's own terminal)
SECRET_ENV = ("MOTHERLODE_SERVE_PASSWORD",)


def without_secrets(env: dict[str, str]) -> dict[str, str]:
    """``env`` less the server's secrets (``SECRET_ENV``)."""
    return {name: value for name, value in env.items() if name not in SECRET_ENV}


def shell_command(argv: list[str], extra: dict[str, str]) -> str:
    """The old way's command line: ``env NAME=VALUE ... argv``, quoted for the shell."""
    assignments = " ".join(f"{name}={shlex.quote(value)}" for name, value in extra.items())
    return f"env {assignments} {shlex.join(argv)}"


class TabApp(AppService):
    """A tab's app: forked from the warm parent where one is ready (``serve.web.forked``),
    else textual-serve's fresh interpreter; its environment carries none of the
    server's secrets, and ``extra`` besides."""

    def __init__(self, argv: list[str], extra: dict[str, str], home: Path,
                 warm: Warm | None, **kwargs: Any) -> None:  # fmt: skip
        super().__init__(shell_command(argv, extra), **kwargs)
        self.argv = argv
        self.extra = extra
        self.home = home
        self.warm = warm

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return without_secrets(super()._build_environment(width=width, height=height))

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        forked = await fork_piped(self.warm, self.argv, environment | self.extra, self.home)
        if forked is None:  # no parent ready, or one whose code is old: the old way
            return await super()._open_app_process(width, height)
        self._process = forked  # type: ignore[assignment]
        self._stdin = forked.stdin
        return forked

    async def end(self, within: float = 5.0) -> None:
        """Ask the app to quit, and wait until its process has ended; kill it if it has
        not within ``within`` seconds (a browser's next tab waits for it: its seat token
        must be free). The app's output ends before its process does (the interpreter
        still shuts down, the seat's lock still held): a new tab's app started in that
        window found the seat in use and asked for a name."""
        process = self._process
        with contextlib.suppress(Exception):  # a timeout, or a pipe already gone
            await asyncio.wait_for(self.stop(), within)
        if process is None or process.returncode is not None:
            return
        try:
            await asyncio.wait_for(process.wait(), within)
        except (TimeoutError, ProcessLookupError, ChildProcessError):
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(asyncio.TimeoutError, ChildProcessError):
                await asyncio.wait_for(process.wait(), within)


class Piped:
    """A forked app on pipes: ``pid``, ``returncode``, ``stdin`` (a StreamWriter),
    ``stdout`` and ``stderr`` (StreamReaders; ``stderr`` None when it was not kept),
    ``wait()`` and ``kill()`` (the app and its session: it is the session's leader)."""

    def __init__(self, forked: Forked, stdin: asyncio.StreamWriter,
                 stdout: asyncio.StreamReader, stderr: asyncio.StreamReader | None) -> None:
        self.forked = forked
        self.pid = forked.pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr

    @property
    def returncode(self) -> int | None:
        return self.forked.returncode

    async def wait(self) -> int:
        return await self.forked.wait()

    def kill(self) -> None:
        if self.forked.returncode is None:
            _kill(self.pid)


def _kill(pid: int) -> None:
    """SIGKILL to the app, then to its session (once it has made one)."""
    for kill in (os.kill, os.killpg):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


async def fork_piped(warm: Warm | None, argv: list[str], env: dict[str, str], cwd: Path,
                     *, stderr: bool = True) -> Piped | None:  # fmt: skip
    """The app of ``argv`` forked by ``warm``'s parent on fresh pipes (``stderr``
    False: its stderr goes nowhere), or None: start it the old way."""
    if warm is None or warm.parent is None or not warm.parent.ready:
        return None
    theirs: list[int] = []
    ours: list[int] = []
    try:
        stdin_r, stdin_w = os.pipe()
        theirs.append(stdin_r)
        ours.append(stdin_w)
        stdout_r, stdout_w = os.pipe()
        ours.append(stdout_r)
        theirs.append(stdout_w)
        if stderr:
            stderr_r, stderr_w = os.pipe()
            ours.append(stderr_r)
            theirs.append(stderr_w)
        else:
            theirs.append(os.open(os.devnull, os.O_WRONLY))
        forked = await warm.spawn(argv, env, cwd, (theirs[0], theirs[1], theirs[2]))
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    finally:
        for fd in theirs:  # the app has its own copies now (or there is no app)
            os.close(fd)
    if forked is None:
        for fd in ours:
            os.close(fd)
        return None
    loop = asyncio.get_running_loop()
    try:
        writer = await _writer(loop, ours[0])
        out = await _reader(loop, ours[1])
        err = await _reader(loop, ours[2]) if stderr else None
    except BaseException:  # cancelled (the door closing): an app for nobody
        _kill(forked.pid)
        raise
    return Piped(forked, writer, out, err)


async def _reader(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    reader = asyncio.StreamReader(limit=1 << 16, loop=loop)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader, loop=loop),
                                 os.fdopen(fd, "rb", buffering=0))
    return reader


async def _writer(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamWriter:
    protocol = asyncio.StreamReaderProtocol(asyncio.StreamReader(loop=loop), loop=loop)
    transport, _ = await loop.connect_write_pipe(lambda: protocol,
                                                 os.fdopen(fd, "wb", buffering=0))
    return asyncio.StreamWriter(transport, protocol, None, loop)
