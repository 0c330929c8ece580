"""The garbage collector of a long-running host process (``motherlode host``/``serve``).

CPython's full collections walk every tracked object, so their pauses grow with the
heap: at a few hundred tables of bots one took 40-130 ms, the knee of the late p99 in
docs/BENCHMARKS.md ("The garbage collector"). Two things cut it, both measured there
(``bench/net_gc.py``):

- ``gc.freeze()`` once the host and its tables are built: what start-up made (modules,
  classes, the restored tables) moves to a permanent generation no collection walks;
- a larger first threshold: a young object gets more time to die before a collection
  promotes it, so fewer objects reach the old generation and full collections (whose
  turn comes when the old generation has grown by a quarter) come less often.

Only a host's command line calls :func:`settle`; a test run, or the menu's in-process
host, keeps the interpreter's defaults.
"""

from __future__ import annotations

import gc

#: (first, second, third) thresholds for ``gc.set_threshold``; the defaults are (700, 10,
#: 10). Chosen from bench/net_gc.py (docs/BENCHMARKS.md, "The garbage collector"), under
#: load: young collections 5-7x rarer, full ones gone from 60 s at 400 tables, and a
#: middle one every 5 young ones rather than 20, so that it walks fewer survivors.
THRESHOLDS = (5_000, 5, 10)


def settle(thresholds: tuple[int, int, int] | None = THRESHOLDS) -> None:
    """Collect what start-up left, freeze the rest and set the thresholds. Call it once
    the host is listening and its start-up tables exist; calling it again freezes what
    was built since (objects frozen are never collected, so not from a loop)."""
    gc.collect()
    gc.freeze()
    if thresholds is not None:
        gc.set_threshold(*thresholds)
