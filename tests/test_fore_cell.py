"""ForeCell: the rules of seeds/fore_cell.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import check_empty_pile_takes_only_a_king, deck, oks, play

from yaml_solitaire.engine import load_game

GAME = load_game("fore-cell")


def test_the_cells_start_full_and_the_tableau_alternates_colours() -> None:
    tops = {"t1": "9C", "t2": "8C", "t3": "8H"}
    records = play("fore-cell", deck(GAME, tops=tops), "t2 t1", "t3 t1")
    assert [records[0]["piles"][f"c{k}"] for k in range(1, 5)] == [["10S"], ["JS"], ["QS"], ["KS"]]
    assert oks(records) == [False, True]
    assert records[1]["error"] == "8C does not go on 9C (t1 takes 8D or 8H)"


def test_an_empty_pile_takes_only_a_king() -> None:
    clear = ["t1 f1", "t1 f2", "t1 f3", "t1 f4", "t1 f1", "t1 f2"]
    check_empty_pile_takes_only_a_king(
        "fore-cell", GAME, ["2D", "2C", "AS", "AH", "AD", "AC"], clear
    )
