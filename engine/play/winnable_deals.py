"""Deals that can be won: the first deal from a seed on that the solver proves winnable.

A player asks for a deal they can win (``play GAME --winnable``): deals are searched one
after another, from a given seed on, each within its share of a budget of CPU seconds, and
the first one the solver wins is given with the line that wins it. A deal the budget did not
decide is never called winnable.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..core.seeds import MAX_SEED
from ..game.game import Game
from .solver import Budget, Solution, Solver

BUDGET_SECONDS = 10.0  # CPU seconds for finding one winnable deal, in all
DEAL_SECONDS = 2.0  # CPU seconds for one deal at most


@dataclass
class WinnableSearch:
    """What a search for a winnable deal found: the deal proved winnable (None when the
    budget ran out first), with its winning line, the seeds tried and the CPU seconds used."""

    seed: int | None
    solution: Solution | None
    first: int  # the first seed tried
    tried: int
    seconds: float

    @property
    def proved(self) -> bool:
        return self.seed is not None

    def text(self) -> str:
        """One line for the player: which deal, and how soon it was proved winnable."""
        if self.seed is not None:
            return f"deal {self.seed}: proved winnable in {self.seconds:.1f} s"
        last = self.first + self.tried - 1
        tried = f"deal {self.first}" if self.tried == 1 else f"deals {self.first}..{last}"
        return f"no deal proved winnable within {self.seconds:.1f} s ({tried} tried)"


def random_seed() -> int:
    """A seed chosen at random, as for a new deal of ``play``."""
    return random.SystemRandom().randrange(1_000_000_000)


def find_winnable(
    game: Game,
    first: int,
    seconds: float | None = None,
    deal_seconds: float | None = None,
    solver: Solver | None = None,
) -> WinnableSearch:
    """The first deal from seed ``first`` on that the solver proves winnable, each deal
    searched for at most ``deal_seconds`` and all of them for at most ``seconds`` (CPU;
    by default ``DEAL_SECONDS`` and ``BUDGET_SECONDS``)."""
    seconds = BUDGET_SECONDS if seconds is None else seconds
    deal_seconds = DEAL_SECONDS if deal_seconds is None else deal_seconds
    solver = solver or Solver(game)
    cpu = time.process_time
    began = cpu()
    seed = first
    tried = 0
    while seed < MAX_SEED:
        left = seconds - (cpu() - began)
        if left <= 0:
            break
        tried += 1
        budget = Budget(seconds=min(deal_seconds, left))
        found = solver.solve(game.deal_seed(seed), budget)
        if found.result == "won":
            return WinnableSearch(seed, found, first, tried, cpu() - began)
        seed += 1
    return WinnableSearch(None, None, first, tried, cpu() - began)


def winnable_seed(game: Game, first: int | None, unproved: bool) -> tuple[int | None, str]:
    """For ``play --winnable``: the seed to deal (None: none, as not asked to deal an
    unproved one) and what to tell the player."""
    start = random_seed() if first is None else first
    search = find_winnable(game, start)
    if search.seed is not None:
        return search.seed, search.text()
    if unproved:
        return start, f"{search.text()}; dealing deal {start}, not proved winnable"
    return None, f"{search.text()} (--unproved deals one anyway)"


def finding_times(game: Game, first: int, searches: int) -> list[WinnableSearch]:
    """For ``stats --winnable``: ``searches`` searches for a winnable deal one after another,
    each from the seed after the last one the search before it tried."""
    solver = Solver(game)
    done: list[WinnableSearch] = []
    seed = first
    for _ in range(searches):
        if seed >= MAX_SEED:
            break
        search = find_winnable(game, seed, solver=solver)
        done.append(search)
        seed = search.first + search.tried
    return done
