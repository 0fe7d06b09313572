"""docs/winnability.md has a row for every shipped game, each with the command that makes it."""

from __future__ import annotations

import json
import re
import shlex

from conftest import ROOT, run_cli

TABLE_ROW = re.compile(r"^\| `([a-z0-9-]+)` \|(.*)\|\s*$")


def rows() -> dict[str, list[list[str]]]:
    text = (ROOT / "docs" / "winnability.md").read_text(encoding="utf-8")
    found: dict[str, list[list[str]]] = {}
    for line in text.splitlines():
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


def test_each_row_gives_a_command_that_reproduces_it() -> None:
    for game, entries in rows().items():
        for cells in entries:
            deals, won, lost, unknown = cells[0], cells[1], cells[2], cells[3]
            (command,) = re.findall(r"`(solitaire stats [^`]+)`", cells[-1])
            words = shlex.split(command)
            assert words[2] == game and "--solve" in words, command
            assert words[words.index("--deals") + 1] == deals, command
            assert "--budget-nodes" in words or "--budget-seconds" in words, command
            # The counts add up to the deals.
            counts = [int(cell.split()[0]) for cell in (won, lost, unknown)]
            assert sum(counts) == int(deals), (game, cells)
