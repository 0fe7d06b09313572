"""Montana: each rule of seeds/montana.md played through the CLI with crafted decks (the deal
lays the deck order row by row, t1 to t52, one card a place; the Aces then leave for f1)."""

from __future__ import annotations

from typing import Any

from conftest import CANONICAL, run_cli

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PLACES = [f"t{k}" for k in range(1, 53)]


def play(order: list[str], *commands: str) -> list[dict[str, Any]]:
    result = run_cli("play", "montana", "--deck", " ".join(order), "--json",
                     stdin="".join(c + "\n" for c in commands))  # fmt: skip
    assert result.code == 0, result.err
    records = result.json_lines()
    assert len(records) == 1 + len(commands)
    return records


def row(suit: str, ranks: list[str]) -> list[str]:
    return [r + suit for r in ranks]


def test_a_gap_at_a_rows_start_takes_any_2_and_any_suit_may_own_a_row() -> None:
    # Spades on the first row, clubs on the last; the first row's 2 and Ace change places.
    order = row("S", ["A", *RANKS[2:], "2"]) + row("D", [*RANKS[1:], "A"])
    order += row("H", [*RANKS[1:], "A"]) + row("C", [*RANKS[1:], "A"])
    records = play(order, "t13 t1")
    assert records[1]["ok"] and records[1]["result"] == "won"


def test_a_redeal_keeps_each_rows_ordered_start_and_leaves_a_gap_after_it() -> None:
    # Row 1 starts 2C 3C 4C; row 2 starts with a card out of order; rows 3 and 4 in order.
    first = ["2C", "3C", "4C", "9D", "5C", "AC", "6C", "7C", "8C", "9C", "10C", "JC", "QC"]
    second = ["KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "AD", "10D", "JD", "QD", "KD"]
    order = first + second + row("H", [*RANKS[1:], "A"]) + row("S", [*RANKS[1:], "A"])
    records = play(order, "redeal", "redeal", "redeal")
    after = records[1]["piles"]
    assert [after[t] for t in ("t1", "t2", "t3")] == [["2C"], ["3C"], ["4C"]]
    assert after["t4"] == [] and after["t14"] == []  # the gap after each ordered start
    assert [after[f"t{k}"] for k in range(27, 39)] == [[c] for c in row("H", RANKS[1:])]
    assert sum(1 for t in PLACES if not after[t]) == 4  # four gaps, as before
    assert sorted(c for t in PLACES for c in after[t]) == sorted(
        c for t in PLACES for c in records[0]["piles"][t]
    )
    assert records[2]["ok"] and records[3]["error"] == "no redeal is left (2 in a game)"


def test_the_same_deal_and_actions_give_the_same_redeal() -> None:
    once = play(CANONICAL, "redeal")[1]["piles"]
    again = play(CANONICAL, "redeal")[1]["piles"]
    assert once == again


def test_the_count_shown_is_the_cards_in_order_from_each_rows_start() -> None:
    # Row 1: 2C 3C 4C in order, then 9D; row 2 starts with a King; rows 3 and 4 run 2..K.
    first = ["2C", "3C", "4C", "9D", "5C", "AC", "6C", "7C", "8C", "9C", "10C", "JC", "QC"]
    second = ["KC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "AD", "10D", "JD", "QD", "KD"]
    order = first + second + row("H", [*RANKS[1:], "A"]) + row("S", [*RANKS[1:], "A"])
    records = play(order)
    assert records[0]["cards_placed"] == 3 + 0 + 12 + 12
    text = run_cli("play", "montana", "--deck", " ".join(order), stdin="quit\n").out
    assert "cards in order: 27/52" in text


def test_a_count_in_place_must_name_a_grid_group(tmp_path: Any) -> None:
    from pathlib import Path

    source = Path(__file__).parent.parent / "games" / "montana.yaml"
    text = source.read_text().replace("piles: [tableau]\n\ndisplay", "piles: [aces]\n\ndisplay")
    assert text != source.read_text()
    bad = tmp_path / "montana_bad.yaml"
    bad.write_text(text)
    result = run_cli("validate", str(bad))
    assert result.code != 0
    assert "'count: in_place' reads rows" in result.err + result.out
