"""An SSH player's app on a pseudo-terminal (:class:`Child`), and the SSH session
attached to it, if any (:class:`SSHSession`).

The door pumps bytes between the two itself (rather than asyncssh's ``redirect``):

- client -> app: keys as they come, at most ``serve.inflow``'s rate, and only as fast as
  the app's terminal takes them in (the rest waits in the player's SSH channel); a
  resize sets the pty's size and signals the app.
- app -> client: whatever the app draws. The pty is drained all the time, attached or
  not, so an app never blocks on its terminal. A client whose channel holds more than
  ``process_limit`` bytes unsent is dropped (and may re-attach).

A re-attached terminal is repainted: its modes, then a size change and back.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import shutil
import signal
import struct
import termios
import time
from pathlib import Path

import asyncssh

from net.latency import DelayMeter
from serve.resize import Coalesced
from serve.warm import Forked, Warm

log = logging.getLogger(__name__)

#: bytes of output that make an app's first frame: its terminal modes come first, in
#: a few small writes, then a screen of text and colours (80x24's menu: 5.7 KiB). A
#: terminal of fewer cells than this counts its cells instead: a tiny one's first screen
#: is smaller, and a client asking for 10x5 must not hold a start-up slot the longest
FIRST_FRAME = 1024

# modes a fresh terminal needs to show an app that is already running (Textual's)
REATTACH_MODES = (b"\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
                  b"\x1b[?25l\x1b[?1004h\x1b[?2004h\x1b[?7l\x1b[2J")


class Child:
    """One app on a pty, with the session (if any) it draws to."""

    def __init__(self, key: tuple[str, str] | None, name: str, scratch: Path | None, *,
                 address: str, resize_every: float, plain: bool = False) -> None:
        self.key = key  # (slug, fingerprint): who may re-attach; None for a keyless login
        #: the plain seat (lines of words): no terminal modes are ever written for it
        self.plain = plain
        self.name = name
        self.address = address  # where its player came from
        self.since = time.time()
        self.scratch = scratch  # a keyless player's directory, removed at the end
        self.proc: asyncio.subprocess.Process | Forked | None = None
        self.master = -1
        self.session: SSHSession | None = None
        self.size = (80, 24)
        self.first_output = asyncio.Event()
        #: its first screenful is out (``FIRST_FRAME`` bytes, or a byte a cell of a
        #: smaller terminal; any output for a plain seat): the door's start-up slot is
        #: free again (``Apps.start``)
        self.first_frame = asyncio.Event()
        self.written = 0  # bytes the app has written to its terminal, to its first frame
        self.output_done = asyncio.Event()
        self.exited: int | None = None
        self.expiry: asyncio.TimerHandle | None = None
        self.resizes = Coalesced(self.resize, resize_every, self.size,
                                 lambda delay, then: asyncio.get_running_loop().call_later(
                                     delay, then))  # fmt: skip
        self.link: str | None = None  # lag-fair races: its id in the door's Links
        self.meter: DelayMeter | None = None

    async def spawn(self, argv: list[str], env: dict[str, str], cwd: Path,
                    size: tuple[int, int], warm: Warm | None = None,
                    lines: bool = False) -> None:
        """Start the app on a fresh pty: forked by the ``warm`` parent where it is
        ready (``serve.warm``), else a fresh interpreter. ``lines``: the client has no
        terminal of its own (``ssh HOST plain``), so the pty neither echoes what it is
        sent nor turns a line's end into a carriage return and a new line."""
        master, slave = os.openpty()
        if lines:
            attrs = termios.tcgetattr(slave)
            attrs[1] &= ~termios.OPOST
            attrs[3] &= ~termios.ECHO
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
        try:
            self.master = master
            self.size = size
            self._set_size(size)
            os.set_blocking(master, False)
            forked = None
            if warm is not None:
                forked = await warm.spawn(argv, env, cwd, slave)
            self.proc = forked or await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=str(cwd),
                start_new_session=True, close_fds=True,
            )  # fmt: skip
        except BaseException:
            os.close(master)
            self.master = -1
            raise
        finally:
            os.close(slave)
        asyncio.get_running_loop().add_reader(master, self._readable)

    def _set_size(self, size: tuple[int, int]) -> None:
        width, height = size
        with contextlib.suppress(OSError):
            fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))

    def resize(self, size: tuple[int, int]) -> None:
        self.size = self.resizes.size = size
        self._set_size(size)
        self.signal(signal.SIGWINCH)

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)

    async def repaint(self) -> None:
        """A full repaint for a fresh terminal: its modes, then a size change and back."""
        if self.session is not None and not self.plain:
            self.session.write(REATTACH_MODES)
        width, height = self.size
        self._set_size((width, max(1, height - 1)))
        self.signal(signal.SIGWINCH)
        await asyncio.sleep(0.05)
        self.resize((width, height))

    async def feed(self, data: bytes) -> None:
        """Keys to the app, all of them: what its terminal cannot take in now waits
        until it can, and the door reads no more from the player meanwhile, so a flood
        waits in the player's own SSH channel (its window) and not in the server."""
        view = memoryview(data)
        while view and self.master >= 0 and self.exited is None:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                await self._writable()
            except OSError:  # the app closed its terminal (it is ending)
                return

    async def _writable(self, within: float = 1.0) -> None:
        """Until the pty takes bytes again (or ``within`` seconds: then the caller
        looks again whether the app is still there)."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        master = self.master
        loop.add_writer(master, lambda: ready.done() or ready.set_result(None))
        try:
            await asyncio.wait_for(ready, within)
        except TimeoutError:
            pass
        finally:
            loop.remove_writer(master)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal (it exited)
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.output_done.set()
            return
        self.first_output.set()
        if not self.first_frame.is_set():
            self.written += len(data)
            width, height = self.size
            if self.plain or self.written >= min(FIRST_FRAME, width * height):
                self.first_frame.set()
        if self.session is not None:
            self.session.write(data)

    async def wait(self) -> int:
        """Wait for the app to exit; returns its exit status."""
        assert self.proc is not None
        code = await self.proc.wait()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.output_done.wait(), 1.0)  # the last frame
        if not self.output_done.is_set():
            asyncio.get_running_loop().remove_reader(self.master)
        self.resizes.cancel()
        if self.master >= 0:
            os.close(self.master)
            self.master = -1
        self.exited = code
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
        return code

    async def stop(self, grace: float = 5.0) -> None:
        """Hang up on the app (it closes its connection as a dropped line would)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(self.proc.wait()), grace)
        except TimeoutError:
            self.signal(signal.SIGKILL)


class SSHSession:
    """One SSH session attached to an app."""

    def __init__(self, process: asyncssh.SSHServerProcess) -> None:
        self.process = process
        self.dropped = False

    def write(self, data: bytes) -> None:
        if self.dropped:
            return
        channel = self.process.channel
        try:
            self.process.stdout.write(data)
        except (OSError, asyncssh.Error, BrokenPipeError):
            self.drop()
            return
        if channel.get_write_buffer_size() > self.process_limit:
            log.info("dropping a slow SSH reader")
            self.drop()

    process_limit = 1 << 20

    def drop(self) -> None:
        if not self.dropped:
            self.dropped = True
            with contextlib.suppress(Exception):
                self.process.channel.get_connection().abort()


def refuse(process: asyncssh.SSHServerProcess, text: bytes) -> None:
    """Tell a session ``text`` (on its stderr) and end it with status 1."""
    with contextlib.suppress(Exception):
        process.stderr.write(text)
        process.exit(1)
