"""``solitaire rules``: a game's rules, written from its rule file."""

from __future__ import annotations

import argparse
import sys

from ...game.load import load_game
from ...play.rules_text import rules_text
from ..screen import Screen
from .output import EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    screen = Screen(sys.stdout, colour=False)
    screen.say(rules_text(game, min(screen.width(80), 100) - 1))
    return EXIT_OK
