"""Wasp: the rules of seeds/wasp.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("wasp")


def test_an_empty_pile_takes_any_card() -> None:
    column = ["9C", "2H", "3H", "4H", "5H", "6H", "7H"]
    records = play(
        "wasp",
        deck(GAME, piles={"t5": column}, tops={"t6": "10C", "t7": "5S"}),
        "t5 t6 7",
        "t7 t5 1",
    )
    assert oks(records) == [True, True]
    assert records[1]["piles"]["t5"] == [] and records[-1]["piles"]["t5"] == ["5S"]
    scorpion = play(
        "scorpion",
        deck(load_game("scorpion"), piles={"t5": column}, tops={"t6": "10C", "t7": "5S"}),
        "t5 t6 7",
        "t7 t5 1",
    )
    assert [r["ok"] for r in scorpion[1:]] == [True, False]
