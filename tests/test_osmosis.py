"""Osmosis: each rule of seeds/osmosis.md played through the CLI with crafted decks (deck cards
1-12 face down and 13-16 face up onto r1..r4 in turn, card 17 on f1, 18-20 on the waste, the
rest in the stock, card 21 on top)."""

from __future__ import annotations

from typing import Any

from crafted import play as play_cli

from conftest import CANONICAL


def crafted(places: dict[int, str]) -> list[str]:
    """A deck order with these cards at these places (from 0), the rest in canonical order."""
    rest = iter(c for c in CANONICAL if c not in places.values())
    return [places[k] if k in places else next(rest) for k in range(52)]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    return play_cli("osmosis", order, *commands)


def test_the_deal_four_reserves_with_one_card_up_and_one_card_home() -> None:
    (dealt,) = play(crafted({16: "7S"}))
    piles = dealt["piles"]
    assert piles["f1"] == ["7S"] and all(len(piles[f"r{k}"]) == 4 for k in range(1, 5))
    assert dealt["face_down"] == {"r1": 3, "r2": 3, "r3": 3, "r4": 3, "s": 32}
    assert len(piles["w"]) == 3


def test_a_rank_passes_to_the_next_foundation_once_the_one_before_holds_it() -> None:
    order = crafted({16: "7S", 12: "7H", 13: "8H", 14: "8S", 15: "7D"})
    commands = ("r4 f3", "r2 f2", "r1 f2", "r2 f2", "r3 f1", "r2 f2", "r4 f3")
    records = play(order, *commands)
    assert records[1]["error"] == "f3 is empty and accepts nothing"  # f2 has no first card
    assert records[2]["error"] == "f2 is empty and accepts only cards of rank 7"  # f1's first
    assert records[3]["ok"]
    assert records[4]["error"] == "8H goes on f2 only while f1 holds a card of its rank"
    assert records[5]["ok"] and records[6]["ok"]  # 8S home on f1: now 8H may follow
    assert records[7]["ok"] and records[7]["piles"]["f3"] == ["7D"]


def test_a_foundation_holds_one_suit_in_any_order_and_reserve_cards_turn_up() -> None:
    order = crafted({16: "7S", 12: "KS", 13: "2S", 14: "KH"})
    records = play(order, "r1 f1", "r2 f1", "r3 f1")
    assert records[1]["ok"] and records[2]["ok"]  # K then 2: ranks in any order
    assert records[2]["face_down"]["r1"] == 2 and records[2]["face_down"]["r2"] == 2
    assert records[3]["error"] == "KH does not go on 2S (f1 takes cards of suit S)"


def test_the_stock_turns_three_at_a_time_and_the_waste_goes_back_without_limit() -> None:
    records = play(crafted({}), *(["d"] * 11), "r", "d")
    assert len(records[11]["piles"]["w"]) == 3 + 32 and records[11]["piles"]["s"] == []
    assert records[12]["ok"] and len(records[12]["piles"]["s"]) == 35
    assert records[13]["ok"] and len(records[13]["piles"]["w"]) == 3
