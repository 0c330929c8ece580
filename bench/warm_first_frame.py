"""A forked app's CPU to its first frame, from a warm parent that has drawn the menu
once (``tui.cli.warm_first_frame``) or not (issue 48).

    python bench/warm_first_frame.py [--apps 9] [--rounds 2]

A parent imports what ``motherlode warm-parent`` imports for the menu, optionally draws
it headless once, collects and freezes its heap, then forks ``--apps`` children one
after another; each draws the menu headless (80x24) and exits. The figure is each
child's user + system CPU (``os.wait4``), median per parent; cold and warm parents
alternate, ``--rounds`` times. CPU, not wall time: run it alone all the same.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRELOAD = ("textual.app", "textual.widgets", "rich.console", "tui.app", "tui.screens.menu",
           "tui.games", "tui.settings")


def parent(warm: bool, apps: int) -> None:
    for module in PRELOAD:
        importlib.import_module(module)
    import tui.cli
    from tui.app import MotherlodeApp
    from tui.settings import Settings

    if warm:
        tui.cli.warm_first_frame()
    gc.collect()
    gc.freeze()

    async def draw() -> None:
        app = MotherlodeApp(settings=Settings(name="Ann"), announce=False, discover=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    spent = []
    for _ in range(apps):
        pid = os.fork()
        if pid == 0:
            asyncio.run(draw())
            os._exit(0)
        _, _, usage = os.wait4(pid, 0)
        spent.append(usage.ru_utime + usage.ru_stime)
    print(f"{'warm' if warm else 'cold'} parent: a child's CPU to its first frame, median "
          f"{1000 * statistics.median(spent):.0f} ms (n={apps}, range "
          f"{1000 * min(spent):.0f}-{1000 * max(spent):.0f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--as", dest="way", choices=("cold", "warm"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.way:
        parent(args.way == "warm", args.apps)
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for _ in range(args.rounds):
        for way in ("cold", "warm"):
            subprocess.run([sys.executable, __file__, "--as", way, "--apps", str(args.apps)],
                           cwd=ROOT, check=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
