"""Labyrinth: each rule of seeds/labyrinth.md played through the CLI with crafted decks (the
Aces go to f1..f4; the next eight cards start t1..t8; the stock deals the rest in order)."""

from __future__ import annotations

from typing import Any

from crafted import play as play_cli

from conftest import CANONICAL

TABLEAU = [f"t{k}" for k in range(1, 9)]


def crafted(heads: list[str], stock: tuple[str, ...] = ()) -> list[str]:
    """The Aces, these first cards of t1.. (then others), then the stock's cards in the order
    dealt, then the rest."""
    given = {*heads, *stock, "AC", "AD", "AH", "AS"}
    rest = [c for c in CANONICAL if c not in given]
    firsts = heads + rest[: 8 - len(heads)]
    return ["AC", "AD", "AH", "AS", *firsts, *stock, *rest[8 - len(heads) :]]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    return play_cli("labyrinth", order, *commands)


def test_the_deal_aces_home_one_card_a_column_and_the_stock() -> None:
    (dealt,) = play(crafted(["9C"]))
    piles = dealt["piles"]
    assert [piles[f] for f in ("f1", "f2", "f3", "f4")] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert piles["t1"] == ["9C"] and all(len(piles[t]) == 1 for t in TABLEAU)
    assert dealt["face_down"] == {"s": 40}


def test_a_columns_first_and_last_cards_are_free_and_go_only_home() -> None:
    order = crafted(["2C", "3S"], stock=("9H", "2S", "8D"))
    commands = ("head t1 f1", "d", "t2 f4", "head t2 f4", "t2 f4", "head t1 f1", "t1 t3")
    records = play(order, *commands)
    assert records[1]["error"] == "t1 has one card: it is its top card, taken from the top"
    assert records[2]["piles"]["t1"] == ["2C", "9H"] and records[2]["piles"]["t2"] == ["3S", "2S"]
    assert records[3]["ok"]  # the last card
    assert records[4]["error"] == "t2 has one card: it is its top card, taken from the top"
    assert records[5]["ok"] and len(records[5]["piles"]["t2"]) == 1  # refilled from the stock
    assert records[6]["ok"] and records[6]["piles"]["t1"] == ["9H"]  # the first card
    assert records[7]["error"] == "cards cannot be moved to t3"


def test_five_deals_fill_every_column_to_six() -> None:
    records = play(crafted([]), "d", "d", "d", "d", "d")
    assert [len(records[5]["piles"][t]) for t in TABLEAU] == [6] * 8
    assert records[5]["piles"]["s"] == []


def test_an_emptied_column_takes_the_stocks_next_card_at_once() -> None:
    records = play(crafted(["2C"], ("9D",)), "t1 f1")
    assert records[1]["piles"]["t1"] == ["9D"] and len(records[1]["piles"]["s"]) == 39


def test_a_deal_with_every_column_full_is_refused() -> None:
    records = play(crafted(["KC"]), "d", "d", "d", "d", "d", "d")
    assert records[6]["error"] == "s is empty"
