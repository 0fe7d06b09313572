"""``solitaire stats``: many deals headless, the win rate with its interval, the scores."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from ...core.game import Game
from ...core.load import load_game
from ...core.seeds import seed_after
from ...play.stats import run_deals, summarise
from .output import EXIT_INTERRUPTED, EXIT_OK, UsageError, console


def cmd_stats(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    game.seed_order(args.seed)  # a deal number the game cannot use is refused before any work
    if args.solve:
        return _solved(game, args)
    if args.results or args.budget_seconds or args.budget_nodes:
        raise UsageError("--results and the budgets go with --solve")
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


def _solved(game: Game, args: argparse.Namespace) -> int:
    """``stats --solve``: every deal judged by the solver within the budget."""
    from ...play.solver import Budget
    from ...play.winnability import DealVerdict, run, summarise

    seconds = args.budget_seconds
    if seconds is None and args.budget_nodes is None:
        seconds = 10.0
    budget = Budget(nodes=args.budget_nodes, seconds=seconds)
    results = Path(args.results) if args.results else None
    verdicts: list[DealVerdict] = []
    interrupted = False
    show_bar = sys.stderr.isatty() and not args.json
    try:
        if show_bar:
            from rich.progress import Progress

            with Progress(console=console(sys.stderr), transient=True) as bar:
                task = bar.add_task(f"{game.name}: solving", total=args.deals)

                def tick(verdict: DealVerdict) -> None:
                    verdicts.append(verdict)
                    bar.advance(task, 1)

                run(game, args.seed, args.deals, budget, args.jobs, tick, results)
        else:
            run(game, args.seed, args.deals, budget, args.jobs, verdicts.append, results)
    except KeyboardInterrupt:
        interrupted = True
    summary = summarise(game, args.seed, verdicts)
    if args.json:
        record = summary.as_json()
        if interrupted:
            record["interrupted"] = True
        print(json.dumps(record))
        return EXIT_INTERRUPTED if interrupted else EXIT_OK
    out = console()
    limit = []
    if budget.seconds is not None:
        limit.append(f"{budget.seconds:g} s")
    if budget.nodes is not None:
        limit.append(f"{budget.nodes:,} positions")
    last = seed_after(args.seed, args.deals - 1)
    head = f"{game.name}: {summary.deals} deals solved (seeds {args.seed}..{last})"
    if interrupted:
        head += f", stopped after {summary.deals} of {args.deals}"
    out.print(f"{head}, at most {' or '.join(limit)} each", markup=False)
    parts = []
    for name, count in (("won", summary.won), ("lost", summary.lost), ("unknown", summary.unknown)):
        share, low, high = summary.share(count)
        parts.append(f"{name} {count} ({share:.1%}, 95% CI {low:.1%} .. {high:.1%})")
    out.print(", ".join(parts), markup=False)
    low, high = summary.bounds
    out.print(
        f"winnable: between {low:.1%} and {high:.1%} of deals "
        f"(won, and won or unknown; 95% CI {summary.share(summary.won)[1]:.1%} .. "
        f"{summary.share(summary.won + summary.unknown)[2]:.1%})",
        markup=False,
    )
    out.print(
        f"time per deal: median {summary.percentile(0.5):.2f} s, "
        f"90% {summary.percentile(0.9):.2f} s, 99% {summary.percentile(0.99):.2f} s",
        markup=False,
    )
    if results is not None:
        out.print(f"results: {results} (a rerun with it skips these deals)", markup=False)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
