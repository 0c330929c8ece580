"""`motherlode games`: every kept game with its status (playing, lobby, finished,
abandoned), so an id can always be found; `--status` filters; a bad status is one line
and exit 2.

The first test stops a real `motherlode host` (Ctrl-C) in the middle of a game and runs
the real command; the second puts a game of each status in the database through real
hosts and reads it with the command's own code."""

from __future__ import annotations

import os
import subprocess

import pytest

from net.clock import FakeClock
from net.host import Host
from net.saves import Store
from net.saves.cli import _STATUSES
from net.saves.cli import run as run_saves_command
from net.saves.queries import KEPT_STATUSES
from tests.hardening.harness import Player, start_nuggets
from tests.hardening.ptyapp import HostCommand, Peer, free_port, motherlode
from tests.tui.harness import a_finished_game
from tui.cli import build_parser


def _games(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(motherlode("games", *args), capture_output=True, text=True,
                          timeout=60, env=dict(os.environ))  # fmt: skip


@pytest.mark.timeout(120)
@pytest.mark.slow
def test_a_game_its_host_was_stopped_in_is_listed_as_playing(tmp_path):
    port = free_port()
    host = HostCommand(port, tmp_path / "host.log", "--game", "nuggets", "--seats", "2",
                       "--bots", "1", "--seed", "games")  # fmt: skip
    ann = None
    try:
        ann = Peer(port, "Ann")
        ann.recv_type("welcome")
        ann.send({"type": "ready"})
        ann.wait(lambda m: m["type"] == "started", "the start")
        host.interrupt()  # Ctrl-C: the game stays unfinished
    finally:
        if ann is not None:
            ann.close()
        host.stop()
    listed = _games()
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    (row,) = [i for i, line in enumerate(lines) if " playing " in line]
    ident = lines[row - 1]
    assert "Gold Nuggets: " in lines[row] and "Ann" in lines[row]
    assert "unfinished after" in lines[row] and "No games kept" not in listed.stdout
    assert "host --resume" in listed.stdout
    assert all(len(line) <= 80 for line in lines if line.startswith(("`", "Unf")))  # hints
    # the id it shows is the one export and replay take
    out = tmp_path / "unfinished.json"
    exported = subprocess.run(motherlode("export", ident, "-o", str(out)), capture_output=True,
                              text=True, timeout=60)  # fmt: skip
    assert exported.returncode == 0 and out.is_file(), exported.stderr
    assert _games("--status", "playing,lobby").stdout.splitlines()[0] == ident
    only_finished = _games("--status", "finished")
    assert only_finished.returncode == 0
    assert only_finished.stdout.strip() == "No finished games kept."
    bad = _games("--status", "playing,over")
    assert bad.returncode == 2 and bad.stdout == ""
    assert "'over' is not a status: choose from playing, lobby, finished, abandoned" in bad.stderr
    assert "Traceback" not in bad.stderr


async def _one_of_each(store: Store) -> tuple[dict[str, str], Host]:
    """A finished, an abandoned, an unfinished game and a lobby in ``store``: their ids,
    and the host whose table is the lobby."""
    await a_finished_game()
    (finished,) = store.kept(statuses=["finished"])
    ids = {"finished": finished.id}
    for status in ("abandoned", "playing"):
        clock = FakeClock()
        host, table, ann, bob = await start_nuggets(clock, store)
        await host.close()  # a host stopped: the game stays in play
        (ident,) = [k.id for k in store.kept(statuses=["playing"]) if k.id not in ids.values()]
        if status == "abandoned":
            store.abandon(ident)
        ids[status] = ident
    clock = FakeClock(50.0)
    host = Host(clock=clock, store=store)
    await host.start("127.0.0.1", 0)
    host.create_table("Lobby", "nuggets", seats=3, seed="lobby")
    cid = await Player.join(host.port, "Cid")
    assert cid.welcome.seat == 0  # saved before the welcome that gave the seat
    (lobby,) = store.kept(statuses=["lobby"])
    ids["lobby"] = lobby.id
    return ids, host


async def test_games_lists_each_status_and_filters(capsys):
    assert _STATUSES == KEPT_STATUSES  # the light parser names what the store keeps
    store = Store.default("tables")
    ids, host = await _one_of_each(store)  # the lobby's host runs on (a clean close
    # ends its lobby save)
    assert len(set(ids.values())) == 4
    try:
        parser = build_parser()
        assert run_saves_command(parser.parse_args(["games"])) == 0
        out = capsys.readouterr().out.splitlines()
        shown = {out[i - 1]: line.split()[2] for i, line in enumerate(out)
                 if line.startswith("    ")}  # fmt: skip
        assert shown == {ident: status for status, ident in ids.items()}
        assert run_saves_command(parser.parse_args(["games", "--status", "lobby,abandoned"])) == 0
        out = capsys.readouterr().out
        assert ids["lobby"] in out and ids["abandoned"] in out
        assert ids["finished"] not in out and ids["playing"] not in out
        assert "a table outside a game" in out and "left after" in out
        assert run_saves_command(parser.parse_args(["games", "--status", " Finished "])) == 0
        out = capsys.readouterr().out
        assert ids["finished"] in out and "won by" in out and ids["lobby"] not in out
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(["games", "--status", ","])
        assert exit_.value.code == 2
        assert "nothing is not a status" in capsys.readouterr().err
        # the Replays list asks for the finished and abandoned games only, as before
        assert {k.id for k in store.kept()} == {ids["finished"], ids["abandoned"]}
        with pytest.raises(ValueError, match="not 'won'"):
            store.kept(statuses=["won"])
    finally:
        await host.close()
