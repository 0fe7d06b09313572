"""The reference deals listed in seeds/ for the variant games, replayed through the CLI."""

from __future__ import annotations

import re

import pytest

from conftest import CANONICAL, ROOT, run_cli

VARIANTS = (ROOT / "seeds" / "clock_variants.md").read_text(encoding="utf-8")
GRANDFATHER = (ROOT / "seeds" / "grandfathers_clock.md").read_text(encoding="utf-8")


def row(text: str, first: str) -> str:
    match = re.search(rf"^\| {re.escape(first)} .*$", text, re.MULTILINE)
    assert match, f"no row {first!r} in the notes"
    return match.group(0)


@pytest.mark.parametrize(
    ("seed", "result", "placed"),
    [(0, "won", 51), (35, "won", 51), (8, "lost", 50), (3, "lost", 18)],
)
def test_clock_without_a_king(seed: int, result: str, placed: int) -> None:
    assert f"| {result} | {placed} |" in row(VARIANTS, f"`--seed {seed}`")
    (record,) = run_cli("play", "clock-no-king", "--seed", str(seed), "--json").json_lines()
    assert (record["result"], record["cards_placed"]) == (result, placed)


def test_clock_without_a_king_canonical_deck() -> None:
    assert "| lost | 3 |" in row(VARIANTS, "`--deck` = canonical order without KS")
    deck = " ".join(c for c in CANONICAL if c != "KS")
    (record,) = run_cli("play", "clock-no-king", "--deck", deck, "--json").json_lines()
    assert (record["result"], record["cards_placed"]) == ("lost", 3)


@pytest.mark.parametrize(
    ("seed", "pick", "result", "placed"),
    [(18, None, "won", 52), (1, "h7", "won", 52), (35, "h1", "won", 52), (37, "h2", "won", 52),
     (0, "h1", "lost", 50)],
)  # fmt: skip
def test_clock_with_a_peek(seed: int, pick: str | None, result: str, placed: int) -> None:
    line = row(VARIANTS, str(seed))
    assert f"| {result} | {placed} |" in line
    assert (f"`pick {pick}`" in line) if pick else "| none |" in line
    stdin = f"pick {pick}\n" if pick else ""
    records = run_cli("play", "clock-peek", "--seed", str(seed), "--json", stdin=stdin)
    last = records.json_lines()[-1]
    assert (last["result"], last["cards_placed"]) == (result, placed)
    if pick:  # the pile picked is the one the stats default would pick: the first offered
        moves = run_cli("play", "clock-peek", "--seed", str(seed), "--json", stdin="moves\n")
        assert moves.json_lines()[-1]["moves"][0] == f"pick {pick}"


@pytest.mark.parametrize(
    ("seed", "result", "placed"), [(0, "won", 52), (29, "lost", 27), (2, "unfinished", 22)]
)
def test_grandfathers_clock_policy_results(seed: int, result: str, placed: int) -> None:
    assert f"{result}" in row(GRANDFATHER, f"`--seed {seed}`")
    (summary,) = run_cli("stats", "grandfathers-clock", "--deals", "1", "--seed", str(seed),
                         "--json").json_lines()  # fmt: skip
    assert summary[{"won": "wins", "lost": "losses"}.get(result, result)] == 1
    assert summary["cards_placed"]["histogram"] == {str(placed): 1}


def test_grandfathers_clock_seed_29_won_by_hand() -> None:
    block = re.search(r'tr , .\\n. <<< "(.*?)" \| solitaire play grandfathers-clock --seed 29',
                      GRANDFATHER, re.DOTALL)  # fmt: skip
    assert block, "the hand-won line of seed 29 is in the notes"
    moves = block.group(1).replace("\\\n", "").split(",")
    assert len(moves) == 46
    records = run_cli("play", "grandfathers-clock", "--no-auto", "--seed", "29", "--json",
                      stdin="\n".join(moves) + "\n").json_lines()  # fmt: skip
    assert all(r["ok"] for r in records)
    assert records[-1]["result"] == "won" and records[-1]["foundation_cards"] == 52
