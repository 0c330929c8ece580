"""Where Motherlode keeps its files: light, so the menu can look without importing the
saves' machinery."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """Motherlode's data directory; ``$MOTHERLODE_DATA_DIR`` overrides it (tests,
    portable installs)."""
    override = os.environ.get("MOTHERLODE_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("motherlode"))
