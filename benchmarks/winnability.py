"""The winnability tables of docs/winnability.md: one solver run per rule file, as a table.

Each row is one ``solitaire stats GAME --solve`` run (its command is printed in the row) with a
results file per run in ``--results-dir``: a run that was stopped goes on where it stopped, and
a finished one is only read again, so the table can be printed from runs made earlier.

Run from the repository root: ``python benchmarks/winnability.py [--presets] [--results-dir DIR]
[--only GAME ...] [--cluster ADDRESS] [--deals N]``; it prints the Markdown table on stdout: the
shipped games, or with ``--presets`` the 75 Solvitaire presets of ``tests/solvitaire/rules/``.
``--cluster ADDRESS`` solves the deals on a Ray cluster (``local``, ``HOST:PORT``); the budgets
are in positions, so the rows are the same wherever they were solved. ``--deals N`` changes the
number of deals of every row (a results file per number of deals).
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
# The games added with issue 31: twenty deals each within a small budget in positions, enough
# to set them beside one another and beside the Solvitaire presets' rows.
ADDED = (
    "bakers-game", "eight-off", "seahaven-towers", "fore-cell", "streets-and-alleys",
    "stronghold", "siegecraft", "spanish-patience", "spanish-patience-pysolfc", "bisley", "fan",
    "alpha-star", "delta-star", "westcliff", "double-klondike", "trigon", "thirty-six", "gypsy",
    "easthaven", "miss-milligan", "king-albert", "raglan", "northwest-territory",
    "flower-garden", "somerset", "american-canister", "british-canister", "wasp", "spiderette",
    "will-o-the-wisp", "mrs-mop", "russian-solitaire", "worm-hole", "napoleons-square",
    "alternation", "fortunes-favor", "carpet",
    # the games of the vocabulary added later in the same issue (redeals, base ranks, covering)
    "gaps", "royal-cotillion", "tri-peaks", "penguin", "la-belle-lucie", "cruel", "montana",
    "simple-simon", "labyrinth", "osmosis",
)  # fmt: skip
RUNS: list[tuple[str, int, str, tuple[str, ...]]] = [
    *((game, 1000, "1", ("--budget-nodes", "20000")) for game in CLOCKS),
    ("big-ben", 2000, "1", ("--budget-nodes", "5000")),
    ("big-ben", 200, "1", ("--budget-seconds", "10")),
    ("freecell", 1000, "ms:1", ("--budget-seconds", "10")),
    *((game, 100, "1", ("--budget-nodes", "20000")) for game in QUICK),
    *((game, 50, "1", ("--budget-nodes", "20000")) for game in SLOW),
    *((game, 20, "1", ("--budget-nodes", "5000")) for game in ADDED),
]

# The Solvitaire presets (tests/solvitaire/): a few deals each within a small budget, enough to
# tell the games apart; a cluster makes more (--deals N --cluster ADDRESS).
PRESET_DIR = Path(__file__).resolve().parent.parent / "tests" / "solvitaire" / "rules"
PRESET_DEALS = 10
PRESET_BUDGET = ("--budget-nodes", "2000")

# Figures published elsewhere, where one exists, with where they come from.
PUBLISHED = {
    "clock": "exactly 1/13 = 7.69%",
    "freecell": "Microsoft's deals 1..32000: all but one (11982) can be won",
    "klondike-draw-3": "thoughtful: 81.945% ± 0.084% (Blake and Gent, Solvitaire)",
    "black-hole": "86.0% .. 88.6% (Solvitaire's 2018 logs, 2,500 deals)",
    "big-ben": "none published",
}


# Published figures for the presets, by preset name: Blake and Gent, "The Winnability of
# Klondike Solitaire and Many Other Patience Games" (arXiv:1906.12314), for the thoughtful game.
PUBLISHED_PRESETS = {
    "klondike": "81.945% ± 0.084% (Blake and Gent)",
    "black-hole": PUBLISHED["black-hole"],
}


def run(
    game: str,
    deals: int,
    seed: str,
    budget: tuple[str, ...],
    folder: Path,
    cluster: str | None = None,
) -> dict[str, object]:
    """The summary of one run (made now, or read back from its results file)."""
    name = Path(game).stem if game.endswith(".yaml") else game
    label = "-".join([name, str(deals), *(b.lstrip("-") for b in budget)])
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
    spread = ["--cluster", cluster] if cluster else []
    done = subprocess.run(
        [*command, *spread, "--json", "--results", str(results)],
        capture_output=True,
        text=True,
        check=False,
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


def row(summary: dict[str, object], published: dict[str, str] = PUBLISHED) -> str:
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
        published.get(game.removeprefix("sv-"), ""),
        f"`{summary['command']}`",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results-dir", type=Path, default=Path("winnability-results"))
    parser.add_argument("--only", nargs="*", help="games (or presets) to run (default: all)")
    parser.add_argument("--presets", action="store_true", help="the Solvitaire presets' table")
    parser.add_argument("--cluster", metavar="ADDRESS", help="solve on this Ray cluster")
    parser.add_argument("--deals", type=int, help="deals of every row (default: the table's)")
    args = parser.parse_args()
    args.results_dir.mkdir(parents=True, exist_ok=True)
    print(
        "| game | deals | won | lost | unknown | winnable: bounds (95% CI) "
        "| time per deal: median / 90% / 99% | published | command |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    published = PUBLISHED_PRESETS if args.presets else PUBLISHED
    for game, deals, seed, budget in presets() if args.presets else RUNS:
        if args.only and Path(game).stem not in args.only:
            continue
        summary = run(game, args.deals or deals, seed, budget, args.results_dir, args.cluster)
        print(row(summary, published), flush=True)
    sys.stdout.flush()


def presets() -> list[tuple[str, int, str, tuple[str, ...]]]:
    """One run per preset's rule file, named by its path from the repository's root."""
    root = PRESET_DIR.parent.parent.parent
    return [
        (str(path.relative_to(root)), PRESET_DEALS, "1", PRESET_BUDGET)
        for path in sorted(PRESET_DIR.glob("*.yaml"))
    ]


if __name__ == "__main__":
    main()
