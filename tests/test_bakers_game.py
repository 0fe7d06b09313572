"""Baker's Game: the rules of seeds/bakers_game.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("bakers-game")


def test_the_tableau_builds_down_in_suit_and_a_run_moves_through_the_cells() -> None:
    tops = {"t1": "9C", "t2": "8H", "t3": "8C"}
    records = play("bakers-game", deck(GAME, tops=tops), "t2 t1", "t3 t1", "t1 t2")
    assert oks(records) == [False, True, False]
    assert records[1]["error"] == "8H does not go on 9C (t1 takes 8C)"
    assert records[2]["piles"]["t1"][-2:] == ["9C", "8C"]
    assert [len(records[0]["piles"][f"t{k}"]) for k in range(1, 9)] == [7, 7, 7, 7, 6, 6, 6, 6]
