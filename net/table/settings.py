"""A table's settings: every table's own (seats, bots, grace, lag cap...) and its
game's (``GameSpec.defaults``, handed to the game's driver by ``Settings.own``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from net import protocol as p
from net import tcpinfo
from net.catalogue import setting_default, spec


@dataclass
class Settings:
    """A table's settings; ``seed`` is set by the host operator only, never by a peer."""

    seats: int
    difficulty: str = "normal"
    first_player: int | None = None
    seed: str | None = None
    # the games' own settings (``GameSpec.defaults``; a table keeps them all, and its
    # game reads its own: :meth:`own`)
    grab_timeout: float = field(default_factory=lambda: setting_default("grab_timeout"))
    call_window: float = field(default_factory=lambda: setting_default("call_window"))
    grace: float = 30.0
    bot_pace: float = 0.9
    hotseat: bool = False
    intermission: float = field(default_factory=lambda: setting_default("intermission"))
    supply: int = field(default_factory=lambda: setting_default("supply"))
    #: the house rule of a round cap: after this many rounds the highest score wins
    #: (None: off)
    round_cap: int | None = field(default_factory=lambda: setting_default("round_cap"))
    # lag-fair races: the most a race action's time is corrected for its sender's
    # network delay (seconds); 0 judges races in arrival order
    lag_cap: float = 0.15

    @classmethod
    def default(cls, game: str) -> Settings:
        """The most seats and the game's own grace period (``net.catalogue``)."""
        found = spec(game)
        return cls(seats=found.high, grace=found.grace)

    def own(self, game: str) -> dict[str, Any]:
        """The settings that are ``game``'s own (its driver's), by name."""
        return {name: getattr(self, name) for name in spec(game).defaults}

    def info(self) -> p.TableSettings:
        return p.TableSettings(
            seats=self.seats,
            difficulty=self.difficulty,
            first_player=self.first_player,
            seeded=self.seed is not None,
            grab_timeout=self.grab_timeout,
            call_window=self.call_window,
            grace=self.grace,
            bot_pace=self.bot_pace,
            hotseat=self.hotseat,
            supply=self.supply,
            round_cap=self.round_cap,
            lag_cap=self.lag_cap,
            lag_bound="kernel" if tcpinfo.AVAILABLE else "probes",
        )
