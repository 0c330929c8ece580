"""Fixtures for the whole suite."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests are seeded like every other test: the same examples on every run and
# every machine (a failure found once is found again), and no deadline that depends on
# the machine's speed. Explore more with HYPOTHESIS_PROFILE=explore.
settings.register_profile("ci", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None, max_examples=2000)
settings.load_profile(__import__("os").environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Saved tables and games (``net.saves``) and kept seats (``net.seats``) go to
    temporary directories, never to the user's: hosts save and clients keep their
    tokens by default, subprocesses included."""
    monkeypatch.setenv("MOTHERLODE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    # the seats a client keeps to take back (net.seats): never the user's own
    monkeypatch.setenv("MOTHERLODE_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    # parsed style sheets (tui.styles): never the user's cache, subprocesses included
    monkeypatch.setenv("MOTHERLODE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def pytest_terminal_summary(terminalreporter, config):
    """Print the run's order seed last, beside the result, even under ``-q``: a failure
    that shows only in some orders is replayed with ``pytest --randomly-seed=N``."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int):
        terminalreporter.write_line(f"random order: replay with --randomly-seed={seed}")


@pytest.fixture
def store_dir():
    """A directory for saves, on tmpfs where there is one."""
    # tmpfs when there is one: fsync is real work on a disk, and these tests save a lot
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        yield Path(directory)
