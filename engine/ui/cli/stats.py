"""``solitaire stats``: many deals headless, the win rate with its interval, the scores."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from ...core.load import load_game
from ...core.seeds import seed_after
from ...play.stats import run_deals, summarise
from .output import EXIT_OK, console


def cmd_stats(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    game.seed_order(args.seed)  # a deal number the game cannot use is refused before any work
    show_bar = sys.stderr.isatty() and not args.json
    if show_bar:
        from rich.progress import Progress

        with Progress(console=console(sys.stderr), transient=True) as bar:
            task = bar.add_task(f"{game.name}", total=args.deals)
            results = run_deals(
                game, args.seed, args.deals, args.jobs, lambda n: bar.advance(task, n)
            )
    else:
        results = run_deals(game, args.seed, args.deals, args.jobs)
    summary = summarise(game, args.seed, results)
    if args.json:
        print(json.dumps(summary.as_json()))
        return EXIT_OK
    from rich.table import Table

    low, high = summary.interval
    out = console()
    out.print(
        f"{game.name}: {summary.deals} deals "
        f"(seeds {args.seed}..{seed_after(args.seed, summary.deals - 1)})",
        markup=False,
    )
    out.print(
        f"won {summary.wins} ({summary.win_rate:.2%}), 95% CI {low:.2%} .. {high:.2%}",
        markup=False,
    )
    if summary.unfinished:
        out.print(
            f"unfinished (the policy had only repeated positions left, or hit the move limit): "
            f"{summary.unfinished}",
            markup=False,
        )
    out.print(f"{summary.score_label}: mean {summary.mean_score:.1f}", markup=False)
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column(summary.score_label, justify="right")
    table.add_column("deals", justify="right")
    table.add_column("share", justify="right")
    table.add_column("")
    rows = score_rows(summary.scores)
    top = max(n for _, n in rows)
    for label, n in rows:
        table.add_row(label, str(n), f"{n / summary.deals:.1%}", "#" * max(1, 40 * n // top))
    out.print(table)
    return EXIT_OK


def score_rows(scores: Counter[int], most: int = 16) -> list[tuple[str, int]]:
    """The score distribution as table rows: one per score, or ranges when there are many."""
    if len(scores) <= most:
        return [(str(k), n) for k, n in sorted(scores.items())]
    low, high = min(scores), max(scores)
    width = -(-(high - low + 1) // most)
    rows = []
    for start in range(low, high + 1, width):
        stop = min(start + width - 1, high)
        n = sum(scores[k] for k in range(start, stop + 1))
        rows.append((f"{start}..{stop}" if stop > start else str(start), n))
    return rows
