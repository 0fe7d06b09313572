"""Eight Off: the rules of seeds/eight_off.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_empty_pile_takes_only_a_king, deck, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("eight-off")


def test_the_deal_six_rows_then_every_other_cell() -> None:
    (first,) = play("eight-off", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 9)] == [6] * 8
    assert [piles[f"c{k}"] for k in range(1, 9)] == [
        ["10S"],
        [],
        ["JS"],
        [],
        ["QS"],
        [],
        ["KS"],
        [],
    ]


def test_an_empty_pile_takes_only_a_king() -> None:
    clear = ["t1 f1", "t1 f2", "t1 f3", "t1 f4", "t1 f1", "t1 f2"]
    check_empty_pile_takes_only_a_king(
        "eight-off", GAME, ["2D", "2C", "AS", "AH", "AD", "AC"], clear
    )


def test_a_run_moves_only_as_far_as_the_empty_cells_carry_it() -> None:
    # Four cells are empty: five cards may move; with a card parked in c2, four.
    run = ["9H", "8H", "7H", "6H", "5H"]
    order = deck(GAME, piles={"t1": run}, tops={"t2": "10H"})
    (_, moved) = play("eight-off", order, "t1 t2")
    assert moved["ok"] and moved["piles"]["t2"][-6:] == ["10H", *run]
    (_, parked, refused) = play("eight-off", order, "t3 c2", "t1 t2")
    assert parked["ok"] and not refused["ok"]
