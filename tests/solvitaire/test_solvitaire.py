"""Solvitaire's presets as our rule files: generated, valid, and playable without losing a card.

The claim of docs/solvitaire-presets.md, checked: every preset the translator writes is the file
checked in under ``rules/``, validates with ``--strict``, deals, and keeps its cards through
random play; the presets it cannot write are exactly the ones the page lists.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
import translate

from conftest import ROOT, run_cli
from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.core.cards import MASK

PRESETS = translate.read_presets()
WRITTEN = {p.name: text for p, text, _ in translate.rule_files(PRESETS) if text is not None}
FILES = sorted(translate.RULES.glob("*.yaml"))
PAGE = ROOT / "docs" / "solvitaire-presets.md"


def test_the_data_lists_75_distinct_records_of_80_names() -> None:
    assert len(PRESETS) == 75
    names = [n for p in PRESETS for n in (p.name, *p.also)]
    assert len(names) == len(set(names)) == 80
    records = {json.dumps(p.record, sort_keys=True) for p in PRESETS}
    assert len(records) == 75


def test_checked_in_files_are_what_the_translator_writes() -> None:
    on_disk = {p.stem: p.read_text(encoding="utf-8") for p in FILES}
    assert sorted(on_disk) == sorted(WRITTEN), "run: python tests/solvitaire/translate.py"
    stale = [name for name, text in WRITTEN.items() if on_disk[name] != text]
    assert not stale, f"out of date (run tests/solvitaire/translate.py): {stale}"


def test_at_least_70_presets_are_written_and_the_page_counts_them() -> None:
    assert len(WRITTEN) >= 70
    text = PAGE.read_text(encoding="utf-8")
    assert f"**{len(WRITTEN)} of 75**" in text
    for preset, written, why in translate.rule_files(PRESETS):
        if written is None:
            assert f"`{preset.name}`" in text and why, preset.name


def test_every_file_validates_strictly_through_the_cli() -> None:
    result = run_cli("validate", "--strict", "--json", *map(str, FILES))
    problems = [json.loads(line) for line in result.out.splitlines() if line.strip()]
    assert result.code == 0, problems


def test_shipped_games_named_by_the_data_exist() -> None:
    for preset in PRESETS:
        if preset.shipped:
            assert load_game(preset.shipped).id == preset.shipped


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_random_play_keeps_every_card(path: Path) -> None:
    game = load_game(str(path))
    every = Counter(c & MASK for c in game.cards)
    for seed in (0, 1):
        state = game.deal_seed(seed)
        choose = random.Random(seed)
        for _ in range(60):
            assert Counter(c & MASK for p in state.piles for c in p) == every
            actions = game.legal_actions(state)
            if not actions:
                break
            state = game.apply(state, choose.choice(actions))


def test_the_page_shows_each_option() -> None:
    text = PAGE.read_text(encoding="utf-8")
    default = translate.read_presets()[0].record  # any record has every option
    for section, value in default.items():
        keys = value if isinstance(value, dict) else {section: value}
        for key in keys:
            assert re.search(rf"`{re.escape(key)}`", text), f"{section}.{key}"


def test_a_preset_with_foundations_counts_only_the_cards_home() -> None:
    # A rule file without 'score' counted every pile: '52/52 cards placed' before any move.
    counted = 0
    for path in FILES:
        game = load_game(path)
        if game.spec.score.piles is not None or not game.foundations:
            continue
        state = game.deal_seed(1)
        assert game.score(state) == game.foundation_cards(state) < len(game.cards), path.name
        counted += 1
    assert counted > 50
    shown = run_cli("play", str(translate.RULES / "klondike-deal-1.yaml"), "--seed", "1",
                    stdin="quit\n").out  # fmt: skip
    assert "cards placed: 0/52" in shown
