"""Will o' the Wisp: the rules of seeds/will_o_the_wisp.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_a_row_from_the_stock

from yaml_solitaire.engine import load_game

GAME = load_game("will-o-the-wisp")


def test_seven_piles_of_three_and_the_stock_deals_a_row() -> None:
    check_a_row_from_the_stock("will-o-the-wisp", 7, 3, 2)
