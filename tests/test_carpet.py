"""Carpet: the rules of seeds/carpet.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("carpet")


def test_a_place_of_the_carpet_takes_the_waste_card_once_empty() -> None:
    records = play("carpet", deck(GAME, tops={"t1": "2C"}), "w t1", "t1 f1", "w t1", "t2 t1")
    first = records[0]["piles"]
    assert [first[f"f{k}"] for k in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert len(first["w"]) == 1 and len(first["s"]) == 27
    assert oks(records) == [False, True, True, False]
