"""Gypsy: the rules of seeds/gypsy.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_a_row_from_the_stock

from yaml_solitaire.engine import load_game

GAME = load_game("gypsy")


def test_eight_piles_of_three_and_the_stock_deals_a_row() -> None:
    check_a_row_from_the_stock("gypsy", 8, 3, 2)
