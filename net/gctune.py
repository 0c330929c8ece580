"""The garbage collector of a long-running host process (``motherlode host``/``serve``).

CPython's older collections walk every object that survived a younger one, so their
pauses grow with the heap: at 200-800 tables of bots a middle (gen1) pass took 20-90 ms
of CPU and a full one 80-330 ms, the knee of the late p99 in docs/BENCHMARKS.md ("The
garbage collector"). And here they find nothing: a table's play makes no cyclic
garbage at all (``tests/net/test_gctune.py`` plays whole matches with the collector off
and finds nothing unreachable), so everything an older pass walks dies by reference
counting anyway. So a settled host:

- collects and then freezes what start-up built (``gc.freeze()``: modules, classes, the
  restored tables move to a permanent generation no collection walks);
- runs only young collections, small ones (a first threshold of 1,000): they still
  catch the short-lived cycles of the rest of the process (an exception and its
  traceback, asyncio's tasks and futures), and each walks only what was allocated
  since the last one (4-8 ms of CPU at 200-800 tables, measured under heavy load);
- never runs a middle or full pass on its own (thresholds too large to be reached),
  but once every :data:`SWEEP_EVERY` seconds (:func:`sweeper`), so a cycle that lived
  long before it became garbage (a closed connection's, say) is still freed, at one
  pause every few minutes rather than one or two a minute.

Only a host's command line calls :func:`settle`; a test run, or the menu's in-process
host, keeps the interpreter's defaults.
"""

from __future__ import annotations

import asyncio
import gc

#: never reached: the collector's own middle and full passes are off (see above)
NEVER = 1 << 30

#: (first, second, third) thresholds for ``gc.set_threshold``; the defaults are (700, 10,
#: 10). Chosen from bench/net_gc.py (docs/BENCHMARKS.md, "The garbage collector"): a
#: young pass costs a few µs per object allocated since the last one (its referents lie
#: all over a large heap), so 1,000 keeps it at 4-8 ms of CPU up to 800 tables, where
#: 5,000 took 15-30 ms.
THRESHOLDS = (1_000, NEVER, NEVER)

#: seconds between two full collections of a settled host (:func:`sweeper`)
SWEEP_EVERY = 600.0


def settle(thresholds: tuple[int, int, int] | None = THRESHOLDS) -> None:
    """Collect what start-up left, freeze the rest and set the thresholds. Call it once
    the host is listening and its start-up tables exist; calling it again freezes what
    was built since (objects frozen are never collected, so not from a loop). With the
    default thresholds, run :func:`sweeper` too."""
    gc.collect()
    gc.freeze()
    if thresholds is not None:
        gc.set_threshold(*thresholds)


async def sweeper(every: float = SWEEP_EVERY) -> None:
    """A full collection every ``every`` seconds, for as long as it runs (a task of the
    host's command line): the older passes :func:`settle` turned off, on a clock."""
    while True:
        await asyncio.sleep(every)
        gc.collect()
