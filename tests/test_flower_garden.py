"""Flower Garden: the rules of seeds/flower_garden.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("flower-garden")


def test_the_bouquet_plays_any_card_and_beds_move_one_card() -> None:
    records = play(
        "flower-garden",
        deck(GAME, piles={"t1": ["9C", "8H"], "r16": ["7S"]}, tops={"t2": "10D"}),
        "t1 t2",
        "r16 t1",
        "t2 r1",
    )
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 7)] == [6] * 6
    assert oks(records) == [False, True, False]
    assert records[2]["piles"]["t1"][-3:] == ["9C", "8H", "7S"]
