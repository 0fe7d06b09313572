"""Streets and Alleys: the rules of seeds/streets_and_alleys.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("streets-and-alleys")


def test_the_deal_keeps_the_aces_seven_and_six_cards() -> None:
    (first,) = play("streets-and-alleys", CANONICAL)
    assert [len(first["piles"][f"t{k}"]) for k in range(1, 9)] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(first["piles"][f"f{k}"] == [] for k in range(1, 5))


def test_without_an_empty_pile_a_run_cannot_move_as_a_unit() -> None:
    records = play(
        "streets-and-alleys", deck(GAME, piles={"t1": ["9C", "8H"]}, tops={"t2": "10D"}), "t1 t2"
    )
    assert oks(records) == [False], records[-1]["error"]
    assert records[-1]["piles"]["t2"][-1] == "10D"
