"""Big Ben speed: random-play games per second and legal-action generation per second.

Random play picks uniformly among the legal actions (seeded, so runs repeat) until the game ends
or reaches a move limit. Run: ``python benchmarks/big_ben.py [--games N]``.
"""

from __future__ import annotations

import argparse
import random
import time

from yaml_solitaire.engine import Game, State, load_game


def random_game(game: Game, seed: int, limit: int) -> tuple[int, int, list[State]]:
    """Plays one game; returns (actions played, legal-action calls, positions seen)."""
    rng = random.Random(seed)
    state = game.deal_seed(seed)
    seen = [state]
    played = 0
    while not game.is_terminal(state) and played < limit:
        actions = game.legal_actions(state)
        state = game.apply(state, actions[rng.randrange(len(actions))])
        seen.append(state)
        played += 1
    return played, played, seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--limit", type=int, default=500, help="move limit per game")
    args = parser.parse_args()
    game = load_game("big-ben")

    start = time.perf_counter()
    actions = 0
    positions: list[State] = []
    for seed in range(args.games):
        played, _, seen = random_game(game, seed, args.limit)
        actions += played
        if len(positions) < 20_000:
            positions += seen
    elapsed = time.perf_counter() - start

    # Generation alone, on positions met in play (the one-entry cache defeated by fresh copies).
    fresh = [State(p.piles, p.phase) for p in positions]
    t0 = time.perf_counter()
    generated = 0
    for state in fresh:
        generated += len(game.legal_actions(state))
    gen_elapsed = time.perf_counter() - t0

    t0 = time.perf_counter()
    for state in fresh:
        hash(State(state.piles, state.phase))
    hash_elapsed = time.perf_counter() - t0

    print(f"random-play games     {args.games} (move limit {args.limit})")
    print(f"games per second      {args.games / elapsed:10,.1f}")
    print(f"actions per second    {actions / elapsed:10,.0f}  (legal_actions + apply)")
    print(
        f"legal-action generation per second {len(fresh) / gen_elapsed:10,.0f} positions "
        f"({generated / len(fresh):.1f} actions each)"
    )
    print(f"state hashes per second {len(fresh) / hash_elapsed:10,.0f}")


if __name__ == "__main__":
    main()
