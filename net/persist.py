"""The saves' old name: ``net.saves`` holds them now (a package, one idea a module).
Kept so callers of ``net.persist`` go on working while they move over."""

from net.paths import data_dir
from net.saves import (
    KINDS,
    Kept,
    Saved,
    SaveError,
    Step,
    Store,
    load_all,
    resume_time,
    resumed_clock,
)

__all__ = ["KINDS", "Kept", "SaveError", "Saved", "Step", "Store", "data_dir", "load_all",
           "resume_time", "resumed_clock"]  # fmt: skip
