"""The winnability table of docs/winnability.md: one solver run per shipped game, as a table.

Each row is one ``solitaire stats GAME --solve`` run (its command is printed in the row) with a
results file per run in ``--results-dir``: a run that was stopped goes on where it stopped, and
a finished one is only read again, so the table can be printed from runs made earlier.

Run from the repository root: ``python benchmarks/winnability.py [--results-dir DIR] [--only
GAME ...]``; it prints the Markdown table on stdout.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

# (game, deals, first seed, budget flags): the budget is in positions, so that a rerun on
# another machine decides the same deals the same way.
CLOCKS = ("clock", "clock-no-king", "clock-open", "clock-peek", "sundial", "grandfathers-clock")
# Games whose deals take the whole budget more often: fewer deals, the same budget.
QUICK = ("golf", "black-hole", "aces-up", "pyramid")
SLOW = (
    "calculation", "monte-carlo", "accordion", "scorpion", "spider", "spider-1-suit", "klondike",
    "klondike-draw-3", "bakers-dozen", "beleaguered-castle", "yukon", "canfield", "forty-thieves",
)  # fmt: skip
RUNS: list[tuple[str, int, str, tuple[str, ...]]] = [
    *((game, 1000, "1", ("--budget-nodes", "20000")) for game in CLOCKS),
    ("big-ben", 2000, "1", ("--budget-nodes", "5000")),
    ("big-ben", 200, "1", ("--budget-seconds", "10")),
    ("freecell", 1000, "ms:1", ("--budget-seconds", "10")),
    *((game, 100, "1", ("--budget-nodes", "20000")) for game in QUICK),
    *((game, 50, "1", ("--budget-nodes", "20000")) for game in SLOW),
]

# Figures published elsewhere, where one exists, with where they come from.
PUBLISHED = {
    "clock": "exactly 1/13 = 7.69%",
    "freecell": "Microsoft's deals 1..32000: all but one (11982) can be won",
    "klondike-draw-3": "thoughtful: 81.945% ± 0.084% (Blake and Gent, Solvitaire)",
    "black-hole": "86.0% .. 88.6% (Solvitaire's 2018 logs, 2,500 deals)",
    "big-ben": "none published",
}


def run(
    game: str, deals: int, seed: str, budget: tuple[str, ...], folder: Path
) -> dict[str, object]:
    """The summary of one run (made now, or read back from its results file)."""
    label = "-".join([game, str(deals), *(b.lstrip("-") for b in budget)])
    command = [
        "solitaire",
        "stats",
        game,
        "--deals",
        str(deals),
        "--seed",
        seed,
        "--solve",
        *budget,
    ]
    results = folder / f"{label}.jsonl"
    done = subprocess.run(
        [*command, "--json", "--results", str(results)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: {done.stderr.strip()}")
    summary: dict[str, object] = json.loads(done.stdout)
    summary["command"] = " ".join(command)
    return summary


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def duration(seconds: float) -> str:
    if seconds < 0.0001:  # the results file keeps times to a tenth of a millisecond
        return "< 0.1 ms"
    return f"{seconds:.2g} s" if seconds >= 0.1 else f"{1000 * seconds:.2g} ms"


def row(summary: dict[str, object]) -> str:
    def count(kind: str) -> str:
        part = summary[kind]
        assert isinstance(part, dict)
        return f"{part['count']} ({percent(part['share'])})"

    low, high = summary["winnable_bounds"]  # type: ignore[misc]
    ci_low, ci_high = summary["winnable_bounds_ci95"]  # type: ignore[misc]
    times = summary["seconds_per_deal"]
    assert isinstance(times, dict)
    seconds = " / ".join(duration(times[k]) for k in ("median", "p90", "p99"))
    game = str(summary["game"])
    cells = [
        f"`{game}`",
        str(summary["deals"]),
        count("won"),
        count("lost"),
        count("unknown"),
        f"{percent(low)} .. {percent(high)} ({percent(ci_low)} .. {percent(ci_high)})",
        seconds,
        PUBLISHED.get(game, ""),
        f"`{summary['command']}`",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results-dir", type=Path, default=Path("winnability-results"))
    parser.add_argument("--only", nargs="*", help="games to run (default: all)")
    args = parser.parse_args()
    args.results_dir.mkdir(parents=True, exist_ok=True)
    print(
        "| game | deals | won | lost | unknown | winnable: bounds (95% CI) "
        "| time per deal: median / 90% / 99% | published | command |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game, deals, seed, budget in RUNS:
        if args.only and game not in args.only:
            continue
        print(row(run(game, deals, seed, budget, args.results_dir)), flush=True)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
