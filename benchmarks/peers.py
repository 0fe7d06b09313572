"""The project's solver beside fc-solve, a FreeCell solver no one here wrote, on the same deals.

Both solve the same Microsoft FreeCell deals in one run, each deal within a budget of
seconds, and for each solver the script prints the deals decided (won or proved lost), won and
lost, the CPU seconds used, and decided deals per CPU-second; then the ratio of the two rates.
It compares the verdicts deal by deal: a win where the other proves a loss is a contradiction,
reported deal by deal, and the script then exits 1.

fc-solve finds wins with a fast preset (``--preset``, default cookie-monster, a meta-moves
scan). Its "I could not solve this game" proves a loss only after a scan of atomic moves that
ran to its end, so a deal it does not win is given a second scan (``--proof-preset``, default
toons-for-twenty-somethings, an atomic-moves preset) with ``-sel`` (an iteration limit reached
is then said as such) and no iteration limit; only that scan's "could not solve" counts as lost.
fc-solve's CPU time is measured with ``getrusage(RUSAGE_CHILDREN)`` around its runs and bounded
by ``RLIMIT_CPU``; the project's solver runs in this process, measured with
``time.process_time``, within its own budget of CPU seconds (``Budget(seconds=...)``). Each
deal is dealt by the project (``--seed ms:N``) and written out for fc-solve; where
``make-microsoft-freecell-board`` is installed, its deal is checked to be the same.

Install the peer (Debian, Ubuntu): ``apt-get install freecell-solver-bin``; without fc-solve the
script says so and exits 2.

Run: ``python benchmarks/peers.py [--deals 1-200,11982] [--budget 10] [--preset NAME]``
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from yaml_solitaire.engine import Game, State, load_game
from yaml_solitaire.engine.core.cards import RANK, SUIT
from yaml_solitaire.engine.core.seeds import MS_LAST
from yaml_solitaire.engine.play.solver import Budget, Solution, Solver

INSTALL = "fc-solve is not installed: apt-get install freecell-solver-bin (Debian, Ubuntu)"
RANKS = "A23456789TJQK"
SUITS = "CDHS"
WON, LOST, UNKNOWN = "won", "lost", "unknown"


def deal_numbers(text: str) -> list[int]:
    """'1-200,11982' -> [1, 2, ..., 200, 11982]: numbers and ranges, separated by commas."""
    numbers: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not a deal or a range of deals: {part.strip()[:30]!r} (e.g. 1-200,11982)"
            ) from None
        if not 1 <= low <= high <= MS_LAST:
            raise argparse.ArgumentTypeError(
                f"deals go from 1 to {MS_LAST}, a range from low to high: {part.strip()[:30]!r}"
            )
        numbers += [n for n in range(low, high + 1) if n not in numbers]
    return numbers


@dataclass
class Tally:
    name: str
    verdicts: dict[int, str] = field(default_factory=dict)
    cpu: float = 0.0

    def count(self, verdict: str) -> int:
        return sum(1 for v in self.verdicts.values() if v == verdict)

    @property
    def decided(self) -> int:
        return self.count(WON) + self.count(LOST)

    @property
    def rate(self) -> float:
        return self.decided / self.cpu if self.cpu > 0 else math.inf


def board_text(game: Game, number: int) -> str:
    """Deal ``ms:number`` as the project deals it, in fc-solve's board format (one line a
    column, bottom card first: 'JD KD 2S ...')."""
    state = game.deal_seed(f"ms:{number}")
    rows = []
    for k in range(1, 9):
        pile = state.piles[game.layout.index[f"t{k}"]]
        rows.append(" ".join(RANKS[RANK[c] - 1] + SUITS[SUIT[c]] for c in pile))
    return "\n".join(rows) + "\n"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_limit(seconds: float) -> Callable[[], None]:
    whole = max(1, math.ceil(seconds))

    def limit() -> None:  # in the child, before fc-solve starts
        resource.setrlimit(resource.RLIMIT_CPU, (whole, whole + 1))

    return limit


def run_fc_solve(fc_solve: str, board: str, preset: str, seconds: float) -> tuple[str, float]:
    """One scan of fc-solve: 'won', 'lost' (it ran out of positions), or 'unknown' (an
    iteration limit, the CPU limit, or an answer not understood); and its CPU seconds."""
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    before = children_cpu()
    done = subprocess.run(
        [fc_solve, "-l", preset, "-sel", "-"],
        input=board,
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=cpu_limit(seconds),
        check=False,
    )
    used = children_cpu() - before
    if done.returncode != 0:
        return UNKNOWN, used
    if "This game is solveable." in done.stdout:
        return WON, used
    if "I could not solve this game." in done.stdout:
        return LOST, used
    return UNKNOWN, used  # "Iterations count exceeded." and anything else


def peer_verdict(
    fc_solve: str, board: str, preset: str, proof: str, seconds: float
) -> tuple[str, float]:
    verdict, used = run_fc_solve(fc_solve, board, preset, seconds)
    if verdict == WON or used >= seconds:
        return (verdict if verdict == WON else UNKNOWN), used
    # Not won by the fast scan, whose 'could not solve' proves nothing: a complete scan.
    again, more = run_fc_solve(fc_solve, board, proof, seconds - used)
    return again, used + more


def check_win(game: Game, start: State, found: Solution, deal: str) -> None:
    """A win is a line that plays to a win: checked, not trusted."""
    if found.result != WON:
        return
    state = start
    for _, action in found.line:
        state = game.apply(state, action)
    if game.outcome(state) != WON:
        raise SystemExit(f"{deal}: the solver's winning line does not win")


def own_verdict(game: Game, number: int, seconds: float) -> tuple[str, float]:
    before = time.process_time()
    start = game.deal_seed(f"ms:{number}")
    found = Solver(game).solve(start, Budget(seconds=seconds))
    used = time.process_time() - before
    check_win(game, start, found, f"ms:{number}")
    return found.result, used


def peer_board(number: int) -> str | None:
    """Deal ``number`` as ``make-microsoft-freecell-board`` deals it, None when not installed."""
    maker = shutil.which("make-microsoft-freecell-board")
    if maker is None:
        return None
    done = subprocess.run([maker, "-t", str(number)], capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deals",
        type=deal_numbers,
        default=deal_numbers("1-200"),
        help="Microsoft deal numbers, e.g. 1-200,11982 (default 1-200)",
    )
    parser.add_argument("--budget", type=float, default=10.0, help="CPU seconds a deal")
    parser.add_argument("--preset", default="cookie-monster", help="fc-solve's fast preset")
    parser.add_argument(
        "--proof-preset",
        default="toons-for-twenty-somethings",
        help="fc-solve's atomic-moves preset that proves losses",
    )
    parser.add_argument("--fc-solve", default=shutil.which("fc-solve"), help="fc-solve's path")
    args = parser.parse_args(argv)
    if args.budget <= 0:
        parser.error("--budget is a number of seconds above 0")
    if not args.fc_solve or not os.access(args.fc_solve, os.X_OK):
        print(INSTALL, file=sys.stderr)
        return 2

    game = load_game("freecell")
    peer, own = Tally("fc-solve"), Tally("project")
    contradictions: list[str] = []
    for number in args.deals:
        board = board_text(game, number)
        theirs = peer_board(number)
        if theirs is not None and theirs.split() != board.split():
            contradictions.append(f"ms:{number}: make-microsoft-freecell-board deals otherwise")
        verdict, used = peer_verdict(
            args.fc_solve, board, args.preset, args.proof_preset, args.budget
        )
        peer.verdicts[number], peer.cpu = verdict, peer.cpu + used
        verdict, used = own_verdict(game, number, args.budget)
        own.verdicts[number], own.cpu = verdict, own.cpu + used
        pair = {peer.verdicts[number], own.verdicts[number]}
        if pair == {WON, LOST}:
            contradictions.append(
                f"ms:{number}: fc-solve says {peer.verdicts[number]}, "
                f"the project says {own.verdicts[number]}"
            )

    deals = args.deals
    shown = f"{deals[0]}..{deals[-1]}" if deals == list(range(deals[0], deals[-1] + 1)) else ""
    print(
        f"FreeCell, {len(deals)} Microsoft deals {shown or 'as listed'}, "
        f"budget {args.budget:g} s a deal (fc-solve: -l {args.preset}, then -l {args.proof_preset})"
    )
    print(f"{'solver':<10}{'decided':>8}{'won':>6}{'lost':>6}{'unknown':>8}"
          f"{'CPU s':>10}{'decided/CPU-s':>15}")  # fmt: skip
    for tally in (peer, own):
        print(
            f"{tally.name:<10}{tally.decided:>8}{tally.count(WON):>6}{tally.count(LOST):>6}"
            f"{tally.count(UNKNOWN):>8}{tally.cpu:>10.2f}{tally.rate:>15.2f}"
        )
    if own.rate > 0 and math.isfinite(peer.rate) and math.isfinite(own.rate):
        print(f"ratio: fc-solve decides {peer.rate / own.rate:.1f}x as many deals per CPU-second")
    both = sum(1 for n in deals if peer.verdicts[n] != UNKNOWN and own.verdicts[n] != UNKNOWN)
    if contradictions:
        print(f"CONTRADICTIONS ({len(contradictions)}):")
        for line in contradictions:
            print("  " + line)
        return 1
    print(f"verdicts: no contradiction ({both} deals decided by both)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
