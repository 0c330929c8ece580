"""Resize storms are coalesced (issue 20): the app hears the first change at once, then
at most one change per interval (the latest), and never the size it has already. Time
is a stand-in scheduler here, fired by hand; the web door's storm runs for real in
``test_web_limits``."""


import pytest

from serve.resize import Coalesced

pytestmark = pytest.mark.timeout(60)


class Later:
    """call_later's stand-in: callbacks wait until ``fire``."""

    def __init__(self) -> None:
        self.waiting: list[_Handle] = []

    def __call__(self, delay, then):
        self.waiting.append(_Handle(delay, then))
        return self.waiting[-1]

    def fire(self) -> None:
        waiting, self.waiting = self.waiting, []
        for handle in waiting:
            if not handle.cancelled:
                handle.then()


class _Handle:
    def __init__(self, delay, then) -> None:
        self.delay, self.then, self.cancelled = delay, then, False

    def cancel(self) -> None:
        self.cancelled = True


def test_a_storm_reaches_the_app_once_per_interval_with_the_latest_size():
    told, later = [], Later()
    sizes = Coalesced(told.append, 0.1, (80, 24), later)
    sizes.want((80, 24))
    assert told == []  # the size it has: nothing
    for n in range(50):  # a storm inside one interval
        sizes.want((81 + n, 25))
    assert told == [(81, 25)] and later.waiting[0].delay == 0.1
    later.fire()
    assert told == [(81, 25), (130, 25)]  # the latest, once
    later.fire()
    assert told == [(81, 25), (130, 25)]  # the storm is over: the timer ends
    sizes.want((130, 25))
    assert told == [(81, 25), (130, 25)]
    sizes.want((100, 30))
    assert told[-1] == (100, 30) and sizes.applied == 3


def test_a_storm_that_goes_on_is_slowed_to_one_change_per_half_second():
    told, later = [], Later()
    sizes = Coalesced(told.append, 0.1, (80, 24), later, most=0.5)
    intervals = []
    for n in range(8):  # a change waiting at the end of every interval
        sizes.want((100 + n, 30))
        intervals.append(later.waiting[0].delay)
        sizes.want((200 + n, 30))
        later.fire()
    assert intervals == [0.1, 0.2, 0.4, 0.5, 0.5, 0.5, 0.5, 0.5]
    assert told[-1] == (207, 30)
    later.fire()  # an interval with nothing waiting: the storm is over
    sizes.want((90, 30))
    assert told[-1] == (90, 30) and later.waiting[0].delay == 0.1


def test_a_storm_that_comes_back_to_the_size_costs_nothing_more():
    told, later = [], Later()
    sizes = Coalesced(told.append, 0.1, (80, 24), later)
    sizes.want((90, 30))
    sizes.want((85, 24))
    sizes.want((90, 30))  # back where the app is
    later.fire()
    assert told == [(90, 30)]
    sizes.cancel()
    assert later.waiting == []
