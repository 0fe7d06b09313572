"""American Canister: the rules of seeds/american_canister.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("american-canister")


def test_the_middle_piles_get_seven_and_any_run_moves() -> None:
    records = play(
        "american-canister",
        deck(GAME, piles={"t1": ["9C", "8H", "7S"]}, tops={"t2": "10D"}),
        "t1 t2",
    )
    first = records[0]["piles"]
    assert [len(first[f"t{k}"]) for k in range(1, 9)] == [6, 6, 7, 7, 7, 7, 6, 6]
    assert oks(records) == [True]
    assert records[-1]["piles"]["t2"][-4:] == ["10D", "9C", "8H", "7S"]
