"""Klondike and Klondike (draw 3): one test per rule of seeds/klondike.md and
seeds/klondike_draw_3.md, through the CLI with crafted decks, and the reference deals."""

from __future__ import annotations

import pytest
from crafted import commands_of, deck, play

from conftest import CANONICAL, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, parse_deck

KLONDIKE = load_game("klondike")
DRAW_3 = load_game("klondike-draw-3")


# --- 1-3. the deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["klondike", "klondike-draw-3"])
def test_the_deal_goes_row_by_row_and_turns_up_each_top_card(game: str) -> None:
    (first,) = play(game, CANONICAL)
    piles = first["piles"]
    # Row 1 gives t1..t7 AC..7C, row 2 gives t2..t7 8C..KC, row 3 t3..t7 AD..5D, and so on.
    assert [piles[f"t{k}"] for k in range(1, 8)] == [
        ["AC"],
        ["2C", "8C"],
        ["3C", "9C", "AD"],
        ["4C", "10C", "2D", "6D"],
        ["5C", "JC", "3D", "7D", "10D"],
        ["6C", "QC", "4D", "8D", "JD", "KD"],
        ["7C", "KC", "5D", "9D", "QD", "AH", "2H"],
    ]
    assert first["face_down"] == {f"t{k}": k - 1 for k in range(2, 8)} | {"s": 24}
    assert len(piles["s"]) == 24 and piles["s"][-1] == "3H"  # card 29 is the stock's top
    assert piles["w"] == [] and all(piles[f"f{k}"] == [] for k in range(1, 5))


# --- 4. foundations --------------------------------------------------------------------------


def test_foundations_start_with_any_ace_and_build_up_in_suit() -> None:
    order = deck(KLONDIKE, tops={"t1": "AH", "t2": "2H", "t3": "3S", "t4": "2S"})
    records = play("klondike", order, "t2 f1", "t1 f3", "t4 f3", "t2 f3")
    assert [r["ok"] for r in records[1:]] == [False, True, False, True]
    assert records[1]["error"] == "f1 is empty and accepts only cards of rank A"
    assert records[3]["error"] == "2S does not go on AH (f3 takes 2H)"
    assert records[-1]["piles"]["f3"] == ["AH", "2H"]


# --- 5-6. building on the tableau, empty piles -----------------------------------------------


def test_the_tableau_builds_down_in_alternating_colours_without_wrapping() -> None:
    order = deck(KLONDIKE, tops={"t1": "AS", "t2": "7H", "t3": "7C", "t4": "8D", "t5": "KH"})
    records = play("klondike", order, "t2 t4", "t3 t4", "t5 t1")
    assert [r["ok"] for r in records[1:]] == [False, True, False]
    assert records[1]["error"] == "7H does not go on 8D (t4 takes 7C or 7S)"
    assert records[2]["piles"]["t4"][-2:] == ["8D", "7C"]
    assert records[3]["error"] == "nothing can be built on t1"


def test_an_empty_pile_takes_only_a_king() -> None:
    order = deck(KLONDIKE, tops={"t1": "AC", "t2": "QH", "t3": "KS"})
    records = play("klondike", order, "t1 f1", "t2 t1", "t3 t1")
    assert [r["ok"] for r in records[1:]] == [True, False, True]
    assert records[2]["error"] == "t1 is empty and accepts only cards of rank K"
    assert records[3]["piles"]["t1"] == ["KS"]


def test_a_run_with_a_king_at_its_bottom_fills_an_empty_pile() -> None:
    order = deck(KLONDIKE, tops={"t1": "AC", "t2": "QH", "t3": "KS"})
    records = play("klondike", order, "t1 f1", "t2 t3", "t3 t1")
    assert records[-1]["ok"] and records[-1]["piles"]["t1"] == ["KS", "QH"]


# --- 7. what moves -----------------------------------------------------------------------------


def test_face_up_runs_move_as_a_unit_and_a_count_moves_part_of_one() -> None:
    tops = {"t2": "9S", "t3": "8D", "t4": "7C", "t5": "8H"}
    records = play("klondike", deck(KLONDIKE, tops=tops), "t4 t3", "t3 t5 2", "t3 t5 1", "t5 t2",
                   "t3 t2")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [True, False, True, True, False]
    assert records[2]["error"] == "8D does not go on 8H (t5 takes 7C or 7S)"
    assert records[3]["piles"]["t5"][-2:] == ["8H", "7C"]
    assert records[4]["piles"]["t2"][-3:] == ["9S", "8H", "7C"], "the longest run that fits"
    assert records[5]["error"] == "8D does not go on 7C (t2 takes 6D or 6H)"


def test_a_run_never_goes_onto_a_foundation_in_one_move() -> None:
    order = deck(KLONDIKE, tops={"t1": "AH", "t2": "2H", "t3": "AS"})
    records = play("klondike", order, "t1 f1", "t3 t2", "t2 f1 2", "t2 f2", "t2 f1")
    assert [r["ok"] for r in records[1:]] == [True, True, False, True, True]
    assert records[3]["error"] == "f1 takes one card at a time"
    assert records[-1]["piles"]["f1"] == ["AH", "2H"] and records[-1]["piles"]["f2"] == ["AS"]


def test_only_the_waste_top_card_plays() -> None:
    order = deck(KLONDIKE, tops={"t3": "6C"}, stock=["5H", "AS"])
    records = play("klondike", order, "d", "d", "w t3", "w t3 2", "w f1", "w t3")
    assert [r["ok"] for r in records[1:]] == [True, True, False, False, True, True]
    assert records[3]["error"] == "AS does not go on 6C (t3 takes 5D or 5H)"
    assert records[4]["error"] == "those 2 cards of w are not a run: 1 can move together"
    assert records[-1]["piles"]["t3"][-2:] == ["6C", "5H"] and records[-1]["piles"]["w"] == []


# --- 8. turning up ------------------------------------------------------------------------------


def test_an_uncovered_card_turns_up_within_the_move() -> None:
    order = deck(KLONDIKE, piles={"t2": ["4D", "8C"]}, tops={"t3": "9H"})
    records = play("klondike", order, "t2 t3", "u")
    moved, undone = records[1:]
    assert moved["piles"]["t2"] == ["4D"] and "t2" not in moved["face_down"]
    assert undone["piles"] == records[0]["piles"] and undone["face_down"]["t2"] == 1


# --- 9. foundation take-back -----------------------------------------------------------------


def test_a_foundation_top_card_may_come_back_to_the_tableau() -> None:
    order = deck(KLONDIKE, tops={"t1": "AH", "t2": "2H", "t3": "3S", "t4": "3D"})
    records = play("klondike", order, "t1 f1", "t2 f1", "f1 t4", "f1 t3", "f1 f2", "f1 t1")
    assert [r["ok"] for r in records[1:]] == [True, True, False, True, False, False]
    assert records[3]["error"] == "2H does not go on 3D (t4 takes 2C or 2S)"
    assert records[4]["piles"]["t3"][-2:] == ["3S", "2H"] and records[4]["piles"]["f1"] == ["AH"]
    assert records[6]["error"] == "t1 is empty and accepts only cards of rank K"


# --- 10-11. the stock: draw and redeal ---------------------------------------------------------


def test_draw_turns_one_card_and_redeals_are_unlimited() -> None:
    records = play("klondike", CANONICAL, "redeal", *["d"] * 24, "d", "r", "d", *["d"] * 23, "r",
                   "d")  # fmt: skip
    assert records[1]["error"] == "s still has cards"
    assert records[2]["piles"]["w"] == ["3H"] and len(records[2]["piles"]["s"]) == 23
    assert records[25]["piles"]["s"] == [] and records[25]["piles"]["w"][-1] == "KS"
    assert records[26]["error"] == "s is empty"
    redealt = records[27]
    assert redealt["piles"]["s"] == records[1]["piles"]["s"] and redealt["piles"]["w"] == []
    assert redealt["face_down"]["s"] == 24
    assert records[28]["piles"]["w"] == ["3H"]
    assert records[-2]["ok"] and records[-1]["piles"]["w"] == ["3H"], "a second redeal"


# --- 12. the end ------------------------------------------------------------------------------


def test_seed_2_is_won_by_the_reference_line() -> None:
    moves = commands_of("klondike_seed_2_win.txt")
    records = play("klondike", "seed 2", *moves)
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52
    assert all(r["result"] is None for r in records[:-1])


def test_a_position_with_no_action_left_is_lost() -> None:
    # Stock and waste empty; the tops KS, 8S, 2C, 2D, 2H, 2S and QS go nowhere.
    game = KLONDIKE
    cards = parse_deck(CANONICAL, game.cards)
    by_name = dict(zip(CANONICAL, cards, strict=True))
    piles = [()] * len(game.pile_names)
    index = game.layout.index
    tableau = [[c for c in CANONICAL if c[:-1] in ("A", "3", "5", "7", "9", "J", "K")],
               [c for c in CANONICAL if c[:-1] in ("4", "6", "8")],
               ["2C"], ["2D"], ["2H"], ["2S"],
               [c for c in CANONICAL if c[:-1] in ("10", "Q")]]  # fmt: skip
    for k, names in enumerate(tableau, start=1):
        down = [by_name[n] | DOWN for n in names[:-1]]
        piles[index[f"t{k}"]] = (*down, by_name[names[-1]])
    position = game.settle(State(tuple(piles), game.initial, (0,)))
    assert game.legal_actions(State(position.piles, game.initial, (0,))) == ()
    assert game.outcome(position) == "lost"


# --- 13. safe moves -------------------------------------------------------------------------------


def test_a_card_goes_home_by_itself_once_both_cards_that_build_on_it_are_home() -> None:
    order = deck(KLONDIKE, tops={"t1": "AC", "t2": "2H", "t3": "AH", "t4": "9S"}, stock=["AS"])
    (dealt,) = play("klondike", order, auto=True)
    assert dealt["piles"]["f1"] == ["AC"] and dealt["piles"]["f2"] == ["AH"]
    assert dealt["piles"]["t2"][-1] == "2H", "2H waits while AS is out"
    drawn = play("klondike", order, "d", auto=True)[-1]
    assert drawn["auto"] == ["w f3", "t2 f2"]
    assert drawn["piles"]["f2"] == ["AH", "2H"] and drawn["piles"]["f3"] == ["AS"]


# --- draw 3 ---------------------------------------------------------------------------------------


def test_draw_3_turns_three_cards_the_third_on_top_and_only_it_plays() -> None:
    order = deck(DRAW_3, tops={"t3": "4S", "t4": "6C"}, stock=["3H", "5H", "AC"])
    records = play("klondike-draw-3", order, "d", "w t3", "w t4", "w f1", "w t4", "w t3")
    assert records[1]["piles"]["w"] == ["3H", "5H", "AC"] and len(records[1]["piles"]["s"]) == 21
    assert [r["ok"] for r in records[2:]] == [False, False, True, True, True]
    assert records[-1]["piles"]["w"] == []


def test_draw_3_turns_what_is_left_and_redeals_without_limit() -> None:
    order = deck(DRAW_3, stock=["2C", "3C", "AS"])
    records = play("klondike-draw-3", order, "d", "w f1", *["d"] * 7, "d", "r", *["d"] * 7, "d",
                   "r", "d")  # fmt: skip
    assert records[9]["piles"]["s"] == [] and len(records[9]["piles"]["w"]) == 23
    assert records[10]["error"] == "s is empty"
    assert len(records[11]["piles"]["s"]) == 23
    assert records[12]["piles"]["w"] == ["2C", "3C", records[1]["piles"]["s"][-1]]
    last = records[19]
    assert len(last["piles"]["w"]) == 23 and len(records[18]["piles"]["s"]) == 2
    assert records[-1]["piles"]["w"] == records[12]["piles"]["w"], "the same threes again"


def test_draw_3_never_plays_the_waste_by_itself() -> None:
    order = deck(DRAW_3, tops={"t1": "AC"}, stock=["2C", "3C", "AS"])
    (dealt, drawn, listed) = play("klondike-draw-3", order, "d", "m", auto=True)
    assert dealt["piles"]["f1"] == ["AC"], "a tableau Ace goes home by itself"
    assert drawn["piles"]["w"][-1] == "AS" and drawn["piles"]["f2"] == []
    assert "w f2" in listed["moves"]


def test_draw_3_seed_2_is_won_by_the_reference_line() -> None:
    moves = commands_of("klondike_draw_3_seed_2_win.txt")
    records = play("klondike-draw-3", "seed 2", *moves)
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52


def test_a_card_turned_up_where_it_lies_is_not_reported_as_moved() -> None:
    # Seed 1: t6's AH goes home and the card below it, 8D, turns up where it lies.
    out = run_cli("play", "klondike", "--seed", "1", "--no-auto", stdin="t6 f1\n").out
    assert "t6 ## ## ## ## 8D" in out and "<-" not in out
