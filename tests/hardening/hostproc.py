"""A real host in its own process, for the long stress runs (``bench/stress_*.py``):
its memory is measured alone, and it does not share a core's event loop with the load.

    python -m tests.hardening.hostproc '{"config": {...}, "tables": [{...}, ...]}'

``config`` holds ``net.host.HostConfig`` fields; each table is ``{"name", "game",
...settings}`` for ``Host.create_table``; with ``"store": DIR`` the host saves every
table as ``motherlode host`` does (``DIR/tables``, ``DIR/games``). The process prints
``PORT <n>`` once it listens, and serves until its stdin closes.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


async def main(spec: dict) -> None:
    from net.host import Host, HostConfig
    from net.saves import Store

    store = None
    if spec.get("store"):
        store = Store(spec["store"])
    from net.budgets import Budgets

    config = dict(spec.get("config", {}))
    if isinstance(config.get("budgets"), dict):  # JSON: the fields of net.budgets.Budgets
        config["budgets"] = Budgets(**config["budgets"])
    host = Host(config=HostConfig(**config), store=store)
    for table in spec.get("tables", []):
        table = dict(table)
        host.create_table(table.pop("name"), table.pop("game"), **table)
    await host.start("127.0.0.1", 0)
    print(f"PORT {host.port}", flush=True)
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()
    loop.add_reader(
        sys.stdin.fileno(), lambda: stdin_closed.done() or stdin_closed.set_result(None)
    )
    await stdin_closed
    await host.close()


class HostProcess:
    """Start a host process; ``port`` and ``pid`` once started; ``stop()`` ends it."""

    def __init__(self, spec: dict) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.hardening.hostproc", json.dumps(spec)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        if not line.startswith("PORT "):
            self.proc.kill()
            raise RuntimeError(f"the host process did not start: {line!r}")
        self.port = int(line.split()[1])
        self.pid = self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
