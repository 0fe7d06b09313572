"""Accordion: each rule of seeds/accordion.md played through the CLI with crafted decks, and the
reference deal replayed."""

from __future__ import annotations

from typing import Any

import crafted
from crafted import commands_of

from conftest import CANONICAL, ROOT
from yaml_solitaire.engine import State, load_game

ACCORDION = load_game("accordion")
ROW = [f"t{k}" for k in range(1, 53)]


def deck(first: list[str]) -> list[str]:
    return first + [c for c in CANONICAL if c not in first]


def play(args: list[str], *commands: str) -> list[dict[str, Any]]:
    return crafted.play("accordion", args, *commands)


def test_the_deal_one_card_face_up_on_each_of_52_piles() -> None:
    (first,) = play(["--deck", " ".join(CANONICAL)])
    assert [first["piles"][t] for t in ROW] == [[c] for c in CANONICAL]
    assert first["face_down"] == {} and len(first["piles"]) == 52


def test_a_pile_goes_one_or_three_places_left_on_a_matching_suit_or_rank() -> None:
    # Row: 4C 4D 9D JC QH ... (the research note's example, then canonical cards)
    order = deck(["4C", "4D", "9D", "JC", "QH"])
    records = play(["--deck", " ".join(order)], "moves", "t5 t4", "t5 t2", "t4 t1")
    assert {"t2 t1", "t3 t2", "t4 t1"} <= set(records[1]["moves"])
    assert not any(m.startswith("t5 ") for m in records[1]["moves"])
    assert records[2]["error"].startswith("QH does not go on JC (t4 takes ")
    assert records[3]["error"].startswith("QH does not go on 4D (t2 takes ")
    assert records[4]["ok"] and records[4]["piles"]["t1"] == ["4C", "JC"]  # suit, three left
    (_, rank) = play(["--deck", " ".join(order)], "t2 t1")
    assert rank["ok"] and rank["piles"]["t1"] == ["4C", "4D"]  # rank, one left


def test_distances_count_only_the_piles_left() -> None:
    # After 9D goes onto 4D, JC is two places from 4C: that move is gone. QC is now three
    # places from 9D (no match) and next to QH (same rank).
    order = deck(["4C", "4D", "9D", "JC", "QH", "QC"])
    records = play(["--deck", " ".join(order)], "t3 t2", "t4 t1", "t6 t2", "t6 t5")
    assert records[1]["ok"] and records[1]["piles"]["t3"] == []
    assert records[2]["error"] == "t1 is not 1, 3 place(s) from t4 among the piles left"
    assert records[3]["ok"] is False  # QC onto 9D (three places left now): no match
    assert records[4]["ok"] and records[4]["piles"]["t5"] == ["QH", "QC"]


def test_the_whole_pile_moves_and_its_top_card_decides() -> None:
    # t2 gathers 4C then 9C; the pile [4C 9C] goes onto 9H by its top card 9C, not by 4C.
    order = deck(["9H", "4C", "9C", "2D", "KS", "3S"])
    records = play(["--deck", " ".join(order)], "t3 t2", "t2 t1 1", "t2 t1")
    assert records[1]["piles"]["t2"] == ["4C", "9C"]
    assert records[2]["error"] == "t2 moves as a whole (2 cards)"
    assert records[3]["ok"] and records[3]["piles"]["t1"] == ["9H", "4C", "9C"]


def test_no_move_to_the_right_or_other_distances() -> None:
    order = deck(["4C", "4D", "9D", "JC", "QH"])
    records = play(["--deck", " ".join(order)], "t1 t2", "t1 t4", "t5 t3", "t6 t1")
    assert records[1]["error"] == "t2 is not 1, 3 place(s) from t1 among the piles left"
    assert records[2]["error"] == "t4 is not 1, 3 place(s) from t1 among the piles left"
    assert records[3]["error"] == "t3 is not 1, 3 place(s) from t5 among the piles left"
    assert records[4]["error"] == "t1 is not 1, 3 place(s) from t6 among the piles left"


def test_won_with_one_pile_and_lost_when_no_pile_can_move() -> None:
    index, cards = ACCORDION.layout.index, ACCORDION.cards
    piles: list[tuple[int, ...]] = [() for _ in ACCORDION.pile_names]
    piles[index["t1"]] = cards[:-1]
    piles[index["t40"]] = cards[-1:]  # KS, now next to t1's top QS
    state = ACCORDION.settle(State(tuple(piles), "playing", ()))
    won = ACCORDION.apply(state, ACCORDION.parse_action("t40 t1", state))
    assert ACCORDION.outcome(won) == "won" and ACCORDION.score(won) == 52
    # AC, 2D, 3H and 4S on top of four piles: no two match, whatever the distance.
    tops = [cards[0], cards[14], cards[28], cards[42]]
    rest = [c for c in cards if c not in tops]
    for k, top in enumerate(tops):
        piles[index[f"t{k + 1}"]] = (*rest[k::4], top)
    piles[index["t40"]] = ()
    lost = ACCORDION.settle(State(tuple(piles), "playing", ()))
    assert ACCORDION.outcome(lost) == "lost"


def test_reference_seed_0_is_won() -> None:
    notes = (ROOT / "seeds" / "accordion.md").read_text(encoding="utf-8")
    assert "`tests/data/accordion_seed_0_win.txt`" in notes
    records = play(["--seed", "0"], *commands_of("accordion_seed_0_win.txt"))
    assert all(r["ok"] for r in records)
    end = records[-1]
    assert end["result"] == "won" and len(end["piles"]["t1"]) == 52
    assert all(r["result"] is None for r in records[:-1])
