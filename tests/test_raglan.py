"""Raglan: the rules of seeds/raglan.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("raglan")


def test_aces_home_piles_of_one_to_seven_and_six_reserve_cards() -> None:
    (first,) = play("raglan", CANONICAL)
    piles = first["piles"]
    assert [piles[f"f{k}"] for k in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert [len(piles[f"t{k}"]) for k in range(1, 10)] == [1, 2, 3, 4, 5, 6, 7, 7, 7]
    assert [len(piles[f"r{k}"]) for k in range(1, 7)] == [1] * 6


def test_one_card_at_a_time() -> None:
    records = play("raglan", deck(GAME, piles={"t9": ["9C", "8H"]}, tops={"t8": "10D"}), "t9 t8")
    assert oks(records) == [False]
