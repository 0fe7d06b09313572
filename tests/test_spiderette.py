"""Spiderette: the rules of seeds/spiderette.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import play

from yaml_solitaire.engine import load_game

GAME = load_game("spiderette")


def test_seven_piles_in_steps_and_a_row_from_the_stock() -> None:
    records = play("spiderette", "seed 1", "d")
    first, after = records[0], records[1]
    assert [len(first["piles"][f"t{k}"]) for k in range(1, 8)] == list(range(1, 8))
    assert first["face_down"]["t7"] == 6 and len(first["piles"]["s"]) == 24
    assert after["ok"] and len(after["piles"]["s"]) == 17
