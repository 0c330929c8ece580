"""The real app under a pseudo-terminal of 80x24, for the suites that need a process:
every byte it writes is kept, and its screen text can be waited for."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from tests.waiting import until_blocking
from tui.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

# CSI (with private/intermediate bytes) and the charset/keypad ESC pairs Textual writes;
# what is left of the capture once they are gone is the text on the screen.
_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_OTHER_ESC = re.compile(r"\x1b[()][0-9A-Za-z]|\x1b[=>78]")


def screen_text(raw: str) -> str:
    return _OTHER_ESC.sub("", _CSI.sub("", raw))



def app_env(tmp_path: Path) -> dict[str, str]:
    """The environment of an app process: an 80x24 xterm, private directories."""
    env = dict(os.environ)
    env.update(
        TERM="xterm-256color",
        COLUMNS="80",
        LINES="24",
        MOTHERLODE_CONFIG_DIR=str(tmp_path / "config"),
        MOTHERLODE_LOG_DIR=str(tmp_path / "log"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        HOME=str(tmp_path),
    )
    env.pop("NO_COLOR", None)
    # a player who has kept their login name: the first run's question is not what
    # these test (tests/tui/test_frictions.py has it)
    config = tmp_path / "config"
    config.mkdir(parents=True, exist_ok=True)
    if not (config / "settings.json").exists():
        (config / "settings.json").write_text(json.dumps({"name": Settings().name}),
                                              encoding="utf-8")
    return env


def motherlode(*args: str) -> list[str]:
    """The argv of ``motherlode ARGS`` run from this checkout."""
    return [sys.executable, "-m", "tui.cli", *args]


class Pty:
    """The real app under a pty of 80x24; every byte it writes is kept in ``raw``."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=ROOT,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.raw = b""

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="replace")

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.1))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # EIO: the child closed the pty
                    return
                if not chunk:
                    return
                self.raw += chunk

    def wait_for(self, needle: str, deadline: float = 20.0) -> None:
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if needle in screen_text(self.text):
                return
            self.pump(0.2)
            if self.proc.poll() is not None:
                self.pump(0.2)
                break
        tail = screen_text(self.text)[-1500:]
        raise AssertionError(f"{needle!r} never shown; the screen ends with {tail!r}")

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def signal(self, sig: int, deadline: float = 15.0) -> int:
        """Send ``sig`` to the app and read its output until it exits; its exit code."""
        os.kill(self.proc.pid, sig)
        end = time.monotonic() + deadline
        while self.proc.poll() is None and time.monotonic() < end:
            self.pump(0.1)
        self.pump(0.3)
        code = self.proc.poll()
        assert code is not None, f"the app did not exit on signal {sig}"
        return code

    def terminal_sane(self) -> bool:
        """Echo and line editing are on again (the app put the terminal back)."""
        lflag = termios.tcgetattr(self.master)[3]
        return bool(lflag & termios.ECHO) and bool(lflag & termios.ICANON)

    def finish(self) -> None:
        """Kill the app if it still runs, and close the pty (again: a no-op)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


class Peer:
    """A raw TCP peer: JSON lines out exactly as given, lines in."""

    def __init__(self, port: int, name: str, spectate: bool = False,
                 token: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.send({"type": "hello", "protocol": 3, "name": name, "spectate": spectate,
                   "token": token})

    def send(self, message: dict) -> None:
        # ensure_ascii=False: C1 and bidi characters go as raw UTF-8, ESC as \u001b
        self.sock.sendall(json.dumps(message, ensure_ascii=False).encode() + b"\n")

    def recv(self) -> dict:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the host")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def recv_type(self, kind: str) -> dict:
        for _ in range(50):
            message = self.recv()
            if message["type"] in (kind, "error"):
                return message
        raise AssertionError(f"no {kind} message")

    def wait(self, match, what: str, limit: int = 2000) -> dict:
        """Read until a message for which ``match(message)`` holds; return it."""
        for _ in range(limit):
            message = self.recv()
            if match(message):
                return message
        raise AssertionError(f"never received: {what}")

    def close(self) -> None:
        self.sock.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HostCommand:
    """``motherlode host ARGS`` in its own process, on 127.0.0.1 at a fixed port (so a
    ``--resume`` comes back where its players look for it); its output goes to ``log``."""

    def __init__(self, port: int, log: Path, *args: str) -> None:
        self.port = port
        with open(log, "w") as out:
            self.proc = subprocess.Popen(
                motherlode("host", "--bind", "127.0.0.1", "--port", str(port), "--no-announce",
                           *args),
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        until_blocking(lambda: "Ctrl-C closes the table" in log.read_text()
                       or self.proc.poll() is not None, "the host starts or ends", 20)
        if "Ctrl-C closes the table" not in log.read_text():
            raise AssertionError(f"the host did not start: {log.read_text()[-2000:]}")

    def interrupt(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(15)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
