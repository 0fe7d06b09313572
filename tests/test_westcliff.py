"""Westcliff: the rules of seeds/westcliff.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import oks, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("westcliff")


def test_ten_piles_of_three_a_waste_card_and_one_pass() -> None:
    (first,) = play("westcliff", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 11)] == [3] * 10
    assert first["face_down"]["t1"] == 2 and len(piles["w"]) == 1 and len(piles["s"]) == 21
    records = play("westcliff", CANONICAL, *["d"] * 22)
    assert oks(records) == [True] * 21 + [False]
