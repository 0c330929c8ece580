"""The web door's ``/league``: the standings for a TV across the room, in big type,
updated live as games end, with no seat needed (behind the door's own guard: its
password, ``Host`` and ``Origin`` checks, like every page).

The page asks ``/league.json?after=V``: the host's standings (every game, all time and
the current season) at version ``V + 1`` or later; the answer waits (long polling, at
most :data:`WAIT` seconds) until a rated game changes them, so a game's end reaches the
screen within a round trip. The standings are read once a version (``net.league``),
whatever the number of screens. Names are peer text: the page sets them as text, never
as HTML.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from aiohttp import web

WAIT = 20.0  # seconds a long poll is held before it answers "no change"


class LeaguePage:
    """The standings of a host's ``store`` (a ``net.saves.Store``) as a page; call
    :meth:`rated` after each rated game (the host's ``league.on_rated``)."""

    def __init__(self, store: Any, wait: float = WAIT) -> None:
        self.store = store
        self.wait = wait
        self.version = 0
        self._changed = asyncio.Event()
        self._cached: tuple[int, dict[str, Any]] | None = None

    def install(self, app: web.Application) -> None:
        app.router.add_get("/league", self.handle_page)
        app.router.add_get("/league.json", self.handle_json)

    def rated(self, *_: Any) -> None:
        """A rated game ended: every waiting screen reads the new standings."""
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    def standings(self) -> dict[str, Any]:
        """The payload of this version (read once, then cached)."""
        if self._cached is not None and self._cached[0] == self.version:
            return self._cached[1]
        from net.catalogue import title
        from net.league.standings import season_id, seasons, standings

        def read(conn: Any) -> dict[str, Any]:
            current = season_id(conn, "current")
            names = {s["season"]: s["name"] for s in seasons(conn)}
            parts = [(None, "All time")]
            if current:
                parts.append((names[current], names[current]))
            boards = []
            for season, label in parts:
                lines = standings(conn, None, season)
                for game in dict.fromkeys(line.game for line in lines):
                    boards.append({"title": f"{title(game)}: {label}", "rows": [
                        {"rank": x.rank, "name": x.name, "rating": x.shown(),
                         "games": x.games, "wins": x.wins}
                        for x in lines if x.game == game]})
            return {"boards": boards}

        try:
            data = self.store.league(read)
        except Exception as exc:  # a damaged database: said on the page, never a trace
            data = {"boards": [], "problem": f"The standings cannot be read: {exc}"}
        data["version"] = self.version
        data["at"] = time.time()
        self._cached = (self.version, data)
        return data

    async def handle_json(self, request: web.Request) -> web.StreamResponse:
        try:
            after = int(request.query.get("after", "-1"))
        except ValueError:
            raise web.HTTPBadRequest(text="after is a version number") from None
        if after >= self.version:
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), self.wait)
        return web.json_response(self.standings(), headers={"Cache-Control": "no-store"})

    async def handle_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=PAGE, content_type="text/html",
                            headers={"Cache-Control": "no-store"})


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Motherlode league</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{background:#0c181f;color:#f0e6c8;font-family:system-ui,sans-serif;margin:0;padding:2vh 3vw}
h1{font-size:6vh;margin:0 0 2vh;color:#f5c542}
h2{font-size:4.5vh;margin:3vh 0 1vh;color:#f5c542}
table{border-collapse:collapse;width:100%;font-size:4vh}
td,th{padding:.4vh 1.2vw;text-align:left}
th{font-size:2.6vh;color:#9fb3bf;font-weight:normal;text-transform:uppercase}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#13242e}
#status{font-size:2.4vh;color:#9fb3bf}
</style></head>
<body><h1>Motherlode league</h1><div id="boards"><p id="empty">No rated games yet.</p></div>
<p id="status" role="status"></p>
<script>
"use strict";
let version = -1;
function cell(row, text, number) {
  const td = document.createElement("td");
  td.textContent = String(text);  // names are peer text: never HTML
  if (number) td.className = "n";
  row.appendChild(td);
}
function draw(data) {
  const boards = document.getElementById("boards");
  boards.replaceChildren();
  if (data.problem) { const p = document.createElement("p"); p.textContent = data.problem;
    boards.appendChild(p); }
  if (!data.boards.length && !data.problem) { const p = document.createElement("p");
    p.id = "empty"; p.textContent = "No rated games yet."; boards.appendChild(p); }
  for (const board of data.boards) {
    const h = document.createElement("h2"); h.textContent = board.title; boards.appendChild(h);
    const table = document.createElement("table");
    const head = table.insertRow();
    for (const name of ["#", "Player", "Rating", "Games", "Wins"]) {
      const th = document.createElement("th"); th.textContent = name; head.appendChild(th); }
    for (const r of board.rows) {
      const row = table.insertRow();
      cell(row, r.rank, true); cell(row, r.name); cell(row, r.rating);
      cell(row, r.games, true); cell(row, r.wins, true);
    }
    boards.appendChild(table);
  }
  document.getElementById("status").textContent =
    "Updated " + new Date(data.at * 1000).toLocaleTimeString();
  document.body.dataset.version = String(data.version);
}
async function poll() {
  for (;;) {
    try {
      const answer = await fetch("/league.json?after=" + version, {cache: "no-store"});
      if (!answer.ok) throw new Error(String(answer.status));
      const data = await answer.json();
      if (data.version !== version) { version = data.version; draw(data); }
    } catch (error) {
      document.getElementById("status").textContent = "Reconnecting...";
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
}
poll();
</script></body></html>
"""
