"""Tri Peaks: each rule of seeds/tri_peaks.md played through the CLI with crafted decks (the
deal lays deck card k on t(k), k = 1..28, the 29th on the waste and the rest in the stock,
the 30th on top)."""

from __future__ import annotations

from typing import Any

from conftest import CANONICAL, run_cli

PLAY_ORDER = [f"t{k}" for k in (*range(19, 29), *range(10, 19), *range(4, 10), 1, 2, 3)]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    result = run_cli("play", "tri-peaks", "--deck", " ".join(order), "--json", "--no-auto",
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands)
    return records


def crafted(places: dict[str, str]) -> list[str]:
    """A deck order with these cards on these piles ('w' the waste), the rest in order."""
    slot = {f"t{k}": k - 1 for k in range(1, 29)} | {"w": 28}
    order: list[str | None] = [None] * 52
    for pile, card in places.items():
        order[slot[pile]] = card
    rest = iter(c for c in CANONICAL if c not in places.values())
    return [c if c is not None else next(rest) for c in order]


def test_the_deal_three_rows_face_down_the_bottom_row_face_up() -> None:
    (dealt,) = play(CANONICAL)
    assert dealt["face_down"] == {**{f"t{k}": 1 for k in range(1, 19)}, "s": 23}
    assert dealt["piles"]["t19"] == ["6D"] and dealt["piles"]["w"] == ["3H"]
    assert dealt["piles"]["s"][-1] == "4H"


def test_a_card_turns_up_once_both_cards_over_it_are_gone() -> None:
    order = crafted({"w": "5H", "t19": "4C", "t20": "3D", "t21": "9S", "t10": "7S"})
    records = play(order, "t10 w", "t19 w", "t20 w", "t11 w")
    assert records[1]["error"] == "t10 is covered: t19 and t20 must be cleared first"
    assert "t10" in records[2]["face_down"]  # one of the two cards over it is gone
    assert "t10" not in records[3]["face_down"] and records[3]["piles"]["t10"] == ["7S"]
    assert "t11" in records[3]["face_down"]  # t21 still covers it
    assert records[4]["error"] == "t11 is covered: t20 and t21 must be cleared first"


def test_one_rank_up_or_down_in_any_suit_king_and_ace_touching() -> None:
    order = crafted({"w": "KH", "t19": "AC", "t20": "2D", "t21": "4S", "t22": "KS"})
    records = play(order, "t21 w", "t19 w", "t22 w", "t20 w")
    assert records[1]["error"] == "4S does not go on KH (w takes any A or Q)"
    assert [r["ok"] for r in records[2:]] == [True, True, False]  # A on K, K on A; 2 not on K


def test_won_when_the_three_peaks_are_cleared_with_cards_left_in_the_stock() -> None:
    # Each card one rank above the last, round the corner from King to Ace.
    suits = "CDH"
    walk = {p: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][k % 13]
            + suits[k // 13] for k, p in enumerate(PLAY_ORDER)}  # fmt: skip
    records = play(crafted({**walk, "w": "AS"}), *(f"{p} w" for p in PLAY_ORDER))
    assert all(r["ok"] for r in records[1:])
    assert records[-1]["result"] == "won" and len(records[-1]["piles"]["s"]) == 23
