"""The project's solver beside Solvitaire, Blake and Gent's solver, on the same deals and budgets.

For each preset of Solvitaire's written in our rule language (``tests/solvitaire/rules/``) and
each seed asked for, the project deals the deal (``--seed N``) and Solvitaire is given the
same position, converted by ``solvitaire_verdicts.py`` (its ``deal_json``: the module's text
describes the format). Both solve it within the same budget of CPU seconds a deal, one after
the other (never at once). For each preset and solver the script prints the deals decided
(won or proved lost), won, lost and unknown, the CPU seconds used and decided deals per
CPU-second, then the ratio of the two rates (Solvitaire's over the project's, as
``peers.py`` gives fc-solve's). It compares the verdicts deal by deal: a win where the other
proves a loss is a contradiction, listed deal by deal, and the script then exits 1, as it does
when Solvitaire ends a deal without a verdict (it crashed or refused the deal). A difference
that Solvitaire's own code explains (``solvitaire_verdicts.known_difference``: the presets
that set ``only complete pile moves``, Simple Simon among them, whose key Solvitaire's parser
does not read) is listed as a known difference, with its reason, and is no contradiction.

Solvitaire runs with its default search (no streamliners: its "unsolvable" is a proof), its
own timeout set far beyond the budget, and ``RLIMIT_CPU`` at the budget (rounded up to whole
seconds): a run the limit stops is unknown. Its CPU time is measured with
``getrusage(RUSAGE_CHILDREN)`` around each run, so a busy machine does not cut its budget
short. The project's solver runs in this process, a new ``Solver`` a deal, within
``Budget(seconds=...)`` (CPU seconds), measured with ``time.process_time``; its winning lines
are replayed through the engine (a win is checked, not trusted). The per-deal lines give
each solver's positions searched (Solvitaire's "States Searched").

Solvitaire is not packaged: build its ``solvitaire`` program from its source
(https://github.com/thecharlesblake/Solvitaire; C++14 and Boost's program_options) and put it
on PATH or pass ``--solvitaire PATH``; without it the script says so and exits 2.

Run: ``python benchmarks/solvitaire.py PRESET:SEEDS[@SOLVITAIRE_PRESET] ... [--budget 5]``,
e.g. ``canfield:1001-1020 klondike:1001-1020 golf:1001-1020``. With ``--project-only`` the
project's side alone is run (no Solvitaire needed), the same lines and totals: two builds of
the project set beside each other on the same deals.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from peers import LOST, UNKNOWN, WON, Tally, check_win, children_cpu, cpu_limit
from solvitaire_verdicts import (
    INSTALL,
    PRESETS,
    compare,
    deal_json,
    job,
    known_difference,
)

from yaml_solitaire.engine import Game, load_game
from yaml_solitaire.engine.play.solver import Budget, Solver

FAILED = "failed"
ANSWERS = {"solved": WON, "unsolvable": LOST}  # Solvitaire's "Solution Type" -> a verdict


def run_solvitaire(
    program: str, preset: str, deal: dict[str, object], seconds: float
) -> tuple[str, float, int | None]:
    """Solvitaire's verdict on a deal within ``seconds`` of CPU ('won', 'lost', 'unknown', or
    'failed' when it ended without one for another reason than the limit), its CPU seconds,
    and the states it searched (None when it did not say)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.json"
        path.write_text(json.dumps(deal), encoding="utf-8")
        wall = seconds * 20 + 10  # far beyond the CPU limit: the limit decides
        before = children_cpu()
        try:
            done = subprocess.run(
                [program, "--type", preset, "--timeout", str(int(wall * 1000)), str(path)],
                capture_output=True, text=True, timeout=wall + 30, check=False,
                preexec_fn=cpu_limit(seconds),
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return UNKNOWN, children_cpu() - before, None
        used = children_cpu() - before
    states = re.search(r"States Searched: (\d+)", done.stdout)
    searched = int(states.group(1)) if states else None
    found = re.search(r"Solution Type: (\S+)", done.stdout)
    if found is None:  # stopped by the CPU limit (SIGXCPU, or SIGKILL at the hard limit)
        stopped = done.returncode in (-signal.SIGXCPU, -signal.SIGKILL) or used >= seconds
        return (UNKNOWN if stopped else FAILED), used, searched
    return ANSWERS.get(found.group(1), UNKNOWN), used, searched


def own_verdict(game: Game, seed: int, seconds: float) -> tuple[str, float, int]:
    """The project's verdict within ``seconds`` of CPU, its CPU seconds and positions."""
    before = time.process_time()
    start = game.deal_seed(seed)
    found = Solver(game).solve(start, Budget(seconds=seconds), shorten=False)
    used = time.process_time() - before
    check_win(game, start, found, f"seed {seed}")
    return found.result, used, found.nodes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs", nargs="+", type=job, help="PRESET:SEEDS[@SOLVITAIRE_PRESET]")
    parser.add_argument("--budget", type=float, default=5.0, help="CPU seconds a deal, each")
    parser.add_argument("--solvitaire", help="the solvitaire program (default: on PATH)")
    parser.add_argument(
        "--project-only", action="store_true", help="run the project's solver alone"
    )
    args = parser.parse_args(argv)
    if args.budget <= 0:
        parser.error("--budget is a number of seconds above 0")
    # None: the project's side alone.
    program = None if args.project_only else args.solvitaire or shutil.which("solvitaire")
    if program is None and not args.project_only:
        print(INSTALL, file=sys.stderr)
        return 2

    contradictions: list[str] = []
    known: list[str] = []
    failed: list[str] = []
    not_asked: list[str] = []
    summary: list[tuple[str, int, Tally, Tally]] = []
    print(f"budget {args.budget:g} CPU s a deal for each solver")
    print(f"{'deal':34}{'solvitaire':>11}{'CPU s':>7}{'states':>10}"
          f"{'project':>9}{'CPU s':>7}{'positions':>11}")  # fmt: skip
    for preset, seeds, theirs in args.jobs:
        game = load_game(str(PRESETS / f"{preset}.yaml"))
        label = preset + (f"@{theirs}" if theirs != preset else "")
        reason = known_difference(theirs)
        peer, own = Tally("Solvitaire"), Tally("project")
        for seed in seeds:
            name = f"{preset}:{seed}" + (f"@{theirs}" if theirs != preset else "")
            verdict, used, states = "-", 0.0, None
            if program is not None:
                try:
                    deal = deal_json(game, seed)
                except ValueError as problem:  # a layout Solvitaire's format cannot hold
                    not_asked.append(f"{name}: {problem}")
                    continue
                verdict, used, states = run_solvitaire(program, theirs, deal, args.budget)
                peer.verdicts[seed], peer.cpu = verdict, peer.cpu + used
            ours, mine, nodes = own_verdict(game, seed, args.budget)
            own.verdicts[seed], own.cpu = ours, own.cpu + mine
            shown = "-" if states is None else str(states)
            print(f"{name:34}{verdict:>11}{used:7.2f}{shown:>10}"
                  f"{ours:>9}{mine:7.2f}{nodes:>11}", flush=True)  # fmt: skip
            if verdict == FAILED:
                failed.append(name)
            if program is None:
                continue
            found = compare(name, ours, verdict, reason)
            if found is not None:
                (known if found[0] == "known" else contradictions).append(found[1])
        summary.append((label, len(own.verdicts), peer, own))

    print()
    print(f"{'preset':34}{'deals':>6}  {'solver':<11}{'decided':>8}{'won':>5}{'lost':>5}"
          f"{'unknown':>8}{'CPU s':>9}{'decided/CPU-s':>14}")  # fmt: skip
    for label, deals, peer, own in summary:
        tallies = (own,) if program is None else (peer, own)
        for tally in tallies:
            first = tally is tallies[0]
            print(f"{label if first else '':34}{deals if first else '':>6}  "
                  f"{tally.name:<11}{tally.decided:>8}{tally.count(WON):>5}{tally.count(LOST):>5}"
                  f"{tally.count(UNKNOWN) + tally.count(FAILED):>8}{tally.cpu:>9.2f}"
                  f"{tally.rate:>14.2f}")  # fmt: skip
        if program is None:
            continue
        if own.rate > 0 and math.isfinite(own.rate) and math.isfinite(peer.rate):
            ratio = f"{peer.rate / own.rate:.3g}x"
        else:
            ratio = "-"
        print(f"{'':42}Solvitaire's rate / the project's: {ratio}")
    for line in not_asked:
        print(f"not asked: {line}")
    for line in known:
        print(line)
    if failed:  # a check that did not take place is no check
        print(f"Solvitaire gave no verdict (it crashed or refused the deal) on {len(failed)}"
              f" deals: {', '.join(failed)}")  # fmt: skip
    if contradictions:
        print(f"CONTRADICTIONS ({len(contradictions)}):")
        for line in contradictions:
            print("  " + line)
    if contradictions or failed:
        return 1
    if program is None:
        return 0
    aside = f"; {len(known)} known differences" if known else ""
    print(f"verdicts: no contradiction{aside}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
