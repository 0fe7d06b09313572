"""Alternation: the rules of seeds/alternation.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import play

from yaml_solitaire.engine import load_game

GAME = load_game("alternation")


def test_rows_face_up_and_down_by_turns_and_a_waste_card() -> None:
    (first,) = play("alternation", "seed 1")
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 8)] == [7] * 7
    assert first["face_down"]["t1"] == 3
    assert len(piles["w"]) == 1 and len(piles["s"]) == 54
