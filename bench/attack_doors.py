"""Doors that hold (issue 20): every attack family against a real ``motherlode serve``
(SSH door, web door, LAN host) on loopback, one family at a time, while six real
players keep playing at one table: two apps over SSH, three LAN clients, one web tab.

The server runs with its descriptor limit at 1024 (soft and hard, so it cannot raise
it). Each player is a process of its own, playing at a person's pace (``--pace``), so
one player's screen parsing is never in another's samples. Each family runs
``--seconds`` from an attacker process of its own (its own descriptors, several
loopback source addresses), right after a quiet window of the same length: the ratio
is the attack's p99 over that quiet window's, so a machine whose load drifts compares
like with like. The attacker runs at nice 19 (``--attacker-nice``): on these 2 cores it
gets the CPU the server, its apps and the players leave, as an attacker on a machine of
its own would; its rate is in its output (``opened``, ``admitted``).

For each family: the players' action -> view p99 (SSH and web: the key ``r`` -> the
screen shows the new ready state; LAN: ping -> pong), whether any seated player was
refused or lost a seat, the server's RSS (the serve process, and with its apps) and
descriptors, its CPU during and after the attack, and what the attacker was told.

    .venv/bin/python bench/attack_doors.py [--seconds 20] [--families a,b] [--password]
        [--pace 0.5] [--attacker-nice 19] [--rounds 1]

Without ``--password`` the keyless families run (logins with no session, channels, env);
with it, password guessing. Figures go to docs/RELIABILITY.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
import asyncssh  # noqa: E402
import msgspec  # noqa: E402
from door_players import PASSWORD, Player, Players  # noqa: E402  (beside this script)

from net import protocol as p  # noqa: E402
from tests.serve.helpers import ServeProcess  # noqa: E402

SOURCES = [f"127.0.0.{i}" for i in range(2, 10)]  # the attacker's "machines"
FAMILIES = ["lan_silent", "lan_spectators", "spectator_chat", "ssh_silent", "ssh_nosession",
            "ssh_channels_env", "ssh_resize_storm", "web_headers", "web_resize",
            "ssh_password", "web_password"]
KEYLESS = {"ssh_nosession", "ssh_channels_env", "ssh_resize_storm"}
WITH_PASSWORD = {"ssh_password", "web_password"}


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the server ------------------------------------------------------------------------


def _limit_fds() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


async def start_serve(data: Path, password: bool) -> ServeProcess:
    env = dict(os.environ, MOTHERLODE_DATA_DIR=str(data))
    args = ["--web", "0", "--game", "foolsgold", "--seats", "8"]
    if password:
        env["MOTHERLODE_SERVE_PASSWORD"] = PASSWORD
        args.append("--password")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "serve", "--bind", "127.0.0.1", "--ssh", "0",
        "--port", "0", "--no-announce", "--max-sessions", "24", *args,
        cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL, preexec_fn=_limit_fds,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    serve = ServeProcess(proc, data)
    await asyncio.wait_for(serve._until_ready(), 60)
    serve._reader = asyncio.create_task(serve._read_rest())
    return serve


def proc_stats(pid: int) -> dict[str, float]:
    """RSS (MiB) of the process and of it with its children, its descriptors, CPU s."""
    def rss(one: int) -> float:
        try:
            for line in Path(f"/proc/{one}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    children = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            children += Path(f"{task}/children").read_text().split()
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
    return {"rss": rss(pid), "rss_tree": rss(pid) + sum(rss(int(c)) for c in children),
            "fds": len(os.listdir(f"/proc/{pid}/fd")), "cpu": cpu}


# -- the players -----------------------------------------------------------------------



async def attack(family: str, ports: dict[str, int], seconds: float) -> dict:
    """Run one family for ``seconds``; what it achieved and what it was told."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))
    told: dict[str, int] = {}
    stats = {"opened": 0, "closed_by_server": 0, "admitted": 0}
    end = time.monotonic() + seconds
    held: list = []

    def note(text: str) -> None:
        text = text.strip()[:160]
        told[text] = told.get(text, 0) + 1

    async def hold_socket(port: int, source: str, payload: bytes = b"") -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(source, 0))
        except OSError as error:
            note(f"connect failed: {error.strerror}")
            await asyncio.sleep(0.05)
            return
        stats["opened"] += 1
        held.append(writer)
        if payload:
            writer.write(payload)
        data = b""
        with contextlib.suppress(Exception):
            while time.monotonic() < end:
                chunk = await asyncio.wait_for(reader.read(4096), max(0.01, end -
                                                                      time.monotonic()))
                if not chunk:
                    stats["closed_by_server"] += 1
                    break
                data += chunk
        text = data.decode("latin-1")
        for found in re.findall(r'"message":"([^"]+)"|(HTTP/1.1 5\d\d[^\r]*\r\n(?:.*\r\n)*'
                                r'\r\n.*)|([ -~]{20,})', text):
            words = next(f for f in found if f)
            if words.startswith("SSH-"):  # the SSH door's version line: its words follow
                continue
            # the SSH door's words come in a disconnect packet: drop its length bytes
            note(re.sub(r"^[ -~]?(?=Too many )", "", words))
        writer.close()

    async def flood(port: int, count: int, payload: bytes = b"") -> None:
        async def one(i: int) -> None:
            while time.monotonic() < end:
                await hold_socket(port, SOURCES[i % len(SOURCES)], payload)
        await asyncio.gather(*(one(i) for i in range(count)))

    hello = p.encode(p.Hello(protocol=3, name="Spec", spectate=True))

    async def spectators(count: int, chat: bool) -> None:
        async def one(i: int) -> None:
            while time.monotonic() < end:
                try:
                    reader, writer = await asyncio.open_connection(
                        "127.0.0.1", ports["game"], local_addr=(SOURCES[i % 8], 0))
                except OSError:
                    await asyncio.sleep(0.1)
                    continue
                stats["opened"] += 1
                writer.write(hello)
                first = msgspec.json.decode(await reader.readline() or b"{}")
                if first.get("type") != "welcome":
                    note(str(first.get("message")))
                    writer.close()
                    await asyncio.sleep(0.2)
                    continue
                stats["admitted"] += 1
                n = 0
                while time.monotonic() < end:
                    if chat:
                        n += 1
                        writer.write(p.encode(p.Chat(text=f"spam {i} {n}")))
                        await asyncio.sleep(0.05)  # 20 a second, the per-connection rate
                        with contextlib.suppress(asyncio.TimeoutError):
                            while True:
                                line = await asyncio.wait_for(reader.readline(), 0.001)
                                if b'"error"' in line:
                                    note(msgspec.json.decode(line).get("message", ""))
                    else:
                        line = await reader.readline()
                        if not line:
                            stats["closed_by_server"] += 1
                            break
                writer.close()
        await asyncio.gather(*(one(i) for i in range(count)))

    async def ssh_logins(count: int, mode: str) -> None:
        class Keyless(asyncssh.SSHClient):
            def kbdint_auth_requested(self) -> str:
                return ""

            def kbdint_challenge_received(self, name, instructions, lang, prompts):
                return [] if not prompts else None

        async def one(i: int) -> None:
            while time.monotonic() < end:
                try:
                    conn = await asyncio.wait_for(asyncssh.connect(
                        "127.0.0.1", ports["ssh"], username=f"mob{i}", known_hosts=None,
                        client_keys=[], agent_path=None, client_factory=Keyless,
                        preferred_auth="keyboard-interactive", encoding=None,
                        local_addr=(SOURCES[i % 8], 0)), 10)
                except (TimeoutError, OSError, asyncssh.Error) as error:
                    note(f"{type(error).__name__}: {error}")
                    await asyncio.sleep(0.2)
                    continue
                stats["admitted"] += 1
                try:
                    if mode == "nosession":
                        await asyncio.wait_for(conn.wait_closed(), max(0.1, end -
                                                                       time.monotonic()))
                        stats["closed_by_server"] += 1
                    elif mode == "channels_env":
                        for _ in range(3):
                            try:
                                proc = await conn.create_process(
                                    term_type="xterm", term_size=(80, 24),
                                    env={f"LC_{k}": "x" * 30000 for k in range(40)})
                                stats["opened"] += 1
                                await asyncio.sleep(1.0)
                                proc.close()
                            except asyncssh.Error as error:
                                note(f"{type(error).__name__}: {error}")
                    elif mode == "resize":
                        proc = await conn.create_process(term_type="xterm",
                                                         term_size=(80, 24))
                        n = 0
                        while time.monotonic() < end and not proc.is_closing():
                            n += 1
                            proc.change_terminal_size(80 + n % 40, 24 + n % 10)
                            await asyncio.sleep(1 / 7)
                except (TimeoutError, asyncssh.Error, OSError) as error:
                    note(f"{type(error).__name__}: {error}")
                finally:
                    conn.close()
        await asyncio.gather(*(one(i) for i in range(count)))

    async def ssh_passwords(count: int) -> None:
        async def one(i: int) -> None:
            while time.monotonic() < end:
                start = time.monotonic()
                try:
                    conn = await asyncio.wait_for(asyncssh.connect(
                        "127.0.0.1", ports["ssh"], username="ann", known_hosts=None,
                        client_keys=[], agent_path=None, password=f"guess{i}",
                        preferred_auth="password", local_addr=(SOURCES[i % 8], 0)), 30)
                    conn.close()
                    stats["admitted"] += 1
                except (TimeoutError, OSError, asyncssh.Error) as error:
                    stats["opened"] += 1  # one guess
                    note(f"{type(error).__name__}: {error}")
                stats.setdefault("guess_seconds", []).append(time.monotonic() - start)
        await asyncio.gather(*(one(i) for i in range(count)))

    async def web_password(count: int) -> None:
        # from the attacker's addresses (127.0.0.1 is where the server's own apps
        # connect from, which its rate of new connections does not count)
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(SOURCES[0], 0))) as http:
            async def one(i: int) -> None:
                while time.monotonic() < end:
                    with contextlib.suppress(Exception):
                        async with http.post(f"http://127.0.0.1:{ports['web']}/login",
                                             data={"password": f"guess{i}"}) as page:
                            stats["opened"] += 1
                            note(f"HTTP {page.status}")
            await asyncio.gather(*(one(i) for i in range(count)))

    async def web_resize(count: int) -> None:
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(SOURCES[0], 0))) as http:
            async def one(i: int) -> None:
                try:
                    ws = await http.ws_connect(
                        f"http://127.0.0.1:{ports['web']}/ws?width=80&height=24")
                except aiohttp.ClientError as error:
                    note(f"{type(error).__name__}: {error}")
                    return
                stats["admitted"] += 1
                while time.monotonic() < end and not ws.closed:
                    await ws.send_json(["resize", {"width": 30000, "height": 30000}])
                    await asyncio.sleep(0.1)
                await ws.close()
            await asyncio.gather(*(one(i) for i in range(count)))

    families = {
        "lan_silent": lambda: flood(ports["game"], 900),
        "lan_spectators": lambda: spectators(600, chat=False),
        "spectator_chat": lambda: spectators(150, chat=True),
        "ssh_silent": lambda: flood(ports["ssh"], 900),
        "ssh_nosession": lambda: ssh_logins(150, "nosession"),
        "ssh_channels_env": lambda: ssh_logins(8, "channels_env"),
        "ssh_resize_storm": lambda: ssh_logins(3, "resize"),
        "web_headers": lambda: flood(ports["web"], 900, b"GET / HTTP/1.1\r\nHost: 127.0."),
        "web_resize": lambda: web_resize(4),
        "ssh_password": lambda: ssh_passwords(64),
        "web_password": lambda: web_password(32),
    }
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(families[family](), seconds + 15)
    for writer in held:
        with contextlib.suppress(Exception):
            writer.close()
    guesses = stats.pop("guess_seconds", None)
    if guesses:
        stats["guesses_per_s"] = round(len(guesses) / seconds, 1)
    top = sorted(told.items(), key=lambda kv: -kv[1])[:3]
    return {"stats": stats, "told": top}


# -- the run ---------------------------------------------------------------------------


async def run_family(serve, players, family: str | None, seconds: float, nice: int) -> dict:
    pid = serve.proc.pid
    before = proc_stats(pid)
    players.samples.clear()
    problems_before = len(players.problems)
    players.recording = True
    attacker = None
    if family is not None:
        ports = {"ssh": serve.ssh_port, "web": serve.web_port, "game": serve.game_port}
        attacker = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--attack", family, "--ports", json.dumps(ports),
            "--seconds", str(seconds), stdout=asyncio.subprocess.PIPE, cwd=ROOT,
            preexec_fn=lambda: os.nice(nice))  # fmt: skip
        assert attacker.stdout is not None
        await asyncio.wait_for(attacker.stdout.readline(), 60)  # imported: it starts now
        players.samples.clear()
        before = proc_stats(pid)
    peak = dict(before)
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        await asyncio.sleep(0.5)
        now = proc_stats(pid)
        for key in ("rss", "rss_tree", "fds"):
            peak[key] = max(peak[key], now[key])
    during = proc_stats(pid)
    players.recording = False
    told = None
    if attacker is not None:
        out, _ = await asyncio.wait_for(attacker.communicate(), 60)
        told = json.loads(out.decode().strip().splitlines()[-1]) if out.strip() else None
    await asyncio.sleep(3.0)  # the attack is over: the server settles
    settle_from = proc_stats(pid)
    await asyncio.sleep(3.0)
    after = proc_stats(pid)
    seconds_run = time.monotonic() - start
    samples = players.samples
    return {
        "family": family or "quiet",
        "p50_ms": round(pct([s for _, s in samples], 0.5) * 1000, 1),
        "p99_ms": round(pct([s for _, s in samples], 0.99) * 1000, 1),
        "p99_by_kind_ms": {kind: round(pct([s for k, s in samples if k == kind], 0.99) * 1000,
                                       1) for kind in ("ssh", "web", "lan")},
        "p50_by_kind_ms": {kind: round(pct([s for k, s in samples if k == kind], 0.5) * 1000,
                                       1) for kind in ("ssh", "web", "lan")},
        "slowest_ms": sorted(round(s * 1000) for _, s in samples)[-5:],
        "samples": len(samples),
        "problems": players.problems[problems_before:],
        "rss_mib": round(peak["rss"], 1), "rss_tree_mib": round(peak["rss_tree"], 1),
        "fds_peak": peak["fds"], "fds_after": after["fds"],
        "cpu_during": round((during["cpu"] - before["cpu"]) / seconds, 2),
        "cpu_after": round((after["cpu"] - settle_from["cpu"]) / 3.0, 2),
        "attacker": told, "wall": round(seconds_run, 1),
        "_samples": [s for _, s in samples],
    }


async def main(args: argparse.Namespace) -> None:
    wanted = args.families.split(",") if args.families else [
        f for f in FAMILIES if (f in WITH_PASSWORD) == args.password]
    data = Path(tempfile.mkdtemp(prefix="motherlode-attack-"))
    serve = await start_serve(data, args.password)
    players = Players(serve, args.password, args.pace)
    results = []
    try:
        await players.start()
        for _ in range(180):  # everyone seated and warm
            if players.seated >= 6:
                break
            await asyncio.sleep(0.5)
        print(f"seated: {players.seated}; problems: {players.problems}", file=sys.stderr)
        await asyncio.sleep(3.0)
        for _ in range(args.rounds):
            for family in wanted:  # each attack right after a quiet window of its own
                for run in (None, family):
                    result = await run_family(serve, players, run, args.seconds,
                                              args.attacker_nice)
                    results.append(result)
                    print(json.dumps({k: v for k, v in result.items() if k != "_samples"}),
                          flush=True)
    finally:
        players.stop()
        await serve.stop()
    print("\n| family | players' p99 ms (x the quiet window before) | p50 ms | n | refused/lost "
          "| RSS MiB (with apps) | fds peak | CPU during / after | attacker told |")
    for quiet, r in zip(results[::2], results[1::2], strict=True):
        told = r["attacker"]["told"][0][0] if r["attacker"] and r["attacker"]["told"] else ""
        print(f"| {r['family']} | {r['p99_ms']} ({r['p99_ms'] / quiet['p99_ms']:.1f}x "
              f"{quiet['p99_ms']}) | {r['p50_ms']} ({quiet['p50_ms']}) | {r['samples']} | "
              f"{len(r['problems'])} | {r['rss_mib']} ({r['rss_tree_mib']}) | "
              f"{r['fds_peak']} | {r['cpu_during']} / {r['cpu_after']} | {told[:80]} |")
    if args.rounds > 1:  # every round's samples together: a p99 of n*rounds samples
        print("\n| family | rounds' ratios | median ratio | pooled p99 ms (x pooled quiet) "
              "| n |")
        for family in wanted:
            pairs = [(q, r) for q, r in zip(results[::2], results[1::2], strict=True)
                     if r["family"] == family]
            ratios = sorted(r["p99_ms"] / q["p99_ms"] for q, r in pairs)
            quiet = [x for q, _ in pairs for x in q["_samples"]]
            attacked = [x for _, r in pairs for x in r["_samples"]]
            p99q, p99a = pct(quiet, 0.99) * 1000, pct(attacked, 0.99) * 1000
            print(f"| {family} | {', '.join(f'{x:.1f}' for x in ratios)} | "
                  f"{statistics.median(ratios):.1f}x | {p99a:.0f} ({p99a / p99q:.1f}x "
                  f"{p99q:.0f}) | {len(attacked)} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--families", default="")
    parser.add_argument("--password", action="store_true")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every family (each after its quiet window) this many "
                        "times; prints the ratios' median and a p99 of all rounds' samples")
    parser.add_argument("--pace", type=float, default=0.5,
                        help="seconds a player waits after an answer (give or take 30%%)")
    parser.add_argument("--attacker-nice", type=int, default=19,
                        help="the attacker's nice level: 19 gives it only the CPU the "
                        "server, its apps and the players leave (as an attacker on a "
                        "machine of its own); 0 lets it compete for these 2 cores")
    parser.add_argument("--attack", help=argparse.SUPPRESS)
    parser.add_argument("--player", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--ports", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.player:
        kind, name = args.player.split(":", 1)
        player = Player(json.loads(args.ports), args.password, args.pace, args.seed)
        asyncio.run(player.play(kind, name))
    elif args.attack:
        print("ready", flush=True)
        print(json.dumps(asyncio.run(attack(args.attack, json.loads(args.ports),
                                            args.seconds))))
    else:
        asyncio.run(main(args))
