"""Terminal-app figures, measured on a real pseudo-terminal (80x24), not headless:

- start: process start to the first frame of the menu (the menu text on the terminal),
  against a bare Textual app (a `Static` and a `Footer`), started alternately (A B A B);
- key to repaint: on a busy Fool's Gold table (you and 7 bots, in-process host, real
  clock), the time from writing a key (`1` discard, `d` draw) to the terminal receiving
  the repainted hint that only the host's confirmation of that action can produce;
  against a bare Textual app that repaints a counter on the same keys, in alternating
  windows. Keys go at a person's pace: each a reaction time after the screen asks for
  it (``--pace``, seconds, with +-30% jitter), not the instant a paint lands;
- peak RSS of each process (ru_maxrss of the finished child).

Every figure is printed with its n, median and range; the load average before and after.

Usage: python bench/tui_terminal.py [--starts 10] [--seconds 20] [--pace 0.3] [--rounds 4]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import random
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


# The floor for key to repaint: a bare Textual app that repaints a counter on 1 and d.
BASELINE_KEYS = (
    "from textual.app import App\n"
    "from textual.widgets import Footer, Static\n"
    "class Keys(App):\n"
    "    BINDINGS = [('ctrl+q', 'quit', 'Quit'), ('1', 'press', 'Discard'), "
    "('d', 'press', 'Draw')]\n"
    "    n = 0\n"
    "    def compose(self):\n"
    "        yield Static('Discard a card: 1-6.', id='hint')\n"
    "        yield Footer()\n"
    "    def action_press(self):\n"
    "        self.n += 1\n"
    "        self.query_one('#hint', Static).update(\n"
    "            'd draws' if self.n % 2 else 'Discard a card: 1-6.')\n"
    "Keys().run()\n"
)


def start_once(baseline: bool) -> tuple[float, int]:
    command = [sys.executable, "-c", BASELINE] if baseline else [sys.executable, "-m", "tui.cli"]
    env = environment()
    start = time.perf_counter()
    pid, fd = spawn(command, env)
    seen = b""
    while b"hot-seat" not in ESCAPES.sub(b"", seen):
        chunk = read_some(fd, 10)
        if not chunk:
            raise SystemExit("the menu never appeared")
        seen += chunk
    took = time.perf_counter() - start
    return took, finish(pid, fd)


def measure_starts(runs: int) -> dict[bool, tuple[list[float], list[int]]]:
    """``runs`` starts of each, alternating (the menu, then the bare app, ...)."""
    out: dict[bool, tuple[list[float], list[int]]] = {False: ([], []), True: ([], [])}
    for _ in range(runs):
        for baseline in (False, True):
            took, rss = start_once(baseline)
            out[baseline][0].append(took)
            out[baseline][1].append(rss)
    return out


#: An answer sooner than this after the key is a paint already on its way (no key
#: goes through Textual and back in under a millisecond): counted, not a sample.
STALE = 0.001


class KeyDriver:
    """One app on a pty, driven at a person's pace: when its screen asks for a discard
    (or a draw), it waits a reaction time, writes the key, and times the repaint."""

    def __init__(self, command: list[str], pace: float, rng: random.Random) -> None:
        self.pid, self.fd = spawn(command, environment())
        self.pace, self.rng = pace, rng
        self.samples: list[float] = []
        self.stale = 0  # answers too quick to be a repaint of the key (see STALE)
        self.pending: tuple[tuple[bytes, ...], float] | None = None
        self.due: tuple[bytes, tuple[bytes, ...], float] | None = None  # key, awaited, when
        self.seen = b""  # painted text since the last key or prompt, escapes removed

    def drive(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            timeout = 0.5
            if self.due is not None:
                timeout = max(0.0, min(timeout, self.due[2] - time.perf_counter()))
            chunk = read_some(self.fd, timeout)
            now = time.perf_counter()
            if self.due is not None and now >= self.due[2] and self.pending is None:
                key, wanted, _ = self.due
                self.due = None
                while read_some(self.fd, 0):  # what was painted before the key is stale
                    pass
                os.write(self.fd, key)
                self.pending = (wanted, time.perf_counter())
                self.seen = b""
                continue
            if not chunk:
                continue
            # a paint comes in several reads, and a phrase may straddle two of them:
            # what was painted since the last key (or the last prompt), escapes removed
            self.seen = text = (self.seen + ESCAPES.sub(b"", chunk))[-16384:]
            if self.pending is not None:
                wanted, sent = self.pending
                if any(w in text for w in wanted):
                    if now - sent >= STALE:
                        self.samples.append(now - sent)
                    else:
                        self.stale += 1
                    self.pending = None  # the same paint may ask for the next key
                    self.seen = text = text[max(text.find(w) for w in wanted):]
                else:
                    if now - sent > 2:
                        self.pending = None  # refused or overtaken: no sample
                    continue
            if self.due is not None:
                continue
            react = now + self.pace * self.rng.uniform(0.7, 1.3)
            discard, draw = text.rfind(b"Discard a card: 1-6"), text.rfind(b"d draws")
            if discard >= 0 and discard > draw:
                self.due = (b"1", (b"d draws", b"Waiting for a card"), react)
            elif draw >= 0:
                self.due = (b"d", (b"Discard a card: 1-6",), react)
            if self.due is not None:
                self.seen = b""
        # not read while the other app was driven: neither a sample nor a prompt
        self.pending = self.due = None

    def finish(self) -> int:
        return finish(self.pid, self.fd)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument(
        "--seconds",
        type=float,
        default=20.0,
        help="key to repaint: seconds of driving each app, in all",
    )
    parser.add_argument(
        "--rounds", type=int, default=4, help="key to repaint: alternating windows of each app"
    )
    parser.add_argument(
        "--pace", type=float, default=0.3, help="a person's reaction time before each key, seconds"
    )
    args = parser.parse_args()
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    starts = measure_starts(args.starts)
    for label, baseline in (("motherlode menu", False), ("bare Textual app (floor)", True)):
        times, rss = starts[baseline]
        print(
            f"start to first frame, {label}, n={len(times)}: median "
            f"{statistics.median(times):.3f} s, range {min(times):.3f}-{max(times):.3f} s; "
            f"peak RSS median {statistics.median(rss) / 1024:.1f} MiB"
        )
    ratios = sorted(a / b for a, b in zip(starts[False][0], starts[True][0], strict=True))
    print(
        f"start ratio menu/bare, per pair (n={len(ratios)}): median "
        f"{statistics.median(ratios):.2f}, range {ratios[0]:.2f}-{ratios[-1]:.2f} (goal <= 1.3)"
    )
    rng = random.Random(1)
    table = KeyDriver([sys.executable, "-m", "tui.cli", "solo", "--game", "foolsgold",
                       "--bots", "7"], args.pace, rng)  # fmt: skip
    bare = KeyDriver([sys.executable, "-c", BASELINE_KEYS], args.pace, rng)
    window = args.seconds / max(1, args.rounds)
    for _ in range(args.rounds):  # alternating windows: A B A B
        table.drive(window)
        bare.drive(window)
    table_rss, bare_rss = table.finish(), bare.finish()
    for label, driver in (("a busy Fool's Gold table (8 seats)", table),
                          ("a bare Textual app (floor)", bare)):  # fmt: skip
        if driver.samples:
            ms = [s * 1000 for s in driver.samples]
            print(
                f"key to repaint on {label}, n={len(ms)}, keys at {args.pace:g} s +-30%: "
                f"median {statistics.median(ms):.1f} ms, p95 {pct(ms, 0.95):.1f} ms, "
                f"range {min(ms):.1f}-{max(ms):.1f} ms"
            )
        else:
            print(f"key to repaint on {label}: no samples (it never asked for a key)")
    print(
        f"peak RSS: the busy table {table_rss / 1024:.1f} MiB, the bare app "
        f"{bare_rss / 1024:.1f} MiB"
    )
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
