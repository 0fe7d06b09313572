"""Simple Simon: each rule of seeds/simple_simon.md played through the CLI with crafted decks
(the deal lays cards row by row onto the piles that still take one: 8, 8, 8, 7 ... 1)."""

from __future__ import annotations

from typing import Any

from crafted import play as play_cli

from conftest import CANONICAL

SIZES = [8, 8, 8, 7, 6, 5, 4, 3, 2, 1]
TABLEAU = [f"t{k}" for k in range(1, 11)]


def crafted(piles: dict[str, list[str]]) -> list[str]:
    """These top cards (bottom to top) on these piles; other cards in canonical order."""
    given = {c for cards in piles.values() for c in cards}
    rest = iter(c for c in CANONICAL if c not in given)
    full = {
        t: [next(rest) for _ in range(size - len(piles.get(t, [])))] + piles.get(t, [])
        for t, size in zip(TABLEAU, SIZES, strict=True)
    }
    return [full[t][r] for r in range(8) for t, size in zip(TABLEAU, SIZES, strict=True)
            if r < size]  # fmt: skip


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    return play_cli("simple-simon", order, *commands)


def test_the_deal_ten_piles_from_eight_cards_down_to_one() -> None:
    (dealt,) = play(crafted({}))
    assert [len(dealt["piles"][t]) for t in TABLEAU] == SIZES
    assert dealt["face_down"] == {}


def test_a_run_of_mixed_suits_moves_by_its_one_suit_parts_through_empty_piles() -> None:
    order = crafted({"t1": ["9S", "8S", "7H"], "t2": ["10D"], "t3": ["KD"], "t10": ["QD"]})
    records = play(order, "t1 t2 3", "t10 t3", "t1 t2 3")
    assert records[1]["error"] == (
        "those 3 cards are 2 runs: only 1 run can move at once (doubled for each empty pile)"
    )
    assert records[2]["ok"] and records[2]["piles"]["t10"] == []
    assert records[3]["ok"] and records[3]["piles"]["t2"][-4:] == ["10D", "9S", "8S", "7H"]


def test_a_run_in_one_suit_moves_whole_and_goes_home_when_king_to_ace() -> None:
    order = crafted({"t1": ["KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"],
                     "t2": ["5S", "4S", "3S", "2S", "AS"]})  # fmt: skip
    records = play(order, "t2 t1 5")
    assert records[1]["ok"] and records[1]["piles"]["t1"] == []
    assert len(records[1]["piles"]["f1"]) == 13


def test_piles_build_down_in_any_suit() -> None:
    order = crafted({"t4": ["8C"], "t9": ["7D"], "t10": ["JH"], "t5": ["2C"]})
    records = play(order, "t9 t4", "t10 t4")
    assert records[1]["ok"]  # red on black, any suit
    assert records[2]["error"] == "JH does not go on 7D (t4 takes any 6)"
