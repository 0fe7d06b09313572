"""Bisley: the rules of seeds/bisley.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("bisley")


def test_aces_home_twelve_piles_of_four() -> None:
    (first,) = play("bisley", CANONICAL)
    piles = first["piles"]
    assert [piles[f"f{k}"] for k in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert [len(piles[f"t{k}"]) for k in range(1, 13)] == [4] * 12


def test_the_tableau_builds_up_or_down_in_suit() -> None:
    tops = {"t1": "5C", "t2": "4C", "t3": "6C", "t4": "4D"}
    records = play("bisley", deck(GAME, tops=tops), "t4 t1", "t3 t1", "t2 t1")
    assert oks(records) == [False, True, False]
    assert records[-1]["error"] == "4C does not go on 6C (t1 takes 5C or 7C)"


def test_the_kings_start_their_own_foundations_downwards() -> None:
    records = play("bisley", deck(GAME, tops={"t1": "QH", "t2": "KH"}), "t1 f5", "t2 f5", "t1 f5")
    assert oks(records) == [False, True, True]
    assert records[-1]["piles"]["f5"] == ["KH", "QH"]
