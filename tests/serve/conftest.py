"""Fixtures of the doors' tests."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest

from tests.netns import RelayNet
from tests.serve.via import Relay


@pytest.fixture(scope="module")
def relay():
    """A relay (two sshds in a network namespace) for every test of a module."""
    with RelayNet() as net, tempfile.TemporaryDirectory(prefix="ml-relay-") as root:
        host = Relay(net, Path(root))
        try:
            host.start(22, "clientspecified")
            host.start(2200, "no")
            yield host
        finally:
            with contextlib.suppress(Exception):
                host.kill_all()
