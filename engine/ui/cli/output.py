"""Output for the command line: consoles, one-line failures and the JSON records of positions."""

from __future__ import annotations

import errno
import os
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """A command line that asks for something impossible (exit 2)."""


class Stopped(KeyboardInterrupt):
    """A signal that stops the program as Ctrl-C does (SIGTERM, SIGHUP): exit 128 + its number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class InputError(Exception):
    """Input that was read but cannot be used (exit 1), said in one line."""


def console(stream: TextIO | None = None) -> Console:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich would exit with status 1 by itself; main() treats a reader that went away
            # like every other closed output, as success.
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    out = stream or sys.stdout
    # Off a terminal (a pipe, a file) there is no width to fit: use a generous one.
    width = None if out.isatty() else 120
    # NO_COLOR (any value) asks for plain text: no colour, and no bold or dim either.
    plain = bool(os.environ.get("NO_COLOR"))
    return _Console(
        file=out,
        highlight=False,
        soft_wrap=False,
        width=width,
        color_system=None if plain else "auto",
        no_color=plain,
    )


def fail(message: str, code: int = EXIT_INVALID) -> int:
    print(f"solitaire: {message}", file=sys.stderr)
    return code
