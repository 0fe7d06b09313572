"""Calculation: each rule of seeds/calculation.md played through the CLI with crafted decks, and
the reference deals replayed."""

from __future__ import annotations

from typing import Any

import crafted
from crafted import commands_of

from conftest import CANONICAL, ROOT

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SEQUENCES = {
    "f1": "A 2 3 4 5 6 7 8 9 10 J Q K",
    "f2": "2 4 6 8 10 Q A 3 5 7 9 J K",
    "f3": "3 6 9 Q 2 5 8 J A 4 7 10 K",
    "f4": "4 8 Q 3 7 J 2 6 10 A 5 9 K",
}


def deck(stock: list[str]) -> list[str]:
    """AC 2C 3C 4C as starters, then ``stock`` turned first, then the rest in canonical order."""
    first = ["AC", "2C", "3C", "4C", *stock]
    return first + [c for c in CANONICAL if c not in first]


def play(args: list[str], *commands: str) -> list[dict[str, Any]]:
    return crafted.play("calculation", args, *commands)


def test_the_deal_the_first_ace_2_3_and_4_start_the_foundations() -> None:
    (first,) = play(["--deck", " ".join(CANONICAL)])
    piles = first["piles"]
    assert [piles[f] for f in ("f1", "f2", "f3", "f4")] == [["AC"], ["2C"], ["3C"], ["4C"]]
    assert len(piles["s"]) == 48 and piles["s"][-1] == "5C" and first["face_down"] == {"s": 48}
    assert all(piles[p] == [] for p in ("t1", "t2", "t3", "t4", "w"))
    order = ["9H", "3D", "KS", "AS", "4H", "2S", "AC", *[c for c in CANONICAL if c not in
             ("9H", "3D", "KS", "AS", "4H", "2S", "AC")]]  # fmt: skip
    (first,) = play(["--deck", " ".join(order)])
    piles = first["piles"]
    assert [piles[f] for f in ("f1", "f2", "f3", "f4")] == [["AS"], ["2S"], ["3D"], ["4H"]]
    assert piles["s"][-3:] == ["AC", "KS", "9H"]  # the others keep their order: 9H on top


def test_each_foundation_steps_by_its_number_in_any_suit_and_ends_at_its_king() -> None:
    for pile, sequence in SEQUENCES.items():
        ranks = sequence.split()[1:]
        suits = "DHSD" * 3
        stock = [r + s for r, s in zip(ranks, suits, strict=False)]
        commands = [c for card in stock for c in ("d", f"w {pile}")]
        records = play(["--deck", " ".join(deck(stock))], *commands, "d", f"w {pile}")
        assert all(r["ok"] for r in records[:-1]), pile
        assert [c[:-1] for c in records[-2]["piles"][pile]] == sequence.split()
        assert records[-1]["error"].startswith(f"{pile} is complete (K"), pile


def test_a_card_that_does_not_follow_is_refused() -> None:
    records = play(["--deck", " ".join(deck(["5H", "6S"]))], "d", "w f2", "w f3", "w f1",
                   "w f4", "w t1", "t1 f2", "d", "w f3")  # fmt: skip
    assert records[2]["error"] == "5H does not go on 2C (f2 takes any 4)"
    assert records[3]["error"] == "5H does not go on 3C (f3 takes any 6)"
    assert records[4]["error"] == "5H does not go on AC (f1 takes any 2)"
    assert records[5]["error"] == "5H does not go on 4C (f4 takes any 8)"
    assert records[7]["error"] == "5H does not go on 2C (f2 takes any 4)"
    assert records[9]["ok"] and records[9]["piles"]["f3"] == ["3C", "6S"]


def test_a_turned_card_is_placed_before_the_next_is_turned() -> None:
    records = play(["--deck", " ".join(deck(["9H", "KD"]))], "d", "d", "w t3", "d")
    assert records[1]["piles"]["w"] == ["9H"] and len(records[1]["piles"]["s"]) == 47
    assert records[2]["error"] == "draw is not possible while the turned card is still to be placed"
    assert records[3]["ok"] and records[3]["piles"]["t3"] == ["9H"]
    assert records[4]["ok"] and records[4]["piles"]["w"] == ["KD"]


def test_wastepiles_take_any_turned_card_and_give_only_to_the_foundations() -> None:
    records = play(["--deck", " ".join(deck(["QH", "2D", "6S"]))], "d", "w t1", "d", "w t1",
                   "t1 t2", "t1 f2", "d", "w t2", "t2 t1", "t2 f3", "t1 f1")  # fmt: skip
    assert records[4]["piles"]["t1"] == ["QH", "2D"]  # any card on any card
    assert records[5]["error"] == "cards cannot be moved to t2"
    assert records[6]["error"] == "2D does not go on 2C (f2 takes any 4)"
    assert records[9]["error"] == "cards cannot be moved to t1"
    assert records[10]["ok"] and records[10]["piles"]["f3"] == ["3C", "6S"]
    assert records[11]["ok"] and records[11]["piles"]["f1"] == ["AC", "2D"]
    assert records[11]["piles"]["t1"] == ["QH"] and records[11]["piles"]["t2"] == []


def test_reference_seed_3_is_won() -> None:
    notes = (ROOT / "seeds" / "calculation.md").read_text(encoding="utf-8")
    assert "`tests/data/calculation_seed_3_win.txt`" in notes
    records = play(["--seed", "3"], *commands_of("calculation_seed_3_win.txt"))
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52
    assert all(r["result"] is None for r in records[:-1])


def test_reference_seed_0_is_lost_once_the_stock_is_out() -> None:
    notes = (ROOT / "seeds" / "calculation.md").read_text(encoding="utf-8")
    assert "`tests/data/calculation_seed_0_lost.txt`" in notes
    records = play(["--seed", "0"], *commands_of("calculation_seed_0_lost.txt"))
    assert all(r["ok"] for r in records)
    end = records[-1]
    assert end["result"] == "lost" and end["foundation_cards"] == 20 and end["piles"]["s"] == []
