"""Gold Nuggets advisor: cold solve time and query times (figures for docs/BENCHMARKS.md).

.venv/bin/python bench/nuggets_advisor.py            # the figures
.venv/bin/python bench/nuggets_advisor.py --tables   # the tables of docs/ODDS.md
"""

import statistics
import subprocess
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nuggets import odds  # noqa: E402

CHILD = """
import time
t0 = time.perf_counter()
import nuggets.odds as odds
t1 = time.perf_counter()
odds.solve()
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def cold_solves(runs: int = 7) -> tuple[list[float], list[float]]:
    """Each in a fresh interpreter: (import times, solve times)."""
    imports, solves = [], []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True
        ).stdout.split()
        imports.append(float(out[0]))
        solves.append(float(out[1]))
    return imports, solves


def per_call(stmt: str, setup_globals: dict, number: int = 20000) -> float:
    """Best of 5 repeats, in microseconds per call."""
    times = timeit.repeat(stmt, globals=setup_globals, number=number, repeat=5)
    return min(times) / number * 1e6


def numbers_of(mask: int) -> str:
    return ", ".join(str(v) for i, v in enumerate(odds._VALUES) if mask >> i & 1) or "none"


def tables() -> str:
    """The tables of docs/ODDS.md, as Markdown."""
    s = odds.solve()
    lines = ["Bust chance of the next roll, by dice left and how many numbers are set aside:", ""]
    lines.append("| dice left | no number | one number | two numbers |")
    lines.append("|---|---|---|---|")
    for n in range(odds.DICE, 0, -1):
        cells = []
        for mask in (0, 1, 3):
            chance = s.bust.get((mask, n))
            cells.append("" if chance is None else f"{chance} = {float(chance):.2%}")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += ["", f"Expected nuggets of a fresh turn: E0 = {s.e0} = {float(s.e0):.6f}", ""]
    lines.append("Roll on or stop: expected nuggets of rolling, by value so far (bold: stop),")
    lines.append("for each set of numbers already set aside and dice left:")
    lines.append("")
    lines.append("| numbers set aside | dice left | value so far: expected nuggets of rolling |")
    lines.append("|---|---|---|")
    for mask in sorted(range(16), key=lambda m: (odds._popcount(m), m)):
        for n in range(odds.DICE, 0, -1):
            values = odds._values(mask, n)
            if not values:
                continue
            cells = []
            for v in values:
                roll = float(s.roll[mask, n, v])
                cell = f"{v}: {roll:.2f}"
                cells.append(f"**{cell}**" if s.best[mask, n, v] == v else cell)
            lines.append(f"| {numbers_of(mask)} | {n} | " + ", ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    if "--tables" in sys.argv:
        print(tables())
        return

    imports, solves = cold_solves()
    print(
        f"cold solve, fresh process (7 runs): median {statistics.median(solves) * 1000:.1f} ms, "
        f"min {min(solves) * 1000:.1f}, max {max(solves) * 1000:.1f} "
        f"(importing the package: median {statistics.median(imports) * 1000:.1f} ms)"
    )

    import nuggets
    from nuggets import Face, Game, Keep, Roll
    from nuggets.odds import solve

    resolves = timeit.repeat(solve.__wrapped__, number=1, repeat=5)
    print(
        f"re-solve in a warm process (5 runs): min {min(resolves) * 1000:.1f} ms, "
        f"median {statistics.median(resolves) * 1000:.1f} ms"
    )
    solution = solve()
    print(f"policy-iteration passes: {solution.iterations}; states: {len(solution.roll)}")

    kept = (Face.NUGGET, Face.THREE, Face.THREE, Face.THREE)
    kept_strings = [f.value for f in kept]
    roll7 = ("nugget", "lasso", "lasso", "3", "3", "3", "5")
    g = Game(["A", "B"])
    g.apply(Roll(roll7))
    keep_view = g.view(0)
    g.apply(Keep(("3", "3", "3", "nugget")))
    choose_view = g.view(0)
    env = {
        "nuggets": nuggets,
        "kept": kept,
        "kept_strings": kept_strings,
        "roll7": roll7,
        "keep_view": keep_view,
        "choose_view": choose_view,
        "solution": solution,
    }
    queries = [
        ("bust_chance(kept)", "nuggets.bust_chance(kept)"),
        ("expected_stop(kept)", "nuggets.expected_stop(kept)"),
        ("expected_roll(kept)", "nuggets.expected_roll(kept)"),
        ("expected_roll(kept as strings)", "nuggets.expected_roll(kept_strings)"),
        ("best_keep(7 dice), answer memoised", "nuggets.best_keep(roll7)"),
        ("best_keep(7 dice), first time", "solution.keeps.clear(); nuggets.best_keep(roll7)"),
        ("advise(view) to set aside", "nuggets.advise(keep_view)"),
        ("advise(view) to roll or stop", "nuggets.advise(choose_view)"),
    ]
    print("queries once solved (best of 5 x 20000 calls):")
    for label, stmt in queries:
        print(f"  {label:<38} {per_call(stmt, env):7.1f} us")


if __name__ == "__main__":
    main()
