"""Alpha Star: the rules of seeds/alpha_star.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("alpha-star")


def test_a_run_of_one_suit_moves_whole() -> None:
    records = play(
        "alpha-star", deck(GAME, piles={"t1": ["9C", "8C", "7C"]}, tops={"t2": "10C"}), "t1 t2"
    )
    assert oks(records) == [True]
    assert records[-1]["piles"]["t2"][-4:] == ["10C", "9C", "8C", "7C"]
    assert [records[0]["piles"][f"f{k}"] for k in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
