"""Small helpers shared by the Gold Nuggets tests."""

from nuggets import Face, Game


def faces(text: str) -> tuple[Face, ...]:
    """'N L 2 3 3 3 5' -> faces; N is a nugget, L a lasso."""
    names = {"N": Face.NUGGET, "L": Face.LASSO}
    return tuple(names.get(t) or Face(t) for t in text.split())


def state(game: Game) -> tuple:
    """Everything a game holds, for comparing before and after."""
    return (
        tuple(game.players),
        game.current,
        game.supply,
        tuple(game.holdings),
        tuple(game.kept),
        game.rolled,
        game.over,
        tuple(game.winners),
    )
