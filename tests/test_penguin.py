"""Penguin: each rule of seeds/penguin.md played through the CLI with crafted decks (the first
card is the beak; the other three of its rank go to f1..f3 in deck order; the 49 others from
the beak on are dealt row by row onto t1..t7)."""

from __future__ import annotations

from typing import Any

from crafted import play as play_cli

from conftest import CANONICAL

TABLEAU = [f"t{k}" for k in range(1, 8)]


def crafted(beak: str, tops: dict[str, list[str]]) -> list[str]:
    """A deck order with this beak and these top cards (bottom to top) on tableau piles; the
    other cards in canonical order, those of the beak's rank last."""
    rank = beak[:-1]
    given = {c for cards in tops.values() for c in cards} | {beak}
    others = [c for c in CANONICAL if c not in given and c[:-1] != rank]
    piles = {t: [None] * 7 for t in TABLEAU}
    piles["t1"][0] = beak
    for t, cards in tops.items():
        piles[t][7 - len(cards) :] = cards
    fill = iter(others)
    for t in TABLEAU:
        piles[t] = [c if c is not None else next(fill) for c in piles[t]]
    order = [piles[TABLEAU[k % 7]][k // 7] for k in range(49)]
    return order + [c for c in CANONICAL if c[:-1] == rank and c != beak]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    return play_cli("penguin", order, *commands)


def test_the_beak_sets_the_base_its_three_fellows_start_three_foundations() -> None:
    (dealt,) = play(crafted("5H", {}))
    piles = dealt["piles"]
    assert [piles[f] for f in ("f1", "f2", "f3", "f4")] == [["5C"], ["5D"], ["5S"], []]
    assert piles["t1"][0] == "5H"
    assert all(len(piles[t]) == 7 for t in TABLEAU)
    assert all(piles[c] == [] for c in ("c1", "c2", "c3", "c4", "c5", "c6", "c7"))


def test_foundations_build_up_in_suit_from_the_base_round_the_corner() -> None:
    order = crafted("QH", {"t2": ["JD"], "t3": ["KC"], "t4": ["AC"], "t5": ["2D"]})
    records = play(order, "t2 f4", "t5 f1", "t3 f1", "t4 f1")
    assert records[1]["error"] == "f4 is empty and accepts only cards of rank Q"
    assert records[2]["error"] == "2D does not go on QC (f1 takes KC)"
    assert records[3]["ok"] and records[4]["ok"]  # K on Q, then A on K
    assert records[4]["piles"]["f1"] == ["QC", "KC", "AC"]


def test_an_empty_pile_takes_only_the_rank_below_the_base() -> None:
    # Base 5: an emptied pile takes 4s only. t2 is emptied through the cells.
    order = crafted("5H", {"t3": ["4C"], "t4": ["6D"]})
    empty = [f"t2 c{k}" for k in range(1, 8)]
    records = play(order, *empty, "t4 t2", "t3 t2")
    assert all(r["ok"] for r in records[1:8]) and records[7]["piles"]["t2"] == []
    assert records[8]["error"] == "t2 is empty and accepts only cards of rank 4"
    assert records[9]["ok"]


def test_building_down_in_suit_round_the_corner_and_runs_in_suit_move_as_a_unit() -> None:
    order = crafted("9S", {"t2": ["AD"], "t3": ["KD"], "t4": ["2D"], "t5": ["QC"], "t6": ["AC"]})
    records = play(order, "t3 t2", "t6 t2", "t2 t4 2", "t4 t5 1")
    assert records[1]["ok"]  # K on A: round the corner
    assert records[2]["error"] == "AC does not go on KD (t2 takes QD)"
    assert records[3]["ok"] and records[3]["piles"]["t4"][-3:] == ["2D", "AD", "KD"]
    assert records[4]["error"] == "KD does not go on QC (t5 takes JC)"
