"""Output for the command line: consoles, one-line failures and the JSON records of positions."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ...core.cards import DOWN, card_text, face_down_count
from ...core.state import State, Step

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ...game.game import Game

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


def piles_json(game: Game, state: State) -> dict[str, list[str]]:
    return {name: [card_text(c) for c in state.piles[i]] for i, name in enumerate(game.pile_names)}


def position_json(game: Game, state: State) -> dict[str, Any]:
    hidden = {
        name: n
        for i, name in enumerate(game.pile_names)
        if (n := sum(1 for c in state.piles[i] if c & DOWN))
    }
    return {
        "phase": state.phase,
        "result": game.outcome(state),
        "cards_placed": game.score(state),
        "foundation_cards": game.foundation_cards(state),
        "piles": piles_json(game, state),
        "face_down": hidden,
    }


def trace_lines(game: Game, steps: Sequence[Step], before: int = 0) -> Iterator[str]:
    for n, step in enumerate(steps, before + 1):
        src, dst = game.pile_names[step.src], game.pile_names[step.dst]
        yield f"{n:3}. {card_text(step.card):>3}  {src} -> {dst}"


def trace_json(steps: Sequence[Step] | None) -> dict[str, list[str]]:
    """The ``trace`` field of a JSON record: the cards moved, in order (absent without --trace)."""
    return {} if steps is None else {"trace": [card_text(s.card) for s in steps]}


def seed_line(game: Game, seed: int | str, ref: str, width: int = 80) -> str:
    """The deal and how to play it again; on two lines when one would not fit ``width``."""
    head, replay = f"{game.name}, seed {seed}", f"(replay: solitaire play {ref} --seed {seed})"
    return f"{head} {replay}" if len(head) + 1 + len(replay) <= width else f"{head}\n{replay}"


def ending(game: Game, state: State) -> str:
    outcome = game.outcome(state)
    score = f"{game.score(state)} {game.spec.score.label}"
    if outcome == "won":
        return f"Won: {score}."
    hidden = face_down_count(state.piles)
    extra = f", {hidden} card{'s' if hidden != 1 else ''} still face down" if hidden else ""
    if outcome == "lost":
        return f"Lost: {score}{extra}."
    return f"Game not finished: {score}{extra}."
