"""Northwest Territory: the rules of seeds/northwest_territory.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("northwest-territory")


def test_piles_in_steps_face_down_and_sixteen_reserve_cards() -> None:
    (first,) = play("northwest-territory", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 9)] == list(range(1, 9))
    assert first["face_down"]["t8"] == 7
    assert [len(piles[f"r{k}"]) for k in range(1, 17)] == [1] * 16


def test_face_up_runs_move_and_reserve_cards_play() -> None:
    records = play(
        "northwest-territory",
        deck(GAME, piles={"r2": ["8H"]}, tops={"t3": "9C", "t5": "10D"}),
        "r2 t3",
        "t3 t5 2",
    )
    assert oks(records) == [True, True]
    assert records[-1]["piles"]["t5"][-3:] == ["10D", "9C", "8H"]
