"""Alerts in a real terminal (issue 61): the app's own process in tmux at 80x24, joined
to a LAN host in this process, with Bob a hand-driven client. At Ann's turn the bell
rings (tmux's ``window_bell_flag``) with ``alerts`` on bell, and not with off; with
``alerts`` on desktop, an OSC 777 notification is written (tmux's ``pipe-pane`` keeps
every byte the app writes) only while the terminal has said it is not focused
(``ESC [ O``, focus reporting), and no more once it says it is again (``ESC [ I``)."""

from __future__ import annotations

import json

import pytest

from net import protocol as p
from net.lan import LanHost
from tests.hardening.ptyapp import app_env, motherlode
from tests.hardening.tmux import REQUIRED, TMUX, Tmux
from tests.net.helpers import Raw, greedy_nuggets
from tests.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(TMUX is None and not REQUIRED,
                       reason="no tmux here (.ci/run installs it and requires it)"),
]

OSC_777 = b"\x1b]777;notify;Motherlode;Your turn in Gold Nuggets."


class Bob:
    """Bob at the table: ready, then plays his turns greedily, turn by turn on demand."""

    def __init__(self, raw: Raw) -> None:
        self.raw = raw
        self.view = None

    async def until_current(self, seat: int) -> None:
        """Read until the view says ``seat`` acts."""
        while self.view is None or self.view.current != seat or self.view.over:
            message = await self.raw.recv()
            assert message is not None, "Bob's line closed"
            if isinstance(message, p.State):
                self.view = message.view

    async def play_a_turn(self) -> None:
        """Bob's whole turn, from his first move until it is Ann's again."""
        await self.until_current(1)
        while self.view.current == 1 and not self.view.over:
            await self.raw.send(greedy_nuggets(self.view))
            message = None
            while not isinstance(message, p.State):
                message = await self.raw.recv()
                assert message is not None
            self.view = message.view


async def table(tmp_path, alerts: str):
    lan = LanHost(save=False)
    lan.host.create_table("Main", "nuggets", seats=2, first_player=1, seed="alerts-1")
    await lan.listen("127.0.0.1", 0)
    env = app_env(tmp_path)
    settings = tmp_path / "config" / "settings.json"
    settings.write_text(json.dumps({"name": "Ann", "alerts": alerts}), encoding="utf-8")
    term = Tmux(motherlode("join", f"127.0.0.1:{lan.port}"), env, (80, 24)).__enter__()
    return lan, term


async def shown(term: Tmux, text: str) -> None:
    await until(lambda: text in term.screen(), lambda: f"{text!r}:\n{term.screen()}", 30,
                step=0.05)


def bell(term: Tmux) -> str:
    return term._tmux("display-message", "-p", "-t", "app", "#{window_bell_flag}").strip()


async def seated(lan, term: Tmux) -> Bob:
    await shown(term, "r Ready")
    raw = await Raw.open(lan.port)
    await raw.send(p.Hello(protocol=4, name="Bob"))
    await raw.expect(p.Welcome)
    term.keys("r")
    await raw.send(p.Ready())
    return Bob(raw)


@pytest.mark.parametrize("alerts", ["bell", "off"])
async def test_the_bell_rings_at_your_turn_with_alerts_on_bell_and_not_off(tmp_path, alerts):
    lan, term = await table(tmp_path, alerts)
    try:
        bob = await seated(lan, term)
        await shown(term, "Bob's turn")
        assert bell(term) == "0"  # Bob's turn needs nobody here
        await bob.play_a_turn()
        await shown(term, "Ann, your turn")
        await bob.raw.send(p.Ping(id=1))  # what the host sent with Ann's turn, all read
        await bob.raw.expect(p.Pong)
        await until(lambda: alerts == "off" or bell(term) == "1",
                    lambda: f"the bell ({bell(term)})", 10, step=0.05)
        assert bell(term) == ("1" if alerts == "bell" else "0")
        bob.raw.close()
    finally:
        term.kill()
        await lan.close()


FOCUS = {"out": ("1b", "5b", "4f"), "in": ("1b", "5b", "49")}  # ESC [ O, ESC [ I


@pytest.mark.parametrize("focus", [(), ("out",), ("out", "in")],
                         ids=["focused", "not-focused", "focused-again"])
async def test_a_desktop_notification_only_while_the_terminal_is_not_focused(tmp_path, focus):
    lan, term = await table(tmp_path, "desktop")
    written = tmp_path / "written"
    try:
        term._tmux("pipe-pane", "-o", "-t", "app", f"cat >> {written}")
        bob = await seated(lan, term)
        await shown(term, "Bob's turn")
        for report in focus:  # what the terminal says of its focus (focus reporting)
            term._tmux("send-keys", "-t", "app", "-H", *FOCUS[report])
        await bob.raw.send(p.Chat(text="focus told"))  # the app has read the reports
        await shown(term, "focus told")
        await bob.play_a_turn()
        await shown(term, "Ann, your turn")
        await until(lambda: bell(term) == "1", "the bell", 10, step=0.05)
        unfocused = focus[-1:] == ("out",)
        await until(lambda: not unfocused or OSC_777 in written.read_bytes(),
                    "OSC 777 written", 10, step=0.05)
        raw = written.read_bytes()
        assert (OSC_777 in raw) == unfocused
        assert (b"\x1b]9;Motherlode: Your turn in Gold Nuggets.\x07" in raw) == unfocused
        bob.raw.close()
    finally:
        term.kill()
        await lan.close()
