"""Clock deals per second: through the engine, next to a minimal hand-written loop.

Both sides shuffle the same seeds with ``random.Random(seed).shuffle`` and deal the same way, so
the ratio is the engine's overhead. Run: ``python benchmarks/clock.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from yaml_solitaire.engine import load_game

RANKS = 13


def hand_written(seed: int) -> tuple[bool, int]:
    """Clock with no engine: cards 0..51 (rank = card % 13 + 1), piles 0..11 hours, 12 centre."""
    order = list(range(52))
    random.Random(seed).shuffle(order)
    hidden: list[list[int]] = [[] for _ in range(13)]
    for k, card in enumerate(order):
        hidden[k % 13].append(card)
    placed = 0
    pile = 12
    while hidden[pile]:
        card = hidden[pile].pop()
        placed += 1
        pile = card % RANKS  # A -> 0 (h1) ... Q -> 11 (h12), K -> 12 (centre)
    return placed == 52, placed


def engine_deal(game: object, seed: int) -> tuple[bool, int]:
    from yaml_solitaire.engine import Game

    assert isinstance(game, Game)
    state = game.deal_seed(seed)
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_actions(state)[0])
    return game.outcome(state) == "won", game.score(state)


def measure(play: object, deals: int, repeat: int) -> float:
    assert callable(play)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for seed in range(deals):
            play(seed)
        best = min(best, time.perf_counter() - start)
    return deals / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = load_game("clock")
    # Both must agree before their speeds mean anything.
    for seed in range(500):
        assert hand_written(seed) == engine_deal(game, seed), seed
    hand = measure(hand_written, args.deals, args.repeat)
    eng = measure(lambda s: engine_deal(game, s), args.deals, args.repeat)
    print(f"deals per run         {args.deals} (best of {args.repeat})")
    print(f"hand-written loop     {hand:10,.0f} deals/s")
    print(f"engine                {eng:10,.0f} deals/s")
    print(f"engine / hand-written {eng / hand:10.1%}")


if __name__ == "__main__":
    main()
