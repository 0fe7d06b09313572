"""Playing many deals headless: win rate with a confidence interval, and score distribution.

Deal ``i`` uses seed ``first_seed + i``; each deal's result depends only on its seed, so the
figures are the same whatever the number of processes.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..core.game import Game
from ..core.load import load_game
from ..core.seeds import Seed, seed_after
from ..core.state import State
from .hints import suggest


@dataclass(frozen=True, slots=True)
class DealResult:
    seed: Seed
    outcome: str  # won, lost, or unfinished (move limit reached, or only repeats left)
    score: int
    actions: int


def play_deal(game: Game, seed: Seed, max_actions: int = 0) -> DealResult:
    """Play one seeded deal to its end: forced actions as they come, choices by ``suggest``."""
    state = game.deal_seed(seed)
    limit = max_actions or 20 * len(game.cards)
    seen: set[State] = {state}
    count = 0
    while not game.is_terminal(state) and count < limit:
        actions = game.legal_actions(state)
        if not actions:
            break
        action = actions[0] if len(actions) == 1 else suggest(game, state, seen)
        if action is None:
            break
        after = game.apply(state, action)
        if after in seen:
            break  # the policy has only repeats left: the deal stays unfinished
        state = after
        seen.add(state)
        count += 1
    return DealResult(seed, game.outcome(state) or "unfinished", game.score(state), count)


_WORKER_GAME: Game | None = None


def _init_worker(path: str) -> None:
    global _WORKER_GAME
    _WORKER_GAME = load_game(path)


def _run_chunk(seeds: tuple[Seed, int]) -> list[DealResult]:
    assert _WORKER_GAME is not None
    first, count = seeds
    return [play_deal(_WORKER_GAME, seed_after(first, i)) for i in range(count)]


def _chunks(first: Seed, count: int, size: int) -> Iterator[tuple[Seed, int]]:
    """(first seed, number of deals) of each chunk of ``count`` deals from ``first``."""
    for start in range(0, count, size):
        yield seed_after(first, start), min(size, count - start)


def run_deals(
    game: Game,
    first_seed: Seed,
    count: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[DealResult]:
    """Results of ``count`` deals in seed order; ``progress(n)`` is told of each finished batch."""
    jobs = max(1, min(jobs, os.cpu_count() or 1, count or 1))
    size = max(1, min(1000, count // (jobs * 8) or 1))
    results: list[DealResult] = []
    if jobs == 1 or game.path is None:
        for start, number in _chunks(first_seed, count, size):
            batch = [play_deal(game, seed_after(start, i)) for i in range(number)]
            results += batch
            if progress:
                progress(len(batch))
        return results
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(str(game.path),)) as pool:
        for batch in pool.map(_run_chunk, _chunks(first_seed, count, size)):
            results += batch
            if progress:
                progress(len(batch))
    return results


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    game: str
    first_seed: Seed
    deals: int
    wins: int
    losses: int
    unfinished: int
    score_label: str
    scores: Counter[int] = field(default_factory=Counter)

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.deals)

    @property
    def mean_score(self) -> float:
        total = sum(score * n for score, n in self.scores.items())
        return total / self.deals if self.deals else 0.0

    def as_json(self) -> dict[str, object]:
        low, high = self.interval
        return {
            "game": self.game,
            "seed": self.first_seed,
            "deals": self.deals,
            "wins": self.wins,
            "losses": self.losses,
            "unfinished": self.unfinished,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "score_label": self.score_label,
            "cards_placed": {
                "mean": self.mean_score,
                "min": min(self.scores) if self.scores else None,
                "max": max(self.scores) if self.scores else None,
                "histogram": {str(k): v for k, v in sorted(self.scores.items())},
            },
        }


def summarise(game: Game, first_seed: Seed, results: list[DealResult]) -> Summary:
    outcomes = Counter(r.outcome for r in results)
    return Summary(
        game=game.id,
        first_seed=first_seed,
        deals=len(results),
        wins=outcomes["won"],
        losses=outcomes["lost"],
        unfinished=outcomes["unfinished"],
        score_label=game.spec.score.label,
        scores=Counter(r.score for r in results),
    )
