"""The league: ratings that carry from one game night to the next, per game, with
seasons and head-to-head records (issue 60).

- ``net.league.rating``: the pure part. openskill's Plackett-Luce model rates a
  finished match from its seats' places; the display scale (about 1500), the
  provisional games, the guard that a win never lowers a rating and a loss never
  raises one, a season's wider uncertainty.
- ``net.league.ledger``: the league's tables in the saves database, derived from the
  finished games: recording a game (rated in play order), rebuilding every rating
  from the recorded games, seasons, standings, head-to-head.
- ``net.league.seats``: what a finished game gives the league: each seat's identity
  (a person's name, a bot's level, or a guest), place and share of the game.
- ``net.league.cli``: ``motherlode league``.
"""
