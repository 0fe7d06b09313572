"""``solitaire stats``: many deals headless, the win rate with its interval, the scores."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from ...core.seeds import MAX_SEED, MS_LAST, ms_number, seed_after
from ...game.game import Game
from ...game.load import load_game
from ...play.stats import StatsFailed, Summary, run_deals, summarise
from . import STATS_SECONDS
from .output import EXIT_INTERRUPTED, EXIT_OK, InputError, UsageError, console


def cmd_stats(args: argparse.Namespace) -> int:
    number = ms_number(args.seed)
    if number is None and args.seed + args.deals > MAX_SEED:
        most = MAX_SEED - args.seed
        raise UsageError(f"seeds stop at 2**63 - 1: at most {most} deals from seed {args.seed}")
    if number is not None and number + args.deals - 1 > MS_LAST:
        most = MS_LAST - number + 1
        raise UsageError(f"Microsoft's deals stop at ms:{MS_LAST}: at most {most} from {args.seed}")
    game = load_game(args.game)
    game.seed_order(args.seed)  # a deal number the game cannot use is refused before any work
    if args.winnable:
        if args.solve or args.cluster is not None or number is not None:
            raise UsageError("--winnable searches from a deal number, without --solve")
        return _winnable(game, args)
    if args.solve:
        return _solved(game, args)
    extra = args.results or args.budget_seconds or args.budget_nodes or args.max_positions
    if extra or args.cluster is not None or args.cluster_token is not None:
        raise UsageError("--results, --max-positions, the budgets and --cluster go with --solve")
    summary = summarise(game, args.seed)
    interrupted = False
    show_bar = sys.stderr.isatty() and not args.json
    try:
        with progress(game.name, args.deals, show_bar) as advance:
            _play(game, args, summary, advance)
    except KeyboardInterrupt:  # report what was done, then exit 130 as for any Ctrl-C
        interrupted = True
    except StatsFailed as exc:
        raise InputError(str(exc)) from None
    if interrupted:
        print(
            f"solitaire: interrupted after {summary.deals} of {args.deals} deals", file=sys.stderr
        )
    if summary.deals:
        _report(game, args, summary, interrupted)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


# Off a terminal, how often a line on stderr says how far the run has got.
PROGRESS_EVERY = 10.0


@contextlib.contextmanager
def progress(label: str, total: int, show: bool) -> Iterator[Callable[[int], None]]:
    """A way to count deals done: a progress bar on stderr when ``show``, else a line on
    stderr every ``PROGRESS_EVERY`` seconds (a log, a pipe: stdout keeps the report alone)."""
    if not show:
        with _progress_lines(label, total) as advance:
            yield advance
        return
    from rich.progress import Progress

    with Progress(console=console(sys.stderr), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


@contextlib.contextmanager
def _progress_lines(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """Count deals done; a thread writes the count every ``PROGRESS_EVERY`` seconds, whether
    or not a deal ended meanwhile (one deal's search may take longer)."""
    done = [0]
    stop = threading.Event()
    start = time.monotonic()

    def report() -> None:
        while not stop.wait(PROGRESS_EVERY):
            elapsed = time.monotonic() - start
            line = f"{label}: {done[0]:,} of {total:,} deals done, {elapsed:.0f} s\n"
            with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing to tell
                sys.stderr.write(line)
                sys.stderr.flush()

    def advance(n: int) -> None:
        done[0] += n

    reporter = threading.Thread(target=report, name="stats-progress", daemon=True)
    reporter.start()
    try:
        yield advance
    finally:
        stop.set()
        reporter.join()


def _play(
    game: Game, args: argparse.Namespace, summary: Summary, advance: Callable[[int], None]
) -> None:
    with contextlib.closing(run_deals(game, args.seed, args.deals, args.jobs or 1)) as batches:
        for batch in batches:
            summary.add(batch)
            advance(len(batch))


def _report(game: Game, args: argparse.Namespace, summary: Summary, interrupted: bool) -> None:
    if args.json:
        record = summary.as_json()
        if interrupted:
            record["interrupted"] = True
        print(json.dumps(record))
        return
    from rich.table import Table

    low, high = summary.interval
    out = console()
    done = (
        f"{summary.deals} of {args.deals} deals, interrupted"
        if interrupted
        else f"{summary.deals} deals"
    )
    out.print(
        f"{game.name}: {done} (seeds {args.seed}..{seed_after(args.seed, summary.deals - 1)})",
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


def _winnable(game: Game, args: argparse.Namespace) -> int:
    """``stats --winnable``: how long finding a winnable deal takes (as ``play --winnable``
    does: up to 10 CPU seconds, 2 a deal), ``--deals`` times."""
    from statistics import median

    from ...play.winnable_deals import finding_times

    searches = finding_times(game, args.seed, args.deals)
    found = [s for s in searches if s.proved]
    times = sorted(s.seconds for s in found)
    tried = sum(s.tried for s in searches)
    if args.json:
        record = {
            "game": game.id,
            "searches": len(searches),
            "found": len(found),
            "deals_tried": tried,
            "seconds": [round(s.seconds, 3) for s in searches],
            "seeds": [s.seed for s in searches],
            "median_seconds": round(median(times), 3) if times else None,
        }
        print(json.dumps(record))
        return EXIT_OK
    last = searches[-1].first + searches[-1].tried - 1
    print(f"{game.name}: {len(searches)} searches for a winnable deal (seeds {args.seed}..{last})")
    print(f"found {len(found)}, {tried} deals tried (at most 10 CPU s a search, 2 a deal)")
    if times:
        high = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"CPU time to find one: median {median(times):.2f} s, 90% {high:.2f} s, "
            f"most {times[-1]:.2f} s"
        )
    return EXIT_OK


def _solved(game: Game, args: argparse.Namespace) -> int:
    """``stats --solve``: every deal judged by the solver within the budget."""
    from ...play.cluster import ClusterError
    from ...play.solver import Budget
    from ...play.winnability import DealVerdict, ResultsError, SolveFailed, run, summarise
    from .cluster import open_cluster

    seconds = args.budget_seconds
    if seconds is None and args.budget_nodes is None:
        seconds = STATS_SECONDS
    budget = Budget(args.budget_nodes, seconds, args.max_positions)
    results = Path(args.results) if args.results else None
    verdicts: list[DealVerdict] = []
    cluster = open_cluster(args) if args.cluster is not None else None
    interrupted = False
    show_bar = sys.stderr.isatty() and not args.json
    try:
        with progress(f"{game.name}: solving", args.deals, show_bar) as advance:

            def tick(verdict: DealVerdict) -> None:
                verdicts.append(verdict)
                advance(1)

            spread = cluster.solve_all if cluster else None

            def torn(text: str) -> None:
                print(f"solitaire: --results {text}", file=sys.stderr)

            run(game, args.seed, args.deals, budget, args.jobs or 1, tick, results, spread, torn)
    except KeyboardInterrupt:
        interrupted = True
    except ResultsError as exc:
        raise InputError(f"--results {exc}") from None
    except SolveFailed as exc:
        raise InputError(str(exc)) from None
    except ClusterError as exc:
        raise InputError(str(exc)) from None
    finally:
        if cluster:
            cluster.close()
    summary = summarise(game, args.seed, verdicts)
    if args.json:
        record = summary.as_json()
        if interrupted:
            record["interrupted"] = True
        if cluster:
            record["cluster"] = cluster.figures.as_json()
        print(json.dumps(record))
        return EXIT_INTERRUPTED if interrupted else EXIT_OK
    out = console()
    limit = []
    if budget.seconds is not None:
        limit.append(f"{budget.seconds:g} CPU s")
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
        f"CPU time per deal: median {summary.percentile(0.5):.2f} s, "
        f"90% {summary.percentile(0.9):.2f} s, 99% {summary.percentile(0.99):.2f} s",
        markup=False,
    )
    if cluster:
        out.print(cluster.figures.line(), markup=False)
    if results is not None:
        out.print(f"results: {results} (a rerun with it skips these deals)", markup=False)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK
