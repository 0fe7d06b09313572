"""Playing many deals headless: win rate with a confidence interval, and score distribution.

Deal ``i`` uses the seed ``i`` places after the first (``seeds.seed_after``); each deal's result
depends only on its seed, so the figures are the same whatever the number of processes.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, field

from ..core.seeds import Seed, seed_after
from ..core.state import Action, State
from ..game.game import Game
from ..game.load import load_game
from .hints import choose
from .workers import Workers, WorkersFailed


@dataclass(frozen=True, slots=True)
class DealResult:
    seed: Seed
    outcome: str  # won, lost, or unfinished (a limit reached, or only repeats left)
    score: int
    actions: int
    examined: int = 0  # positions the player examined in the deal, those played included
    most_examined: int = 0  # the most it examined to choose one action


# The player's work, in positions examined (an action's result, or one its look-ahead plays).
# Without caps, a game with many actions a position (runs of any length onto any space) costs
# the square of that number a move, and its deals wander to the move limit: a Napoleon's
# Square deal examined some hundred times the positions of a Klondike deal. The caps sit well
# above what the small games use: on deals 1..20, FreeCell's look-ahead needed at most 1,052
# positions a move to make the same choices, Forty Thieves' deals made their last progress
# within 61,038 positions (Klondike 52,916), so their figures do not change.
LOOKS_PER_CHOICE = 2_000
POSITIONS_PER_DEAL = 80_000


def play_deal(
    game: Game,
    seed: Seed,
    max_actions: int = 0,
    looks: int | None = LOOKS_PER_CHOICE,
    positions: int | None = POSITIONS_PER_DEAL,
) -> DealResult:
    """Play one seeded deal to its end: forced actions as they come, choices by ``choose``.

    The deal stops, unfinished, after ``max_actions`` actions (default 20 a card) or once the
    player has examined ``positions`` positions; each choice's look-ahead plays at most
    ``looks`` positions past the first action (None: no cap)."""
    state = game.deal_seed(seed)
    limit = max_actions or 20 * len(game.cards)
    seen: set[State] = {state}
    count = examined = most = 0
    while not game.is_terminal(state) and count < limit:
        if positions is not None and examined >= positions:
            break
        actions = game.legal_actions(state)
        if not actions:
            break
        if len(actions) == 1:
            action: Action | None = actions[0]
            examined += 1
        else:
            choice = choose(game, state, seen, looks=looks)
            action = choice.action
            examined += choice.examined
            most = max(most, choice.examined)
        if action is None:
            break
        after = game.apply(state, action)
        if after in seen:
            break  # the policy has only repeats left: the deal stays unfinished
        state = after
        seen.add(state)
        count += 1
    outcome = game.outcome(state) or "unfinished"
    return DealResult(seed, outcome, game.score(state), count, examined, most)


# Deals are played in chunks sized to take about this long: short enough that results come in
# steadily (and Ctrl-C, which drops the chunks under way in the processes, loses little), long
# enough that handing chunks to processes costs little. Sizes are learnt from the chunks done.
CHUNK_SECONDS = 0.2
MAX_CHUNK = 10_000


class _Sizer:
    """Chunk sizes that take about CHUNK_SECONDS, from the time the chunks so far took."""

    def __init__(self) -> None:
        self.size = 1

    def learn(self, deals: int, seconds: float) -> None:
        if deals:
            wanted = int(CHUNK_SECONDS * deals / max(seconds, 1e-6))
            self.size = max(1, min(wanted, 4 * self.size, MAX_CHUNK))


def _play_chunk(game: Game, first: Seed, count: int) -> tuple[list[DealResult], float]:
    """``count`` deals from seed ``first``, and the seconds they took."""
    began = time.perf_counter()
    batch = [play_deal(game, seed_after(first, i)) for i in range(count)]
    return batch, time.perf_counter() - began


_WORKER_GAME: Game | None = None


def end_with_parent(poll: float = 0.2) -> None:
    """In a worker process: exit as soon as the process that started it is gone.

    A parent ended by SIGTERM, SIGHUP or kill -9 has no chance to stop its workers, which
    would play on for the rest of their chunk; each worker watches for itself instead (it is
    handed to another parent when its own ends)."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _init_worker(path: str) -> None:
    end_with_parent()
    global _WORKER_GAME
    _WORKER_GAME = load_game(path)


def _run_chunk(chunk: tuple[Seed, int]) -> tuple[list[DealResult], float]:
    assert _WORKER_GAME is not None
    return _play_chunk(_WORKER_GAME, *chunk)


class StatsFailed(RuntimeError):
    """The processes playing the deals stopped (killed, or out of memory)."""


def run_deals(
    game: Game, first_seed: Seed, count: int, jobs: int = 1
) -> Generator[list[DealResult], None, None]:
    """The results of ``count`` deals, in batches in seed order, as they are played.

    Memory does not depend on ``count``: only a few chunks are handed to the processes ahead
    of the one awaited. Closing the iterator, or an interrupt (KeyboardInterrupt) while it
    waits, stops the processes at once (the chunks under way are not reported).
    """
    jobs = max(1, min(jobs, os.cpu_count() or 1, count))
    if jobs == 1 or game.path is None:
        sizer = _Sizer()
        done = 0
        while done < count:
            size = min(sizer.size, count - done)
            batch, seconds = _play_chunk(game, seed_after(first_seed, done), size)
            sizer.learn(len(batch), seconds)
            done += size
            yield batch
        return
    yield from _run_parallel(str(game.path), first_seed, count, jobs)


def _run_parallel(path: str, first_seed: Seed, count: int, jobs: int) -> Iterator[list[DealResult]]:
    sizer = _Sizer()
    handed = 0  # deals handed out so far
    ahead = 2 * jobs  # chunks handed out beyond the one awaited: every process kept busy
    order: deque[int] = deque()  # the tickets of the chunks under way, in seed order
    early: dict[int, tuple[list[DealResult], float]] = {}  # chunks done before those ahead
    with Workers(jobs, _run_chunk, _init_worker, (path,)) as workers:

        def hand_out() -> None:
            nonlocal handed
            while len(order) < ahead and handed < count:
                size = min(sizer.size, count - handed)
                order.append(workers.send((seed_after(first_seed, handed), size)))
                handed += size

        hand_out()
        while order:
            while order[0] not in early:
                try:
                    ticket, chunk = workers.receive()
                except WorkersFailed as exc:
                    raise StatsFailed(f"the processes playing the deals stopped: {exc}") from None
                early[ticket] = chunk
            batch, seconds = early.pop(order.popleft())
            sizer.learn(len(batch), seconds)
            hand_out()
            yield batch


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

    def add(self, results: Iterable[DealResult]) -> None:
        """Count these results in (memory stays the size of the score table)."""
        for r in results:
            self.deals += 1
            if r.outcome == "won":
                self.wins += 1
            elif r.outcome == "lost":
                self.losses += 1
            else:
                self.unfinished += 1
            self.scores[r.score] += 1

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


def summarise(game: Game, first_seed: Seed, results: Iterable[DealResult] = ()) -> Summary:
    """The figures of these results; ``Summary.add`` counts more as they come."""
    summary = Summary(
        game=game.id,
        first_seed=first_seed,
        deals=0,
        wins=0,
        losses=0,
        unfinished=0,
        score_label=game.spec.score.label,
    )
    summary.add(results)
    return summary
