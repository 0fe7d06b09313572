"""Aces Up: each rule of seeds/aces_up.md played through the CLI with crafted decks, and the
reference deals replayed."""

from __future__ import annotations

from typing import Any

import crafted
from crafted import commands_of

from conftest import CANONICAL, ROOT
from yaml_solitaire.engine import State, load_game
from yaml_solitaire.engine.core.cards import card_text

TABLEAU = ["t1", "t2", "t3", "t4"]


def deck(*rows: list[str]) -> list[str]:
    """Rows of four cards (t1 to t4) from the deal on; the rest of the deck follows."""
    first = [c for row in rows for c in row]
    return first + [c for c in CANONICAL if c not in first]


def play(args: list[str], *commands: str) -> list[dict[str, Any]]:
    return crafted.play("aces-up", args, *commands)


def test_the_deal_one_card_on_each_pile_and_48_in_the_stock() -> None:
    (first,) = play(["--deck", " ".join(CANONICAL)])
    piles = first["piles"]
    assert [piles[t] for t in TABLEAU] == [["AC"], ["2C"], ["3C"], ["4C"]]
    assert len(piles["s"]) == 48 and piles["s"][-1] == "5C" and first["face_down"] == {"s": 48}
    assert piles["f1"] == []


def test_a_card_goes_while_another_pile_shows_a_higher_card_of_its_suit() -> None:
    records = play(["--deck", " ".join(deck(["5H", "7S", "8H", "10C"]))],
                   "t2 f1", "t4 f1", "t3 f1", "t1 f1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, False, False, True]
    assert records[1]["error"] == (
        "7S goes on f1 only while another pile shows a card of any higher rank, the same suit "
        "(an Ace ranks above a King)"
    )
    assert records[4]["piles"]["f1"] == ["5H"] and records[4]["piles"]["t1"] == []


def test_aces_are_high_and_never_go() -> None:
    records = play(["--deck", " ".join(deck(["KD", "AD", "AH", "2H"]))],
                   "t2 f1", "t3 f1", "t1 f1", "t4 f1")  # fmt: skip
    assert [r["ok"] for r in records[1:]] == [False, False, True, True]
    assert records[-1]["piles"]["f1"] == ["KD", "2H"]


def test_an_empty_pile_takes_one_top_card_and_a_pile_with_cards_takes_none() -> None:
    order = deck(["5H", "7S", "8H", "10C"], ["4C", "JD", "QH", "KC"])
    records = play(["--deck", " ".join(order)], "d", "t2 t3", "t1 f1", "t1 f1", "t2 t1",
                   "t4 t1", "t3 t2")  # fmt: skip
    assert records[2]["error"] == "nothing can be built on t3"
    assert records[3]["ok"] and records[4]["ok"]  # 4C (below KC), then 5H (below QH) go
    assert records[4]["piles"]["t1"] == [] and records[4]["piles"]["f1"] == ["4C", "5H"]
    assert records[5]["ok"] and records[5]["piles"]["t1"] == ["JD"]
    assert records[5]["piles"]["t2"] == ["7S"]
    assert records[6]["error"] == "nothing can be built on t1"
    assert records[7]["error"] == "nothing can be built on t2"


def test_each_deal_puts_a_card_on_every_pile_even_an_empty_one_twelve_times() -> None:
    order = deck(["5H", "7S", "8H", "10C"], ["9C", "JD", "QD", "KS"])
    records = play(["--deck", " ".join(order)], "t1 f1", *["d"] * 13)
    dealt = records[2]["piles"]
    assert [dealt[t] for t in TABLEAU] == [["9C"], ["7S", "JD"], ["8H", "QD"], ["10C", "KS"]]
    assert [len(r["piles"]["s"]) for r in records[2:14]] == list(range(44, -1, -4))
    assert records[14]["error"] == "s is empty"


def test_reference_seed_9_is_won() -> None:
    notes = (ROOT / "seeds" / "aces_up.md").read_text(encoding="utf-8")
    assert "`tests/data/aces_up_seed_9_win.txt`" in notes
    text = (ROOT / "tests" / "data" / "aces_up_seed_9_win.txt").read_text(encoding="utf-8")
    records = play(["--seed", "9"], *(c for c in text.splitlines() if c.strip()))
    assert all(r["ok"] for r in records)
    end = records[-1]
    assert end["result"] == "won" and end["foundation_cards"] == 48
    assert sorted(c for t in TABLEAU for c in end["piles"][t]) == ["AC", "AD", "AH", "AS"]
    assert all(r["result"] is None for r in records[:-1])


def test_reference_seed_1_is_lost_when_nothing_is_left_to_do() -> None:
    notes = (ROOT / "seeds" / "aces_up.md").read_text(encoding="utf-8")
    assert "`tests/data/aces_up_seed_1_lost.txt`" in notes and "lost, 26 cards discarded" in notes
    records = play(["--seed", "1"], *commands_of("aces_up_seed_1_lost.txt"))
    assert all(r["ok"] for r in records) and len(commands_of("aces_up_seed_1_lost.txt")) == 39
    end = records[-1]
    assert end["result"] == "lost" and end["foundation_cards"] == 26 and end["piles"]["s"] == []


def test_won_as_soon_as_only_the_aces_are_left() -> None:
    game = load_game("aces-up")
    index = game.layout.index
    aces = [c for c in game.cards if card_text(c).startswith("A")]
    others = [c for c in game.cards if c not in aces]
    piles: list[tuple[int, ...]] = [() for _ in game.pile_names]
    piles[index["f1"]] = tuple(others[:-1])
    piles[index["t1"]] = (aces[0], aces[1])  # AC, AD: two Aces on one pile is no obstacle
    piles[index["t2"]] = (aces[2], others[-1])  # KS on AH
    piles[index["t3"]] = (aces[3],)  # AS
    state = game.settle(State(tuple(piles), "playing", ()))
    assert card_text(others[-1]) == "KS" and game.outcome(state) is None
    won = game.apply(state, game.parse_action("t2 f1", state))
    assert game.outcome(won) == "won" and game.score(won) == 48
