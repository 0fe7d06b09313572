"""Solvitaire's Spider-like presets as Solvitaire runs them (tests/solvitaire/as-run/).

Solvitaire's parser reads the key 'complete piles' where its presets write 'only complete pile
moves', so it builds these games' foundations one card at a time. Each as-run file must be its
written preset with only that changed, and must play differently from it: Simple Simon's deal 15
is lost as written (after one move nothing moves) and won as run (its Aces go home first).
"""

from __future__ import annotations

import json
from pathlib import Path

import translate
import yaml

from conftest import run_cli

AS_RUN = sorted((translate.RULES.parent / "as-run").glob("*.yaml"))
HOME = {"effect": "move", "from": ["tableau"], "to": ["foundations"]}


def test_each_file_is_its_preset_with_the_default_foundations() -> None:
    assert [p.stem for p in AS_RUN] == [
        "mrs-mop", "simple-simon", "spider", "spiderette", "will-o-the-wisp",
    ]  # fmt: skip
    for path in AS_RUN:
        run = yaml.safe_load(path.read_text(encoding="utf-8"))
        written = yaml.safe_load((translate.RULES / path.name).read_text(encoding="utf-8"))
        assert run["piles"]["foundations"].pop("accepts") == {
            "build": "up", "suit": "same", "empty": "A",
        }  # fmt: skip
        assert written["actions"].pop("collect")["effect"] == "remove_runs"
        home = run["actions"].pop("home")
        assert {k: home[k] for k in HOME} == HOME
        for record in (run, written):
            for key in ("id", "name", "description"):
                record.pop(key)
            record["flow"]["transitions"] = [
                t for t in record["flow"]["transitions"] if t["trigger"] not in ("home", "collect")
            ]
        assert run == written, path.name


def test_the_files_validate_strictly() -> None:
    result = run_cli("validate", "--strict", "--json", *map(str, AS_RUN))
    assert result.code == 0, result.out


def verdict(path: Path, seed: int) -> str:
    result = run_cli("solve", str(path), "--seed", str(seed), "--budget-nodes", "20000", "--json")
    return str(json.loads(result.out)["result"])


def test_simple_simon_deal_15_is_lost_as_written_and_won_as_run() -> None:
    assert verdict(translate.RULES / "simple-simon.yaml", 15) == "lost"
    assert verdict(translate.RULES.parent / "as-run" / "simple-simon.yaml", 15) == "won"
