"""Where the player's own data lives: saved games and the history of games played.

The user's data directory: ``$XDG_DATA_HOME/yaml-solitaire`` when ``XDG_DATA_HOME`` is set,
otherwise the platform's place for it (``platformdirs``; on Linux ``~/.local/share``).
"""

from __future__ import annotations

import os
from pathlib import Path

APP = "yaml-solitaire"


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME")
    if base:
        return Path(base) / APP
    from platformdirs import user_data_path

    return user_data_path(APP, appauthor=False)


def autosave_dir() -> Path:
    return data_dir() / "autosave"


def autosave_path(game_id: str) -> Path:
    """The automatic save of the last unfinished game of one game."""
    return autosave_dir() / f"{game_id}.json"


def latest_autosave() -> Path | None:
    """The most recent automatic save of any game; None when there is none."""
    try:
        saves = [e for e in os.scandir(autosave_dir()) if e.name.endswith(".json") and e.is_file()]
    except OSError:
        return None
    if not saves:
        return None
    newest = max(saves, key=lambda e: e.stat().st_mtime_ns)
    return Path(newest.path)


def history_path() -> Path:
    return data_dir() / "history.sqlite3"


def command_history_path() -> Path:
    """The commands typed at the game's prompt (line editing's history)."""
    return data_dir() / "commands.txt"
