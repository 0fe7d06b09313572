"""Forty Thieves: one test per rule of seeds/forty_thieves.md, through the CLI with crafted
decks, and the reference deals."""

from __future__ import annotations

from crafted import commands_of, deck, play

from conftest import CANONICAL
from yaml_solitaire.engine import load_game

THIEVES = load_game("forty-thieves")
TWO_DECKS = CANONICAL * 2


def test_the_deal_four_rows_face_up_and_the_stock() -> None:
    (first,) = play("forty-thieves", TWO_DECKS)
    piles = first["piles"]
    assert piles["t1"] == ["AC", "JC", "8D", "5H"]  # cards 1, 11, 21, 31
    assert piles["t10"] == ["10C", "7D", "4H", "AS"]
    assert all(len(piles[f"t{k}"]) == 4 for k in range(1, 11))
    assert first["face_down"] == {"s": 64} and piles["s"][-1] == "2S" and piles["w"] == []


def test_eight_foundations_take_any_ace_and_build_up_in_suit() -> None:
    tops = {"t1": "AH", "t2": "AH", "t3": "2H", "t4": "3H"}
    records = play("forty-thieves", deck(THIEVES, tops=tops), "t3 f1", "t1 f1", "t2 f1", "t2 f2",
                   "t3 f2", "t4 f1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, False, True, True, False]
    assert records[1]["error"] == "f1 is empty and accepts only cards of rank A"
    assert records[3]["error"] == "AH does not go on AH (f1 takes 2H)"
    assert records[-1]["error"] == "3H does not go on AH (f1 takes 2H)"


def test_the_tableau_builds_down_in_suit_one_card_at_a_time() -> None:
    tops = {"t1": "8D", "t2": "7H", "t3": "7D", "t4": "AS", "t5": "KS"}
    records = play("forty-thieves", deck(THIEVES, tops=tops), "t2 t1", "t3 t1", "t1 t2 2",
                   "t5 t4")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, False, False]
    assert records[1]["error"] == "7H does not go on 8D (t1 takes 7D)"
    assert records[3]["error"] == "only the top card of t1 can be moved"
    assert records[4]["error"] == "nothing can be built on t4"


def test_an_empty_pile_takes_any_card() -> None:
    order = deck(THIEVES, piles={"t1": ["AS", "AH", "AD", "AC"]}, tops={"t2": "QS"})
    records = play("forty-thieves", order, "t1 f1", "t1 f2", "t1 f3", "t1 f4", "t2 t1")
    assert all(r["ok"] for r in records[1:]) and records[-1]["piles"]["t1"] == ["QS"]


def test_draw_turns_one_card_the_waste_top_plays_and_there_is_no_redeal() -> None:
    order = deck(THIEVES, tops={"t1": "7D"}, stock=["6D", "9S"])
    records = play("forty-thieves", order, "d", "w t1", *["d"] * 64, "redeal")
    assert records[1]["piles"]["w"] == ["6D"] and len(records[1]["piles"]["s"]) == 63
    assert records[2]["piles"]["t1"][-2:] == ["7D", "6D"]
    assert records[3]["piles"]["w"] == ["9S"]
    assert records[65]["piles"]["s"] == [] and records[66]["error"] == "s is empty"
    assert records[67]["ok"] is False and records[67]["error"].startswith("unknown command")


def test_cards_on_the_foundations_stay_there() -> None:
    records = play("forty-thieves", deck(THIEVES, tops={"t1": "AC", "t2": "2D"}), "t1 f1",
                   "f1 t2")  # fmt: skip
    assert records[2]["error"] == "cards cannot be moved from f1"


def test_seed_7_is_won_by_the_reference_line() -> None:
    moves = commands_of("forty_thieves_seed_7_win.txt")
    records = play("forty-thieves", "seed 7", *moves)
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 104


def test_no_move_left_once_the_stock_is_out_is_a_loss() -> None:
    # Tops that build on nothing, no Ace on top; the last card out of the stock is KS.
    tops = ["KC", "KD", "KH", "JC", "JD", "JH", "JS", "9C", "9D", "9H"]
    order = deck(THIEVES, tops={f"t{k}": top for k, top in enumerate(tops, start=1)})
    assert order[-1] == "KS"
    records = play("forty-thieves", order, *["d"] * 64)
    assert all(r["result"] is None for r in records[:-1])
    assert records[-1]["result"] == "lost" and records[-1]["piles"]["w"][-1] == "KS"


def test_a_card_goes_home_by_itself_once_both_cards_that_build_on_it_are_home() -> None:
    order = deck(THIEVES, piles={"t3": ["3C", "5C", "AH", "9C"]},
                 tops={"t1": "AH", "t2": "2H", "t4": "10C"})  # fmt: skip
    dealt, moved = play("forty-thieves", order, "t3 t4", auto=True)
    assert dealt["piles"]["f1"] == ["AH"] and dealt["piles"]["t2"][-1] == "2H", "2H waits"
    assert moved["auto"] == ["t3 f2", "t2 f1"]
