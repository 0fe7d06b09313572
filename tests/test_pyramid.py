"""Pyramid: each rule of seeds/pyramid.md played through the CLI with crafted decks, and the
reference deals replayed."""

from __future__ import annotations

from typing import Any

import crafted
from crafted import commands_of

from conftest import CANONICAL, ROOT, run_cli

PYRAMID = [f"t{k}" for k in range(1, 29)]


def deck(pyramid: dict[str, str] | None = None, stock: list[str] | None = None) -> list[str]:
    """Named pyramid cards and the first stock cards (top first); the rest in canonical order."""
    pyramid, stock = pyramid or {}, stock or []
    named = set(pyramid.values()) | set(stock)
    rest = iter(c for c in CANONICAL if c not in named)
    first = [pyramid.get(t) or next(rest) for t in PYRAMID]
    return first + stock + list(rest)


def play(args: list[str], *commands: str) -> list[dict[str, Any]]:
    return crafted.play("pyramid", args, *commands)


def test_the_deal_a_pyramid_of_28_and_a_stock_whose_top_card_lies_face_up() -> None:
    (first,) = play(["--deck", " ".join(CANONICAL)])
    piles = first["piles"]
    assert [piles[t] for t in PYRAMID] == [[c] for c in CANONICAL[:28]]
    assert len(piles["s"]) == 24 and piles["s"][-1] == "3H"  # the 29th card, face up
    assert first["face_down"] == {"s": 23}
    assert piles["w"] == [] and piles["f1"] == []


def test_only_uncovered_cards_are_free() -> None:
    # 6C on t16 is covered by t22 and t23; 7D on t22 is free (bottom row).
    order = deck({"t16": "6C", "t22": "7D", "t23": "6H", "t21": "8S"})
    records = play(["--deck", " ".join(order)], "t16 t22", "t21 t27", "t22 t23", "t16 t22")
    assert records[1]["error"] == "t16's card is not free: t22 and t23"
    assert records[2]["error"] == "t21's card is not free: t27 and t28"
    assert records[3]["ok"] and records[3]["piles"]["f1"] == ["7D", "6H"]
    assert records[4]["error"] == "t22 is empty"


def test_a_card_is_free_once_both_cards_covering_it_are_gone() -> None:
    # t16 (6C) lies under t22 (7D) and t23 (9H): it cannot pair with t22, which covers it.
    order = deck({"t16": "6C", "t22": "7D", "t23": "9H", "t24": "4S", "t26": "7S", "t27": "6H"})
    records = play(["--deck", " ".join(order)], "t22 t23", "t23 t24", "t16 t26", "t16 t22",
                   "t22 t27", "t16 t26")  # fmt: skip
    assert records[1]["error"] == "the cards of t22 and t23 do not add up to 13"
    assert records[2]["ok"]  # 9H and 4S: t16 is still covered by t22
    assert records[3]["error"] == records[4]["error"] == "t16's card is not free: t22"
    assert records[5]["ok"] and records[6]["ok"]
    assert records[6]["piles"]["f1"] == ["9H", "4S", "7D", "6H", "6C", "7S"]


def test_pairs_add_up_to_13_and_a_king_goes_alone() -> None:
    order = deck({"t22": "AC", "t23": "QD", "t24": "2H", "t25": "JS", "t26": "3C", "t27": "3D",
                  "t28": "KH"})  # fmt: skip
    records = play(["--deck", " ".join(order)], "pair t26", "t26 t27", "pair t28", "t22 t23",
                   "t25 t24", "t28 t27")  # fmt: skip
    assert records[1]["error"] == "t26's card does not go alone; name the pile it pairs with"
    assert records[2]["error"] == "the cards of t26 and t27 do not add up to 13"
    assert [r["ok"] for r in records[3:6]] == [True, True, True]
    assert records[5]["piles"]["f1"] == ["KH", "AC", "QD", "JS", "2H"]
    assert records[6]["error"] == "t28 is empty"


def test_the_stock_top_and_the_waste_top_are_free_and_pair_with_each_other() -> None:
    order = deck({"t28": "8C"}, stock=["5D", "9S", "4H", "KD", "QS"])
    records = play(["--deck", " ".join(order)], "t28 s", "d", "s w", "pair s", "d", "s w",
                   "pair w")  # fmt: skip
    assert records[1]["ok"] and records[1]["piles"]["f1"] == ["8C", "5D"]
    after_draw = records[2]
    assert after_draw["piles"]["w"] == ["9S"] and after_draw["piles"]["s"][-1] == "4H"
    assert after_draw["face_down"]["s"] == len(after_draw["piles"]["s"]) - 1
    assert records[3]["ok"] and records[3]["piles"]["f1"][-2:] == ["4H", "9S"]
    assert records[4]["ok"] and records[4]["piles"]["f1"][-1] == "KD"
    assert records[5]["piles"]["w"] == ["QS"] and records[5]["piles"]["s"][-1] == "6H"
    assert records[6]["error"] == "the cards of s and w do not add up to 13"
    assert records[7]["error"] == "w's card does not go alone; name the pile it pairs with"


def test_three_passes_through_the_stock() -> None:
    records = play(["--deck", " ".join(CANONICAL)], "r", *["d"] * 24, "d", "r", *["d"] * 24, "r",
                   *["d"] * 24, "r")  # fmt: skip
    assert records[1]["error"] == "s still has cards"
    assert records[25]["piles"]["s"] == [] and len(records[25]["piles"]["w"]) == 24
    assert records[26]["error"] == "s is empty"
    again = records[27]
    assert again["ok"] and again["piles"]["w"] == [] and again["piles"]["s"][-1] == "3H"
    assert again["face_down"]["s"] == 23
    assert records[52]["ok"] and records[-2]["piles"]["s"] == []
    assert records[-1]["error"] == "no redeal is left (2 in a game)"
    assert records[-1]["result"] is None  # pairs are still possible in the pyramid


def test_reference_seed_5_is_won() -> None:
    notes = (ROOT / "seeds" / "pyramid.md").read_text(encoding="utf-8")
    assert "`tests/data/pyramid_seed_5_win.txt`" in notes
    text = (ROOT / "tests" / "data" / "pyramid_seed_5_win.txt").read_text(encoding="utf-8")
    records = play(["--seed", "5"], *(c for c in text.splitlines() if c.strip()))
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52
    assert all(r["result"] is None for r in records[:-1])


def test_reference_seed_2_is_lost_with_two_cards_left() -> None:
    notes = (ROOT / "seeds" / "pyramid.md").read_text(encoding="utf-8")
    assert "`tests/data/pyramid_seed_2_lost.txt`" in notes and "lost, 50 cards discarded" in notes
    records = play(["--seed", "2"], *commands_of("pyramid_seed_2_lost.txt"))
    assert all(r["ok"] for r in records) and len(commands_of("pyramid_seed_2_lost.txt")) == 43
    end = records[-1]
    assert end["result"] == "lost" and end["foundation_cards"] == 50


def test_the_board_shows_the_stock_top_card() -> None:
    out = run_cli("play", "pyramid", "--deck", " ".join(CANONICAL), "--ascii", stdin="d\n").out
    assert "s 3H (24)" in out and "s 4H (23)" in out and "w 3H (1)" in out
