"""The lag-fair race at the table core, on a clock the test moves."""

from __future__ import annotations

from net import protocol as p
from net.table import Settings, Table, Tables


class Box:
    def __init__(self) -> None:
        self.messages: list = []

    def deliver(self, message) -> None:
        self.messages.append(message)

    def of(self, kind) -> list:
        return [m for m in self.messages if isinstance(m, kind)]

    def events(self, kind: str) -> list:
        return [e for m in self.of(p.State) for e in m.events if p.message_type(e) == kind]


def race_table(players: int = 3, lags: tuple[float, ...] = (), **settings):
    """A dealt Fool's Gold table of people (nobody has grabbed yet) at host time 0."""
    tables = Tables()
    settings = Settings.build("foolsgold", seats=players, seed="lag", **settings)
    table = tables.add(Table("Camp", "foolsgold", settings))
    members, boxes = [], []
    for i in range(players):
        box = Box()
        member = tables.hello(p.Hello(protocol=3, name=f"P{i}"), box.deliver, print, 0.0)
        members.append(member)
        boxes.append(box)
    for member in members:
        table.handle(member, p.Ready(), 0.0)
    assert table.phase == "playing"
    for member, lag in zip(members, lags, strict=False):
        member.lag = lag
    return table, members, boxes


def run_until(table: Table, end: float) -> None:
    """Fire the table's wake-ups up to host time ``end``, as the host's timer does."""
    while True:
        when = table.next_wakeup()
        if when is None or when > end:
            return
        table.tick(when)


def grabbed(table: Table) -> list[tuple[int, float]]:
    return [tuple(g) for g in table.driver.view(None)["grabbed"]]
