"""Cruel: each rule of seeds/cruel.md played through the CLI with crafted decks (the Aces go to
f1..f4 first; the other 48 cards are dealt row by row onto t1..t12)."""

from __future__ import annotations

from typing import Any

from crafted import play as play_cli

from conftest import CANONICAL

TABLEAU = [f"t{k}" for k in range(1, 13)]


def crafted(piles: dict[str, list[str]]) -> list[str]:
    """Aces first, then these piles (bottom to top, four cards each; missing piles and cards
    from the rest in canonical order) dealt row by row."""
    given = {c for cards in piles.values() for c in cards}
    rest = iter(c for c in CANONICAL if c not in given and c[0] != "A")
    full = {t: piles.get(t, []) for t in TABLEAU}
    full = {t: [next(rest) for _ in range(4 - len(cards))] + cards for t, cards in full.items()}
    return ["AC", "AD", "AH", "AS"] + [full[TABLEAU[k % 12]][k // 12] for k in range(48)]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    return play_cli("cruel", order, *commands)


def test_the_aces_start_the_foundations_and_twelve_piles_of_four() -> None:
    (dealt,) = play(crafted({}))
    piles = dealt["piles"]
    assert [piles[f] for f in ("f1", "f2", "f3", "f4")] == [["AC"], ["AD"], ["AH"], ["AS"]]
    assert all(len(piles[t]) == 4 for t in TABLEAU)


def test_building_down_in_suit_one_card_at_a_time_and_an_empty_pile_stays_empty() -> None:
    order = crafted({"t1": ["9C", "8C", "3H", "2C"], "t2": ["10D", "9D", "7C", "6C"]})
    records = play(order, "t1 f1", "t1 f3", "t2 t1", "t1 t2")
    assert records[1]["ok"] and records[2]["error"] == "3H does not go on AH (f3 takes 2H)"
    assert records[3]["error"] == "6C does not go on 3H (t1 takes 2H)"
    assert records[4]["error"] == "3H does not go on 6C (t2 takes 5C)"


def test_a_redeal_picks_the_piles_up_in_order_and_deals_them_in_fours() -> None:
    order = crafted({"t1": ["9C", "8C", "3H", "2C"]})
    records = play(order, "t1 f1", "redeal")
    before, after = records[1]["piles"], records[2]["piles"]
    cards = [c for t in TABLEAU for c in before[t]]  # 47, t1's three first
    assert [after[t] for t in TABLEAU] == [cards[k : k + 4] for k in range(0, 47, 4)]
    assert after["t1"] == ["9C", "8C", "3H", before["t2"][0]] and len(after["t12"]) == 3


def test_redeals_without_limit_but_never_one_that_changes_nothing() -> None:
    order = crafted({"t1": ["9C", "8C", "3H", "2C"], "t2": ["2D", "4S", "7S", "5H"]})
    records = play(order, "redeal", "t1 f1", "redeal", "redeal", "t1 f2", "redeal")
    assert records[1]["error"] == "a redeal now would change nothing"
    assert records[3]["ok"]  # t1 short of a card: everything after it moves up
    assert records[4]["error"] == "a redeal now would change nothing"  # all fours again
    assert records[5]["ok"] and records[6]["ok"]  # 2D came to t1; gone, and redeal again
    assert records[6]["piles"]["t1"] == ["9C", "8C", "3H", "4S"]
