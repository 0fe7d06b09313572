"""Winnable deals: `play --winnable` deals one the solver proved winnable, and says so."""

from __future__ import annotations

import re

import pytest

from conftest import run_cli
from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.play import lines, winnable_deals
from yaml_solitaire.engine.play.winnable_deals import find_winnable


@pytest.mark.parametrize(("game_id", "first"), [("klondike", 3), ("canfield", 3), ("freecell", 7)])
def test_a_winnable_deal_is_won_by_replaying_the_solvers_line(game_id: str, first: int) -> None:
    result = run_cli("play", game_id, "--winnable", "--seed", str(first), "--json")
    assert result.code == 0, result.err
    told = re.search(r"deal (\d+): proved winnable in \d+\.\d s", result.err)
    assert told is not None, result.err
    seed = int(told.group(1))
    assert seed >= first and result.json_lines()[0]["seed"] == seed
    # The same search, and the line it found, played into 'play' for that deal.
    game = load_game(game_id)
    search = find_winnable(game, first)
    assert search.seed == seed and search.solution is not None
    typed = lines.typed(game, search.solution.line)
    replay = run_cli(
        "play", game_id, "--seed", str(seed), "--json", "--no-auto",
        stdin="".join(t + "\n" for t in typed),
    )  # fmt: skip
    records = replay.json_lines()
    assert all(r["ok"] for r in records), [r["error"] for r in records if not r["ok"]][:3]
    assert records[-1]["result"] == "won"


def test_no_deal_is_dealt_as_winnable_unless_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    # Within a budget too small to decide a Spider deal, none is proved: nothing is dealt,
    # unless asked, and then the deal asked for, said to be unproved. (A Golf deal, once
    # too hard for it, is proved in less: see docs/solver.md.)
    monkeypatch.setattr(winnable_deals, "BUDGET_SECONDS", 0.05)
    monkeypatch.setattr(winnable_deals, "DEAL_SECONDS", 0.01)
    refused = run_cli("play", "spider", "--winnable", "--seed", "1", "--json")
    assert refused.code == 1 and refused.out == ""
    assert "no deal proved winnable within" in refused.err
    dealt = run_cli("play", "spider", "--winnable", "--seed", "1", "--unproved", "--json")
    assert dealt.code == 0 and dealt.json_lines()[0]["seed"] == 1
    assert "dealing deal 1, not proved winnable" in dealt.err
    assert run_cli("play", "golf", "--unproved").code == 2
    assert run_cli("play", "freecell", "--winnable", "--seed", "ms:3").code == 2


def test_stats_reports_how_long_finding_a_winnable_deal_takes() -> None:
    result = run_cli("stats", "canfield", "--winnable", "--deals", "2", "--seed", "1", "--json")
    assert result.code == 0, result.err
    record = result.json_lines()[0]
    assert record["searches"] == 2 and record["found"] == 2
    assert record["deals_tried"] >= 2 and record["median_seconds"] is not None
    first, second = record["seeds"]
    assert 1 <= first < second
    text = run_cli("stats", "canfield", "--winnable", "--deals", "1", "--seed", "1").out
    assert "CPU time to find one: median" in text
    assert run_cli("stats", "canfield", "--winnable", "--solve", "--deals", "1").code == 2
