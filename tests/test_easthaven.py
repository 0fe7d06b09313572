"""Easthaven: the rules of seeds/easthaven.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import play

from yaml_solitaire.engine import load_game

GAME = load_game("easthaven")


def oks(records: list[dict[str, object]]) -> list[object]:
    return [r["ok"] for r in records[1:]]


def test_seven_piles_of_three_and_the_stock_deals_a_row() -> None:
    records = play("easthaven", "seed 1", "d")
    first, after = records[0], records[1]
    assert [len(first["piles"][f"t{k}"]) for k in range(1, 7 + 1)] == [3] * 7
    assert first["face_down"]["t1"] == 2
    assert after["ok"]
    assert [len(after["piles"][f"t{k}"]) for k in range(1, 7 + 1)] == [3 + 1] * 7
    assert len(after["piles"]["s"]) == 31 - 7
