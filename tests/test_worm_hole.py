"""Worm Hole: the rules of seeds/worm_hole.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("worm-hole")


def test_the_worm_hole_holds_one_card_that_goes_only_into_the_hole() -> None:
    records = play(
        "worm-hole",
        deck(GAME, tops={"t1": "2D", "t2": "5C", "t3": "KH"}),
        "t1 c1",
        "t2 c1",
        "c1 t3",
        "c1 f1",
    )
    assert oks(records) == [True, False, False, True]
    assert records[-1]["piles"]["f1"] == ["AS", "2D"]
