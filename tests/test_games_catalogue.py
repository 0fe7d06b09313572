"""The catalogue: each game's family (data in its rule file, validated), 'solitaire list' by
family, and docs/games.md in step with games/."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import yaml
from games_catalogue import catalogue_markdown

from conftest import GAMES, ROOT, run_cli
from yaml_solitaire.rules.catalog import FAMILY_TITLES
from yaml_solitaire.rules.model import Family


def test_the_families_of_the_model_are_the_catalogues_headings() -> None:
    assert set(typing.get_args(Family)) == set(FAMILY_TITLES)


def test_every_shipped_file_names_its_family_itself() -> None:
    for path in sorted(GAMES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data.get("family") in FAMILY_TITLES, path.name


def test_an_unknown_family_is_refused_with_the_list(tmp_path: Path) -> None:
    rules = tmp_path / "x.yaml"
    rules.write_text(f"extends: {GAMES / 'fan.yaml'}\nid: x\nname: X\nfamily: fans\n")
    result = run_cli("validate", str(rules))
    assert result.code == 1 and "family" in result.err and "freecell" in result.err


def test_list_groups_the_games_by_family() -> None:
    records = [json.loads(line) for line in run_cli("list", "--json").out.splitlines()]
    assert {r["id"]: r["family"] for r in records}["eight-off"] == "freecell"
    text = run_cli("list").out
    lines = [line.strip() for line in text.splitlines()]
    klondike_heading = lines.index(FAMILY_TITLES["klondike"])
    spider_heading = lines.index(FAMILY_TITLES["spider"])
    between = lines[klondike_heading:spider_heading]
    assert any(line.startswith("westcliff ") for line in between)
    assert not any(line.startswith("spiderette ") for line in between)


def test_the_games_page_is_current_and_lists_every_game() -> None:
    text = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    assert text == catalogue_markdown(), (
        "docs/games.md is stale: run 'python tests/games_catalogue.py > docs/games.md'"
    )
    for path in GAMES.glob("*.yaml"):
        game_id = yaml.safe_load(path.read_text(encoding="utf-8"))["id"]
        assert f"| `{game_id}` |" in text
    assert "no row yet" not in text, "every game has its winnability row"
