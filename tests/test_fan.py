"""Fan: the rules of seeds/fan.md that set it apart, played through
the CLI with crafted decks."""

from __future__ import annotations

from crafted import deck, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

GAME = load_game("fan")


def oks(records: list[dict[str, object]]) -> list[object]:
    return [r["ok"] for r in records[1:]]


def test_seventeen_fans_of_three_and_one_single_card() -> None:
    (first,) = play("fan", CANONICAL)
    piles = first["piles"]
    assert [len(piles[f"t{k}"]) for k in range(1, 19)] == [3] * 17 + [1]
    assert piles["t18"] == ["KS"]


def test_an_empty_pile_takes_only_a_king() -> None:
    records = play(
        "fan",
        deck(GAME, piles={"t1": ["AD", "2C", "AC"]}, tops={"t2": "5H", "t3": "KH"}),
        "t1 f1",
        "t1 f1",
        "t1 f2",
        "t2 t1",
        "t3 t1",
    )
    assert all(oks(records)[:-2]), records
    assert records[-3]["piles"]["t1"] == []
    assert records[-2]["error"] == "t1 is empty and accepts only cards of rank K"
    assert records[-1]["ok"] and records[-1]["piles"]["t1"] == ["KH"]
