"""Miss Milligan: the rules of seeds/miss_milligan.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import play

from yaml_solitaire.engine import load_game

GAME = load_game("miss-milligan")


def test_one_card_a_pile_and_weaving_only_once_the_stock_is_out() -> None:
    records = play("miss-milligan", "seed 1", "t1 r1", *["d"] * 12, "t1 r1", "t2 r1 1")
    first = records[0]
    assert [len(first["piles"][f"t{k}"]) for k in range(1, 9)] == [1] * 8
    assert records[1]["error"] == "weave is not possible while the stock still has cards"
    assert len(records[-3]["piles"]["s"]) == 0
    assert records[-2]["ok"] and records[-2]["piles"]["r1"] == ["6C"]
    assert records[-1]["error"] == "nothing can be built on r1", "the weaving pile holds one run"
