"""The ``solitaire`` command: argument parsing, and one place where every failure is reported.

Each command lives in its own module, imported only when it runs, so that ``--help`` and a
cached game start fast. Every failure the user can cause ends in one clear line on stderr and
a documented exit code: 1 for input that was understood but is invalid, 2 for usage errors,
130 for Ctrl-C; a reader that went away (a closed pipe) is not an error.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:  # pragma: no cover
    from _typeshed import SupportsWrite

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MAX_SEED = 2**63
# stats --solve: the CPU seconds a deal's search may take when no budget is given.
STATS_SECONDS = 10.0


class _Parser(argparse.ArgumentParser):
    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        # argparse ignores a failed write; a full disk is reported like any other output's.
        (file or sys.stdout).write(self.format_help())

    def error(self, message: str) -> NoReturn:
        from ....rules.errors import printable  # argparse echoes arguments as they were typed

        shown = printable(message, 300)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {shown} (see '{self.prog} --help')\n")


def _whole(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
    return value


def _seed(text: str) -> int | str:
    from ...core.seeds import parse_seed

    try:
        return parse_seed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_time(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text[:40]!r}") from None
    if not 0 < value <= 10**7:
        raise argparse.ArgumentTypeError("seconds must be more than 0 (and at most 10**7)")
    return value


def _positive(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _port(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def build_lines() -> list[str]:
    """What ``--version`` says of how this program was built, a line each (``build: ...``):
    compiled (mypyc) or pure Python, and why."""
    from ...build import build_kind

    return [f"build: {build_kind()}"]


def version_text() -> str:
    """``solitaire --version``: the version, then the build lines."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        number = version("yaml-solitaire")
    except (ImportError, PackageNotFoundError):  # run from a folder that is not installed
        number = "unknown (not installed)"
    return "\n".join([f"solitaire {number}", *build_lines()]) + "\n"


class _Version(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        sys.stdout.write(version_text())
        parser.exit(EXIT_OK)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="solitaire",
        description="Play and study solitaire games defined by YAML rule files.",
        epilog="Start with 'solitaire list', then 'solitaire play GAME'; "
        "'solitaire COMMAND --help' tells more of each command.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("list", help="list the shipped games")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.set_defaults(run="authoring:cmd_list")

    p = sub.add_parser("play", help="play a game (a game id or a rule file path)")
    p.add_argument("game", nargs="?", help="game id (see 'solitaire list') or path to a rule file")
    deal = p.add_mutually_exclusive_group()
    deal.add_argument(
        "--seed",
        type=_seed,
        help="deal number N (same N, same deal, forever), or ms:N: Microsoft FreeCell's deal N",
    )
    deal.add_argument(
        "--deck",
        help="the deal order: cards separated by spaces or commas, "
        "or @FILE; the first card listed is dealt first",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="ID|FILE",
        help="continue a saved game: its id (see 'solitaire saves') or a record file; "
        "alone: the last unfinished game (of GAME, when given)",
    )
    p.add_argument("--trace", action="store_true", help="list every card the engine moved")
    p.add_argument("--json", action="store_true", help="machine-readable JSON lines")
    p.add_argument(
        "--no-auto",
        action="store_true",
        help="no automatic moves (safe moves to the foundations, a forced finish)",
    )
    p.add_argument("--ascii", action="store_true", help="plain letters, no colour or symbols")
    p.add_argument(
        "--line",
        action="store_true",
        help="line mode on a terminal too (typed commands) instead of the full-screen table; "
        "pipes, scripts and --json always use it",
    )
    p.add_argument("--no-record", action="store_true", help="leave this game out of the history")
    p.add_argument(
        "--winnable",
        action="store_true",
        help="deal the first deal from --seed N on (a random one without it) that the solver "
        "proves winnable within 10 CPU seconds",
    )
    p.add_argument(
        "--unproved",
        action="store_true",
        help="with --winnable: when no deal is proved winnable in time, deal one anyway",
    )
    p.set_defaults(run="play:cmd_play")

    p = sub.add_parser("rules", help="print a game's rules, written from its rule file")
    p.add_argument("game", help="game id or path to a rule file")
    p.set_defaults(run="rules:cmd_rules")

    p = sub.add_parser("replay", help="show a saved game step by step")
    p.add_argument("file", metavar="FILE", help="a game record ('save' in a game, or an autosave)")
    p.add_argument("--json", action="store_true", help="one JSON line per step")
    p.add_argument("--ascii", action="store_true", help="plain letters, no colour or symbols")
    p.set_defaults(run="records:cmd_replay")

    p = sub.add_parser("history", help="your games: played, won, streaks, best scores and times")
    p.add_argument("game", nargs="?", help="only this game (id, alias or rule file)")
    p.add_argument("--json", action="store_true", help="one JSON object per finished game")
    p.set_defaults(run="records:cmd_history")

    p = sub.add_parser("saves", help="your unfinished games, kept until finished or deleted")
    p.add_argument("--json", action="store_true", help="one JSON object per saved game")
    p.add_argument("--delete", metavar="ID", help="delete a saved game (its id, or its start)")
    p.set_defaults(run="records:cmd_saves")

    p = sub.add_parser("solve", help="search a deal for a win (won, lost or unknown)")
    p.add_argument("game", help="game id or path to a rule file")
    deal = p.add_mutually_exclusive_group()
    deal.add_argument("--seed", type=_seed, help="deal number N or ms:N (default 0)")
    deal.add_argument("--deck", help="the deal order, as for 'play'")
    p.add_argument("--budget-nodes", type=_positive, help="give up after this many positions")
    p.add_argument(
        "--budget-seconds", type=_positive_time, help="give up after this many CPU seconds"
    )
    p.add_argument(
        "--max-positions",
        type=_positive,
        help="the most positions the search keeps in memory (default 20,000,000: about 2 GB)",
    )
    p.add_argument(
        "--auto",
        action="store_true",
        help="write the line for 'play' with automatic moves on (the engine's own left out)",
    )
    output = p.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object")
    output.add_argument(
        "--line",
        action="store_true",
        help="print a winning line's actions only, one a line, to pipe into 'solitaire play' "
        "(what was found otherwise goes to stderr)",
    )
    p.set_defaults(run="solve:cmd_solve")

    p = sub.add_parser("stats", help="play many deals and report the win rate")
    p.add_argument("game", help="game id or path to a rule file")
    p.add_argument("--deals", type=_positive, required=True, help="how many deals")
    p.add_argument(
        "--seed", type=_seed, default=1, help="seed of the first deal, N or ms:N (default 1)"
    )
    p.add_argument("--jobs", type=_positive, help="processes to use (default 1)")
    p.add_argument(
        "--solve",
        action="store_true",
        help="judge each deal with the solver (won, lost or unknown) instead of playing it "
        "(default: play each deal by the hints' heuristic)",
    )
    p.add_argument(
        "--budget-seconds",
        type=_positive_time,
        help=f"with --solve: CPU seconds a deal (default {STATS_SECONDS:g} when neither budget "
        "is given)",
    )
    p.add_argument(
        "--budget-nodes", type=_positive, help="with --solve: positions a deal (default: no limit)"
    )
    p.add_argument(
        "--max-positions",
        type=_positive,
        help="with --solve: the most positions a deal's search keeps in memory (default "
        "20,000,000: about 2 GB a process)",
    )
    p.add_argument(
        "--results",
        help="with --solve: append a JSON line per deal; deals already there are skipped "
        "(default: none kept)",
    )
    p.add_argument(
        "--cluster",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="with --solve: solve on a Ray cluster: local, HOST:PORT, ray://HOST:PORT "
        "(default: RAY_ADDRESS); needs the 'cluster' extra",
    )
    p.add_argument(
        "--cluster-token",
        metavar="FILE",
        help="with --cluster ADDRESS: the file holding the cluster's authentication token "
        "(default: as Ray reads it: RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token)",
    )
    p.add_argument(
        "--winnable",
        action="store_true",
        help="how long finding a winnable deal takes ('play --winnable'), --deals times over "
        "(default: off)",
    )
    p.add_argument(
        "--json", action="store_true", help="one JSON object (default: text and a table)"
    )
    p.set_defaults(run="stats:cmd_stats")

    p = sub.add_parser("validate", help="check rule files")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--strict", action="store_true", help="fail on warnings too")
    p.add_argument("--json", action="store_true", help="diagnostics as JSON lines")
    p.set_defaults(run="authoring:cmd_validate")

    p = sub.add_parser("schema", help="print the JSON Schema of rule files (or the reference)")
    p.add_argument("--format", choices=["json", "markdown"], default="json")
    p.set_defaults(run="authoring:cmd_schema")

    p = sub.add_parser("graph", help="print a game's phase machine as a diagram")
    p.add_argument("game")
    p.add_argument("--format", choices=["mermaid", "dot"], default="mermaid")
    p.set_defaults(run="authoring:cmd_graph")

    p = sub.add_parser("serve", help="play in the browser: a table served on this computer only")
    p.add_argument(
        "--port",
        type=_port,
        default=8765,
        help="the port on 127.0.0.1 (default 8765; 0 picks a free one)",
    )
    p.add_argument("--open", action="store_true", help="open the table in the default browser")
    p.set_defaults(run="serve:cmd_serve")

    p = sub.add_parser("new", help="write a starter rule file that validates and plays")
    p.add_argument("name", help="the new game's name, e.g. 'My Patience'")
    p.add_argument("--output", "-o", help="file to write (default: NAME.yaml here)")
    p.add_argument("--force", action="store_true", help="replace an existing file")
    p.set_defaults(run="authoring:cmd_new")
    return parser


def _quiet_stdout() -> None:
    """Send what is still buffered for a reader that went away nowhere, so exit stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def _output_failure(exc: OSError) -> int:
    """A write to stdout or stderr failed: a reader that went away is fine, the rest is not."""
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        _quiet_stdout()
        return EXIT_OK
    _quiet_stdout()
    reason = exc.strerror or str(exc)
    if exc.filename is not None:  # a file's error that no command reported: not the output's
        from ....rules.errors import printable

        message = f"solitaire: {printable(str(exc.filename))}: {reason}"
    else:
        message = f"solitaire: cannot write the output: {reason}"
    with contextlib.suppress(OSError, AttributeError, ValueError):
        print(message, file=sys.stderr)
        sys.stderr.flush()
    return EXIT_INVALID


def _prepare_streams() -> bool:
    """Streams that cannot fail on odd text; False when there is no stdout to write to."""
    if sys.stderr is None:  # started with stderr closed: messages go nowhere
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    if sys.stdout is None:  # started with stdout closed: nothing could be shown
        print("solitaire: standard output is closed", file=sys.stderr)
        return False
    # Text the terminal's encoding cannot show is written escaped, and input that is not
    # valid in it is read with replacement characters: never an encoding error.
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace"),
                           (sys.stdin, "replace")):  # fmt: skip
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors=errors)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every outcome is an exit code, with at most one line on stderr."""
    if not _prepare_streams():
        return EXIT_INVALID
    try:
        try:
            code = _run(argv)
        except SystemExit as exc:  # argparse after '--help' (0) or a usage error (2)
            code = exc.code if isinstance(exc.code, int) else EXIT_USAGE if exc.code else EXIT_OK
        sys.stdout.flush()  # here, where a failure is still reported as one
        return code
    except KeyboardInterrupt as exc:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            _quiet_stdout()
        signum = getattr(exc, "signum", None)  # SIGTERM, SIGHUP: stopped as by Ctrl-C
        return 128 + signum if isinstance(signum, int) else EXIT_INTERRUPTED
    except OSError as exc:  # only output errors get here: commands report their own input's
        return _output_failure(exc)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # 'solitaire' alone: what it can do
        parser.print_help()
        return EXIT_OK
    args = parser.parse_args(argv)
    # Imported once the command is known: '--help' and usage errors need none of it.
    from ....rules.errors import RuleError
    from ...core.cards import DeckError
    from ...core.state import GameStalled
    from ...game.load import UnknownGame
    from .output import InputError, UsageError, fail

    module_name, function = args.run.split(":")
    module = importlib.import_module(f"{__name__}.{module_name}")
    try:
        code: int = getattr(module, function)(args)
        return code
    except UsageError as exc:
        return fail(str(exc), EXIT_USAGE)
    except (UnknownGame, DeckError, GameStalled, InputError) as exc:
        return fail(str(exc))
    except RuleError as exc:
        for d in exc.diagnostics:
            print(str(d), file=sys.stderr)
        return EXIT_INVALID
