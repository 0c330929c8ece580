"""Small helpers shared by the Gold Nuggets tests."""

import random

from nuggets import Face, Game, Keep, Roll, Stop, roll_dice


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


def legal_action(game: Game, rng: random.Random):
    """A random legal action: any legal set-aside, roll or stop, stealing at times."""
    phase = game.phase
    if phase == "keep":
        return Keep(rng.choice(game.legal_keeps()))
    steal = None
    if game.can_steal and rng.random() < 0.5:
        steal = rng.choice([s for s in range(len(game.players)) if s != game.current])
    if phase == "take" or (phase == "choose" and rng.random() < 0.35):
        return Stop(steal)
    return Roll(roll_dice(rng, game.dice_left))
