"""Headless play of many deals: figures, confidence interval, processes, output forms."""

from __future__ import annotations

import math

from conftest import run_cli
from yaml_solitaire.engine.play.stats import wilson


def test_json_figures_match_a_direct_count_and_jobs_change_nothing() -> None:
    one = run_cli("stats", "clock", "--deals", "1500", "--seed", "100", "--json").json_lines()
    two = run_cli("stats", "clock", "--deals", "1500", "--seed", "100", "--json", "--jobs", "2")
    (a,), (b,) = one, two.json_lines()
    assert a == b
    assert a["deals"] == 1500 and a["seed"] == 100 and a["game"] == "clock"
    assert a["wins"] + a["losses"] + a["unfinished"] == 1500 and a["unfinished"] == 0
    assert a["win_rate"] == a["wins"] / 1500
    low, high = a["ci95"]
    assert low < a["win_rate"] < high
    histogram = a["cards_placed"]["histogram"]
    assert sum(histogram.values()) == 1500 and histogram["52"] == a["wins"]
    assert min(map(int, histogram)) >= 4 and a["cards_placed"]["max"] == 52
    # Deal i is seed S+i: the same figures as playing the seeds one by one.
    wins = sum(
        run_cli("play", "clock", "--seed", str(s), "--json").json_lines()[0]["result"] == "won"
        for s in range(100, 130)
    )
    first30 = run_cli("stats", "clock", "--deals", "30", "--seed", "100", "--json")
    assert first30.json_lines()[0]["wins"] == wins


def test_games_with_decisions_jobs_change_nothing() -> None:
    args = ("stats", "big-ben", "--deals", "6", "--seed", "3", "--json")
    assert run_cli(*args).json_lines() == run_cli(*args, "--jobs", "2").json_lines()


def test_human_output_off_a_terminal_has_no_progress_bar() -> None:
    result = run_cli("stats", "clock", "--deals", "500")
    assert result.code == 0
    assert "Clock: 500 deals (seeds 0..499)" in result.out
    assert "95% CI" in result.out and "cards placed: mean" in result.out
    assert result.err == "" and "\r" not in result.out and "\x1b[" not in result.out


def test_wilson_interval() -> None:
    low, high = wilson(77, 1000)
    assert math.isclose(low, 0.0620, abs_tol=5e-4) and math.isclose(high, 0.0953, abs_tol=5e-4)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)
