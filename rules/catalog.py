"""Finding rule files: shipped games by id or alias, or a path on disk.

The index of the shipped games (id, name, decks, aliases, file) is kept in the cache, keyed by
the folder's listing, so that finding one game does not read every rule file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..games import GAMES_DIR
from . import cache
from .errors import RuleError
from .files import decode, is_file, read_bytes
from .frozen import frozen_dataclass

# The catalogue's headings, in the order ``solitaire list`` shows the families; the keys are
# the values of a rule file's ``family`` (rules.model.Family). They name games, so they are
# data beside the rule files.
FAMILY_TITLES: dict[str, str] = json.loads((GAMES_DIR / "families.json").read_text("utf-8"))


@frozen_dataclass
class CatalogEntry:
    """A shipped game: its id, name, decks, aliases, family and rule file."""

    id: str
    name: str
    decks: int
    aliases: tuple[str, ...]
    path: Path
    family: str = "other"

    def as_json(self) -> dict[str, object]:
        """The game as ``solitaire list --json`` lists it (and the browser table's list)."""
        return {
            "id": self.id, "name": self.name, "decks": self.decks,
            "aliases": list(self.aliases), "family": self.family,
        }  # fmt: skip


def _listing(folder: Path) -> list[tuple[str, int, int]]:
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".yaml")]
    except OSError:
        return []
    listing = []
    for entry in entries:
        try:
            info = entry.stat()
        except OSError:  # a dangling link, say: not a game
            continue
        listing.append((entry.name, info.st_size, info.st_mtime_ns))
    return sorted(listing)


def _entry(path: Path) -> CatalogEntry | None:
    from .source import YamlSyntaxError, read_yaml

    try:
        data = read_yaml(decode(read_bytes(path, path.name), path.name)).data
    except (RuleError, YamlSyntaxError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        return None
    aliases = data.get("aliases") or ()
    decks = data.get("decks", 1)
    suits = data.get("suits")
    if isinstance(decks, int) and isinstance(suits, list) and suits and len(suits) <= 4:
        # Eight decks of spades only are two decks' worth of cards, as players count them.
        decks = max(1, decks * len(suits) // 4)
    return CatalogEntry(
        id=data["id"],
        name=str(data.get("name", data["id"])),
        decks=decks if isinstance(decks, int) else 1,
        aliases=tuple(str(a) for a in aliases) if isinstance(aliases, list) else (),
        path=path,
        family=family if isinstance(family := data.get("family"), str) else "other",
    )


def shipped_games() -> list[CatalogEntry]:
    """Every shipped game, in id order (files that cannot be read are skipped)."""
    listing = _listing(GAMES_DIR)
    name = cache.key((), str(GAMES_DIR), repr(listing))
    cached = cache.load("catalog", name, lambda cls: cls is CatalogEntry)
    if isinstance(cached, tuple) and all(isinstance(e, CatalogEntry) for e in cached):
        return list(cached)
    entries = [e for file, _, _ in listing if (e := _entry(GAMES_DIR / file)) is not None]
    entries.sort(key=lambda e: e.id)
    cache.store("catalog", name, tuple(entries))
    return entries


def looks_like_path(name: str) -> bool:
    return name.endswith((".yaml", ".yml")) or "/" in name or "\\" in name


def _normal(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def find_game(name: str) -> Path | None:
    """The rule file for a game id, alias or path; None when there is none."""
    if looks_like_path(name):
        path = Path(name)
        return path if is_file(path) else None
    wanted = _normal(name)
    for entry in shipped_games():
        if wanted == entry.id or wanted in {_normal(a) for a in entry.aliases}:
            return entry.path
    return None


def game_names() -> list[str]:
    return [entry.id for entry in shipped_games()]
