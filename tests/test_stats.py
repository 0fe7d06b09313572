"""Headless play of many deals: figures, confidence interval, processes, output forms."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import run_cli
from yaml_solitaire.engine.play.stats import DealResult, wilson
from yaml_solitaire.engine.ui.cli import stats as stats_command


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
    assert "Clock: 500 deals (seeds 1..500)" in result.out
    assert "95% CI" in result.out and "cards placed: mean" in result.out
    assert result.err == "" and "\r" not in result.out and "\x1b[" not in result.out


def test_wilson_interval() -> None:
    low, high = wilson(77, 1000)
    assert math.isclose(low, 0.0620, abs_tol=5e-4) and math.isclose(high, 0.0953, abs_tol=5e-4)
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(10, 10)[1], 1.0)


def test_deals_start_at_seed_1_as_every_figure_in_the_docs_does() -> None:
    (played,) = run_cli("stats", "clock", "--deals", "40", "--json").json_lines()
    assert played["seed"] == 1
    assert (
        played
        == run_cli("stats", "clock", "--deals", "40", "--seed", "1", "--json").json_lines()[0]
    )
    assert (
        played
        != run_cli("stats", "clock", "--deals", "40", "--seed", "0", "--json").json_lines()[0]
    )
    solve = ("stats", "clock", "--deals", "3", "--solve", "--budget-nodes", "100")
    assert "(seeds 1..3)" in run_cli(*solve).out
    assert run_cli(*solve, "--json").json_lines()[0]["seed"] == 1


def test_the_help_of_stats_shows_every_default() -> None:
    text = run_cli("stats", "--help").out
    options = re.split(r"\n  (?=-)", text.split("options:", 1)[1])
    helps = {o.split()[0].rstrip(","): " ".join(o.split()) for o in options if o.strip()}
    for option, help_text in helps.items():
        if option not in ("-h", "--deals"):  # help; a number the user must give
            assert "default" in help_text, option
    assert "(default 1)" in helps["--seed"]
    assert "(default 10 when neither budget is given)" in helps["--budget-seconds"]
    # The budget the help gives is the one a run without a budget uses.
    run = run_cli("stats", "clock", "--deals", "2", "--solve")
    assert "at most 10 CPU s each" in run.out


@pytest.mark.parametrize("solve", [False, True], ids=["played", "solved"])
def test_off_a_terminal_progress_goes_to_stderr_every_few_seconds(
    solve: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert stats_command.PROGRESS_EVERY <= 10  # the promise: a line at least every 10 s
    monkeypatch.setattr(stats_command, "PROGRESS_EVERY", 0.2)
    # Big Ben's deal 27 is left unknown after 10 s: its search takes the whole 1.5 CPU s, and
    # lines come while no deal ends. Played deals end far sooner, and how soon depends on the
    # machine: the first batch is held back 1 s, so lines come while it is awaited.
    total = 1 if solve else 20
    args = ["--solve", "--budget-seconds", "1.5", "--seed", "27"] if solve else []
    if not solve:
        played = stats_command.run_deals

        def slow_first_batch(*deals: Any) -> Iterator[list[DealResult]]:
            time.sleep(1)
            yield from played(*deals)

        monkeypatch.setattr(stats_command, "run_deals", slow_first_batch)
    run = run_cli("stats", "big-ben", "--deals", str(total), *args, "--json")
    assert run.code == 0
    (summary,) = run.json_lines()  # stdout: the report alone
    assert summary["deals"] == total
    lines = run.err.splitlines()
    assert len(lines) >= 3, run.err
    label = "Big Ben: solving" if solve else "Big Ben"
    for line in lines:
        assert re.fullmatch(rf"{label}: \d+ of {total} deals done, \d+ s", line), line
    assert json.loads(run.out)  # nothing but the JSON object
