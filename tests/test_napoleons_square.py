"""Napoleon's Square: the rules of seeds/napoleons_square.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("napoleons-square")


def test_twelve_piles_and_runs_of_any_length_in_suit() -> None:
    order = deck(GAME, piles={"t1": ["9C", "8C", "7C"]}, tops={"t2": "10C"})
    records = play("napoleons-square", order, "t1 t2")
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 13)] == [4] * 12 and len(first["s"]) == 56
    assert oks(records) == [True]
    assert records[-1]["piles"]["t2"][-4:] == ["10C", "9C", "8C", "7C"]
