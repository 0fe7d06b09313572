"""CPU time of the first hint of a game: every shipped game with decisions, deals 1..N.

The first hint is the costliest one: the solver is built and searches from the deal (within
the hint's budget: 8,000 positions or 0.6 seconds), then the heuristic looks two moves ahead
when no winning line is found. Its target: within 1 CPU-second for every deal. Prints, per
game, the median and the slowest first hint and the kind of the hints, then the distribution
over all deals.

    python benchmarks/hints.py [--deals 20] [--game GAME ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from yaml_solitaire.engine.game.load import game_names, load_game
from yaml_solitaire.engine.play.advice import Adviser
from yaml_solitaire.engine.play.progress import Progress, new_deal

TARGET = 1.0  # CPU seconds


def first_hint(name: str, seed: int) -> tuple[float, str] | None:
    """CPU seconds of the first hint of deal ``seed``, and its kind; None for a game that plays
    itself to its end."""
    game = load_game(name)
    progress = Progress(game, new_deal(game, seed))
    session = progress.session
    if session.is_over():
        return None
    seen = {entry.before for entry in session.history} | {session.position}
    start = time.process_time()
    advice = Adviser(game, after=progress.after).advise(session.position, seen)
    return time.process_time() - start, advice.kind


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals 1..N of each game")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    every: list[float] = []
    print(f"{'game':<20} {'deals':>5} {'median':>8} {'max':>8}  kinds")
    for name in args.game or game_names():
        times: list[float] = []
        kinds: dict[str, int] = {}
        for seed in range(1, args.deals + 1):
            found = first_hint(name, seed)
            if found is None:
                continue
            seconds, kind = found
            times.append(seconds)
            kinds[kind] = kinds.get(kind, 0) + 1
        if not times:
            print(f"{name:<20} plays itself")
            continue
        every += times
        shown = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
        print(
            f"{name:<20} {len(times):>5} {statistics.median(times):7.2f}s {max(times):7.2f}s  "
            f"{shown}",
            flush=True,
        )
    if every:
        every.sort()
        p90 = every[int(0.9 * (len(every) - 1))]
        over = sum(1 for t in every if t > TARGET)
        print(
            f"all: {len(every)} first hints: median {statistics.median(every):.2f}s, "
            f"90% {p90:.2f}s, max {every[-1]:.2f}s CPU; over {TARGET:.0f}s: {over}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
