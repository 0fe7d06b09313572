"""The winnability tables of docs/winnability.md: one solver run per rule file, as a table.

Each row is one ``solitaire stats GAME --solve`` run (its command is printed in the row) with a
results file per run in ``--results-dir``: a run that was stopped goes on where it stopped, and
a finished one is only read again, so the table can be printed from runs made earlier.

Run from the repository root: ``python benchmarks/winnability.py [--presets | --blake-gent]
[--results-dir DIR] [--only GAME ...] [--cluster ADDRESS] [--deals N]``; it prints the Markdown
table on stdout: the shipped games, with ``--presets`` the 75 Solvitaire presets of
``tests/solvitaire/rules/``, or with ``--blake-gent`` every shipped game of Blake and Gent's tables
beside their published figure, and whether our 95% interval holds it.
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

# Blake and Gent, "The Winnability of Klondike Solitaire and Many Other Patience Games", JAIR 85,
# article 21 (2026), arXiv:1906.12314v6: the share of deals that can be won (thoughtful where
# cards are dealt face down), in percent, with the half-width of their 95% interval, and where in
# the paper it is. Table 1: games studied before (Tables 3 and 4: the Klondike variants); Table 2:
# games first measured with Solvitaire (Carpet's by Masten, with Solvitaire). Table 8 gives the
# counts behind each figure. Keyed by the rule file of ours that plays their variant; the
# figures are written as the paper prints them.
BLAKE_GENT: dict[str, tuple[str, str, str]] = {
    "accordion": ("99.99948", "0.00052", "Accordion, Table 1"),
    "bakers-game": ("75.053", "0.028", "Baker's Game, Table 1"),
    "black-hole": ("86.944", "0.022", "Black Hole, Table 1"),
    "canfield": ("71.245", "0.031", "Canfield, Table 1"),
    "eight-off": ("99.8805", "0.0022", "Eight Off, Table 1"),
    "fore-cell": ("85.617", "0.024", "Fore Cell, Table 1"),
    "freecell": ("99.998881", "0.000207", "FreeCell, Table 1"),
    "gaps": ("24.902", "0.028", "Gaps, basic variant, Table 1"),
    "golf": ("45.109", "0.032", "Golf, Table 1"),
    "king-albert": ("68.542", "0.092", "King Albert, Table 1"),
    "klondike": ("90.480", "0.116", "Klondike draw 1, Tables 1 and 3"),
    "klondike-draw-3": ("81.945", "0.084", "Klondike (draw 3), Tables 1, 3 and 4"),
    "seahaven-towers": ("89.332", "0.020", "Seahaven Towers, Table 1"),
    "simple-simon": ("97.450", "0.034", "Simple Simon, Table 1"),
    "spider": ("98.487", "1.513", "Spider, Table 1"),
    "thirty-six": ("94.674", "0.100", "Thirty Six, Table 1"),
    "trigon": ("15.996", "0.023", "Trigon, Table 1"),
    "worm-hole": ("99.8886", "0.0074", "Worm Hole, Table 1"),
    "alpha-star": ("47.794", "0.032", "Alpha Star, Table 2"),
    "american-canister": ("5.606", "0.015", "American Canister, Table 2"),
    "beleaguered-castle": ("68.170", "0.099", "Beleaguered Castle, Table 2"),
    "british-canister": ("0.000129", "0.000008", "British Canister, Table 2"),
    "carpet": ("95.186", "0.014", "Carpet, pre-founded Aces, Table 2 (Masten)"),
    "delta-star": ("34.413", "0.030", "Delta Star, Table 2"),
    "easthaven": ("82.844", "0.100", "East Haven, Table 2"),
    "fan": ("48.776", "0.099", "Fan (16 fans of 3, 2 of 2), Table 2"),
    "fortunes-favor": ("99.9999879", "0.0000022", "Fortune's Favor, Table 2"),
    "mrs-mop": ("97.992", "0.079", "Mrs Mop, Table 2"),
    "northwest-territory": ("68.369", "0.094", "Northwest Territory, Table 2"),
    "raglan": ("81.226", "0.085", "Raglan, Table 2"),
    "siegecraft": ("99.136", "0.020", "Siegecraft, Table 2"),
    "somerset": ("53.725", "0.097", "Somerset, Table 2"),
    "spanish-patience": ("99.863", "0.003", "Spanish Patience, Table 2"),
    "spiderette": ("99.620", "0.018", "Spiderette, Table 2"),
    "streets-and-alleys": ("51.187", "0.186", "Streets and Alleys, Table 2"),
    "stronghold": ("97.379", "0.042", "Stronghold, Table 2"),
    "will-o-the-wisp": ("99.9240", "0.0027", "Will O' The Wisp, Table 2"),
}

# Shipped games whose rules are not Blake and Gent's variant: their row is the Solvitaire
# preset's (tests/solvitaire/rules/, which repeats Solvitaire's preset), and the shipped game's
# row stands beside it, the figure in brackets, with what differs.
DIFFERENT = {
    "golf": ("golf.yaml", "nothing goes on a King here; Solvitaire's hole takes a Queen on it"),
    "simple-simon": ("simple-simon.yaml", "mixed-suit runs move here; Solvitaire's only one-suit"),
    "spider": ("spider.yaml", "the stock is not dealt here while a pile is empty"),
    "spiderette": ("spiderette.yaml", "the stock is not dealt here while a pile is empty"),
    "will-o-the-wisp": (
        "will-o-the-wisp.yaml",
        "the stock is not dealt here while a pile is empty",
    ),
    "trigon": ("trigon.yaml", "a foundation's top card may come back here; not in Solvitaire's"),
    "fan": ("fan.yaml", "seventeen fans of three and one of one here; 16 of 3 and 2 of 2 there"),
}

# The Blake and Gent rows: 200 deals each from seed 1 (FreeCell's too: random deals, as theirs),
# within 20,000 positions a deal.
BG_DEALS = 200
BG_BUDGET = ("--budget-nodes", "20000")


# Games whose figure Solvitaire made with rules other than its preset's: its parser reads the
# key 'complete piles' where the presets write 'only complete pile moves', so these games build
# their foundations one card at a time there (tests/solvitaire/as-run/ writes them so). The
# preset as written, and the shipped game, build them with whole King-to-Ace runs.
AS_RUN_DIR = PRESET_DIR.parent / "as-run"
AS_RUN = ("simple-simon", "spider", "spiderette", "will-o-the-wisp", "mrs-mop")
WHOLE_RUNS = "whole King-to-Ace runs go home here; Solvitaire runs it with cards home one at a time"

ROOT = PRESET_DIR.parent.parent.parent


def bg_runs() -> list[tuple[str, str, str | None]]:
    """(game key, rule file or game id, why it is not Blake and Gent's variant or None) of every
    Blake and Gent row: their variant's first, then the others played beside it."""
    runs: list[tuple[str, str, str | None]] = []
    for game in BLAKE_GENT:
        if game in AS_RUN:
            runs.append((game, str((AS_RUN_DIR / f"{game}.yaml").relative_to(ROOT)), None))
        if game in DIFFERENT:
            preset = str((PRESET_DIR / DIFFERENT[game][0]).relative_to(ROOT))
            runs.append((game, preset, WHOLE_RUNS if game in AS_RUN else None))
        runs.append((game, game, why_not(game)))
    return runs


def why_not(game: str) -> str | None:
    """What makes the shipped game other than Blake and Gent's variant (None: nothing)."""
    why = [DIFFERENT[game][1]] if game in DIFFERENT else []
    why += [WHOLE_RUNS] if game in AS_RUN else []
    return "; ".join(why) or None


def bg_figure(game: str) -> str:
    share, half, where = BLAKE_GENT[game]
    return f"{share}% ± {half}% (Blake and Gent, {where})"


# Figures published elsewhere, where one exists, with where they come from.
PUBLISHED = {
    "clock": "exactly 1/13 = 7.69%",
    "big-ben": "none published",
    **{
        game: bg_figure(game) if why_not(game) is None else f"({bg_figure(game)}: {why_not(game)})"
        for game in BLAKE_GENT
    },
    "freecell": "Microsoft's deals 1..32000: all but one (11982) can be won; "
    + bg_figure("freecell"),
    "black-hole": bg_figure("black-hole")
    + "; 86.0% .. 88.6% (Solvitaire's 2018 logs, 2,500 deals)",
}

# Published figures for the presets, by preset name (Blake and Gent's, as above). The names
# that differ from ours: Solvitaire's 'klondike' turns three cards, 'klondike-deal-1' one.
PRESET_NAMES = {
    "klondike-draw-3": "klondike",
    "klondike": "klondike-deal-1",
    "easthaven": "east-haven",
    "thirty-six": "thirtysix",
    "freecell": "free-cell",
    "gaps": "gaps-basic-variant",
}
PUBLISHED_PRESETS = {
    PRESET_NAMES.get(game, game): f"({bg_figure(game)}: {WHOLE_RUNS})"
    if game in AS_RUN
    else bg_figure(game)
    for game in BLAKE_GENT
    if (PRESET_DIR / f"{PRESET_NAMES.get(game, game)}.yaml").exists()
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


def pair(summary: dict[str, object], key: str) -> tuple[float, float]:
    """Two shares of a summary: bounds, or the ends of an interval."""
    value = summary[key]
    assert isinstance(value, (list, tuple)) and len(value) == 2
    return float(value[0]), float(value[1])


def percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def fine(share: float) -> str:
    """A share to a hundredth of a percent: enough to tell an interval's end from 100%."""
    return f"{100 * share:.2f}%"


def duration(seconds: float) -> str:
    if seconds < 0.0001:  # the results file keeps times to a tenth of a millisecond
        return "< 0.1 ms"
    return f"{seconds:.2g} s" if seconds >= 0.1 else f"{1000 * seconds:.2g} ms"


def row(summary: dict[str, object], published: dict[str, str] = PUBLISHED) -> str:
    def count(kind: str) -> str:
        part = summary[kind]
        assert isinstance(part, dict)
        return f"{part['count']} ({percent(part['share'])})"

    low, high = pair(summary, "winnable_bounds")
    ci_low, ci_high = pair(summary, "winnable_bounds_ci95")
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


def bg_row(game: str, summary: dict[str, object], aside: str | None) -> str:
    """A row of the Blake and Gent table: is their figure inside our 95% interval?"""

    def count(kind: str) -> str:
        part = summary[kind]
        assert isinstance(part, dict)
        return str(part["count"])

    low, high = pair(summary, "winnable_bounds")
    ci_low, ci_high = pair(summary, "winnable_bounds_ci95")
    share = float(BLAKE_GENT[game][0]) / 100
    name = str(summary["game"])
    if aside is not None:
        figure = f"({bg_figure(game)})"
        inside = f"not their variant: {aside}"
    else:
        figure = bg_figure(game)
        inside = "yes" if ci_low <= share <= ci_high else "**no**"
    cells = [
        f"`{name}`",
        str(summary["deals"]),
        " / ".join(count(kind) for kind in ("won", "lost", "unknown")),
        f"{fine(low)} .. {fine(high)} ({fine(ci_low)} .. {fine(ci_high)})",
        figure,
        inside,
        f"`{summary['command']}`",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results-dir", type=Path, default=Path("winnability-results"))
    parser.add_argument("--only", nargs="*", help="games (or presets) to run (default: all)")
    parser.add_argument("--presets", action="store_true", help="the Solvitaire presets' table")
    parser.add_argument(
        "--blake-gent", action="store_true", help="Blake and Gent's games beside their figures"
    )
    parser.add_argument("--cluster", metavar="ADDRESS", help="solve on this Ray cluster")
    parser.add_argument("--deals", type=int, help="deals of every row (default: the table's)")
    args = parser.parse_args()
    args.results_dir.mkdir(parents=True, exist_ok=True)
    if args.blake_gent:
        print(
            "| game | deals | won / lost / unknown | winnable: bounds (95% CI) "
            "| Blake and Gent | inside the CI | command |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for game, rules, aside in bg_runs():
            if args.only and game not in args.only:
                continue
            # a results file is named by the rule file's stem: the presets' and the as-run files'
            # apart from the shipped games'
            folder = args.results_dir
            if rules.endswith(".yaml"):
                folder = folder / (
                    "as-run" if rules.startswith(str(AS_RUN_DIR.relative_to(ROOT))) else "presets"
                )
                folder.mkdir(exist_ok=True)
            deals = args.deals or BG_DEALS
            summary = run(rules, deals, "1", BG_BUDGET, folder, args.cluster)
            print(bg_row(game, summary, aside), flush=True)
        return
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
