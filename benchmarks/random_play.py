"""Klondike and FreeCell random play: the engine next to minimal hand-written players.

Each game is played for the same seeds by the engine (``games/klondike.yaml``, draw one,
unlimited redeals; ``games/freecell.yaml``) and by a hand-written player of the same rules in
this file (plain lists and tuples, no engine import). Random play lists the legal actions,
picks one uniformly with ``random.Random(seed)`` and plays it, until the game is won, lost (no
legal action) or reaches the move limit. Both players deal ``random.Random(seed).shuffle`` of
the cards in the engine's canonical order and list the legal actions in the engine's order, so
they play the very same games: the action counts agree, and the ratio is the engine's overhead.

Counts: an action is one player action (a move, a take-back, a draw or a redeal). Klondike's
automatic ``reveal`` (a face-down card that a move uncovers turns up) is part of the move on
both sides and is not counted. The hand-written players change their lists in place; the engine
builds a new immutable position for every action.

Run: ``python benchmarks/random_play.py [--games N] [--limit N]``; ``--check`` plays a few
games step by step against the engine (same legal actions, same positions, every card kept).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

# A card is suit * 13 + rank - 1 with suits C D H S, as in the engine; piles are listed in the
# rule files' order, so a hand-written action (kind, source, target, count) names the same
# piles as the engine's Action(name, src, dst, n).
RANK = [c % 13 + 1 for c in range(52)]
RED = [c // 13 in (1, 2) for c in range(52)]
MOVE, BACK, DRAW, REDEAL = 0, 1, 2, 3
KINDS = {"move": MOVE, "back": BACK, "draw": DRAW, "redeal": REDEAL}

Piles = list[list[int]]
Act = tuple[int, int, int, int]


def builds(card: int, onto: int) -> bool:
    """Whether ``card`` goes on ``onto`` in a tableau: one rank lower, the other colour."""
    return RANK[card] + 1 == RANK[onto] and RED[card] != RED[onto]


def homes(card: int, foundation: list[int]) -> bool:
    """Whether a foundation takes ``card``: an Ace when empty, else the next card of its suit."""
    if not foundation:
        return RANK[card] == 1
    top = foundation[-1]
    return card == top + 1 and RANK[card] != 1


def run_length(pile: list[int], face_up: int) -> int:
    """How many cards from the top of a tableau pile make a run (of its face-up cards)."""
    count = 1
    card = pile[-1]
    while count < face_up:
        below = pile[-count - 1]
        if RANK[card] + 1 != RANK[below] or RED[card] == RED[below]:
            break
        card = below
        count += 1
    return count


# --- Klondike: f1..f4 = 0..3, t1..t7 = 4..10, stock 11, waste 12 -----------------------------

K_FOUND = range(4)
K_TABLEAU = range(4, 11)
STOCK, WASTE = 11, 12


def klondike_deal(seed: int) -> tuple[Piles, list[int]]:
    """The piles and, for each pile, how many of its bottom cards lie face down."""
    order = list(range(52))
    random.Random(seed).shuffle(order)
    piles: Piles = [[] for _ in range(13)]
    k = 0
    for row in range(7):
        for t in range(4 + row, 11):
            piles[t].append(order[k])
            k += 1
    piles[STOCK] = order[k:][::-1]  # the 29th card of the order on top
    down = [len(p) - 1 if 4 <= i < 11 else 0 for i, p in enumerate(piles)]
    return piles, down


def klondike_actions(piles: Piles, down: list[int]) -> list[Act]:
    out: list[Act] = []
    for src in (*K_TABLEAU, WASTE):  # move: tableau, waste -> foundations, tableau
        pile = piles[src]
        if not pile:
            continue
        most = 1 if src == WASTE else run_length(pile, len(pile) - down[src])
        card = pile[-1]
        for dst in K_FOUND:
            if homes(card, piles[dst]):
                out.append((MOVE, src, dst, 1))
        for dst in K_TABLEAU:
            if dst == src:
                continue
            target = piles[dst]
            # The run's cards fall one rank a card, so only one count can fit: the one that
            # brings a card one rank below the target's top (or a King, to an empty pile).
            k = (RANK[target[-1]] if target else 14) - RANK[card]
            if 1 <= k <= most and (not target or RED[pile[-k]] != RED[target[-1]]):
                out.append((MOVE, src, dst, k))
    for src in K_FOUND:  # back: a foundation's top card onto the tableau
        if piles[src]:
            card = piles[src][-1]
            for dst in K_TABLEAU:
                target = piles[dst]
                if builds(card, target[-1]) if target else RANK[card] == 13:
                    out.append((BACK, src, dst, 0))
    if piles[STOCK]:
        out.append((DRAW, -1, -1, 0))
    elif piles[WASTE]:
        out.append((REDEAL, -1, -1, 0))
    return out


def klondike_apply(piles: Piles, down: list[int], act: Act) -> None:
    kind, src, dst, n = act
    if kind == MOVE:
        pile = piles[src]
        piles[dst] += pile[-n:]
        del pile[-n:]
        if down[src] and len(pile) == down[src]:
            down[src] -= 1  # reveal: the uncovered card turns face up
    elif kind == BACK:
        piles[dst].append(piles[src].pop())
    elif kind == DRAW:
        piles[WASTE].append(piles[STOCK].pop())
    else:
        piles[STOCK] = piles[WASTE][::-1]
        piles[WASTE] = []


def klondike_won(piles: Piles) -> bool:
    return sum(len(piles[f]) for f in K_FOUND) == 52


def hand_klondike(seed: int, limit: int) -> tuple[int, bool]:
    """Plays one game; returns (actions played, won)."""
    rng = random.Random(seed)
    piles, down = klondike_deal(seed)
    played = 0
    while played < limit and not klondike_won(piles):
        actions = klondike_actions(piles, down)
        if not actions:
            break
        klondike_apply(piles, down, actions[rng.randrange(len(actions))])
        played += 1
    return played, klondike_won(piles)


# --- FreeCell: f1..f4 = 0..3, c1..c4 = 4..7, t1..t8 = 8..15 ----------------------------------

F_FOUND = range(4)
F_CELLS = range(4, 8)
F_TABLEAU = range(8, 16)


def freecell_deal(seed: int) -> Piles:
    order = list(range(52))
    random.Random(seed).shuffle(order)
    piles: Piles = [[] for _ in range(16)]
    for k, card in enumerate(order):
        piles[8 + k % 8].append(card)
    return piles


def freecell_actions(piles: Piles) -> list[Act]:
    out: list[Act] = []
    free = sum(1 for c in F_CELLS if not piles[c]) + 1
    spaces = sum(1 for t in F_TABLEAU if not piles[t])
    for src in (*F_TABLEAU, *F_CELLS):  # tableau, cells -> foundations, cells, tableau
        pile = piles[src]
        if not pile:
            continue
        most = run_length(pile, len(pile)) if src >= 8 else 1
        card = pile[-1]
        for dst in F_FOUND:
            if homes(card, piles[dst]):
                out.append((MOVE, src, dst, 1))
        for dst in F_CELLS:
            if not piles[dst]:
                out.append((MOVE, src, dst, 1))
        for dst in F_TABLEAU:
            if dst == src:
                continue
            target = piles[dst]
            if target:  # (free cells + 1) x 2 ^ (empty piles); one count can fit, as above
                k = RANK[target[-1]] - RANK[card]
                if 1 <= k <= most and k <= free << spaces and RED[pile[-k]] != RED[target[-1]]:
                    out.append((MOVE, src, dst, k))
            else:  # the empty target is not counted
                top = min(most, free << (spaces - 1))
                out.extend((MOVE, src, dst, k) for k in range(1, top + 1))
    return out


def freecell_apply(piles: Piles, act: Act) -> None:
    _, src, dst, n = act
    pile = piles[src]
    piles[dst] += pile[-n:]
    del pile[-n:]


def freecell_won(piles: Piles) -> bool:
    return sum(len(piles[f]) for f in F_FOUND) == 52


def hand_freecell(seed: int, limit: int) -> tuple[int, bool]:
    """Plays one game; returns (actions played, won)."""
    rng = random.Random(seed)
    piles = freecell_deal(seed)
    played = 0
    while played < limit and not freecell_won(piles):
        actions = freecell_actions(piles)
        if not actions:
            break
        freecell_apply(piles, actions[rng.randrange(len(actions))])
        played += 1
    return played, freecell_won(piles)


# --- the engine -------------------------------------------------------------------------------


def engine_game(game: Any, seed: int, limit: int) -> tuple[int, bool]:
    """Plays one game through the engine's public API; returns (actions played, won)."""
    rng = random.Random(seed)
    state = game.deal_seed(seed)
    played = 0
    while not game.is_terminal(state) and played < limit:
        actions = game.legal_actions(state)
        state = game.apply(state, actions[rng.randrange(len(actions))])
        played += 1
    return played, game.outcome(state) == "won"


# --- the self-check -----------------------------------------------------------------------------


def check(games: int, limit: int) -> None:
    """Step by step against the engine: same position, same legal actions, no card lost."""
    from yaml_solitaire.engine import load_game

    down_bit = 1 << 10
    klondike, freecell = load_game("klondike"), load_game("freecell")
    steps = 0
    for seed in range(games):
        piles, down = klondike_deal(seed)
        state = klondike.deal_seed(seed)
        rng = random.Random(seed)
        for _ in range(limit):
            assert sorted(c for p in piles for c in p) == list(range(52)), seed
            shown = [
                tuple(c | down_bit if k < down[i] or i == STOCK else c for k, c in enumerate(p))
                for i, p in enumerate(piles)
            ]
            assert tuple(shown) == state.piles, (seed, shown, state.piles)
            mine = klondike_actions(piles, down)
            theirs = [(KINDS[a.name], a.src, a.dst, a.n) for a in klondike.legal_actions(state)]
            assert mine == theirs, (seed, mine, theirs)
            if klondike.is_terminal(state):
                assert klondike_won(piles) == (klondike.outcome(state) == "won"), seed
                break
            pick = rng.randrange(len(mine))
            klondike_apply(piles, down, mine[pick])
            state = klondike.apply(state, klondike.legal_actions(state)[pick])
            steps += 1
        fpiles = freecell_deal(seed)
        state = freecell.deal_seed(seed)
        rng = random.Random(seed)
        for _ in range(limit):
            assert sorted(c for p in fpiles for c in p) == list(range(52)), seed
            assert tuple(map(tuple, fpiles)) == state.piles, seed
            fmine = freecell_actions(fpiles)
            theirs = [(KINDS[a.name], a.src, a.dst, a.n) for a in freecell.legal_actions(state)]
            assert fmine == theirs, (seed, fmine, theirs)
            if freecell.is_terminal(state):
                assert freecell_won(fpiles) == (freecell.outcome(state) == "won"), seed
                break
            pick = rng.randrange(len(fmine))
            freecell_apply(fpiles, fmine[pick])
            state = freecell.apply(state, freecell.legal_actions(state)[pick])
            steps += 1
        assert hand_klondike(seed, limit) == engine_game(klondike, seed, limit), seed
        assert hand_freecell(seed, limit) == engine_game(freecell, seed, limit), seed
    print(f"check: {games} games of each, {steps:,} steps: same positions and legal actions")


# --- timing ------------------------------------------------------------------------------------

Player = Callable[[int, int], tuple[int, bool]]


def measure(players: list[Player], games: int, limit: int) -> list[tuple[float, int, int]]:
    """(seconds, actions, wins) of each player over the same seeds, taken in turns in blocks of
    ten games, so that a change in the machine's load falls on every player alike."""
    totals = [[0.0, 0, 0] for _ in players]
    for first in range(0, games, 10):
        seeds = range(first, min(first + 10, games))
        for play, total in zip(players, totals, strict=True):
            actions = wins = 0
            start = time.process_time()
            for seed in seeds:
                played, won = play(seed, limit)
                actions += played
                wins += won
            total[0] += time.process_time() - start
            total[1] += actions
            total[2] += wins
    return [(t, int(a), int(w)) for t, a, w in totals]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games of each (default 100)")
    parser.add_argument("--limit", type=int, default=500, help="move limit per game")
    parser.add_argument("--check", action="store_true", help="check the hand-written players")
    args = parser.parse_args()
    if args.check:
        check(min(args.games, 20), args.limit)
        return
    from yaml_solitaire.engine import load_game

    print(
        f"random-play games     {args.games} of each (move limit {args.limit}), same seeds,"
        " CPU time"
    )
    hands: dict[str, Player] = {"klondike": hand_klondike, "freecell": hand_freecell}
    for name, hand in hands.items():
        game = load_game(name)
        (e_time, e_actions, e_wins), (h_time, h_actions, h_wins) = measure(
            [partial(engine_game, game), hand], args.games, args.limit
        )
        same = "same games" if (e_actions, e_wins) == (h_actions, h_wins) else "GAMES DIFFER"
        print(f"{game.name}: {e_actions:,} actions, {e_wins} won ({same})")
        print(
            f"  engine         {args.games / e_time:10,.1f} games/s {e_actions / e_time:12,.0f}"
            " actions/s"
        )
        print(
            f"  hand-written   {args.games / h_time:10,.1f} games/s {h_actions / h_time:12,.0f}"
            " actions/s"
        )
        print(f"  engine / hand-written {h_time / e_time:8.1%}")


if __name__ == "__main__":
    main()
