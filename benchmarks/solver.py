"""Search speed: the engine's solver next to a minimal hand-written Big Ben search.

Both run a depth-first search with a table of visited positions over the same deals, with the
same node budget, foundation moves tried first; the hand-written one knows only Big Ben (cards
as (rank, suit), copies alike), the engine's reads the rule file. The ratio of their nodes per
second, measured in the same run in CPU seconds, is the engine's overhead. A second table gives
the share of deals the engine's solver decides within a budget of CPU seconds, per game.

Run: ``python benchmarks/solver.py [--seeds 5] [--nodes 20000] [--repeat 3]
[--decide GAME:SEEDS:SECONDS ...]``
"""

from __future__ import annotations

import argparse
import random
import time
from statistics import median

from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.core.cards import RANK, SUIT
from yaml_solitaire.engine.play.solver import Budget, Solver

# Big Ben, written out: foundation f (hour f + 1) starts at BASES[f] and stops at the rank of
# its hour; the tableau builds down in suit (wrapping) on piles of three or more cards.
BASES = [(6, 0), (7, 2), (8, 3), (9, 1), (10, 0), (11, 2), (12, 3), (13, 1), (2, 0), (3, 2),
         (4, 3), (5, 1)]  # fmt: skip
STOP = list(range(1, 13))
FILL_ORDER = [11, *range(11)]  # t12 first, then t1 .. t11


def hand_deal(order: list[tuple[int, int]]) -> tuple:
    cards = list(order)
    founds = []
    for base in BASES:
        cards.remove(base)
        founds.append(base[0])
    tableau = [[] for _ in range(12)]
    for k in range(36):
        tableau[FILL_ORDER[k % 12]].append(cards[k])
    stock = cards[36:][::-1]  # the next card in deck order on top
    return tuple(founds), tuple(map(tuple, tableau)), tuple(stock), ()


def hand_moves(state: tuple) -> list[tuple]:
    founds, tableau, stock, waste = state
    out = []
    gaps = any(len(t) < 3 for t in tableau)
    tops = [(i, t[-1]) for i, t in enumerate(tableau) if t]
    if waste:
        tops.append((12, waste[-1]))
    for src, (rank, suit) in tops:
        for f, top in enumerate(founds):
            if top != STOP[f] and BASES[f][1] == suit and rank == top % 13 + 1:
                out.append(("f", src, f))
    for src, (rank, suit) in tops:
        for dst, pile in enumerate(tableau):
            if dst != src and len(pile) >= 3:
                prank, psuit = pile[-1]
                if psuit == suit and rank == (prank - 2) % 13 + 1:
                    out.append(("t", src, dst))
    if gaps and stock:
        out.append(("fill",))
    if not gaps and stock:
        out.append(("draw",))
    return out


def hand_apply(state: tuple, move: tuple) -> tuple:
    founds, tableau, stock, waste = state
    tableau = list(tableau)
    if move[0] == "fill":
        stock = list(stock)
        for _ in range(3):
            for p in FILL_ORDER:
                if len(tableau[p]) < 3 and stock:
                    tableau[p] += (stock.pop(),)
        return founds, tuple(tableau), tuple(stock), waste
    if move[0] == "draw":
        return founds, tuple(tableau), stock[:-1], (*waste, stock[-1])
    kind, src, dst = move
    if src == 12:
        card, waste = waste[-1], waste[:-1]
    else:
        card = tableau[src][-1]
        tableau[src] = tableau[src][:-1]
    if kind == "f":
        founds = (*founds[:dst], card[0], *founds[dst + 1 :])
    else:
        tableau[dst] += (card,)
    return founds, tuple(tableau), stock, waste


def hand_solve(state: tuple, max_nodes: int) -> tuple[str, int]:
    seen = {hash(state)}
    stack = [iter([hand_apply(state, m) for m in hand_moves(state)])]
    nodes = 1
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        key = hash(child)
        if key in seen:
            continue
        seen.add(key)
        nodes += 1
        if nodes > max_nodes:
            return "unknown", nodes
        if all(top == STOP[f] for f, top in enumerate(child[0])):
            return "won", nodes
        moves = hand_moves(child)
        if moves:
            stack.append(iter([hand_apply(child, m) for m in moves]))
    return "lost", nodes


def speed(seeds: list[int], nodes: int, repeat: int) -> None:
    game = load_game("big-ben")
    engine_rate = hand_rate = 0.0
    # The best of ``repeat`` rounds, the two searches taking turns in each: on a shared
    # machine one round's rate can be a tenth or more below what the code does.
    for _ in range(repeat):
        solver = Solver(game)
        engine_nodes = hand_nodes = 0
        engine_time = hand_time = 0.0
        for seed in seeds:
            order = game.seed_order(seed)
            t0 = time.process_time()
            found = solver.solve(game.deal(order), Budget(nodes=nodes))
            engine_time += time.process_time() - t0
            engine_nodes += found.nodes
            faces = [(RANK[c], SUIT[c]) for c in order]
            t0 = time.process_time()
            _, count = hand_solve(hand_deal(faces), nodes)
            hand_time += time.process_time() - t0
            hand_nodes += count
        engine_rate = max(engine_rate, engine_nodes / engine_time)
        hand_rate = max(hand_rate, hand_nodes / hand_time)
    print(
        f"Big Ben, seeds {seeds[0]}..{seeds[-1]}, at most {nodes:,} nodes each (CPU time, "
        f"the best of {repeat} rounds)"
    )
    print(f"engine solver         {engine_rate:10,.0f} nodes/s")
    print(f"hand-written search   {hand_rate:10,.0f} nodes/s")
    print(f"engine / hand-written {engine_rate / hand_rate:10.2f}")


def decided(game_id: str, seeds: list[int], seconds: float) -> None:
    game = load_game(game_id)
    solver = Solver(game)
    results = []
    for seed in seeds:
        found = solver.solve(game.deal_seed(seed), Budget(seconds=seconds))
        results.append(found)
    counts = {v: sum(1 for r in results if r.result == v) for v in ("won", "lost", "unknown")}
    times = sorted(r.seconds for r in results)
    share = (counts["won"] + counts["lost"]) / len(results)
    print(
        f"{game_id:20} seeds {seeds[0]}..{seeds[-1]}: won {counts['won']}, lost {counts['lost']}, "
        f"unknown {counts['unknown']}; decided {share:.0%} within {seconds:g} s; "
        f"median {median(times):.2f} s, slowest {times[-1]:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5, help="Big Ben deals for the speed test")
    parser.add_argument("--nodes", type=int, default=20_000, help="node budget per deal")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best rate counts")
    parser.add_argument(
        "--decide",
        nargs="*",
        default=["grandfathers-clock:1-50:10", "big-ben:1-10:10"],
        help="GAME:FIRST-LAST:SECONDS, the share of deals decided within SECONDS each",
    )
    args = parser.parse_args()
    random.seed(0)
    speed(list(range(1, args.seeds + 1)), args.nodes, max(1, args.repeat))
    print()
    for item in args.decide:
        game_id, span, seconds = item.rsplit(":", 2)
        first, last = (int(x) for x in span.split("-"))
        decided(game_id, list(range(first, last + 1)), float(seconds))


if __name__ == "__main__":
    main()
