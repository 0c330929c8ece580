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
- runs only young collections, on a clock (every :data:`YOUNG_EVERY` seconds, with the
  collector's own trigger off): they still catch the short-lived cycles of the rest of
  the process (an exception and its traceback, asyncio's tasks and futures), and each
  walks only what was allocated since the last one. The collector's own trigger counts
  allocations *minus* deallocations, and a host's deallocations are mostly of old
  objects (the views a change replaces), so its young generation grew far past its
  threshold of 1,000 between two passes: at 400-600 tables a pass walked tens of
  thousands of objects, 3 ms of CPU at the median and 7-17 ms at the longest. On a
  50 ms clock a pass took 0.8-0.9 ms at the median and 4-6 ms at the longest, for the
  same share of the CPU (2-3%; ``bench/net_gc.py``, docs/BENCHMARKS.md). At 1,000
  tables that clock's passes took 5.5-8.4 ms at the median and up to 22 ms, each a
  wait for a person's bytes; on a 10 ms clock they take 1.0-1.7 ms at the median and
  4-11 ms at the longest, for a smaller share (8.5-9.4% against 10-13%:
  ``bench/serve_busy.py``, issue 48);
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
import weakref

#: never reached: the collector's own middle and full passes are off (see above)
NEVER = 1 << 30

#: (first, second, third) thresholds for ``gc.set_threshold``; the defaults are (700, 10,
#: 10). Outside a loop (and for anything that turns the collector back on) only young
#: collections, small ones (bench/net_gc.py, docs/BENCHMARKS.md, "The garbage
#: collector"); a settled host in a loop runs them on a clock (:data:`YOUNG_EVERY`).
THRESHOLDS = (1_000, NEVER, NEVER)

#: seconds between two full collections of a settled host (:func:`sweeper`)
SWEEP_EVERY = 600.0

#: seconds between two young collections of a settled host (see the module docstring)
YOUNG_EVERY = 0.01
_clocked: weakref.WeakSet = weakref.WeakSet()  # the loops that run them


def settle(thresholds: tuple[int, int, int] | None = THRESHOLDS,
           young_every: float | None = YOUNG_EVERY) -> None:  # fmt: skip
    """Collect what start-up left, freeze the rest and set the thresholds; inside a
    running loop, turn the collector's own trigger off and run a young collection every
    ``young_every`` seconds on the loop (once per loop, however often this is called).
    Call it once the host is listening and its start-up tables exist; calling it again
    freezes what was built since (objects frozen are never collected, so not from a
    loop). With the default thresholds, run :func:`sweeper` too."""
    gc.collect()
    gc.freeze()
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop to keep a clock: the collector's own trigger stays
        return
    if young_every is not None and loop not in _clocked:
        _clocked.add(loop)
        gc.disable()  # the young passes run on the loop's clock instead

        def young() -> None:
            gc.collect(0)
            loop.call_later(young_every, young)

        loop.call_later(young_every, young)


async def sweeper(every: float = SWEEP_EVERY) -> None:
    """A full collection every ``every`` seconds, for as long as it runs (a task of the
    host's command line): the older passes :func:`settle` turned off, on a clock."""
    while True:
        await asyncio.sleep(every)
        gc.collect()
