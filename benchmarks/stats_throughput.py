"""How long ``solitaire stats GAME --deals 20`` (random seeds' play by the hint policy, no
solver) takes for every shipped game, in CPU seconds, slowest first.

Issue 31 asks for 20 deals of every game within 10 CPU seconds in the compiled build. The
deals are played in this process, one game after another, as ``stats`` plays them with one
job (``engine.play.stats.play_deal``); a game that passes ``--cap`` seconds is stopped and
shown as '> CAP', with the deals it finished. The last line names the games above
``--target`` CPU seconds for the deals asked (10 by default).

Run from the repository root: ``python benchmarks/stats_throughput.py [--deals 20] [--cap 10]
[--target 10] [--only GAME ...] [--no-caps]``. ``solitaire --version`` says which build runs.
Each row gives the deals won (the policy's quality: a change of speed must leave it alone),
the CPU seconds a deal, the actions played a deal and the positions the player examined a deal
(``DealResult.examined``). The deals, wins, actions and positions depend only on the seeds:
the same on every machine and under any load, so that two runs (before and after a change)
compare the player's choices as well as its speed.

What a deal costs: the policy looks two actions ahead (every legal action, then every action
after it), so a choice costs about the square of the number of legal actions; a game whose
runs of any length move onto any empty pile offers an action per run length and target
(Napoleon's Square: up to 56), and its deals run to the move limit (20 actions per card)
because the policy can wander among positions it has not seen without progress. The player
caps its look-ahead per choice and its positions per deal (``engine.play.stats``,
``LOOKS_PER_CHOICE`` and ``POSITIONS_PER_DEAL``; ``--no-caps`` measures it without them), so
the slowest games are those that reach the cap of positions a deal, and what matters is the
cost of one position. ``hints.choose`` makes the positions of its second step with the
search's ``Game.successor``, which leaves out the 'auto' transitions that ask for the legal
actions (a loss when there is none) where they cannot make a win: listing every such
position's actions was most of its cost. The first step's positions come with their actions
(``Game.expand``), listed once; face-down cards are counted only in the piles a move changed
(``cards.face_down_change``); moves with a ``reach`` look only at the piles they reach
(Accordion asked every pair of its 52 piles); and the look-ahead (``play.hints``) and the
removal effects (``remove_runs``, run after every action in Spider) are compiled.
docs/performance.md has the figures before and after.
"""

from __future__ import annotations

import argparse
import time

from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.play.stats import LOOKS_PER_CHOICE, POSITIONS_PER_DEAL, play_deal
from yaml_solitaire.rules import shipped_games


def measure(game_id: str, deals: int, cap: float, capped: bool) -> tuple[float, int, int, int, int]:
    """CPU seconds, deals played, deals won, actions played and positions examined (stopping
    once past ``cap`` seconds)."""
    game = load_game(game_id)
    looks = LOOKS_PER_CHOICE if capped else None
    positions = POSITIONS_PER_DEAL if capped else None
    began = time.process_time()
    played = won = actions = examined = 0
    for seed in range(deals):
        result = play_deal(game, seed, looks=looks, positions=positions)
        actions += result.actions
        examined += result.examined
        played += 1
        won += result.outcome == "won"
        if time.process_time() - began > cap:
            break
    return time.process_time() - began, played, won, actions, examined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--cap", type=float, default=10.0, help="CPU seconds a game at most")
    parser.add_argument("--only", nargs="*", help="games to measure (default: all shipped)")
    parser.add_argument("--no-caps", action="store_true", help="the player without its caps")
    parser.add_argument(
        "--target", type=float, default=10.0, help="CPU seconds the deals should take at most"
    )
    args = parser.parse_args()
    games = args.only or [g.id for g in shipped_games()]
    rows = []
    for game_id in games:
        seconds, played, won, actions, examined = measure(
            game_id, args.deals, args.cap, not args.no_caps
        )
        rows.append((seconds / played, game_id, seconds, played, won, actions, examined))
    rows.sort(reverse=True)
    print(
        f"| game | CPU s for {args.deals} deals | deals done | won | CPU s a deal "
        "| actions a deal | positions a deal |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for each, game_id, seconds, played, won, actions, examined in rows:
        shown = f"{seconds:.2f}" if played == args.deals else f"> {args.cap:g}"
        print(
            f"| `{game_id}` | {shown} | {played} | {won} | {each:.3f} | {actions / played:.0f} "
            f"| {examined / played:.0f} |"
        )
    over = [g for _, g, seconds, played, *_ in rows if played < args.deals or seconds > args.target]
    print(
        f"\nAbove {args.target:g} CPU s for {args.deals} deals: "
        + (", ".join(f"`{g}`" for g in over) if over else "none")
    )


if __name__ == "__main__":
    main()
