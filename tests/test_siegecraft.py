"""Siegecraft: the rules of seeds/siegecraft.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("siegecraft")


def test_aces_start_home_one_cell_and_single_cards() -> None:
    records = play(
        "siegecraft",
        deck(GAME, piles={"t1": ["9C", "8H"]}, tops={"t2": "10D"}),
        "t1 t2",
        "t1 c1",
        "t1 t2",
        "c1 t1",
    )
    first = records[0]["piles"]
    assert [first[f"f{k}"] for k in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert [len(first[f"t{k}"]) for k in range(1, 9)] == [6] * 8
    assert oks(records) == [False, True, True, False]
    assert records[-2]["piles"]["t2"][-2:] == ["10D", "9C"]
