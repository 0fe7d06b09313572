"""Stronghold: the rules of seeds/stronghold.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("stronghold")


def test_the_free_cell_lets_a_run_of_two_move() -> None:
    records = play(
        "stronghold", deck(GAME, piles={"t1": ["9C", "8H"]}, tops={"t2": "10D"}), "t1 t2"
    )
    assert oks(records) == [True], records[-1]["error"]
    assert records[-1]["piles"]["t2"][-3:] == ["10D", "9C", "8H"]


def test_the_cell_holds_one_card() -> None:
    records = play("stronghold", deck(GAME, tops={"t1": "5C", "t2": "6D"}), "t1 c1", "t2 c1")
    assert oks(records) == [True, False]
    assert records[-1]["error"] == "c1 holds at most 1 card"
