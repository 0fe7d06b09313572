"""La Belle Lucie: each rule of seeds/la_belle_lucie.md played through the CLI with crafted
decks (deck cards are dealt row by row: the first row onto t1..t18, then two rows onto
t1..t17)."""

from __future__ import annotations

from typing import Any

from crafted import play as play_cli

from conftest import CANONICAL

TABLEAU = [f"t{k}" for k in range(1, 19)]


def crafted(piles: dict[str, list[str]]) -> list[str]:
    """These fans (bottom to top; missing fans and cards from the rest in canonical order)."""
    given = {c for cards in piles.values() for c in cards}
    rest = iter(c for c in CANONICAL if c not in given)
    sizes = {t: 3 if t != "t18" else 1 for t in TABLEAU}
    full = {t: piles.get(t, []) for t in TABLEAU}
    full = {t: [next(rest) for _ in range(sizes[t] - len(cards))] + cards for t, cards in
            full.items()}  # fmt: skip
    return [full[t][row] for row in range(3) for t in TABLEAU if row < sizes[t]]


def play(order: list[str] | str, *commands: str) -> list[dict[str, Any]]:
    return play_cli("la-belle-lucie", order, *commands)


def test_the_deal_seventeen_fans_of_three_and_one_of_one() -> None:
    (dealt,) = play(crafted({"t18": ["KS"]}))
    piles = dealt["piles"]
    assert all(len(piles[t]) == 3 for t in TABLEAU[:17]) and piles["t18"] == ["KS"]


def test_fans_build_down_in_suit_one_card_at_a_time_and_an_empty_fan_stays_empty() -> None:
    order = crafted({"t1": ["5D", "2C", "AC"], "t2": ["9H", "5S", "3C"], "t3": ["7S"],
                     "t18": ["6S"]})  # fmt: skip
    records = play(order, "t1 f1", "t2 t1", "t18 t3", "t2 t18", "t3 t2 2")
    assert records[1]["ok"]
    assert records[2]["error"] == "3C does not go on 2C (t1 takes AC)"
    assert records[3]["ok"] and records[3]["piles"]["t18"] == []
    assert records[4]["error"] == "t18 is empty and accepts nothing"
    assert records[5]["error"] == "only the top card of t3 can be moved"


def test_two_redeals_shuffle_the_fans_and_deal_them_again_in_threes() -> None:
    order = crafted({"t1": ["2C", "KD", "AC"]})
    records = play(order, "t1 f1", "redeal", "redeal", "redeal")
    first, second = records[2]["piles"], records[3]["piles"]
    assert [len(first[t]) for t in TABLEAU] == [3] * 17 + [0]  # 51 cards: 17 fans of three
    assert sorted(c for t in TABLEAU for c in first[t]) == sorted(
        c for t in TABLEAU for c in records[1]["piles"][t]
    )
    assert first["t1"] != ["2C", "KD"] and first != second
    assert records[4]["error"] == "no redeal is left (2 in a game)"


def test_a_redeal_leaves_a_last_short_fan_and_always_deals_alike() -> None:
    order = crafted({"t1": ["3C", "2C", "AC"]})
    moves = ("t1 f1", "t1 f1", "t1 f1", "redeal")
    once, again = play(order, *moves), play(order, *moves)
    after = once[-1]["piles"]
    assert [len(after[t]) for t in TABLEAU] == [3] * 16 + [1, 0]  # 49 cards
    assert once[-1]["piles"] == again[-1]["piles"]  # the shuffle is the position's
