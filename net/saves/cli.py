"""``motherlode games``, ``export`` and ``stats``: the saves database from the shell.

Both are headless (no Textual); every problem is one line on stderr and a non-zero
exit, never a traceback. Names are peer text: printed cleaned (``net.text``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def add_commands(subparsers) -> None:
    games = subparsers.add_parser(
        "games", help="list the games kept, with their status and the ids replay and export "
        "take",
        description="Every game kept in the saves database, newest first, with its status: "
        "playing (unfinished: a host stopped or crashed in it), lobby (a table outside a "
        "game), finished or abandoned. `motherlode replay ID` steps through one, "
        "`motherlode export ID` writes it to a file, `motherlode host --resume` plays "
        "unfinished LAN tables on.")  # fmt: skip
    games.add_argument("--limit", type=int, default=20, metavar="N",
                       help="at most N games (default 20)")
    games.add_argument("--status", type=_statuses, default=None, metavar="S[,S...]",
                       help="only games of these statuses: " + ", ".join(_STATUSES)
                       + " (comma-separated; default: all)")
    export = subparsers.add_parser(
        "export", help="write a saved game to one JSON file, for sharing",
        description="Write a saved game (finished, abandoned or unfinished) as one "
        "self-contained JSON file that `motherlode replay FILE` reads on any machine. "
        "It holds the game's seed and the players' names (not their resume tokens).")  # fmt: skip
    export.add_argument("game", metavar="ID", nargs="?",
                        help="the game's id (or the start of it)")
    export.add_argument("-o", "--output", metavar="FILE",
                        help="where to write it (default: ID.json, or league.json, here); "
                        "never overwritten")
    export.add_argument("--league", action="store_true",
                        help="write the league instead: its seasons and every rating, "
                        "all time and per season (a game's file holds its own ratings)")
    stats = subparsers.add_parser(
        "stats", help="players' figures from every finished game",
        description="Games played and won per player and game, and each game's own "
        "figures, as the game counts them.")
    stats.add_argument("name", nargs="?", metavar="NAME", help="one player (any case)")
    stats.add_argument("--bots", action="store_true", help="count the bots too")


#: net.saves.queries.KEPT_STATUSES, written here so the parser stays light (a test checks)
_STATUSES = ("playing", "lobby", "finished", "abandoned")


def _statuses(text: str) -> tuple[str, ...]:
    """``--status playing,lobby``: the statuses named, or an argparse error naming the
    ones that are not statuses (exit 2, the usage and one line, never a traceback)."""
    named = tuple(dict.fromkeys(s.strip().lower() for s in text.split(",") if s.strip()))
    wrong = [s for s in named if s not in _STATUSES]
    if wrong or not named:
        raise argparse.ArgumentTypeError(
            f"{', '.join(map(repr, wrong)) or 'nothing'} is not a status: choose from "
            + ", ".join(_STATUSES) + " (several with commas, e.g. playing,lobby)")
    return named


def run(args: argparse.Namespace) -> int:
    from net.saves.errors import SaveError

    try:
        if args.command == "games":
            return _games(args)
        if args.command == "export":
            return _export(args)
        return _stats(args)
    except SaveError as exc:
        print(f"motherlode {args.command}: {exc}", file=sys.stderr)
        return 1


def _games(args: argparse.Namespace) -> int:
    import time

    from net.catalogue import title
    from net.saves.store import Store
    from net.text import clean_text

    if args.limit < 1:
        print("motherlode games: --limit must be 1 or more", file=sys.stderr)
        return 2
    statuses = args.status or _STATUSES
    kept = Store.default("tables").kept(args.limit, statuses)
    if not kept:
        if args.status:
            print(f"No {' or '.join(statuses)} games kept.")
        else:
            print("No games kept yet: every game, finished or not, is kept here.")
        return 0
    for game in kept:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.when))
        players = ", ".join(clean_text(name) for name in game.players)
        result = clean_text(game.result())
        print(f"{game.id}\n    {when}  {game.status:<9}  {title(game.game)}: {players}; "
              f"{result}")
    print("`motherlode replay ID` steps through one (the start of an id is enough).")
    if any(game.status in ("playing", "lobby") for game in kept):
        print("Unfinished: `motherlode host --resume` (LAN), the menu's Resume `u` (hot-seat).")
    return 0


def _export(args: argparse.Namespace) -> int:
    import json

    from net.league.standings import export, game_record
    from net.saves.store import Store, open_game

    store = Store.default("tables")
    if args.league:
        data = json.dumps(store.league(export), indent=1).encode() + b"\n"
        target = Path(args.output or "league.json")
        what = "the league (its seasons and ratings)"
    elif args.game is None:
        print("motherlode export: name a game's ID, or --league", file=sys.stderr)
        return 2
    else:
        saved = open_game(args.game, store)
        target = Path(args.output) if args.output else Path(f"{saved.id}.json")
        league = None if Path(args.game).is_file() else store.league(
            lambda conn: game_record(conn, saved.id))  # fmt: skip
        data = saved.export(tokens=False, extra={"league": league} if league else None)
        what = saved.describe()
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        print(f"motherlode export: {target} exists; choose another with -o", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"motherlode export: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    tail = "" if args.league else f"; `motherlode replay {target}` shows it"
    print(f"Wrote {what} to {target} ({len(data) // 1024 + 1} KiB){tail}.")
    return 0


def table_lines(rows) -> list[str]:
    """The stats as lines of plain text (the names cleaned), one block per game."""
    from rich.cells import set_cell_size

    from net.catalogue import keys, title
    from net.saves.stats import columns
    from net.text import clean_text

    played = (("played", 6, lambda r: r.played), ("won", 5, lambda r: r.won))
    lines = []
    for game in keys():
        of_game = [r for r in rows if r.game == game]
        if not of_game:
            continue
        shown = (*played, *columns(game))
        lines.append(title(game))
        lines.append(f"  {'player':<20}" + "".join(f" {h:>{w}}" for h, w, _ in shown))
        for r in of_game:
            # in terminal cells, not characters: a CJK or emoji name keeps the columns
            lines.append(f"  {set_cell_size(clean_text(r.name), 20)}"
                         + "".join(f" {v(r)!s:>{w}}" for _, w, v in shown))
        lines.append("")
    return lines[:-1] if lines else lines


def _stats(args: argparse.Namespace) -> int:
    from net.saves.store import Store

    rows = Store.default("tables").stats(args.name, bots=args.bots)
    if not rows:
        who = f" for {args.name!r}" if args.name else ""
        print(f"No finished games{who} yet: every game played to its end counts.")
        return 0
    print("\n".join(table_lines(rows)))
    return 0
