"""Fool's Gold under the host: its entry in the catalogue (``SPEC``, named by the
entry point in ``pyproject.toml``). Its driver, bots and codec are in ``host``, its
views and events on the wire in ``views``, the check of a finished game in ``verify``,
its player stats in ``stats``."""

from __future__ import annotations

from typing import Annotated

from msgspec import Struct

from foolsgold.levels import DIFFICULTIES as BOTS
from net.catalogue import GameSpec, Limits

#: the highest round cap a table may set (the house rule; None is off)
ROUND_CAP_MAX = 200


class FoolsGoldSettings(Struct, frozen=True, kw_only=True):
    """A Fool's Gold table's own settings, declared once: the lobby, the wire, the saves
    and the driver read them from here (``net.catalogue.declared``)."""

    grab_timeout: Annotated[float, Limits(1, 120, label="grab time-out", unit="s",
                                          paced=True)] = 10.0  # fmt: skip
    call_window: Annotated[float, Limits(1, 60, label="call window", unit="s",
                                         paced=True)] = 5.0  # fmt: skip
    #: the pause between rounds: the game's own pace, not the owner's to change
    intermission: Annotated[float, Limits(0, 60, label="pause between rounds", unit="s",
                                          configurable=False, paced=True)] = 4.0  # fmt: skip
    #: the house rule of a round cap (docs/RULES.md), off by default; the lobby's
    #: house-rule key steps through its choices
    round_cap: Annotated[int | None, Limits(1, ROUND_CAP_MAX, label="round cap",
                                            unit="rounds", choices=(None, 10, 20, 40))] = None

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
    host=f"{__name__}.host:HOST",
    app="tui.games.foolsgold:APP",
    order=2,
    # version 2: F12, a table of two scores without F8 (foolsgold.round.RULES)
    rules=2,
    race_seconds=tuple((name, bot.race * (1 + bot.jitter)) for name, bot in BOTS.items()),
    options=FoolsGoldSettings,
    stats=(
        "rounds",
        "grabs",
        "bluffs",
        "calls",
        "calls_right",
    ),
)
