"""Somerset: the rules of seeds/somerset.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("somerset")


def test_ten_piles_in_steps_and_runs_through_empty_piles() -> None:
    records = play(
        "somerset", deck(GAME, piles={"t9": ["9C", "8H"]}, tops={"t10": "10D"}), "t9 t10"
    )
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 11)] == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    assert oks(records) == [False], "no empty pile: one card at a time"
