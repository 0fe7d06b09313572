"""Delta Star: the rules of seeds/delta_star.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("delta-star")


def test_only_the_top_card_moves() -> None:
    records = play(
        "delta-star",
        deck(GAME, piles={"t1": ["9C", "8C", "7C"]}, tops={"t2": "10C"}),
        "t1 t2",
        "t1 t2 3",
    )
    assert oks(records) == [False, False]
    assert [len(records[0]["piles"][f"t{k}"]) for k in range(1, 13)] == [4] * 12
