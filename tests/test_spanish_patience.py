"""Spanish Patience: the rules of seeds/spanish_patience.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("spanish-patience")


def test_builds_regardless_of_suit_and_foundations_give_back() -> None:
    records = play(
        "spanish-patience",
        deck(GAME, tops={"t1": "AC", "t2": "2D", "t3": "3S"}),
        "t1 f1",
        "t2 t3",
        "f1 t3",
    )
    assert oks(records) == [True, True, True]
    assert records[-1]["piles"]["t3"][-3:] == ["3S", "2D", "AC"]
    assert [len(records[0]["piles"][f"t{k}"]) for k in range(1, 14)] == [4] * 13


def test_an_emptied_pile_takes_any_card() -> None:
    column = ["2C", "AS", "AH", "AC"]
    records = play(
        "spanish-patience",
        deck(GAME, piles={"t1": column}, tops={"t2": "9D"}),
        "t1 f1",
        "t1 f2",
        "t1 f3",
        "t1 f1",
        "t2 t1",
    )
    assert oks(records) == [True] * 5
    assert records[-1]["piles"]["t1"] == ["9D"]
