"""A connection's one-way network delay, estimated from timed round trips (sans-I/O).

The host probes each connection (``probe``, answered by ``probe_reply``: protocol 2)
and feeds the round trips to a :class:`DelayMeter`; a serve door feeds it the round
trips of the person's own link (SSH keepalives, WebSocket pings) instead. Times come
in as arguments: nothing here reads a clock.

The estimate, over the last ``WINDOW`` round trips:

- ``delay``: half the ``LOW`` percentile round trip. A low percentile, not the mean,
  so that a stalled answer (a busy client, a retransmission) does not move it;
- ``jitter``: half the spread from that percentile to the median;
- ``lag`` = ``delay + jitter``: the typical one-way delay of a message, which is what
  the table corrects a race action by (capped by the table, ``Settings.lag_cap``).

Answering early is impossible (a client cannot know a probe's id before the probe
arrives, and an id it was not sent is refused), but answering late is easy: a client
that holds each answer 300 ms looks 150 ms away. So where the kernel measures the
connection (:mod:`net.tcpinfo`, Linux's ``tcpi_min_rtt``, fed in by the shell with
:meth:`DelayMeter.bound`), ``lag`` is never more than half the kernel's least round
trip plus ``KERNEL_SLACK`` (10 ms, the jitter the estimate corrects and the least
round trip cannot show). TCP's acknowledgements are the kernel's, sent whatever the
program does, so holding an answer gains at most that slack, and a real link is still
corrected by its whole one-way delay. Where the kernel cannot say, the estimate stands
alone, and the most a client can gain is the table's cap (the table's settings view says which:
``TableSettings.lag_bound``).
"""

from __future__ import annotations

from collections import deque

#: round trips the estimate looks at
WINDOW = 20
#: seconds above half the kernel's least round trip that a lag may still reach: a
#: typical message is later than the luckiest one by the link's jitter, which the
#: estimate corrects and ``tcpi_min_rtt`` cannot see. So a far player keeps winning
#: the races it ties for, and a client holding its replies gains at most this
KERNEL_SLACK = 0.010
#: the percentile of the round trips that gives the delay
LOW = 0.10
#: probes not answered within this many seconds are forgotten
PATIENCE = 10.0
#: probes awaiting an answer at once, at most (a client that never answers)
OUTSTANDING = 16
#: seconds between probes during a game, and otherwise
PLAYING_EVERY = 0.25
IDLE_EVERY = 2.0


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0 <= q <= 1), interpolated; values not empty."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


class DelayMeter:
    """Round trips in, a one-way delay estimate out (see the module docstring)."""

    def __init__(self, window: int = WINDOW) -> None:
        self.samples: deque[float] = deque(maxlen=window)
        self.waiting: dict[int, float] = {}
        self._next_id = 1
        #: the kernel's least round trip for the link, seconds (None: it cannot say)
        self.kernel_rtt: float | None = None

    # -- probing (the host's own probes) ----------------------------------------------

    def probe(self, now: float) -> int:
        """A new probe sent at ``now``: its id."""
        for ident, sent in list(self.waiting.items()):
            if now - sent > PATIENCE:
                del self.waiting[ident]
        while len(self.waiting) >= OUTSTANDING:
            del self.waiting[next(iter(self.waiting))]
        ident = self._next_id
        self._next_id += 1
        self.waiting[ident] = now
        return ident

    def answer(self, ident: int, now: float) -> bool:
        """The answer to probe ``ident`` came at ``now``; False (and nothing changes)
        for an id that is not awaited (never sent, answered already, forgotten)."""
        sent = self.waiting.pop(ident, None)
        if sent is None or now < sent:
            return False
        self.add(now - sent)
        return True

    def bound(self, min_rtt: float | None) -> None:
        """What the kernel measures for the link (:func:`net.tcpinfo.min_rtt`): the
        one-way delay is never more than half of it. None changes nothing."""
        if min_rtt is not None and min_rtt == min_rtt and 0 <= min_rtt < 60:
            self.kernel_rtt = float(min_rtt)

    # -- the estimate ------------------------------------------------------------------

    def add(self, rtt: float) -> None:
        """One round trip, in seconds (a door's measurement of a person's link)."""
        if rtt == rtt and 0 <= rtt < 60:  # not NaN, not absurd
            self.samples.append(float(rtt))

    @property
    def delay(self) -> float:
        """Half the low-percentile round trip, seconds; 0 before any."""
        if not self.samples:
            return 0.0
        return percentile(list(self.samples), LOW) / 2

    @property
    def jitter(self) -> float:
        """Half the spread of the round trips from the low percentile to the median."""
        if not self.samples:
            return 0.0
        samples = list(self.samples)
        return max(0.0, percentile(samples, 0.5) - percentile(samples, LOW)) / 2

    @property
    def estimate(self) -> float:
        """The protocol's own estimate: ``delay + jitter``."""
        return self.delay + self.jitter

    @property
    def lag(self) -> float:
        """The one-way delay races are corrected by (the table caps it): the protocol's
        estimate, at most half the kernel's least round trip (and ``KERNEL_SLACK``)
        where it has one."""
        if self.kernel_rtt is None:
            return self.estimate
        return min(self.estimate, self.kernel_rtt / 2 + KERNEL_SLACK)
