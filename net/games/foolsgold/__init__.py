"""Fool's Gold under the host: its entry in the catalogue (``SPEC``, named by the
entry point in ``pyproject.toml``). Its driver, bots and codec are in ``host``, its
views and events on the wire in ``views``, the check of a finished game in ``verify``,
its player stats in ``stats``."""

from __future__ import annotations

from types import MappingProxyType

from net.catalogue import GameSpec

#: the highest round cap a table may set (the house rule; None is off)
ROUND_CAP_MAX = 200

SPEC = GameSpec(
    key="foolsgold",
    title="Fool's Gold",
    low=2,
    high=8,
    grace=15.0,
    solo_bots=3,
    hotseat=False,
    letter="f",
    short="Cards",
    kind="card",
    host=__name__,
    app="tui.games.foolsgold",
    order=2,
    defaults=MappingProxyType(
        # round_cap: the house rule of a round cap (docs/RULES.md), off by default
        {"grab_timeout": 10.0, "call_window": 5.0, "intermission": 4.0, "round_cap": None}
    ),
    limits=MappingProxyType({"round_cap": ROUND_CAP_MAX}),
)
