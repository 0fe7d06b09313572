"""Finding and loading a game by id, alias or rule-file path."""

from __future__ import annotations

from pathlib import Path

from ...rules import (
    Diagnostic,
    GameSpec,
    check_rules,
    find_game,
    game_names,
    load_rules,
    looks_like_path,
    suggest,
)
from ...rules.errors import printable
from ...rules.files import file_problem
from ..vocab import ENGINE_VOCABULARY
from .game import Game


class UnknownGame(LookupError):
    pass


def load_game(name: str | Path) -> Game:
    """A game by id, alias or rule-file path; UnknownGame or RuleError when it cannot be had."""
    text = str(name)
    path = find_game(text)
    if path is None:
        shown = printable(text)
        if looks_like_path(text):
            problem = file_problem(Path(text))
            if problem in (None, "no such file"):
                raise UnknownGame(f"no such rule file: {shown}")
            raise UnknownGame(f"rule file {shown}: {problem}")
        raise UnknownGame(
            f"unknown game '{shown}'{suggest(text, game_names())}; "
            f"shipped games: {', '.join(game_names())}"
        )
    return Game(load_rules(path, ENGINE_VOCABULARY), path)


def check_game(path: str | Path) -> list[Diagnostic]:
    """Every problem of a rule file against the engine's vocabulary, errors and warnings."""
    return check_rules(path, ENGINE_VOCABULARY)


def read_game_rules(path: str | Path) -> GameSpec:
    """The GameSpec of a rule file against the engine's vocabulary; RuleError with every error."""
    return load_rules(path, ENGINE_VOCABULARY)
