"""The rule language: read a game's YAML file into a frozen, typed GameSpec.

Knows nothing of the engine: the words a file may use come from a ``Vocabulary`` that the
caller supplies. Every problem is a Diagnostic with file, line and column.
"""

from .catalog import CatalogEntry, find_game, game_names, looks_like_path, shipped_games
from .errors import Diagnostic, RuleError, suggest
from .loader import check_rules, load_rules
from .model import RESERVED_COMMANDS, GameSpec
from .vocabulary import Vocabulary

__all__ = [
    "RESERVED_COMMANDS",
    "CatalogEntry",
    "Diagnostic",
    "GameSpec",
    "RuleError",
    "Vocabulary",
    "check_rules",
    "find_game",
    "game_names",
    "load_rules",
    "looks_like_path",
    "shipped_games",
    "suggest",
]
