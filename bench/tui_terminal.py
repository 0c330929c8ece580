"""Terminal-app figures, measured on a real pseudo-terminal (80x24), not headless:

- start: process start to the first frame of the menu (the menu text on the terminal),
  and to the end of the start-up burst (the last byte before the terminal is quiet for
  ``QUIET`` seconds), against a bare Textual app (a `Static` and a `Footer`), started
  alternately (A B A B); ``--against DIR`` (repeatable) adds the menu of another
  checkout (e.g. `git archive` of main) as a third contestant (A B C A B C), to compare
  versions;
- the first screen switch (``--switch``): after each menu start's burst, `f` (Fool's
  Gold against bots), then enter on "1 bot": the time from enter to the table's first
  frame, where the rules, the host and the table's widgets are first imported and built;
- key to repaint: on a busy Fool's Gold table (you and 7 bots, in-process host, real
  clock), the time from writing a key (`1` discard, `d` draw) to the terminal receiving
  the repainted hint that only the host's confirmation of that action can produce;
  against a bare Textual app that repaints a counter on the same keys, in alternating
  windows. Keys go at a person's pace: each a reaction time after the screen asks for
  it (``--pace``, seconds, with +-30% jitter), not the instant a paint lands;
  ``--against DIR`` adds the table of another checkout, in turn (A B C A B C);
- peak RSS of each process (ru_maxrss of the finished child), and for key to repaint
  the CPU each app used in all (user + system; the busy table's includes its host and
  bots), which the machine's load moves far less than it moves the latencies.

Every figure is printed with its n, median and range; the load average before and after.

Usage: python bench/tui_terminal.py [--starts 10] [--seconds 20] [--pace 0.3] [--rounds 4]
       python bench/tui_terminal.py --only start --starts 20 [--switch] [--against DIR]
       python bench/tui_terminal.py --only keys --seconds 120 --rounds 12 --against DIR
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


def spawn(args: list[str], env: dict[str, str], cwd: str | None = None) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:
        if cwd is not None:
            os.chdir(cwd)  # `-m tui.cli` imports the checkout in cwd (first on sys.path)
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
    return finish_usage(pid, fd).ru_maxrss


def finish_usage(pid: int, fd: int):
    """Quit the app (ctrl+q), reap it, and return its resource usage."""
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
            return usage
    os.kill(pid, signal.SIGKILL)
    _, _, usage = os.wait4(pid, 0)
    os.close(fd)
    return usage


#: Compiled bytecode of every started process, kept between starts as an installed
#: package (or an editable one after its first run) keeps it: a start that compiled
#: Motherlode's modules from source (PYTHONDONTWRITEBYTECODE=1, set on some machines)
#: would time the compiler against a bare app whose Textual is compiled already.
PYCACHE = tempfile.mkdtemp(prefix="motherlode-bench-pycache-")


def environment() -> dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24",
               PYTHONPYCACHEPREFIX=PYCACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    tmp = tempfile.mkdtemp(prefix="motherlode-bench-")
    env["MOTHERLODE_CONFIG_DIR"] = tmp
    env["MOTHERLODE_LOG_DIR"] = tmp
    # a player of their own, with no saves yet: not the machine's shared saves database,
    # which other runs may be writing (a long write-ahead log makes opening it slow)
    env["MOTHERLODE_DATA_DIR"] = tmp
    # a name chosen already: the menu opens at once, not the first run's question; and
    # each game's guided first round offered already (issue 47): a table opens at once
    with open(os.path.join(tmp, "settings.json"), "w", encoding="utf-8") as file:
        file.write('{"name": "Bench", "guided": ["foolsgold", "nuggets"]}')
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


#: The start-up burst ends at the last byte before the terminal is quiet this long.
QUIET = 0.5


class Start:
    """One start on a pty: first frame, end of the burst, and optionally the first
    screen switch (enter on the bots picker to the table's first frame)."""

    def __init__(self, command: list[str], cwd: str | None, switch: bool) -> None:
        self.first = self.burst = self.switch = 0.0
        start = time.perf_counter()
        pid, fd = spawn(command, environment(), cwd)
        self.wait_for(fd, b"hot-seat", "the menu never appeared")
        self.first = time.perf_counter() - start
        last = time.perf_counter()
        while time.perf_counter() - last < QUIET and time.perf_counter() - start < 10:
            if read_some(fd, QUIET - (time.perf_counter() - last)):
                last = time.perf_counter()
        self.burst = last - start
        if switch:
            os.write(fd, b"f")
            self.wait_for(fd, b"how many bots", "the bots picker never appeared")
            time.sleep(QUIET)
            while read_some(fd, 0):
                pass
            sent = time.perf_counter()
            os.write(fd, b"\r")
            self.wait_for(fd, b"Grab!", "the table never appeared")
            self.switch = time.perf_counter() - sent
        self.rss = finish(pid, fd)

    @staticmethod
    def wait_for(fd: int, text: bytes, failure: str) -> None:
        seen = b""
        while text not in ESCAPES.sub(b"", seen):
            chunk = read_some(fd, 60)  # the warm-up start compiles every module first
            if not chunk:
                raise SystemExit(failure)
            seen = seen[-16384:] + chunk


def measure_starts(runs: int, contestants: list[tuple[str, list[str], str | None, bool]]
                   ) -> list[list[Start]]:
    """``runs`` starts of each contestant (label, command, cwd, switch), in turn:
    A B (C) A B (C) ..., after one start of each that is not counted (it compiles the
    bytecode and warms the disk cache)."""
    for _, command, cwd, switch in contestants:
        Start(command, cwd, switch)
    out: list[list[Start]] = [[] for _ in contestants]
    for _ in range(runs):
        for i, (_, command, cwd, switch) in enumerate(contestants):
            out[i].append(Start(command, cwd, switch))
    return out


def median_ci(values: list[float]) -> tuple[float, float, float]:
    """The median and a distribution-free 95% interval for it (order statistics)."""
    ordered = sorted(values)
    n = len(ordered)
    k = max(0, int((n - 1.96 * n**0.5) / 2))
    return statistics.median(ordered), ordered[k], ordered[max(k, n - 1 - k)]


def report_starts(args: argparse.Namespace) -> None:
    app = [sys.executable, "-m", "tui.cli"]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    contestants = [("motherlode menu", app, here, args.switch),
                   ("bare Textual app (floor)", [sys.executable, "-c", BASELINE], None, False)]
    for other in args.against or ():
        contestants.append((f"menu of {other}", app, other, args.switch))
    starts = measure_starts(args.starts, contestants)
    bare = starts[1]
    for (label, *_), runs in zip(contestants, starts, strict=True):
        for what, key in (("first frame", "first"), ("end of the start-up burst", "burst")):
            times = [getattr(s, key) for s in runs]
            mid, low, high = median_ci(times)
            print(f"{what}, {label}, n={len(times)}: median {mid:.3f} s (95% CI "
                  f"{low:.3f}-{high:.3f}), range {min(times):.3f}-{max(times):.3f} s")
        if runs is not bare:
            for what, key in (("first frame", "first"), ("end of burst", "burst")):
                ratios = [getattr(a, key) / getattr(b, key)
                          for a, b in zip(runs, bare, strict=True)]
                mid, low, high = median_ci(ratios)
                print(f"  {what} ratio {label}/bare, per pair (n={len(ratios)}): median "
                      f"{mid:.2f} (95% CI {low:.2f}-{high:.2f}), range {min(ratios):.2f}-"
                      f"{max(ratios):.2f} (goal <= 1.2, issue 48)")
            if runs[0].switch:
                ms = [s.switch * 1000 for s in runs]
                mid, low, high = median_ci(ms)
                print(f"  first screen switch (enter on the bots picker to the table's "
                      f"first frame), n={len(ms)}: median {mid:.0f} ms (95% CI {low:.0f}-"
                      f"{high:.0f}), range {min(ms):.0f}-{max(ms):.0f} ms")
        print(f"  peak RSS median {statistics.median(s.rss for s in runs) / 1024:.1f} MiB")


#: An answer sooner than this after the key is a paint already on its way (no key
#: goes through Textual and back in under a millisecond): counted, not a sample.
STALE = 0.001


class KeyDriver:
    """One app on a pty, driven at a person's pace: when its screen asks for a discard
    (or a draw), it waits a reaction time, writes the key, and times the repaint."""

    def __init__(self, command: list[str], pace: float, rng: random.Random,
                 cwd: str | None = None) -> None:
        self.pid, self.fd = spawn(command, environment(), cwd)
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
            # the table's words (a pass, since issue 43) or the bare app's
            discard = max(text.rfind(b"Pass a card: 1-6"), text.rfind(b"Discard a card: 1-6"))
            draw = text.rfind(b"d draws")
            if discard >= 0 and discard > draw:
                self.due = (b"1", (b"d draws", b"Waiting for a card"), react)
            elif draw >= 0:
                self.due = (b"d", (b"Pass a card: 1-6", b"Discard a card: 1-6"), react)
            if self.due is not None:
                self.seen = b""
        # not read while the other app was driven: neither a sample nor a prompt
        self.pending = self.due = None

    def finish(self):
        """Quit the app; its resource usage."""
        return finish_usage(self.pid, self.fd)


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
    parser.add_argument("--only", choices=("start", "keys"), default=None,
                        help="only the start-up figures, or only key to repaint")
    parser.add_argument("--switch", action="store_true",
                        help="start: also time the first screen switch (menu to a table)")
    parser.add_argument("--against", metavar="DIR", action="append",
                        help="also start the menu (start) and drive the busy table (keys) "
                        "of the checkout in DIR, in turn (repeatable)")
    args = parser.parse_args()
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.only != "keys":
        report_starts(args)
    if args.only == "start":
        print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    rng = random.Random(1)
    table_command = [sys.executable, "-m", "tui.cli", "solo", "--game", "foolsgold",
                     "--bots", "7"]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    drivers = [("a busy Fool's Gold table (8 seats)", KeyDriver(table_command, args.pace, rng,
                                                                here)),
               ("a bare Textual app (floor)", KeyDriver([sys.executable, "-c", BASELINE_KEYS],
                                                        args.pace, rng))]
    for other in args.against or ():
        drivers.append((f"the busy table of {other}",
                        KeyDriver(table_command, args.pace, rng, other)))
    window = args.seconds / max(1, args.rounds)
    for _ in range(args.rounds):  # alternating windows: A B (C) A B (C)
        for _, driver in drivers:
            driver.drive(window)
    usages = [driver.finish() for _, driver in drivers]
    for (label, driver), usage in zip(drivers, usages, strict=True):
        cpu = usage.ru_utime + usage.ru_stime
        if driver.samples:
            ms = [s * 1000 for s in driver.samples]
            print(
                f"key to repaint on {label}, n={len(ms)}, keys at {args.pace:g} s +-30%: "
                f"median {statistics.median(ms):.1f} ms, p95 {pct(ms, 0.95):.1f} ms, "
                f"range {min(ms):.1f}-{max(ms):.1f} ms; CPU {cpu:.2f} s in all"
            )
        else:
            print(f"key to repaint on {label}: no samples (it never asked for a key); "
                  f"CPU {cpu:.2f} s in all")
    table_rss, bare_rss = usages[0].ru_maxrss, usages[1].ru_maxrss
    print(
        f"peak RSS: the busy table {table_rss / 1024:.1f} MiB, the bare app "
        f"{bare_rss / 1024:.1f} MiB"
    )
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
