"""A person at the plain seat, as a test plays one: it reads the seat's lines as they
come and types what a line that needs it asks for, with nothing else to go on (no
screen, no protocol: only the words a screen reader would say).

Gold Nuggets: roll when asked; keep the example the turn's line gives; roll on while
the set-aside is worth less than 4 and more than 2 dice are left, else stop. Fool's
Gold: draw when asked; grab with a set (three animals or five prospectors of a name,
read from the hand's words); else pass a card of the name it holds fewest of. It
leaves once the game or the match is over.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import Counter
from collections.abc import Awaitable, Callable

from foolsgold.cards import PROSPECTOR_NAMES

ESCAPE = re.compile(rb"\x1b|\x9b")  # any escape sequence at all, 7-bit or 8-bit
OVER = re.compile(r"^(Game over: .* won|Match over: .* wins)$")


def _hand(line: str) -> list[tuple[int, str]]:
    """(number, name) of each card in "Your hand: 1 Owl, 2 Owl (new), 4 Dusty Dan."."""
    found = re.search(r"Your hand: (.*?)(?: \(frozen\))?\.(?: |$)", line)
    if not found:
        return []
    cards = []
    for part in found.group(1).split(", "):
        number, _, name = part.partition(" ")
        cards.append((int(number), name.removesuffix(" (new)")))
    return cards


def has_set(cards: list[tuple[int, str]]) -> bool:
    counts = Counter(name for _, name in cards)
    return any(n >= (5 if name in PROSPECTOR_NAMES else 3) for name, n in counts.items())


TURN = re.compile(r"^(?:[^:]+, your turn|Your turn): (.*)$")


def answer(line: str) -> str | None:
    """What the person types on reading ``line`` (None: nothing). At a hot-seat table
    the person answers for every player of this keyboard ("Ann, your turn: ...")."""
    if line.startswith("Pass the keyboard to "):
        return ""
    if OVER.match(line):
        return "leave"
    turn = TURN.match(line)
    if turn:
        said = turn.group(1)
        if said.startswith("roll (all seven dice)"):
            return "roll"
        example = re.search(r"for example keep (.+)\.$", said)
        if example:
            return f"keep {example.group(1)}"
        if said.startswith("all seven dice set aside"):
            return "stop"
        worth = re.search(r"worth (\d+)\. roll the (\d+) dice left", said)
        if worth:
            value, left = int(worth.group(1)), int(worth.group(2))
            return "roll" if value < 4 and left > 2 else "stop"
    if line.startswith("Your move: draw"):
        return "draw"
    if line.startswith("Your move: Your hand: "):
        cards = _hand(line)
        if has_set(cards):
            return "grab"
        counts = Counter(name for _, name in cards)
        fewest = min(counts.values())
        return f"discard {max(n for n, name in cards if counts[name] == fewest)}"
    return None


class Seat:
    """A plain seat's two streams: ``lines`` read so far, ``send`` a typed line."""

    def __init__(self, read: Callable[[], Awaitable[bytes]],
                 write: Callable[[bytes], None]) -> None:
        self._read, self._write = read, write
        self.raw = b""
        self.lines: list[str] = []
        self.typed: list[str] = []
        self.bells = 0

    def send(self, text: str) -> None:
        self.typed.append(text)
        self._write(text.encode() + b"\n")

    async def line(self, timeout: float) -> str | None:
        data = await asyncio.wait_for(self._read(), timeout)
        if not data:
            return None
        self.raw += data
        text = data.decode("utf-8").rstrip("\r\n")
        self.bells += text.count("\a")  # the bell before a line that needs the person
        text = text.replace("\a", "")
        self.lines.append(text)
        return text

    async def play(self, timeout: float = 60.0,
                   also: Callable[[str], str | None] | None = None,
                   pause: float = 0.06) -> None:
        """Answer every line that needs an answer until the seat ends (``also``: a
        test's own answers first), ``pause`` seconds after reading it: quicker than a
        person, slower than the host's 20 messages a second."""
        while True:
            line = await self.line(timeout)
            if line is None:
                return
            if "leave" in self.typed:
                continue  # gone: what the seat still says is read, never answered
            typed = also(line) if also is not None else None
            if typed is None:
                typed = answer(line)
            if typed is not None:
                # a pace, not a wait: the seat answers slower than the host's rate limit
                await asyncio.sleep(pause)
                self.send(typed)


def assert_plain(raw: bytes) -> None:
    """No escape sequence anywhere: no cursor movement, erase, colour or screen switch."""
    found = ESCAPE.search(raw)
    assert found is None, f"an escape sequence at byte {found.start()}: " \
        f"{raw[max(0, found.start() - 40):found.start() + 20]!r}"


class Lines(io.StringIO):
    """A plain seat's output, read as lines: the bell before a line that needs the
    person (``BEL``) is counted (``bells``), its line read without it."""

    def getvalue(self) -> str:
        return super().getvalue().replace("\a", "")

    @property
    def bells(self) -> list[str]:
        """Each line a bell came before."""
        return [line.lstrip("\a") for line in super().getvalue().splitlines()
                if line.startswith("\a")]


async def local_seat(game: str, seed: str, *, bots: int = 1, name: str = "Ann",
                     **options):
    """A plain seat (``tui.plain.seat.PlainSeat``) at a game against ``bots`` bots on
    this machine, the host on a fake clock, its lines in a ``StringIO``; what it sends
    is kept in ``session.sent``. Returns (seat, session, clock, out)."""
    from net.clock import FakeClock
    from tui import modes
    from tui.plain.seat import PlainSeat
    from tui.saves import Saves

    clock = FakeClock()
    launch = modes.Launch(name=name, table_options={"seed": seed, **options},
                          host_clock=clock, saves=Saves())
    session = await modes.solo(launch, game, bots)
    out = Lines()
    seat = PlainSeat(out)
    seat.session = session
    sent: list = []
    original = session.send

    def send(message) -> None:
        sent.append(message)
        original(message)

    session.send = send  # type: ignore[method-assign]
    session.sent = sent  # type: ignore[attr-defined]
    session.start(seat)
    return seat, session, clock, out


async def step(session, clock, upto: float | None = None) -> None:
    """Let what is in flight arrive (the host sends a state once its save is committed,
    on the saves' writer thread), then move the host's fake clock to what is due next
    (at most to ``upto``)."""
    from tests.waiting import settle

    await settle()
    host = session.host
    if host is not None and host.store is not None:
        await host.store.wait_committed()
        await settle()
    due = clock.next_due()
    target = due if due is not None else clock.now() + 0.1
    if upto is not None:
        target = min(target, upto)
    clock.advance_to(max(target, clock.now()))
