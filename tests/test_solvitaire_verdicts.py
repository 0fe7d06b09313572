"""benchmarks/solvitaire_verdicts.py: the project's verdicts beside Solvitaire's on the same deals.

Solvitaire is not installed here: stand-ins for it say a fixed verdict and keep the deal they
were given, so that what the script writes and how it judges the answers are checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT, run_benchmark
from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.core.cards import MASK, card_text


def check(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_benchmark("solvitaire_verdicts.py", *args, path=path)


def stand_in(folder: Path, answer: str) -> Path:
    """A 'solvitaire' that keeps its last argument (the deal file) and gives ``answer``."""
    program = folder / "solvitaire"
    kept = folder / "deal.json"
    program.write_text(
        f'#!/bin/sh\nfor a in "$@"; do last=$a; done\ncp "$last" {kept}\n'
        f'echo "Solution Type: {answer}"\n'
    )
    program.chmod(0o755)
    return program


def test_without_solvitaire_it_says_how_to_build_it() -> None:
    done = check("fan:1", path=str(Path(sys.executable).parent))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "build it from its source" in done.stderr and "--solvitaire PATH" in done.stderr
    assert done.stdout == ""


def test_a_win_against_a_proved_loss_is_a_contradiction(tmp_path: Path) -> None:
    # The project proves Fan's deal 2 lost (the dead-card test); a peer that wins it contradicts.
    done = check("fan:2", "--solvitaire", str(stand_in(tmp_path, "solved")))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "fan:2: Solvitaire says won, the project lost" in done.stdout


def test_alike_verdicts_pass_and_only_losses_are_asked_with_lost_only(tmp_path: Path) -> None:
    program = str(stand_in(tmp_path, "unsolvable"))
    done = check("fan:2", "--solvitaire", program)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no contradiction (1 deals decided by both)" in done.stdout
    # Deal 4 is won by the project: with --lost-only Solvitaire is not asked of it.
    done = check("fan:2,4", "--lost-only", "--solvitaire", program)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fan:4" not in done.stdout and "fan:2 " in done.stdout


def test_the_deal_is_written_as_solvitaire_reads_it(tmp_path: Path) -> None:
    done = check("klondike:1", "--solvitaire", str(stand_in(tmp_path, "timed-out")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no contradiction (0 deals decided by both)" in done.stdout
    deal = json.loads((tmp_path / "deal.json").read_text())
    tableau = deal["tableau piles"]
    # Bottom card first; only each pile's top card face up (an upper-case suit).
    assert [len(pile) for pile in tableau] == [1, 2, 3, 4, 5, 6, 7]
    for pile in tableau:
        assert pile[-1][-1].isupper() and all(card[-1].islower() for card in pile[:-1])
    assert len(deal["stock"]) == 24
    # The stock's top card, the first to be turned, comes last, as Solvitaire deals from there.
    game = load_game(str(ROOT / "tests" / "solvitaire" / "rules" / "klondike.yaml"))
    stock = game.deal_seed(1).piles[game.layout.index["s"]]
    assert deal["stock"][-1] == card_text(stock[-1] & MASK).replace("T", "10")
    every = [card.upper() for pile in tableau for card in pile] + deal["stock"]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert Counter(every) == Counter(r + s for r in ranks for s in "CDHS")


def test_a_deal_solvitaire_gives_no_verdict_on_fails_the_check(tmp_path: Path) -> None:
    # A crash (no "Solution Type" line, as Solvitaire's segmentation fault on a deal it cannot
    # read) is no check: it must not pass as "unknown".
    program = tmp_path / "solvitaire"
    program.write_text("#!/bin/sh\nkill -SEGV $$\n")
    program.chmod(0o755)
    done = check("fan:2", "--solvitaire", str(program))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "gave no verdict" in done.stdout and "fan:2" in done.stdout
    assert "no contradiction" not in done.stdout


def test_a_black_hole_deal_gives_its_hole_card_as_solvitaire_reads_it(tmp_path: Path) -> None:
    done = check("black-hole:1", "--solvitaire", str(stand_in(tmp_path, "timed-out")))
    assert done.returncode == 0, done.stdout + done.stderr
    deal = json.loads((tmp_path / "deal.json").read_text())
    assert deal["hole"] == "AS" and "foundations" not in deal
    assert [len(pile) for pile in deal["tableau piles"]] == [3] * 17


@pytest.mark.parametrize("job", ["no-such-preset:1", "fan", "fan:3-1", "fan:x"])
def test_a_bad_job_is_a_usage_error(job: str) -> None:
    done = check(job)
    assert done.returncode == 2
    assert "error: argument jobs:" in done.stderr


def test_canfields_stacked_reserve_is_written_with_its_top_card_last(tmp_path: Path) -> None:
    done = check("canfield:1", "--solvitaire", str(stand_in(tmp_path, "timed-out")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "not asked" not in done.stdout
    deal = json.loads((tmp_path / "deal.json").read_text())
    game = load_game(str(ROOT / "tests" / "solvitaire" / "rules" / "canfield.yaml"))
    state = game.deal_seed(1)
    reserve = state.piles[game.layout.index["r1"]]
    # Solvitaire's "stacked" reserve: one list, bottom card first, the one card that plays last.
    assert len(deal["reserve"]) == 13
    assert deal["reserve"] == [card_text(c & MASK).replace("T", "10") for c in reserve]
    assert deal["foundations"] == [card_text(state.piles[game.layout.index["f1"]][0])]


def test_simple_simons_unread_key_is_a_known_difference_not_a_contradiction(
    tmp_path: Path,
) -> None:
    # Solvitaire's parser never reads 'only complete pile moves', so its simple-simon lets single
    # cards go home: its win beside the project's proof of loss (Fan's deal 2, asked of
    # Solvitaire's preset simple-simon) is a known difference, said with its reason.
    done = check("fan:2@simple-simon", "--solvitaire", str(stand_in(tmp_path, "solved")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fan:2@simple-simon: Solvitaire says won, the project lost (known difference:" in (
        done.stdout
    )
    assert "'complete piles'" in done.stdout and "1 known differences" in done.stdout
    # Their rules allow more than ours: our win beside their proof of loss is still contradicted.
    done = check("fan:4@simple-simon", "--solvitaire", str(stand_in(tmp_path, "unsolvable")))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "fan:4@simple-simon: Solvitaire says lost, the project won" in done.stdout
