"""Seahaven Towers: the rules of seeds/seahaven_towers.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_empty_pile_takes_only_a_king, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("seahaven-towers")


def test_the_deal_ten_piles_of_five_and_two_middle_cells() -> None:
    (first,) = play("seahaven-towers", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 11)] == [5] * 10
    assert [piles[f"c{k}"] for k in range(1, 5)] == [[], ["QS"], ["KS"], []]


def test_an_empty_pile_takes_only_a_king() -> None:
    clear = ["t1 f1", "t1 f2", "t1 f3", "t1 f4", "t1 f1"]
    check_empty_pile_takes_only_a_king(
        "seahaven-towers", GAME, ["2C", "AS", "AH", "AD", "AC"], clear
    )
