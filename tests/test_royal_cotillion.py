"""Royal Cotillion: each rule of seeds/royal_cotillion.md played through the CLI with crafted
decks (automatic moves to the foundations off; the reserve and waste refills are the rules')."""

from __future__ import annotations

from crafted import deck, play

from yaml_solitaire.engine import load_game

GAME = load_game("royal-cotillion")
ID = "royal-cotillion"
CLUBS_FROM_ACE = ["AC", "3C", "5C", "7C", "9C", "JC", "KC", "2C", "4C", "6C", "8C", "10C", "QC"]


def test_the_deal_sixteen_reserves_four_piles_of_three_a_waste_card_and_the_stock() -> None:
    (dealt,) = play(ID, [c for c in deck(GAME)])
    piles = dealt["piles"]
    assert all(len(piles[f"r{k}"]) == 1 for k in range(1, 17))
    assert all(len(piles[f"t{k}"]) == 3 for k in range(1, 5))
    assert len(piles["w"]) == 1 and dealt["face_down"] == {"s": 75}
    assert all(piles[f"f{k}"] == [] for k in range(1, 9))


def test_each_foundation_starts_with_its_own_card() -> None:
    order = deck(GAME, {"r1": ["AC"], "r2": ["2C"], "r3": ["AD"]})
    records = play(ID, order, "r1 f2", "r2 f1", "r3 f1", "r1 f1", "r2 f2", "r3 f3")
    assert records[1]["error"] == "f2 is empty and accepts only 2C"
    assert records[2]["error"] == "f1 is empty and accepts only AC"
    assert records[3]["error"] == "f1 is empty and accepts only AC"
    assert [r["ok"] for r in records[4:]] == [True, True, True]


def test_a_foundation_goes_up_in_twos_round_the_corner_and_is_complete_after_thirteen() -> None:
    # AC 3C ... KC 2C ... QC from the reserves (each refilled from the waste, then the stock).
    order = deck(
        GAME, {f"r{k}": [c] for k, c in enumerate(CLUBS_FROM_ACE[:8], 1)},
        stock=[*CLUBS_FROM_ACE[8:], "AC"], tops={"w": "5D"},
    )  # fmt: skip
    commands = [f"r{k} f1" for k in range(1, 9)]
    # Each reserve emptied takes the waste card, and the waste the stock's: 5D into r1, then
    # 4C into r2, 6C into r3 ... AC into r7.
    rest = ["r1 f1", "r2 f1", "r3 f1", "r4 f1", "r5 f1", "r6 f1", "r7 f1"]
    records = play(ID, order, *commands, *rest)
    assert all(r["ok"] for r in records[1:9])
    assert records[8]["piles"]["f1"][-2:] == ["KC", "2C"]  # a King, then the 2
    assert records[9]["error"] == "5D does not go on 2C (f1 takes 4C)"
    assert all(r["ok"] for r in records[10:15])
    assert records[14]["piles"]["f1"] == CLUBS_FROM_ACE
    assert records[15]["error"] == "f1 is complete (QC): it accepts nothing more"


def test_an_empty_reserve_place_takes_the_waste_card_and_the_waste_the_stock_card() -> None:
    order = deck(GAME, {"r4": ["AH"]}, stock=["9S", "8S"], tops={"w": "7S"})
    records = play(ID, order, "r4 f5", "r4 f5")
    assert records[1]["piles"]["r4"] == ["7S"]  # filled from the waste at once
    assert records[1]["piles"]["w"] == ["9S"]  # and the empty waste from the stock
    assert records[1]["piles"]["s"][-1] == "8S"
    assert records[2]["error"] == "7S does not go on AH (f5 takes 3H)"


def test_only_top_cards_play_and_only_to_the_foundations() -> None:
    order = deck(GAME, {"t1": ["AS", "QS", "3S"], "r1": ["5S"]})
    records = play(ID, order, "t1 f7", "r1 t1", "t1 r2", "w r1", "moves")
    assert records[1]["error"] == "f7 is empty and accepts only AS"  # AS lies under QS, 3S
    assert records[2]["error"] == "cards cannot be moved to t1"
    assert records[3]["error"] == "cards cannot be moved to r2"
    assert records[4]["error"] == "cards cannot be moved to r1"
    moves = records[5]["moves"]
    assert "draw" in moves and all(m.split()[1].startswith("f") for m in moves if m != "draw")
