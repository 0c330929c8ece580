"""In-host tables of bots for the benches (`net_capacity --inhost`, `net_gc`,
`net_spectators`): N Fool's Gold tables of six bots seated in the host itself, matches
back to back, and how late each bot action is applied after its planned time."""

from __future__ import annotations

import asyncio
import random

import net.table as table_module
from net.table.play import Play

SEATS = 6


class BotTables:
    """Opens and starts ``tables`` tables on ``host``; ``late`` collects, in seconds, how
    long after its planned time each bot action was applied. :meth:`close` restores the
    patched ``Table`` methods.

    With ``stagger`` (seconds; needs a running loop) each table starts at a random time
    in the first ``stagger`` seconds instead of all at once: tables that start together
    play their matches in step for a minute, so their load comes in waves (each match's
    pace rises and falls together) that no night of separate tables has."""

    def __init__(self, host, tables: int, seats: int = SEATS, stagger: float = 0.0,
                 seed: int = 1) -> None:  # fmt: skip
        self.late: list[float] = []
        # every action goes through ``Play.submit`` (the table's game loop), and a
        # table's timer through ``Table.tick``
        self._submit, self._tick = Play.submit, table_module.Table.tick
        submit, tick, clock, late = self._submit, self._tick, host.clock, self.late

        def timed(play, seat, action, now, by, *rest):
            plan_at = getattr(play.table, "_bench_due", None)
            if plan_at is not None:
                late.append(clock.now() - plan_at)
            submit(play, seat, action, now, by, *rest)

        def tick_timed(table, now):
            due = [s.plan[1] for s in table.seats if s.plan is not None and s.plan[1] <= now]
            table._bench_due = min(due) if due else None
            tick(table, now)
            table._bench_due = None

        Play.submit = timed
        table_module.Table.tick = tick_timed
        self.host = host
        self.tables = [host.create_table(f"T{n}", "foolsgold", seats=seats, bots=seats)
                       for n in range(tables)]  # fmt: skip
        if stagger <= 0:
            for table in self.tables:
                host.start_game(table)
            return
        rng, loop = random.Random(seed), asyncio.get_running_loop()
        for table in self.tables:
            loop.call_later(rng.uniform(0.0, stagger), host.start_game, table)

    @property
    def moves(self) -> int:
        return sum(t.moves for t in self.tables)

    def restart_finished(self) -> None:
        """Start the next match at every table whose match is over."""
        for table in self.tables:
            if table.phase == "over":
                self.host.start_game(table)

    def close(self) -> None:
        Play.submit, table_module.Table.tick = self._submit, self._tick
