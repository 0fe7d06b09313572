"""Baker's Dozen: one test per rule of seeds/bakers_dozen.md, through the CLI with crafted
decks, and the reference deal."""

from __future__ import annotations

from crafted import commands_of, deck, play

from conftest import CANONICAL, RANKS
from yaml_solitaire.engine import load_game

BAKERS = load_game("bakers-dozen")
PILES = [f"t{k}" for k in range(1, 14)]


def test_the_deal_goes_row_by_row_all_face_up() -> None:
    (first,) = play("bakers-dozen", CANONICAL)
    piles = first["piles"]
    # Card n goes to pile n mod 13: t1 gets the Aces, t13 the Kings.
    assert [piles[t] for t in PILES] == [[r + s for s in "CDHS"] for r in RANKS]
    assert first["face_down"] == {} and all(piles[f"f{k}"] == [] for k in range(1, 5))


def test_kings_go_to_the_bottom_of_their_pile_in_the_order_dealt() -> None:
    order = deck(BAKERS, piles={"t1": ["5C", "KD", "7H", "KS"], "t2": ["KH", "2C", "3C", "4C"],
                                "t3": ["2D", "3D", "4D", "KC"]})  # fmt: skip
    piles = play("bakers-dozen", order)[0]["piles"]
    assert piles["t1"] == ["KD", "KS", "5C", "7H"]
    assert piles["t2"] == ["KH", "2C", "3C", "4C"]
    assert piles["t3"] == ["KC", "2D", "3D", "4D"]


def test_foundations_start_with_any_ace_and_build_up_in_suit() -> None:
    order = deck(BAKERS, piles={"t1": ["9C", "AD", "2H", "AH"]}, tops={"t2": "2D", "t3": "3H"})
    records = play("bakers-dozen", order, "t2 f1", "t1 f1", "t2 f1", "t1 f1", "t3 f1")
    assert [r["ok"] for r in records[1:]] == [False, True, False, True, True]
    assert records[1]["error"] == "f1 is empty and accepts only cards of rank A"
    assert records[3]["error"] == "2D does not go on AH (f1 takes 2H)"
    assert records[-1]["piles"]["f1"] == ["AH", "2H", "3H"]


def test_the_tableau_builds_down_regardless_of_suit_one_card_at_a_time() -> None:
    tops = {"t1": "8D", "t2": "7D", "t3": "7C", "t4": "9S"}
    records = play("bakers-dozen", deck(BAKERS, tops=tops), "t4 t1", "t2 t1", "t3 t1", "t1 t4 2",
                   "t13 t12")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, False, False, False]
    assert records[1]["error"] == "9S does not go on 8D (t1 takes any 7)"
    assert records[3]["error"] == "7C does not go on 7D (t1 takes any 6)"
    assert records[4]["error"] == "only the top card of t1 can be moved"


def test_nothing_goes_on_an_ace_and_an_empty_pile_stays_empty() -> None:
    # Canonical order: t1 is AC AD AH AS; t13 holds the Kings, KS on top.
    records = play("bakers-dozen", CANONICAL, "t13 t1", "t1 f1", "t1 f2", "t1 f3", "t1 f4",
                   "t2 t1")  # fmt: skip
    assert records[1]["error"] == "nothing can be built on t1"
    assert records[5]["piles"]["t1"] == []
    assert records[6]["error"] == "t1 is empty and accepts nothing"


def test_a_foundation_top_card_may_come_back_but_never_into_an_empty_pile() -> None:
    order = deck(BAKERS, piles={"t1": ["KC", "KD", "2H", "AH"]}, tops={"t2": "3S"})
    records = play("bakers-dozen", order, "t1 f1", "t1 f1", "f1 t2", "f1 t1", "f1 f2")
    assert [r["ok"] for r in records[1:]] == [True, True, True, False, False]
    assert records[3]["piles"]["t2"][-2:] == ["3S", "2H"] and records[3]["piles"]["f1"] == ["AH"]
    assert records[4]["error"] == "AH does not go on KD (t1 takes any Q)"


def test_a_deal_with_no_move_is_lost_at_once() -> None:
    tops = ["5C", "5D", "5H", "5S", "7C", "7D", "7H", "7S", "9C", "9D", "9H", "9S", "JC"]
    order = deck(BAKERS, tops=dict(zip(PILES, tops, strict=True)))
    (first,) = play("bakers-dozen", order)
    assert first["result"] == "lost" and first["phase"] == "lost"


def test_seed_1_is_won_by_the_reference_line() -> None:
    records = play("bakers-dozen", "seed 1", *commands_of("bakers_dozen_seed_1_win.txt"))
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52


def test_a_card_goes_home_by_itself_once_every_card_a_rank_lower_is_home() -> None:
    order = deck(BAKERS, piles={"t5": ["3C", "4C", "AS", "9C"]},
                 tops={"t1": "AC", "t2": "AD", "t3": "AH", "t4": "2H", "t6": "10D"})  # fmt: skip
    dealt, moved = play("bakers-dozen", order, "t5 t6", auto=True)
    assert [dealt["piles"][f"f{k}"] for k in range(1, 4)] == [["AC"], ["AD"], ["AH"]]
    assert dealt["piles"]["t4"][-1] == "2H", "2H waits while AS is out"
    assert moved["auto"] == ["t5 f4", "t4 f3"]
