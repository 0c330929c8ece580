"""The saves' tests' fixtures."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def store_dir():
    """A fresh directory for a store, in memory where the machine has /dev/shm."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=base) as directory:
        yield Path(directory)
