"""The rule language: read a game's YAML file into a frozen, typed GameSpec.

Knows nothing of the engine. Every problem is a Diagnostic with file, line and column.
"""

from .catalog import CatalogEntry, find_game, game_names, shipped_games
from .diagnostics import Diagnostic, RuleError
from .loader import check_rules, load_rules
from .model import GameSpec

__all__ = [
    "CatalogEntry",
    "Diagnostic",
    "GameSpec",
    "RuleError",
    "check_rules",
    "find_game",
    "game_names",
    "load_rules",
    "shipped_games",
]
