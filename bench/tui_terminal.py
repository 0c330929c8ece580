"""Terminal-app figures, measured on a real pseudo-terminal (80x24), not headless:

- start: process start to the first frame of the menu (the menu text on the terminal);
- key to repaint: on a busy Fool's Gold table (you and 7 bots, in-process host, real
  clock), the time from writing a key (`1` discard, `d` draw) to the terminal receiving
  the repainted hint that only the host's confirmation of that action can produce;
- peak RSS of each process (ru_maxrss of the finished child).

Usage: python bench/tui_terminal.py [--starts 10] [--seconds 20]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[=>]")


def spawn(args: list[str], env: dict[str, str]) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(args[0], args, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def read_some(fd: int, timeout: float) -> bytes:
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""


def finish(pid: int, fd: int) -> int:
    """Quit the app (ctrl+q), reap it, and return its peak RSS in KiB."""
    try:
        os.write(fd, b"\x11")
    except OSError:
        pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        read_some(fd, 0.05)
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            os.close(fd)
            return usage.ru_maxrss
    os.kill(pid, signal.SIGKILL)
    _, _, usage = os.wait4(pid, 0)
    os.close(fd)
    return usage.ru_maxrss


def environment() -> dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    tmp = tempfile.mkdtemp(prefix="motherlode-bench-")
    env["MOTHERLODE_CONFIG_DIR"] = tmp
    env["MOTHERLODE_LOG_DIR"] = tmp
    # a name chosen already: the menu opens at once, not the first run's question
    with open(os.path.join(tmp, "settings.json"), "w", encoding="utf-8") as file:
        file.write('{"name": "Bench"}')
    return env


# The floor: the smallest Textual app with a Footer, started the same way.
BASELINE = (
    "from textual.app import App\n"
    "from textual.widgets import Footer, Static\n"
    "class Hello(App):\n"
    "    BINDINGS = [('ctrl+q', 'quit', 'Quit')]\n"
    "    def compose(self):\n"
    "        yield Static('hot-seat')\n"
    "        yield Footer()\n"
    "Hello().run()\n"
)


def measure_start(runs: int, baseline: bool = False) -> tuple[list[float], list[int]]:
    times, rss = [], []
    command = [sys.executable, "-c", BASELINE] if baseline else [sys.executable, "-m", "tui.cli"]
    for _ in range(runs):
        env = environment()
        start = time.perf_counter()
        pid, fd = spawn(command, env)
        seen = b""
        while b"hot-seat" not in ESCAPES.sub(b"", seen):
            chunk = read_some(fd, 10)
            if not chunk:
                raise SystemExit("the menu never appeared")
            seen += chunk
        times.append(time.perf_counter() - start)
        rss.append(finish(pid, fd))
    return times, rss


def measure_keys(seconds: float) -> tuple[list[float], int]:
    env = environment()
    pid, fd = spawn([sys.executable, "-m", "tui.cli", "solo", "--game", "foolsgold",
                     "--bots", "7"], env)
    samples: list[float] = []
    pending: tuple[bytes, float] | None = None  # (text awaited, when the key was written)
    screen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        chunk = read_some(fd, 0.5)
        now = time.perf_counter()
        if not chunk:
            continue
        text = ESCAPES.sub(b"", chunk)
        if pending is not None:
            wanted, sent = pending
            if any(w in text for w in wanted):
                samples.append(now - sent)
                pending = None
            elif now - sent > 2:
                pending = None  # the action was refused or overtaken: no sample
            continue
        screen = (screen + text)[-4000:]
        if b"Discard a card: 1-6." in text:
            os.write(fd, b"1")
            pending = ((b"d draws", b"Waiting for a card"), time.perf_counter())
        elif b"d draws" in text:
            os.write(fd, b"d")
            pending = ((b"Discard a card: 1-6.",), time.perf_counter())
    return samples, finish(pid, fd)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    for label, baseline in (("motherlode menu", False), ("bare Textual app (floor)", True)):
        times, rss = measure_start(args.starts, baseline)
        print(f"start to first frame, {label}, {len(times)} runs: median "
              f"{statistics.median(times):.3f} s, max {max(times):.3f} s; "
              f"peak RSS median {statistics.median(rss) / 1024:.1f} MiB")
    samples, key_rss = measure_keys(args.seconds)
    if samples:
        ms = [s * 1000 for s in samples]
        print(f"key to repaint on a busy Fool's Gold table (8 seats), {len(ms)} keys: "
              f"median {statistics.median(ms):.1f} ms, p95 {pct(ms, 0.95):.1f} ms, "
              f"max {max(ms):.1f} ms")
    else:
        print("key to repaint: no samples (the table never asked for a draw or discard)")
    print(f"peak RSS during the busy table: {key_rss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
