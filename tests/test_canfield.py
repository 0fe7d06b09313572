"""Canfield: one test per rule of seeds/canfield.md, through the CLI with crafted decks, and
the reference deals."""

from __future__ import annotations

from crafted import commands_of, deck, play

from conftest import CANONICAL, RANKS, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, parse_deck

CANFIELD = load_game("canfield")
CLUBS_UP = ["AD", *[r + "C" for r in reversed(RANKS[1:])]]  # AD at the bottom, 2C on top


def test_the_deal_reserve_base_card_tableau_stock() -> None:
    (first,) = play("canfield", CANONICAL)
    piles = first["piles"]
    assert piles["r1"] == CANONICAL[:13] and first["face_down"] == {"r1": 12, "s": 34}
    assert piles["f1"] == ["AD"] and piles["f2"] == piles["f3"] == piles["f4"] == []
    assert [piles[f"t{k}"] for k in range(1, 5)] == [["2D"], ["3D"], ["4D"], ["5D"]]
    assert len(piles["s"]) == 34 and piles["s"][-1] == "6D" and piles["w"] == []


def test_the_base_card_sets_every_foundation_s_first_rank_and_kings_go_on_to_aces() -> None:
    tops = {"r1": "QD", "f1": "QH", "t1": "KH", "t2": "QS", "t3": "AH", "t4": "2C"}
    records = play("canfield", deck(CANFIELD, tops=tops), "t4 f2", "t2 f2", "t2 f3", "t1 f1",
                   "t3 f1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, True, True, True, True]
    assert records[1]["error"] == "f2 is empty and accepts only cards of rank Q"
    assert records[3]["piles"]["f3"] == ["QD"], "the reserve filled t2 with QD"
    assert records[-1]["piles"]["f1"] == ["QH", "KH", "AH"]


def test_the_tableau_builds_down_in_alternating_colours_a_king_going_on_an_ace() -> None:
    tops = {"t1": "AH", "t2": "KS", "t3": "KD", "t4": "5C"}
    records = play("canfield", deck(CANFIELD, tops=tops), "t3 t1", "t2 t1", "t4 t1")
    assert [r["ok"] for r in records[1:]] == [False, True, False]
    assert records[1]["error"] == "KD does not go on AH (t1 takes KC or KS)"
    assert records[2]["piles"]["t1"] == ["AH", "KS"]
    assert records[3]["error"] == "5C does not go on KS (t1 takes QD or QH)"


def test_runs_move_whole_or_in_part_and_the_reserve_fills_a_gap_at_once() -> None:
    tops = {"r1": "8C", "t1": "8S", "t2": "7H", "t3": "9D", "t4": "6C"}
    records = play("canfield", deck(CANFIELD, tops=tops), "t2 t1", "t4 t1", "t1 t2 2", "t1 t3")
    filled = records[1]
    assert filled["piles"]["t2"] == ["8C"] and filled["face_down"]["r1"] == 11
    assert len(filled["piles"]["r1"]) == 12, "the reserve's next card is turned up"
    assert records[3]["piles"]["t2"] == ["8C", "7H", "6C"] and records[3]["piles"]["t1"] == ["8S"]
    assert records[4]["piles"]["t3"] == ["9D", "8S"]
    assert records[4]["piles"]["t1"] != [], "t1 was filled from the reserve"


def test_the_reserve_top_card_plays_onto_the_tableau_and_the_next_one_turns_up() -> None:
    order = deck(CANFIELD, piles={"r1": [*CANONICAL[:11], "9D", "7H"]}, tops={"t1": "8S"})
    records = play("canfield", order, "r1 t1", "r1 t2")
    assert records[1]["piles"]["t1"] == ["8S", "7H"] and records[1]["piles"]["r1"][-1] == "9D"
    assert records[1]["face_down"]["r1"] == 11
    assert records[2]["error"].startswith("9D does not go on")


def test_once_the_reserve_is_out_a_gap_waits_for_any_card() -> None:
    piles = {"r1": CLUBS_UP, "f1": ["AC"], "t1": ["2D"]}
    commands = ["r1 f1"] * 12 + ["r1 f2", "t1 f2", "d", "w t1"]
    records = play("canfield", deck(CANFIELD, piles=piles), *commands)
    assert all(r["ok"] for r in records[1:])
    assert records[12]["piles"]["f1"][-1] == "KC" and records[13]["piles"]["r1"] == []
    assert records[14]["piles"]["t1"] == [], "nothing fills the gap by itself now"
    assert records[16]["piles"]["t1"] == [records[15]["piles"]["w"][-1]]


def test_draw_turns_three_cards_and_redeals_are_unlimited() -> None:
    commands = ["d"] * 12 + ["d", "r", "d", *["d"] * 11, "r", "d"]
    records = play("canfield", CANONICAL, *commands)
    assert records[1]["piles"]["w"] == ["6D", "7D", "8D"]
    assert records[12]["piles"]["s"] == [] and len(records[12]["piles"]["w"]) == 34
    assert records[12]["piles"]["w"][-1] == "KS", "the last turn gives the one card left"
    assert records[13]["error"] == "s is empty"
    assert records[14]["piles"]["s"] == records[0]["piles"]["s"]
    assert records[15]["piles"]["w"] == ["6D", "7D", "8D"]
    assert records[-1]["piles"]["w"] == ["6D", "7D", "8D"], "a second redeal"


def test_cards_on_the_foundations_stay_there() -> None:
    records = play("canfield", deck(CANFIELD, tops={"f1": "9C", "t1": "10H"}), "f1 t1")
    assert records[1]["error"] == "cards cannot be moved from f1"


def test_seed_5_is_won_and_seed_3_never_moves_a_card() -> None:
    won = play("canfield", "seed 5", *commands_of("canfield_seed_5_win.txt"))
    assert all(r["ok"] for r in won)
    assert won[-1]["result"] == "won" and won[-1]["foundation_cards"] == 52
    # Seed 3: through a whole pass of the stock, and after the redeal, only the stock moves.
    listed = play("canfield", "seed 3", "m", *["d", "m"] * 12, "r", "m")
    moves = [r["moves"] for r in listed if r["command"] == "m"]
    assert len(moves) == 14 and all(set(m) <= {"draw", "redeal"} for m in moves)
    assert listed[-1]["result"] is None


def test_no_action_left_is_a_loss() -> None:
    # Stock, waste and reserve out; four black tops that build on nothing, the rest face down
    # under them, and no foundation card to go on.
    game = CANFIELD
    by_name = dict(zip(CANONICAL, parse_deck(CANONICAL, game.cards), strict=True))
    tops = ["KC", "KS", "QC", "QS"]
    rest = [c for c in CANONICAL if c not in [*tops, "2C", "2S"]]
    piles: list[tuple[int, ...]] = [()] * len(game.pile_names)
    index = game.layout.index
    piles[index["f1"]], piles[index["f2"]] = (by_name["2C"],), (by_name["2S"],)
    for k, top in enumerate(tops):
        under = rest[k * 12 : k * 12 + 12] if k < 3 else rest[36:]
        piles[index[f"t{k + 1}"]] = (*(by_name[c] | DOWN for c in under), by_name[top])
    position = game.settle(State(tuple(piles), game.initial, (0,)))
    assert sum(map(len, position.piles)) == 52 and game.outcome(position) == "lost"


def test_safe_moves_come_from_the_tableau_and_the_reserve_never_from_the_waste() -> None:
    tops = {"f1": "5H", "t1": "5C", "t2": "5S", "t3": "5D", "r1": "6C"}
    order = deck(CANFIELD, tops=tops, stock=["9C", "9D", "6S"])
    records = play("canfield", order, "t1 f2", "t2 f3", "t3 f4", "d", "m", auto=True)
    assert records[1]["piles"]["t1"] == ["6C"] and "auto" not in records[1]
    assert records[3]["auto"] == ["t1 f2"], "6C goes home once 5H and 5D are"
    drawn = records[4]
    assert drawn["piles"]["w"][-1] == "6S" and "auto" not in drawn
    assert "w f3" in records[5]["moves"]


def test_the_board_shows_the_rank_the_empty_foundations_take() -> None:
    result = run_cli("play", "canfield", "--seed", "3", "--no-record")
    assert result.code == 0
    # The foundations stand side by side, each in a column of its own.
    cells = [cell.strip() for line in result.out.splitlines() for cell in line.split("  ")]
    assert "f1 5D>6D" in cells and "f2 >5" in cells and "f4 >5" in cells
