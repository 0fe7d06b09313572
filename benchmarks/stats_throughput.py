"""How long ``solitaire stats GAME --deals 20`` (random seeds' play by the hint policy, no
solver) takes for every shipped game, in CPU seconds, slowest first.

Issue 31 asks for 20 deals of every game within 10 CPU seconds in the compiled build. The
deals are played in this process, one game after another, as ``stats`` plays them with one
job (``engine.play.stats.play_deal``); a game that passes ``--cap`` seconds is stopped and
shown as '> CAP', with the deals it finished.

Run from the repository root: ``python benchmarks/stats_throughput.py [--deals 20] [--cap 10]
[--only GAME ...] [--no-caps]``. ``solitaire --version`` says which build runs. Each row gives
the CPU seconds a deal and the positions the player examined a deal (``DealResult.examined``).

What made a game slow: the policy looks two actions ahead (every legal action, then every
action after it), so a step costs about the square of the number of legal actions; a game
whose runs of any length move onto any empty pile offers an action per run length and target
(Napoleon's Square: up to 56), and its deals run to the move limit (20 actions per card)
because the policy can wander among positions it has not seen without progress. The player
now caps its look-ahead per choice and its positions per deal (``engine.play.stats``,
``LOOKS_PER_CHOICE`` and ``POSITIONS_PER_DEAL``); ``--no-caps`` measures it without them, as
it played before the caps.
"""

from __future__ import annotations

import argparse
import time

from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.play.stats import LOOKS_PER_CHOICE, POSITIONS_PER_DEAL, play_deal
from yaml_solitaire.rules import shipped_games


def measure(game_id: str, deals: int, cap: float, capped: bool) -> tuple[float, int, int, int]:
    """CPU seconds, deals played, actions played and positions examined (stopping once past
    ``cap`` seconds)."""
    game = load_game(game_id)
    looks = LOOKS_PER_CHOICE if capped else None
    positions = POSITIONS_PER_DEAL if capped else None
    began = time.process_time()
    played = actions = examined = 0
    for seed in range(deals):
        result = play_deal(game, seed, looks=looks, positions=positions)
        actions += result.actions
        examined += result.examined
        played += 1
        if time.process_time() - began > cap:
            break
    return time.process_time() - began, played, actions, examined


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--cap", type=float, default=10.0, help="CPU seconds a game at most")
    parser.add_argument("--only", nargs="*", help="games to measure (default: all shipped)")
    parser.add_argument("--no-caps", action="store_true", help="the player without its caps")
    args = parser.parse_args()
    games = args.only or [g.id for g in shipped_games()]
    rows = []
    for game_id in games:
        seconds, played, actions, examined = measure(
            game_id, args.deals, args.cap, not args.no_caps
        )
        rows.append((seconds / played, game_id, seconds, played, actions, examined))
    rows.sort(reverse=True)
    print(
        f"| game | CPU s for {args.deals} deals | deals done | CPU s a deal "
        "| actions a deal | positions a deal |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for each, game_id, seconds, played, actions, examined in rows:
        shown = f"{seconds:.2f}" if played == args.deals else f"> {args.cap:g}"
        print(
            f"| `{game_id}` | {shown} | {played} | {each:.3f} | {actions / played:.0f} "
            f"| {examined / played:.0f} |"
        )


if __name__ == "__main__":
    main()
