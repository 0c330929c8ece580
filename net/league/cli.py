"""``motherlode league``: the standings, head-to-head records and seasons from the
shell (headless; every problem is one line on stderr and a non-zero exit).

    motherlode league [--game G] [--season S] [--json]   the standings
    motherlode league --vs ANN BOB [--game G]           two players' record
    motherlode league season "Winter 2026"               start a season
    motherlode league --rebuild                         every rating again, from the games
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def add_commands(subparsers) -> None:
    league = subparsers.add_parser(
        "league", help="ratings per game: standings, seasons, head-to-head",
        description="Every rated player's rating per game (people, and each bot level), "
        "from the finished games kept here. A rating is 'new' until 10 rated games. "
        "`motherlode league season NAME` starts a season: ratings carry on, less certain.")
    league.add_argument("words", nargs="*", metavar="season NAME",
                        help="start a season called NAME (the server's owner)")
    league.add_argument("--game", metavar="G", help="one game (nuggets, foolsgold)")
    league.add_argument("--season", metavar="S",
                        help="one season's standings (default: all time; 'current')")
    league.add_argument("--json", action="store_true", help="a JSON list, for scripts")
    league.add_argument("--vs", nargs=2, metavar=("A", "B"), help="A's record against B")
    league.add_argument("--rebuild", action="store_true",
                        help="recompute every rating from the games kept")


def run(args: argparse.Namespace) -> int:
    from net.league.ledger import LeagueError
    from net.saves.errors import SaveError
    from net.saves.store import Store

    try:
        if args.game is not None:
            from net.catalogue import known

            if not known(args.game):
                raise LeagueError(f"no game called {args.game!r}")
        store = Store.default("tables")
        try:
            return _run(args, store)
        finally:
            store.close()
    except (LeagueError, SaveError) as exc:
        print(f"motherlode league: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, store: Any) -> int:
    from net.league import ledger
    from net.league.standings import head_to_head, standings

    if args.words:
        if args.words[0] != "season" or len(args.words) < 2:
            print("motherlode league: say `motherlode league season NAME`", file=sys.stderr)
            return 2
        name = " ".join(args.words[1:])
        number = store.league_change(lambda c: ledger.start_season(c, name, time.time()))
        print(f"Season {number}, {' '.join(name.split())!r}, starts now: every rating "
              "carries on, a little less certain.")
        return 0
    if args.rebuild:
        count = store.league_change(ledger.rebuild)
        print(f"Rebuilt the league from {count} rated game{'s' * (count != 1)}.")
        return 0
    if args.vs:
        record = store.league(lambda c: head_to_head(c, *args.vs, game=args.game))
        print("\n".join(vs_lines(record)))
        return 0
    lines = store.league(lambda c: standings(c, args.game, args.season))
    if args.json:
        print(json.dumps([line.as_json() for line in lines], indent=1))
        return 0
    if not lines:
        within = f" in season {args.season!r}" if args.season else ""
        print(f"No rated games{within} yet: a finished game with a person at it is rated.")
        return 0
    print("\n".join(standing_lines(lines, args.season)))
    return 0


def standing_lines(lines: list[Any], season: str | None = None, width: int = 72) -> list[str]:
    """The standings as lines of plain text, one block per game (names cleaned)."""
    from rich.cells import set_cell_size

    from net.catalogue import title
    from net.text import clean_text

    out: list[str] = []
    dated = width >= 66  # narrower (60 columns): no "last played"
    name_width = max(8, min(20, width - (52 if dated else 39)))
    for game in dict.fromkeys(line.game for line in lines):
        out.append(f"{title(game)}, {season or 'all time'}")
        out.append(f"  {'#':>3}  {'player':<{name_width}}  {'rating':<14} {'games':>5} "
                   f"{'wins':>5}" + ("  last played" if dated else ""))
        for line in (x for x in lines if x.game == game):
            when = time.strftime("%Y-%m-%d", time.localtime(line.last_played))
            out.append(f"  {line.rank:>3}  {set_cell_size(clean_text(line.name), name_width)}"
                       f"  {line.shown():<14} {line.games:>5} {line.wins:>5}"
                       + (f"  {when}" if dated else ""))
        out.append("")
    return out[:-1]


def vs_lines(record: Any) -> list[str]:
    """A head-to-head record as lines of plain text."""
    from net.catalogue import title
    from net.text import clean_text

    a, b = clean_text(record.a), clean_text(record.b)
    if not record.games:
        return [f"{a} and {b} have played no game together yet."]
    out = [f"{a} against {b}: {record.games} game{'s' * (record.games != 1)} together; "
           f"{a} ahead {record.a_ahead}, {b} ahead {record.b_ahead}, tied {record.ties}"]
    for game, (x, y, z) in record.by_game.items():
        out.append(f"  {title(game)}: {a} {x}, {b} {y}, tied {z}")
    return out


def rated_line(message: Any) -> str:
    """A ``rated`` message as one line: "Rated: Ann 1512 → 1527, +15; Bob new, 4 of 10
    games" (names cleaned: peer text)."""
    from net.league.rating import PROVISIONAL_GAMES
    from net.text import clean_text

    parts = []
    for c in message.changes:
        name = clean_text(c.name)
        if c.after is None:
            parts.append(f"{name} new, {c.games} of {PROVISIONAL_GAMES} games")
        elif c.before is None:
            parts.append(f"{name} {c.after} (rated after {c.games} games)")
        else:
            parts.append(f"{name} {c.before} → {c.after}, {c.after - c.before:+d}")
    return "Rated: " + "; ".join(parts) if parts else "Rated: nobody"
