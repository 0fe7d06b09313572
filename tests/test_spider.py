"""Spider and Spider (one suit): each rule of seeds/spider.md and seeds/spider_1_suit.md, played
through the CLI with crafted decks, and the reference deals replayed."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import crafted
from crafted import commands_of
from crafted import deck as crafted_deck

from conftest import CANONICAL, ROOT, run_cli
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import DOWN, FACE, card_text

SPIDER = load_game("spider")
ONE_SUIT = load_game("spider-1-suit")
TABLEAU = [f"t{k}" for k in range(1, 11)]
HEARTS_DOWN = ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"]


def play(order: list[str], *commands: str, game: str = "spider") -> list[dict[str, Any]]:
    return crafted.play(game, order, *commands)


def test_the_deal_rows_from_the_left_four_face_down_extras_then_a_face_up_row() -> None:
    (first,) = play(CANONICAL * 2)
    piles, down = first["piles"], first["face_down"]
    # Rows of ten: t1 gets deck cards 1, 11, 21, 31, then card 41 (the extras go to t1, t4, t7
    # and t10: cards 41..44), then card 45 of the face-up row (cards 45..54).
    assert piles["t1"] == ["AC", "JC", "8D", "5H", "2S", "6S"]
    assert piles["t2"] == ["2C", "QC", "9D", "6H", "7S"]
    assert piles["t4"] == ["4C", "AD", "JD", "8H", "3S", "9S"]
    assert piles["t10"] == ["10C", "7D", "4H", "AS", "5S", "2C"]
    assert [len(piles[t]) for t in TABLEAU] == [6, 5, 5, 6, 5, 5, 6, 5, 5, 6]
    assert [down[t] for t in TABLEAU] == [5, 4, 4, 5, 4, 4, 5, 4, 4, 5]
    assert len(piles["s"]) == 50 and down["s"] == 50 and piles["s"][-1] == "3C"  # card 55
    assert all(piles[f"f{k}"] == [] for k in range(1, 9))
    assert Counter(c for p in piles.values() for c in p) == Counter(CANONICAL * 2)


def test_a_card_goes_on_one_higher_of_any_suit_and_never_on_an_ace() -> None:
    order = crafted_deck(SPIDER, {"t1": ["7C"], "t2": ["8H"], "t3": ["AD"], "t4": ["2S"],
                             "t5": ["KS"], "t6": ["9C"]})  # fmt: skip
    records = play(order, "t1 t2", "t4 t3", "t5 t3", "t6 t2", "t3 t4")
    assert [r["ok"] for r in records[1:]] == [True, False, False, False, True]
    assert records[1]["piles"]["t2"][-2:] == ["8H", "7C"]
    assert records[2]["error"] == records[3]["error"] == "nothing can be built on t3"
    assert records[4]["error"] == "9C does not go on 7C (t2 takes any 6)"
    assert records[5]["piles"]["t4"][-2:] == ["2S", "AD"]


def test_only_runs_of_one_suit_move_as_a_unit() -> None:
    # t1 7H on t2 8H makes the run 8H 7H; that run goes on 9S (any suit): 9S 8H 7H is in
    # order but of two suits, so the three cards do not move together onto 10D.
    order = crafted_deck(SPIDER, {"t1": ["7H"], "t2": ["8H"], "t3": ["9S"], "t4": ["10D"]})
    records = play(order, "t1 t2", "t2 t3 2", "t3 t4 3", "t3 t4", "moves")
    assert [r["ok"] for r in records[1:]] == [True, True, False, False, True]
    assert records[2]["piles"]["t3"][-3:] == ["9S", "8H", "7H"]
    assert records[3]["error"] == "those 3 cards of t3 are not a run: 2 can move together"
    assert records[4]["error"] == "7H does not go on 10D (t4 takes any 9)"
    assert "t3 t4 3" not in records[5]["moves"]


def emptied_t2() -> list[str]:
    # t2 is dealt 5C 6C 7C 8C 9C (bottom to top) and t1 shows 10C: five moves empty t2.
    return crafted_deck(SPIDER, {"t1": ["10C"], "t2": ["5C", "6C", "7C", "8C", "9C"], "t3": ["KD"]})


def test_face_down_cards_turn_up_and_an_empty_pile_takes_any_card_or_run() -> None:
    records = play(emptied_t2(), *["t2 t1"] * 5, "t1 t2 6", "t1 t2", "t3 t2")
    after_one = records[1]
    assert after_one["piles"]["t2"][-1] == "8C" and after_one["face_down"]["t2"] == 3
    assert records[5]["piles"]["t2"] == [] and "t2" not in records[5]["face_down"]
    assert records[5]["piles"]["t1"][-6:] == ["10C", "9C", "8C", "7C", "6C", "5C"]
    assert records[6]["ok"] and records[6]["piles"]["t2"] == ["10C", "9C", "8C", "7C", "6C", "5C"]
    # t1's next card turned up (JH); the five clubs on t2 take only a 4, not KD.
    assert records[7]["error"] == "JH does not go on 5C (t2 takes any 4)"
    assert records[8]["error"] == "KD does not go on 5C (t2 takes any 4)"


def test_no_deal_while_a_pile_is_empty() -> None:
    records = play(emptied_t2(), *["t2 t1"] * 5, "deal", "t3 t2", "d")
    assert records[6]["ok"] is False
    assert records[6]["error"] == "deal is not possible while a tableau pile is empty"
    assert records[7]["ok"] and records[8]["ok"]
    assert [len(records[8]["piles"][t]) - len(records[7]["piles"][t]) for t in TABLEAU] == [1] * 10


def test_each_deal_puts_one_card_face_up_on_every_pile_five_times() -> None:
    stock = [f"{r}S" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
    records = play(crafted_deck(SPIDER, stock=stock), *["d"] * 6)
    first = records[1]
    assert [first["piles"][t][-1] for t in TABLEAU] == stock
    assert first["face_down"]["s"] == 40
    assert [first["face_down"][t] for t in TABLEAU] == [5, 4, 4, 5, 4, 4, 5, 4, 4, 5]
    assert [len(r["piles"]["s"]) for r in records[1:6]] == [40, 30, 20, 10, 0]
    assert records[6]["error"] == "s is empty"


def finished_run_deck() -> list[str]:
    stock = ["3H", *CANONICAL[:9], "2H", *CANONICAL[13:22], "AH"]
    return crafted_deck(SPIDER, {t: [c] for t, c in zip(TABLEAU, HEARTS_DOWN, strict=True)}, stock)


def test_a_finished_run_of_one_suit_leaves_by_itself() -> None:
    moves = [f"t{k} t1" for k in range(2, 11)]
    records = play(finished_run_deck(), *moves, "d", "d", "d")
    before = records[-2]
    assert before["piles"]["t1"][-12:] == [*HEARTS_DOWN, "3H", "2H"]
    end = records[-1]
    assert end["piles"]["f1"] == ["AH", "2H", "3H", *reversed(HEARTS_DOWN)]
    assert end["foundation_cards"] == 13 and end["piles"]["f2"] == []
    assert len(end["piles"]["t1"]) == 5 and end["face_down"]["t1"] == 4  # its top turned up


def test_the_game_is_won_with_every_run_home_and_lost_without_a_move() -> None:
    index, cards = SPIDER.layout.index, SPIDER.cards
    by_suit = [sorted((c for c in cards if FACE[c] // 13 == s), key=lambda c: -FACE[c])
               for s in range(4)]  # fmt: skip
    runs = [tuple(pile[k::2]) for pile in by_suit for k in range(2)]  # K..A, one per copy
    piles: list[tuple[int, ...]] = [() for _ in SPIDER.pile_names]
    for k, run in enumerate(runs[:7]):
        piles[index[f"f{k + 1}"]] = run[::-1]
    piles[index["t1"]], piles[index["t2"]] = runs[7][:-1], runs[7][-1:]  # K..2 of spades; AS
    state = SPIDER.settle(State(tuple(piles), "playing", ()))
    assert state.phase == "playing"
    won = SPIDER.apply(state, SPIDER.parse_action("t2 t1", state))
    assert SPIDER.outcome(won) == "won" and SPIDER.score(won) == 104
    # Six runs home and the two runs of spades spread over the ten piles, the tops K K J J 9 9
    # 7 7 5 5 face up on the other cards face down: no top card fits another, no deal is left.
    spades = sorted(runs[6] + runs[7], key=lambda c: FACE[c])
    tops = [c for c in spades if card_text(c)[:-1] in ("K", "J", "9", "7", "5")]
    rest = [c | DOWN for c in spades if c not in tops]
    piles = [() for _ in SPIDER.pile_names]
    for k, run in enumerate(runs[:6]):
        piles[index[f"f{k + 1}"]] = run[::-1]
    for k, top in enumerate(tops):
        piles[index[f"t{k + 1}"]] = (*rest[k::10], top)
    lost = SPIDER.settle(State(tuple(piles), "playing", ()))
    assert SPIDER.outcome(lost) == "lost"


def test_spider_one_suit_is_104_spades_and_any_descending_run_moves() -> None:
    assert len(ONE_SUIT.cards) == 104
    assert Counter(card_text(c) for c in ONE_SUIT.cards) == Counter(
        {f"{r}S": 8 for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")}
    )
    order = crafted_deck(ONE_SUIT, {"t1": ["7S"], "t2": ["8S"], "t3": ["9S"], "t4": ["10S"]})
    records = play(order, "t1 t2", "t2 t3 2", "t3 t4 3", game="spider-1-suit")
    assert all(r["ok"] for r in records)
    assert records[-1]["piles"]["t4"][-4:] == ["10S", "9S", "8S", "7S"]


def replay(game: str, seed: int, commands: list[str]) -> list[dict[str, Any]]:
    result = run_cli("play", game, "--seed", str(seed), "--json", "--no-auto",
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    records = result.json_lines()
    assert all(r["ok"] for r in records), next(r for r in records if not r["ok"])
    return records


def test_reference_spider_one_suit_seed_0_is_won() -> None:
    notes = (ROOT / "seeds" / "spider_1_suit.md").read_text(encoding="utf-8")
    assert "`tests/data/spider_1_suit_seed_0_win.txt`" in notes
    line = commands_of("spider_1_suit_seed_0_win.txt")
    records = replay("spider-1-suit", 0, line)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 104
    assert all(r["result"] is None for r in records[:-1])


def test_reference_spider_seed_2_partial() -> None:
    notes = (ROOT / "seeds" / "spider.md").read_text(encoding="utf-8")
    assert "`tests/data/spider_seed_2_partial.txt`" in notes
    records = replay("spider", 2, commands_of("spider_seed_2_partial.txt"))
    end = records[-1]
    assert end["result"] is None and end["foundation_cards"] == 13 and end["piles"]["s"] == []
    assert sum(end["face_down"].values()) == 16


def test_one_suit_spider_is_listed_as_two_decks_of_cards() -> None:
    listed = {
        json.loads(line)["id"]: json.loads(line)
        for line in run_cli("list", "--json").out.splitlines()
    }
    assert listed["spider-1-suit"]["decks"] == 2 and listed["spider"]["decks"] == 2
    assert "8 decks of S only, 104" in " ".join(run_cli("rules", "spider-1-suit").out.split())
