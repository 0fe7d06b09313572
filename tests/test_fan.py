"""Fan: the rules of seeds/fan.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_empty_pile_takes_only_a_king, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("fan")


def test_seventeen_fans_of_three_and_one_single_card() -> None:
    (first,) = play("fan", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 19)] == [3] * 17 + [1]
    assert piles["t18"] == ["KS"]


def test_an_empty_pile_takes_only_a_king() -> None:
    clear = ["t1 f1", "t1 f1", "t1 f2"]
    check_empty_pile_takes_only_a_king("fan", GAME, ["AD", "2C", "AC"], clear)
