"""Seahaven Towers: the rules of seeds/seahaven_towers.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("seahaven-towers")


def oks(records: list[dict[str, object]]) -> list[object]:
    return [r["ok"] for r in records[1:]]


def test_the_deal_ten_piles_of_five_and_two_middle_cells() -> None:
    (first,) = play("seahaven-towers", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 11)] == [5] * 10
    assert [piles[f"c{k}"] for k in range(1, 5)] == [[], ["QS"], ["KS"], []]


def test_an_empty_pile_takes_only_a_king() -> None:
    records = play(
        "seahaven-towers",
        deck(GAME, piles={"t1": ["2C", "AS", "AH", "AD", "AC"]}, tops={"t2": "5H", "t3": "KH"}),
        "t1 f1",
        "t1 f2",
        "t1 f3",
        "t1 f4",
        "t1 f1",
        "t2 t1",
        "t3 t1",
    )
    assert all(oks(records)[:-2]), records
    assert records[-3]["piles"]["t1"] == []
    assert records[-2]["error"] == "t1 is empty and accepts only cards of rank K"
    assert records[-1]["ok"] and records[-1]["piles"]["t1"] == ["KH"]
