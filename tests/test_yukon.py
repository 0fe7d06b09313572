"""Yukon: one test per rule of seeds/yukon.md, through the CLI with crafted decks, and the
reference deal."""

from __future__ import annotations

from crafted import commands_of, deck, play

from conftest import CANONICAL, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, parse_deck

YUKON = load_game("yukon")


def test_the_deal_six_rows_down_then_five_rows_up() -> None:
    (first,) = play("yukon", CANONICAL)
    piles = first["piles"]
    # Rows face down: AC..6C to t2..t7, 7C..JC to t3..t7, ... 8D to t7; rows face up: 9D..AH,
    # 2H..7H, 8H..KH and AS..6S to t2..t7; the last row, 7S..KS, to t1..t7.
    assert piles["t1"] == ["7S"]
    assert piles["t2"] == ["AC", "9D", "2H", "8H", "AS", "8S"]
    assert piles["t7"] == ["6C", "JC", "2D", "5D", "7D", "8D", "AH", "7H", "KH", "6S", "KS"]
    assert [len(piles[f"t{k}"]) for k in range(1, 8)] == [1, 6, 7, 8, 9, 10, 11]
    assert first["face_down"] == {f"t{k}": k - 1 for k in range(2, 8)}


def test_any_face_up_card_moves_with_every_card_on_it() -> None:
    order = deck(YUKON, piles={"t2": ["2C", "7S", "2H", "QD", "4C", "9H"]}, tops={"t3": "8H"})
    records = play("yukon", order, "t2 t3 4", "t2 t3 6", "t2 t3", "u", "t2 t3 5")
    assert records[1]["error"] == "2H does not go on 8H (t3 takes 7C or 7S)"
    assert records[2]["error"] == "only face-up cards can be moved: t2 has 5 face-up cards on top"
    moved = records[3]
    assert moved["ok"] and moved["piles"]["t3"][-5:] == ["7S", "2H", "QD", "4C", "9H"]
    assert moved["piles"]["t2"] == ["2C"] and "t2" not in moved["face_down"], "2C turned up"
    assert records[5]["piles"] == moved["piles"]


def test_the_tableau_builds_down_in_alternating_colours_without_wrapping() -> None:
    tops = {"t1": "AS", "t2": "7D", "t3": "8H", "t4": "7C", "t5": "KH"}
    records = play("yukon", deck(YUKON, tops=tops), "t2 t3 1", "t4 t3 1", "t5 t1 1")
    assert [r["ok"] for r in records[1:]] == [False, True, False]
    assert records[1]["error"] == "7D does not go on 8H (t3 takes 7C or 7S)"
    assert records[3]["error"] == "nothing can be built on t1"


def test_an_empty_pile_takes_a_king_or_a_group_with_a_king_at_its_bottom() -> None:
    order = deck(YUKON, piles={"t3": ["2C", "3C", "KD", "5S", "QC", "JD", "9S"]},
                 tops={"t1": "AH", "t2": "QH"})  # fmt: skip
    records = play("yukon", order, "t1 f1", "t2 t1 1", "t3 t1 4", "t3 t1")
    assert [r["ok"] for r in records[1:]] == [True, False, False, True]
    assert records[2]["error"] == "t1 is empty and accepts only cards of rank K"
    assert records[4]["piles"]["t1"] == ["KD", "5S", "QC", "JD", "9S"]


def test_foundations_take_one_card_at_a_time_up_in_suit_and_keep_it() -> None:
    order = deck(YUKON, piles={"t2": ["9C", "AS", "3H", "KC", "2H", "AH"]})
    records = play("yukon", order, "t2 f1", "t2 f1", "t2 f1 2", "t2 f2", "f1 t5")
    assert [r["ok"] for r in records[1:]] == [True, True, False, False, False]
    assert records[2]["piles"]["f1"] == ["AH", "2H"]
    assert records[3]["error"] == "f1 takes one card at a time"
    assert records[4]["error"] == "f2 is empty and accepts only cards of rank A"
    assert records[5]["error"] == "cards cannot be moved from f1"


def test_seed_0_is_won_by_the_reference_line() -> None:
    records = play("yukon", "seed 0", *commands_of("yukon_seed_0_win.txt"))
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52


def test_no_move_left_is_a_loss() -> None:
    # Seven black tops of ranks that build on nothing, every other card face down.
    game = YUKON
    by_name = dict(zip(CANONICAL, parse_deck(CANONICAL, game.cards), strict=True))
    tops = ["KC", "KS", "QC", "QS", "JC", "JS", "10C"]
    rest = [c for c in CANONICAL if c not in tops]
    piles: list[tuple[int, ...]] = [()] * len(game.pile_names)
    for k, top in enumerate(tops):
        under = rest[k * 7 : k * 7 + 7] if k < 6 else rest[42:]
        piles[game.layout.index[f"t{k + 1}"]] = (*(by_name[c] | DOWN for c in under), by_name[top])
    position = game.settle(State(tuple(piles), game.initial, ()))
    assert sum(map(len, position.piles)) == 52 and game.outcome(position) == "lost"


def test_a_card_goes_home_by_itself_once_both_cards_that_build_on_it_are_home() -> None:
    order = deck(YUKON, piles={"t2": ["9C", "3D", "4D", "AS", "JD", "10H"]},
                 tops={"t1": "AC", "t3": "2H", "t4": "AH", "t5": "QS"})  # fmt: skip
    dealt, moved = play("yukon", order, "t2 t5 2", auto=True)
    assert dealt["piles"]["f1"] == ["AC"] and dealt["piles"]["f2"] == ["AH"]
    assert dealt["piles"]["t3"][-1] == "2H", "2H waits while AS is out"
    assert moved["auto"] == ["t2 f3", "t3 f2"]


def test_a_pile_name_alone_says_which_group_it_moved() -> None:
    result = run_cli("play", "yukon", "--seed", "0", "--no-record", stdin="t2\n")
    assert "t2 t4 (moves 2H and the 3 cards on it): the only legal move" in result.out
