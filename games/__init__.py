"""The shipped rule files (data only): one YAML file per game."""

from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent
