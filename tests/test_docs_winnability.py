"""docs/winnability.md has a row for every shipped game and every Solvitaire preset, each with
the command that makes it."""

from __future__ import annotations

import json
import re
import shlex

from conftest import ROOT, run_cli
from yaml_solitaire.engine import load_game

TABLE_ROW = re.compile(r"^\| `([a-z0-9-]+)` \|(.*)\|\s*$")


PRESETS_HEADING = "## The Solvitaire presets"


def rows(presets: bool = False) -> dict[str, list[list[str]]]:
    """The rows of the shipped games' table, or of the presets' one (the section after it)."""
    text = (ROOT / "docs" / "winnability.md").read_text(encoding="utf-8")
    games, _, rest = text.partition(PRESETS_HEADING)
    assert rest, f"docs/winnability.md has no section '{PRESETS_HEADING}'"
    rest = rest.partition("\n## ")[0]  # the presets' section alone
    found: dict[str, list[list[str]]] = {}
    for line in (rest if presets else games).splitlines():
        match = TABLE_ROW.match(line)
        if match:
            cells = [c.strip() for c in match.group(2).split(" | ")]
            found.setdefault(match.group(1), []).append(cells)
    return found


def test_every_shipped_game_has_a_row() -> None:
    shipped = {json.loads(line)["id"] for line in run_cli("list", "--json").out.splitlines()}
    table = rows()
    assert shipped - set(table) == set(), "games without a row"
    assert set(table) - shipped == set(), "rows of games that are not shipped"


def test_every_preset_has_a_row() -> None:
    files = sorted(ROOT.glob("tests/solvitaire/rules/*.yaml"))
    assert len(files) >= 70
    ids = {load_game(str(path)).id: path for path in files}
    table = rows(presets=True)
    assert set(table) == set(ids)
    for game, entries in table.items():
        (command,) = re.findall(r"`(solitaire stats [^`]+)`", entries[0][-1])
        assert shlex.split(command)[2] == str(ids[game].relative_to(ROOT)), command


def test_each_row_gives_a_command_that_reproduces_it() -> None:
    files = {load_game(str(p)).id: p for p in ROOT.glob("tests/solvitaire/rules/*.yaml")}
    for game, entries in [*rows().items(), *rows(presets=True).items()]:
        for cells in entries:
            deals, won, lost, unknown = cells[0], cells[1], cells[2], cells[3]
            (command,) = re.findall(r"`(solitaire stats [^`]+)`", cells[-1])
            words = shlex.split(command)
            named = str(files[game].relative_to(ROOT)) if game in files else game
            assert words[2] == named and "--solve" in words, command
            assert words[words.index("--deals") + 1] == deals, command
            assert "--budget-nodes" in words or "--budget-seconds" in words, command
            # The counts add up to the deals.
            counts = [int(cell.split()[0]) for cell in (won, lost, unknown)]
            assert sum(counts) == int(deals), (game, cells)
