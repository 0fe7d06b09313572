"""Finding rule files: shipped games by id or alias, or a path on disk."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from games import GAMES_DIR

from .yamlpos import YamlSyntaxError, read_yaml


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    id: str
    name: str
    decks: int
    aliases: tuple[str, ...]
    path: Path


def shipped_games() -> list[CatalogEntry]:
    """Every shipped game, in id order (files that cannot be read are skipped)."""
    entries = []
    for path in sorted(GAMES_DIR.glob("*.yaml")):
        try:
            data = read_yaml(path.read_text(encoding="utf-8")).data
        except (OSError, UnicodeDecodeError, YamlSyntaxError):
            continue
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            continue
        aliases = data.get("aliases") or ()
        decks = data.get("decks", 1)
        entries.append(
            CatalogEntry(
                id=data["id"],
                name=str(data.get("name", data["id"])),
                decks=decks if isinstance(decks, int) else 1,
                aliases=tuple(str(a) for a in aliases) if isinstance(aliases, list) else (),
                path=path,
            )
        )
    return sorted(entries, key=lambda e: e.id)


def looks_like_path(name: str) -> bool:
    return name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name


def find_game(name: str) -> Path | None:
    """The rule file for a game id, alias or path; None when there is none."""
    if looks_like_path(name):
        path = Path(name)
        return path if path.is_file() else None
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for entry in shipped_games():
        if wanted == entry.id or wanted in {a.lower().replace(" ", "-") for a in entry.aliases}:
            return entry.path
    return None


def game_names() -> list[str]:
    return [entry.id for entry in shipped_games()]
