"""Trigon: the rules of seeds/trigon.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("trigon")


def test_the_tableau_builds_down_in_suit() -> None:
    tops = {"t2": "9C", "t3": "8H", "t4": "8C"}
    records = play("trigon", deck(GAME, tops=tops), "t3 t2", "t4 t2")
    assert oks(records) == [False, True]
    assert records[1]["error"] == "8H does not go on 9C (t2 takes 8C)"
