"""Easthaven: the rules of seeds/easthaven.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_a_row_from_the_stock

from yaml_solitaire.engine import load_game

GAME = load_game("easthaven")


def test_seven_piles_of_three_and_the_stock_deals_a_row() -> None:
    check_a_row_from_the_stock("easthaven", 7, 3, 2)
