"""Scorpion: each rule of seeds/scorpion.md played through the CLI with crafted decks, and the
reference deal replayed."""

from __future__ import annotations

from typing import Any

import crafted
from crafted import commands_of
from crafted import deck as crafted_deck

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, FACE

SCORPION = load_game("scorpion")
TABLEAU = [f"t{k}" for k in range(1, 8)]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    return crafted.play("scorpion", order, *commands)


def test_the_deal_seven_rows_the_first_three_face_down_on_t1_to_t4() -> None:
    (first,) = play(CANONICAL)
    piles, down = first["piles"], first["face_down"]
    # Row r gives deck cards 7r-6 .. 7r to t1 .. t7.
    assert piles["t1"] == ["AC", "8C", "2D", "9D", "3H", "10H", "4S"]
    assert piles["t7"] == ["7C", "AD", "8D", "2H", "9H", "3S", "10S"]
    assert all(len(piles[t]) == 7 for t in TABLEAU)
    assert down == {"t1": 3, "t2": 3, "t3": 3, "t4": 3, "s": 3}
    assert piles["s"] == ["KS", "QS", "JS"]  # cards 50, 51, 52: JS on top
    assert all(piles[f"f{k}"] == [] for k in range(1, 5))


def test_any_face_up_group_moves_onto_the_next_higher_card_of_its_suit() -> None:
    # t1 ends 5C JD 2H (not in order): the three move together onto 6C, not onto 6S.
    order = crafted_deck(SCORPION, {"t1": ["5C", "JD", "2H"], "t2": ["6S"], "t3": ["6C"]})
    records = play(order, "t1 t2 3", "t1 t3 2", "t1 t3 5", "t1 t3 3")
    assert [r["ok"] for r in records[1:]] == [False, False, False, True]
    assert records[1]["error"] == "5C does not go on 6S (t2 takes 5S)"
    assert records[2]["error"] == "JD does not go on 6C (t3 takes 5C)"
    assert records[3]["error"] == "only face-up cards can be moved: t1 has 4 face-up cards on top"
    assert records[4]["piles"]["t3"][-4:] == ["6C", "5C", "JD", "2H"]


def test_nothing_goes_on_an_ace_or_on_another_suit() -> None:
    order = crafted_deck(SCORPION, {"t5": ["AH"], "t6": ["2H"], "t7": ["KH"], "t4": ["AS"]})
    records = play(order, "t7 t5", "t4 t6", "t5 t6")
    assert [r["ok"] for r in records[1:]] == [False, False, True]
    assert records[1]["error"] == "nothing can be built on t5"


def emptied_t5() -> list[str]:
    # t5 is all face up: 9H at its bottom goes on 10H, the top of t6, with the six cards above.
    return crafted_deck(SCORPION, {"t5": ["9H", "2C", "3C", "4C", "5C", "6C", "7C"], "t6": ["10H"],
                              "t7": ["KD", "8S", "QS"], "t3": ["4H"]})  # fmt: skip


def test_an_empty_pile_takes_only_a_king_with_the_cards_above_it() -> None:
    records = play(emptied_t5(), "t5 t6 7", "t3 t5", "t7 t5 1", "t7 t5 4", "t7 t5")
    assert records[1]["piles"]["t5"] == [] and records[1]["piles"]["t6"][-7:][0] == "9H"
    assert [r["error"] for r in records[2:5]] == [
        "t5 is empty and accepts only cards of rank K"
    ] * 3
    # Without a count the group that fits moves: the King with the two cards above it.
    assert records[5]["ok"] and records[5]["piles"]["t5"] == ["KD", "8S", "QS"]


def test_face_down_cards_turn_up_when_they_come_to_the_top() -> None:
    # t1's four face-up cards go onto 5S; t1's third card (face down) turns up.
    order = crafted_deck(SCORPION, {"t1": ["KC", "QC", "JC", "4S", "9D", "2C", "8H"], "t5": ["5S"]})
    records = play(order, "t1 t5 4")
    assert records[0]["face_down"]["t1"] == 3
    assert records[1]["piles"]["t1"] == ["KC", "QC", "JC"] and records[1]["face_down"]["t1"] == 2


def test_the_stock_goes_onto_t1_t2_t3_at_any_time_even_with_a_gap() -> None:
    records = play(emptied_t5(), "t5 t6 7", "d", "d")
    dealt = records[2]
    assert dealt["ok"] and dealt["piles"]["s"] == [] and dealt["piles"]["t5"] == []
    # The stock holds cards 50 to 52 of the deck order; the 52nd is on top and goes to t1.
    assert [dealt["piles"][t][-1] for t in ("t1", "t2", "t3")] == list(
        reversed(records[1]["piles"]["s"])
    )
    assert records[3]["error"] == "s is empty"


def test_a_finished_run_leaves_by_itself() -> None:
    hearts = ["KH", "QH", "JH", "10H", "9H", "8H", "7H"]
    order = crafted_deck(SCORPION, {"t5": hearts, "t6": ["6H", "5H", "4H", "3H", "2H"],
                               "t7": ["AH"]})  # fmt: skip
    records = play(order, "t6 t5 5", "t7 t5")
    end = records[-1]
    assert end["piles"]["t5"] == [] and end["foundation_cards"] == 13
    assert end["piles"]["f1"][0] == "AH" and end["piles"]["f1"][-1] == "KH"


def test_won_with_every_suit_home_and_lost_without_a_move() -> None:
    index, cards = SCORPION.layout.index, SCORPION.cards
    runs = [sorted((c for c in cards if FACE[c] // 13 == s), key=lambda c: -FACE[c])
            for s in range(4)]  # fmt: skip
    piles: list[tuple[int, ...]] = [() for _ in SCORPION.pile_names]
    for k in range(3):
        piles[index[f"f{k + 1}"]] = tuple(runs[k][::-1])
    piles[index["t1"]], piles[index["t2"]] = tuple(runs[3][:-1]), (runs[3][-1],)
    state = SCORPION.settle(State(tuple(piles), "playing", ()))
    won = SCORPION.apply(state, SCORPION.parse_action("t2 t1", state))
    assert SCORPION.outcome(won) == "won" and SCORPION.score(won) == 52
    # The spades spread so that no face-up card has a place: K J 9 7 5 3 on top, no stock.
    spades = runs[3]
    tops = spades[0::2]  # K J 9 7 5 3 A
    under = [c | DOWN for c in spades[1::2]]  # Q 10 8 6 4 2, face down
    for k, top in enumerate(tops):
        piles[index[f"t{k + 1}"]] = (*under[k : k + 1], top)
    lost = SCORPION.settle(State(tuple(piles), "playing", ()))
    assert SCORPION.outcome(lost) == "lost"


def test_reference_seed_9_is_won() -> None:
    notes = (ROOT / "seeds" / "scorpion.md").read_text(encoding="utf-8")
    assert "`tests/data/scorpion_seed_9_win.txt`" in notes
    commands = commands_of("scorpion_seed_9_win.txt")
    result = run_cli("play", "scorpion", "--seed", "9", "--json", "--no-auto",
                     stdin="\n".join(commands) + "\n")  # fmt: skip
    records = result.json_lines()
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52
    assert all(r["result"] is None for r in records[:-1])
