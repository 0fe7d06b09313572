"""Mrs Mop: the rules of seeds/mrs_mop.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, play

from yaml_solitaire.engine import load_game

GAME = load_game("mrs-mop")


def test_thirteen_piles_of_eight_and_runs_of_one_suit() -> None:
    order = deck(
        GAME, piles={"t1": ["9C", "8C"], "t3": ["9D", "8C"]}, tops={"t2": "10H", "t4": "9S"}
    )
    records = play("mrs-mop", order, "t1 t2", "t3 t4")
    first = records[0]
    assert [len(first["piles"][f"t{k}"]) for k in range(1, 14)] == [8] * 13
    assert "s" not in first["piles"] and first["face_down"] == {}
    assert records[1]["piles"]["t2"][-3:] == ["10H", "9C", "8C"], "a run of one suit moves"
    assert records[2]["piles"]["t4"][-2:] == ["9S", "8C"], "a mixed run does not: only 8C goes"
