"""Spanish Patience (PySolFC): the rules of seeds/spanish_patience_pysolfc.md that set it
apart, played through the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("spanish-patience-pysolfc")


def test_foundations_build_up_in_alternating_colours() -> None:
    tops = {"t1": "AC", "t2": "2C", "t3": "2D"}
    records = play("spanish-patience-pysolfc", deck(GAME, tops=tops), "t1 f1", "t2 f1", "t3 f1")
    assert oks(records) == [True, False, True]
    assert records[-1]["piles"]["f1"] == ["AC", "2D"]
