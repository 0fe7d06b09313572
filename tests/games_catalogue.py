"""docs/games.md, the catalogue of the shipped games, made from the rule files, their seeds
notes and docs/winnability.md: ``python tests/games_catalogue.py > docs/games.md``
(tests/test_games_catalogue.py checks that the page is current)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from yaml_solitaire.rules import shipped_games  # noqa: E402
from yaml_solitaire.rules.catalog import FAMILY_TITLES  # noqa: E402

NOTE = re.compile(r"seeds/[a-z0-9_]+\.md")
PYSOL_CLASS = re.compile(r"class(?:es)? `([A-Za-z_]+)`")
ROW = re.compile(r"^\| `([a-z0-9-]+)` \| (\d+) \|(?:[^|]*\|){3} ([^|]+) \|", re.M)


def winnability() -> dict[str, str]:
    """Each shipped game's first row of docs/winnability.md: deals and bounds (95% CI)."""
    text = (ROOT / "docs" / "winnability.md").read_text(encoding="utf-8")
    games = text.partition("## The Solvitaire presets")[0]
    rows: dict[str, str] = {}
    for game, deals, bounds in ROW.findall(games):
        rows.setdefault(game, f"{bounds.strip()}, {deals} deals")
    return rows


def source(path: Path) -> tuple[str, str]:
    """The game's seeds note, and its source in a few words (PySolFC's class, if any)."""
    head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:3])
    found = NOTE.search(head)
    note = found.group(0) if found else f"seeds/{path.stem}.md"
    text = (ROOT / note).read_text(encoding="utf-8") if (ROOT / note).is_file() else ""
    sources = text.partition("**Sources.**")[2].partition("\n\n")[0]
    pysol = PYSOL_CLASS.search(sources)
    if pysol:
        return note, f"PySolFC `{pysol.group(1)}`"
    if "Solvitaire" in sources:
        return note, "Solvitaire's preset"
    return note, "the seeds note"


def catalogue_markdown() -> str:
    games = shipped_games()
    rows = winnability()
    out = [
        "# The games",
        "",
        "Every shipped game, by family, as `solitaire list` groups them: its id, name, decks,",
        "where its rules come from (the seeds note says more: which source, the choices made) and",
        "its row of [winnability.md](winnability.md): the bounds on the share of deals that can",
        "be won, with a 95% interval, and how many deals they rest on.",
        "Made by `python tests/games_catalogue.py > docs/games.md`; do not edit by hand.",
        "",
        f"{len(games)} games.",
    ]
    for family, title in FAMILY_TITLES.items():
        members = [g for g in games if g.family == family]
        if not members:
            continue
        out += ["", f"## {title}", "", "| id | name | decks | source | winnable |"]
        out.append("| --- | --- | --- | --- | --- |")
        for g in members:
            note, where = source(g.path)
            row = rows.get(g.id, "no row yet")
            out.append(f"| `{g.id}` | {g.name} | {g.decks} | {where} ([note](../{note})) | {row} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(catalogue_markdown())
