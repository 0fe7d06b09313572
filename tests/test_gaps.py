"""Gaps (the basic variant): each rule of seeds/gaps.md played through the CLI with crafted
decks (the deal lays the deck order row by row, t1 to t52, one card a place)."""

from __future__ import annotations

from typing import Any

from conftest import run_cli

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    result = run_cli("play", "gaps", "--deck", " ".join(order), "--json",
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands)
    return records


def row(suit: str, ranks: list[str]) -> list[str]:
    return [r + suit for r in ranks]


def nearly_won() -> list[str]:
    """Every row in order with its Ace last, but the first row's King and Ace change places."""
    first = row("C", [*RANKS[1:12], "A", "K"])
    return first + [c for s in "DHS" for c in row(s, [*RANKS[1:], "A"])]


def test_the_aces_leave_four_gaps_for_f1() -> None:
    (dealt,) = play(nearly_won())
    piles = dealt["piles"]
    assert piles["f1"] == ["AC", "AD", "AH", "AS"]
    assert [t for t in (f"t{k}" for k in range(1, 53)) if not piles[t]] == [
        "t12", "t26", "t39", "t52",
    ]  # fmt: skip
    assert dealt["result"] is None


def test_a_gap_takes_the_next_card_of_its_left_neighbours_suit_and_the_row_is_won() -> None:
    records = play(nearly_won(), "t25 t12", "t13 t26", "t13 t12")
    assert records[1]["error"] == "t12 is empty and accepts only KC"  # the gap after QC
    assert records[2]["error"] == "t26 is empty and accepts nothing"  # the gap after KD
    assert records[3]["ok"] and records[3]["result"] == "won"


def test_a_gap_at_the_left_edge_takes_only_its_rows_2() -> None:
    # The second row starts with a gap (its 2 at the end); the first row's 2 does not go there.
    order = row("C", [*RANKS[1:], "A"]) + row("D", ["A", *RANKS[2:], "2"])
    order += [c for s in "HS" for c in row(s, [*RANKS[1:], "A"])]
    records = play(order, "t1 t14", "t26 t14")
    assert records[1]["error"] == "t14 is empty and accepts only 2D"
    assert records[2]["ok"] and records[2]["piles"]["t14"] == ["2D"]


def test_lost_when_every_gap_follows_a_king() -> None:
    order = row("C", [*RANKS[1:], "A"]) + row("D", ["3", "2", *RANKS[3:], "A"])
    order += [c for s in "HS" for c in row(s, [*RANKS[1:], "A"])]
    (dealt,) = play(order)
    assert dealt["result"] == "lost"
