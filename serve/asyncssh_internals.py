"""asyncssh's internals the doors use, in one place, checked on ``CHECKED_ON``.

A known-hosts line for a host off port 22 names it ``[host]:port``: ssh looks such a
host up by that name alone, but asyncssh's public ``SSHKnownHosts.match`` falls back
to the bare host. ``known_keys`` asks its private ``_match``, which does not (and the
public one, on an asyncssh without it).

A new asyncssh: ``tests/test_internals.py`` fails loudly for each method in
``WRAPPED`` whose parameters changed; read the new code, fix the use here, write the
version.
"""

from __future__ import annotations

from typing import Any

#: the asyncssh these uses were read against
CHECKED_ON = "2.24.1"

#: (module, class, name) -> the parameters as checked on ``CHECKED_ON``
WRAPPED: dict[tuple[str, str, str], str] = {
    ("asyncssh.known_hosts", "SSHKnownHosts", "_match"): "(self, host, addr, port=None)",
}


def known_keys(entry: Any, host: str, addr: str, port: int | None) -> list[Any]:
    """The host keys a known-hosts ``entry`` holds for ``host`` (as ssh reads the
    name: ``[host]:port`` off port 22), at ``addr``."""
    return getattr(entry, "_match", entry.match)(host, addr, port)[0]
