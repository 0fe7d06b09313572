"""Microsoft FreeCell deal numbers: `--seed ms:N` deals Microsoft's game N, card by card."""

from __future__ import annotations

import pytest

from conftest import ROOT, run_cli

EIGHT = str(ROOT / "tests" / "data" / "eight_columns.yaml")

# Published layouts, columns left to right, each bottom to top.
LAYOUTS = {
    1: ["JD KD 2S 4C 3S 6D 6S", "2D KC KS 5C 10D 8S 9C", "9H 9S 9D 10S 4S 8D 2H",
        "JC 5S QD QH 10H QS 6H", "5D AD JS 4H 8H 6C", "7H QC AS AC 2C 3D",
        "7C KH AH 4D JH 8C", "5H 3H 3C 7S 7D 10C"],
    617: ["7D 10D 10H KD 4C 4S JD", "AD 7S QC 5H QS 10S KS", "5C QD 3H 9S 9C 2H KC",
          "3S AC 9D 3C 9H 5D 4H", "5S 6D 6S 8S 7C JC", "8C 8H 8D 7H 6H 6C",
          "2D AS 3D 4D 2C JH", "AH KH 10C JS 2S QH"],
    11982: ["AH 3D KD JC 6C JD KC", "AS 3H 6H 5D 2C 7D 8D", "4H QS 5S 5C 10H 8H 2S",
            "AC QC 4D 8C QH 9C 3S", "2D 8S 9H 9D 6D 2H", "6S 7H JH 10D 10C QD",
            "10S AD 9S KH 4S 4C", "JS KS 3C 7C 7S 5H"],
}  # fmt: skip


@pytest.mark.parametrize("number", sorted(LAYOUTS))
def test_microsoft_deals_card_by_card(number: int) -> None:
    result = run_cli("play", EIGHT, "--seed", f"ms:{number}", "--json", "--no-auto")
    first = result.json_lines()[0]
    assert first["seed"] == f"ms:{number}"
    columns = [" ".join(first["piles"][f"t{i}"]) for i in range(1, 9)]
    assert columns == LAYOUTS[number]


def test_a_game_that_deals_otherwise_refuses_microsoft_numbers() -> None:
    for command in (["play", "clock"], ["stats", "clock", "--deals", "2"]):
        result = run_cli(*command, "--seed", "ms:3")
        assert result.code == 1 and "does not deal its cards as FreeCell does" in result.err


@pytest.mark.parametrize("text", ["ms:0", "ms:x", "ms:2147483648", "-1", "x"])
def test_bad_deal_numbers_are_usage_errors(text: str) -> None:
    result = run_cli("play", EIGHT, "--seed", text)
    assert result.code == 2 and "Traceback" not in result.err


def test_stats_counts_microsoft_numbers_on() -> None:
    result = run_cli("stats", EIGHT, "--seed", "ms:5", "--deals", "3", "--json")
    assert result.code == 0
    assert result.json_lines()[0]["seed"] == "ms:5"
    text = run_cli("stats", EIGHT, "--seed", "ms:5", "--deals", "3").out
    assert "seeds ms:5..ms:7" in text
