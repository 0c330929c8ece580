"""Client restarts: the real app (`motherlode join`) killed and run again, many times.

A `motherlode host` process on 127.0.0.1 runs a Fool's Gold table: a raw observer
(seat 1, owner), two host bots, so the cards keep moving, and the app as Bob (seat 4).
Each cycle starts the app under a pty (80x24), waits for its table, kills it (SIGKILL,
SIGTERM and SIGHUP in turn) and measures how long the next run takes from its start to
the host's `back` notice. Between cycles it checks that the seat list is the same four
seats, Bob's connection is the only one at seat 1, and the terminal was restored after
every SIGTERM and SIGHUP.

    python -m bench.stress_restarts [--cycles 30] [--grace 3]

Prints the figures recorded in docs/RELIABILITY.md.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import tempfile
import time
from pathlib import Path

from tests.hardening.ptyapp import HostCommand, Peer, Pty, app_env, free_port, motherlode

SIGNALS = (signal.SIGKILL, signal.SIGTERM, signal.SIGHUP)
RESTORED = ("\x1b[?1049l", "\x1b[?25h", "\x1b[?1000l")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=30)
    parser.add_argument("--grace", type=float, default=3.0,
                        help="the table's grace period; every third cycle waits past it")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="restarts-"))
    for key, sub in (("MOTHERLODE_DATA_DIR", "data"), ("MOTHERLODE_STATE_DIR", "state")):
        os.environ[key] = str(work / sub)
    port = free_port()
    host = HostCommand(port, work / "host.log", "--game", "foolsgold", "--seats", "4",
                       "--seed", "restarts")
    observer = Peer(port, "Obs")
    observer.recv_type("welcome")
    observer.send({"type": "configure", "grace": args.grace})
    observer.send({"type": "add_bot"})
    observer.send({"type": "add_bot"})
    observer.send({"type": "ready"})

    def until(event: str) -> float:
        observer.wait(lambda m: m["type"] == "notice" and m["event"] == event
                      and m["name"] == "Bob", f"Bob {event}")
        return time.monotonic()

    app = Pty(motherlode("join", f"127.0.0.1:{port}", "--name", "Bob"), app_env(work))
    app.wait_for("Bob")
    app.write(b"r")  # the fourth seat ready: the match starts
    app.wait_for("Seed hash", 30)
    table = observer.wait(lambda m: m["type"] == "table" and m["table"]["phase"] == "playing",
                          "the table in play")["table"]
    first_seats = [(s["name"], s["kind"]) for s in table["seats"]]
    back_times: list[float] = []
    restored = standins = 0
    seats_ok = 0
    for cycle in range(args.cycles):
        sig = SIGNALS[cycle % len(SIGNALS)]
        cut = len(app.raw)
        if sig == signal.SIGKILL:
            app.proc.kill()
            app.proc.wait(10)
        else:
            app.signal(sig)
            tail = app.raw[cut:].decode(errors="replace")
            restored += all(code in tail for code in RESTORED) and app.terminal_sane()
        app.finish()
        until("away")
        if cycle % 3 == 2:  # past the grace: the stand-in hands the seat back
            until("standin")
            standins += 1
        started = time.monotonic()
        app = Pty(motherlode("join", f"127.0.0.1:{port}", "--name", "Bob"), app_env(work))
        back_times.append(until("back") - started)
        table = observer.wait(lambda m: m["type"] == "table", "a table update")["table"]
        seats = [(s["name"], s["kind"]) for s in table["seats"]]
        bob = table["seats"][seats.index(("Bob", "human"))] if ("Bob", "human") in seats else {}
        seats_ok += seats == first_seats and bool(bob.get("connected")) \
            and not bob.get("standin")
        app.wait_for("Seed hash", 30)
    app.finish()
    observer.close()
    host.interrupt()
    back_ms = sorted(t * 1000 for t in back_times)
    signalled = sum(1 for c in range(args.cycles) if SIGNALS[c % 3] != signal.SIGKILL)
    print(f"cycles: {args.cycles} (SIGKILL {args.cycles - signalled}, SIGTERM/SIGHUP "
          f"{signalled}); {standins} of them past the grace, from the stand-in")
    print(f"seat back: {len(back_times)}/{args.cycles}; the same four seats, Bob's connected "
          f"and not stood in: {seats_ok}/{args.cycles}")
    print(f"app start to seat back: p50 {statistics.median(back_ms):.0f} ms, "
          f"max {back_ms[-1]:.0f} ms")
    print(f"terminal restored after SIGTERM/SIGHUP: {restored}/{signalled}")


if __name__ == "__main__":
    main()
