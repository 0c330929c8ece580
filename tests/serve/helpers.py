"""A real ``motherlode serve`` process and SSH players with a screen (asyncssh + pyte).

Everything talks to 127.0.0.1 only. Waits are on what the screen shows, bounded by a
deadline, never on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from pathlib import Path

import asyncssh
import pyte

from tests.waiting import until

ROOT = Path(__file__).resolve().parents[2]


class ServeProcess:
    """``motherlode serve`` in its own process, on loopback, with free ports."""

    def __init__(self, proc: asyncio.subprocess.Process, data: Path) -> None:
        self.proc = proc
        self.data = data
        self.lines: list[str] = []
        self.ssh_port = 0
        self.game_port = 0
        self.web_port = 0
        self._reader: asyncio.Task | None = None

    @classmethod
    async def start(cls, data: Path, *args: str, timeout: float = 30.0,
                    program: tuple[str, ...] = (sys.executable, "-m", "tui.cli"),
                    ) -> ServeProcess:
        """``program`` is what runs ``serve`` (a bench's busy server, say)."""
        env = dict(os.environ, MOTHERLODE_DATA_DIR=str(data))
        proc = await asyncio.create_subprocess_exec(
            *program, "serve", "--bind", "127.0.0.1", "--ssh", "0",
            "--port", "0", "--no-announce", *args,
            cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        serve = cls(proc, data)
        try:
            await asyncio.wait_for(serve._until_ready(), timeout)
        except BaseException:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            raise
        serve._reader = asyncio.create_task(serve._read_rest())
        return serve

    async def _until_ready(self) -> None:
        assert self.proc.stdout is not None
        while True:
            raw = await self.proc.stdout.readline()
            if not raw:
                raise RuntimeError("serve exited early:\n" + "".join(self.lines))
            line = raw.decode(errors="replace")
            self.lines.append(line)
            if match := re.search(r"ssh -p (\d+) NAME@", line):
                self.ssh_port = int(match[1])
            if match := re.search(r"http://127\.0\.0\.1:(\d+)", line):
                self.web_port = int(match[1])
            if match := re.search(r"motherlode join 127\.0\.0\.1:(\d+)", line):
                self.game_port = int(match[1])
            if "Ctrl-C tells every player" in line:
                return

    async def _read_rest(self) -> None:
        assert self.proc.stdout is not None
        while raw := await self.proc.stdout.readline():
            self.lines.append(raw.decode(errors="replace"))

    @property
    def output(self) -> str:
        return "".join(self.lines)

    async def wait_for_line(self, text: str, timeout: float = 20.0) -> None:
        """Wait until the server has printed ``text``."""
        await until(lambda: text in self.output,
                    lambda: f"{text!r} from the server:\n{self.output}", timeout, step=0.02)

    async def interrupt(self, timeout: float = 30.0) -> int:
        """Ctrl-C, as a person at the server's terminal; returns the exit status."""
        self.proc.send_signal(signal.SIGINT)
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def stop(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, asyncio.TimeoutError):
                await self.interrupt(20.0)
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()
        if self._reader is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 5.0)


class _Keyless(asyncssh.SSHClient):
    """A client without a key: keyboard-interactive, answering no questions."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return [] if not prompts else None


class Player:
    """One SSH client with a terminal screen."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc: asyncssh.SSHClientProcess,
                 size: tuple[int, int]) -> None:
        self.conn = conn
        self.proc = proc
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self._pump = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, port: int, username: str, key: asyncssh.SSHKey | None = None, *,
                      size: tuple[int, int] = (100, 30), term: bool = True,
                      source: str | None = None) -> Player:
        """``source``: the loopback address to connect from (127.0.0.2: another machine)."""
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username=username, known_hosts=None, encoding=None,
            client_keys=[key] if key is not None else [], agent_path=None,
            password=None, preferred_auth="publickey,keyboard-interactive",
            client_factory=_Keyless if key is None else None,
            local_addr=(source, 0) if source else None,
        ), 20.0)  # fmt: skip
        if term:
            proc = await conn.create_process(term_type="xterm-256color", term_size=size,
                                             stderr=asyncssh.STDOUT)
        else:
            proc = await conn.create_process(stderr=asyncssh.STDOUT)
        return cls(conn, proc, size)

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            while data := await self.proc.stdout.read(65536):
                self.raw += data
                self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, pattern: str, timeout: float = 20.0) -> float:
        """Wait until the screen matches ``pattern`` (a regex); returns the seconds."""
        start = time.monotonic()
        await until(lambda: re.search(pattern, self.text),
                    lambda: f"{pattern!r} on the screen:\n{self.text}", timeout, step=0.02)
        return time.monotonic() - start

    async def wait_gone(self, pattern: str, timeout: float = 20.0) -> float:
        start = time.monotonic()
        await until(lambda: not re.search(pattern, self.text),
                    lambda: f"{pattern!r} gone from the screen:\n{self.text}", timeout,
                    step=0.02)
        return time.monotonic() - start

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(height, width)
        self.proc.change_terminal_size(width, height)

    async def exit_status(self, timeout: float = 20.0) -> int | None:
        await asyncio.wait_for(self.proc.wait_closed(), timeout)
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(self._pump, 5.0)
        return self.proc.exit_status

    def abort(self) -> None:
        """The line drops (a closed lid): no goodbye."""
        self.conn.abort()

    async def close(self) -> None:
        self.conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 5.0)
        self._pump.cancel()


class PtyPlayer:
    """A program on a pty of its own, with a terminal screen: a friend's ``ssh``
    (:class:`OpenSSHPlayer`) or ``motherlode join``; killing it is a closed laptop lid."""

    def __init__(self, proc: asyncio.subprocess.Process, master: int,
                 size: tuple[int, int]) -> None:
        self.proc = proc
        self.master = master
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.received = 0  # bytes drawn so far
        asyncio.get_running_loop().add_reader(master, self._readable)

    @classmethod
    async def spawn(cls, argv: list[str], *, size: tuple[int, int] = (80, 24),
                    env: dict[str, str] | None = None):
        import fcntl
        import struct
        import termios

        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        os.set_blocking(master, False)
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
            cwd=ROOT, env=env if env is not None else dict(os.environ, TERM="xterm-256color"))
        os.close(slave)
        return cls(proc, master, size)


    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.received += len(data)
        self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, pattern: str, timeout: float = 20.0) -> float:
        start = time.monotonic()
        await until(lambda: re.search(pattern, self.text),
                    lambda: f"{pattern!r} on the screen:\n{self.text}", timeout, step=0.02)
        return time.monotonic() - start

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    async def press(self, data: bytes, quiet: float = 0.15, timeout: float = 5.0) -> None:
        """Send a key, then wait until the program has drawn something and gone quiet
        for ``quiet`` seconds (or ``timeout``: a key it ignores draws nothing)."""
        before = self.received
        self.send(data)
        last = [self.received, time.monotonic()]

        def drawn_and_quiet() -> bool:
            if self.received != last[0]:
                last[:] = [self.received, time.monotonic()]
                return False
            return self.received != before and time.monotonic() - last[1] >= quiet

        with contextlib.suppress(AssertionError):  # a key it ignores draws nothing
            await until(drawn_and_quiet, "drawn, then quiet", timeout, step=0.02)

    async def kill(self) -> None:
        """kill -9 the program: the line drops with no goodbye."""
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()
        self.close()

    def close(self) -> None:
        if self.master >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self.master)
            os.close(self.master)
            self.master = -1
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()


class OpenSSHPlayer(PtyPlayer):
    """The OpenSSH client a friend types (``ssh -p PORT NAME@HOST``), on a pty of its
    own, with a terminal screen; killing it is a closed laptop lid. ``prefix`` runs it
    elsewhere (``ip netns exec NS``), ``source`` binds the address it comes from."""

    @classmethod
    async def connect(cls, port: int, username: str, key_file: Path, *,
                      size: tuple[int, int] = (80, 24), host: str = "127.0.0.1",
                      prefix: tuple[str, ...] = (), source: str | None = None,
                      ) -> OpenSSHPlayer:
        bind = ("-b", source) if source else ()
        return await cls.spawn([
            *prefix, "ssh", "-F", "/dev/null", "-i", str(key_file), "-o", "IdentitiesOnly=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "-o", "BatchMode=yes", *bind, "-p", str(port), "-tt",
            f"{username}@{host}"], size=size)  # fmt: skip


def key_file(key: asyncssh.SSHKey, directory: Path, name: str) -> Path:
    """``key`` as a private key file OpenSSH reads (0600)."""
    path = directory / name
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return path


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc; [] once it is gone)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def pss_mib(pid: int) -> float:
    """Proportional set size in MiB: private pages plus a share of the shared ones
    (0 once the process is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    return 0.0


@contextlib.asynccontextmanager
async def serving(tmp_path, *args: str):
    serve = await ServeProcess.start(tmp_path / "data", *args)
    players: list[Player] = []
    try:
        yield serve, players
    finally:
        for player in players:
            await player.close()
        await serve.stop()


async def connect(serve, players, name, key=None, **options) -> Player:
    player = await Player.connect(serve.ssh_port, name, key, **options)
    players.append(player)
    return player


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")
