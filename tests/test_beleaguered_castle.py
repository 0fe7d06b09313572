"""Beleaguered Castle: one test per rule of seeds/beleaguered_castle.md, through the CLI with
crafted decks, and the reference deals."""

from __future__ import annotations

from crafted import commands_of, deck, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

CASTLE = load_game("beleaguered-castle")
PILES = [f"t{k}" for k in range(1, 9)]


def test_the_aces_start_the_foundations_and_the_rest_is_dealt_row_by_row() -> None:
    (first,) = play("beleaguered-castle", CANONICAL)
    piles = first["piles"]
    assert [piles[f"f{k}"] for k in range(1, 5)] == [["AC"], ["AD"], ["AH"], ["AS"]]
    # The 48 other cards in canonical order, card n to pile n mod 8.
    assert piles["t1"] == ["2C", "10C", "6D", "2H", "10H", "6S"]
    assert piles["t8"] == ["9C", "5D", "KD", "9H", "5S", "KS"]
    assert all(len(piles[t]) == 6 for t in PILES) and first["face_down"] == {}


def test_the_aces_are_taken_out_wherever_they_lie() -> None:
    order = ["AS", "2C", "AH", *[c for c in CANONICAL if c not in ("AS", "2C", "AH")]]
    piles = play("beleaguered-castle", order)[0]["piles"]
    assert piles["f3"] == ["AH"] and piles["f4"] == ["AS"]
    assert piles["f1"] == ["AC"] and piles["t1"][0] == "2C" and piles["t2"][0] == "3C"


def test_foundations_build_up_in_suit_and_keep_their_cards() -> None:
    order = deck(CASTLE, tops={"t1": "2C", "t2": "3D", "t3": "2D"})
    records = play("beleaguered-castle", order, "t2 f2", "t1 f2", "t3 f2", "t2 f2", "f2 t4")
    assert [r["ok"] for r in records[1:]] == [False, False, True, True, False]
    assert records[1]["error"] == "3D does not go on AD (f2 takes 2D)"
    assert records[-2]["piles"]["f2"] == ["AD", "2D", "3D"]
    assert records[-1]["error"] == "cards cannot be moved from f2"


def test_the_tableau_builds_down_regardless_of_suit_one_card_at_a_time() -> None:
    tops = {"t1": "8D", "t2": "7D", "t3": "7C", "t4": "9S"}
    records = play("beleaguered-castle", deck(CASTLE, tops=tops), "t4 t1", "t3 t1", "t2 t1",
                   "t1 t4 2")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, False, False]
    assert records[1]["error"] == "9S does not go on 8D (t1 takes any 7)"
    assert records[4]["error"] == "only the top card of t1 can be moved"


def test_an_empty_pile_takes_any_card() -> None:
    order = deck(CASTLE, piles={"t1": ["7C", "6C", "5C", "4C", "3C", "2C"]},
                 tops={"t2": "8H", "t3": "QS"})  # fmt: skip
    records = play("beleaguered-castle", order, *["t1 f1"] * 5, "t1 t2", "t3 t1")
    assert all(r["ok"] for r in records[1:])
    assert records[-2]["piles"]["t1"] == [] and records[-1]["piles"]["t1"] == ["QS"]


def test_seed_1_is_won_and_seed_2_is_lost_by_the_reference_lines() -> None:
    won = play("beleaguered-castle", "seed 1", *commands_of("beleaguered_castle_seed_1_win.txt"))
    assert all(r["ok"] for r in won) and won[-1]["result"] == "won"
    assert won[-1]["foundation_cards"] == 52
    lost = play("beleaguered-castle", "seed 2", "t4 t6", "t7 t2", "t8 t7")
    assert [r["result"] for r in lost] == [None, None, None, "lost"]
    assert lost[-1]["foundation_cards"] == 4


def test_a_card_goes_home_by_itself_once_every_card_a_rank_lower_is_home() -> None:
    # 2C goes home at once (every Ace is home); 3H waits for the four 2s.
    order = deck(CASTLE, piles={"t5": ["2H", "9D", "9H", "3C", "2S", "10S"]},
                 tops={"t1": "2C", "t2": "2D", "t3": "3H", "t4": "JS"})  # fmt: skip
    dealt, moved = play("beleaguered-castle", order, "t5 t4", auto=True)
    assert dealt["piles"]["f1"] == ["AC", "2C"] and dealt["piles"]["f2"] == ["AD", "2D"]
    assert dealt["piles"]["t3"][-1] == "3H"
    assert moved["auto"] == ["t5 f4"], "3H still waits for 2H"
