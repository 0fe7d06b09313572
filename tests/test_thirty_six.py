"""Thirty-Six: the rules of seeds/thirty_six.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("thirty-six")


def test_six_piles_of_six_and_runs_of_any_suit() -> None:
    records = play("thirty-six", deck(GAME, piles={"t1": ["8H", "7S"]}, tops={"t2": "9D"}), "t1 t2")
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 7)] == [6] * 6
    assert len(first["s"]) == 16 and first["w"] == []
    assert oks(records) == [True]
    assert records[-1]["piles"]["t2"][-3:] == ["9D", "8H", "7S"]
