"""Big rule files (issue 35): every file that validates starts, plays a move and is described
within a bounded time and memory; one beyond the bounds is refused at the key that crosses
them.

The files are Golf (``games/golf.yaml``) with groups of piles added, as the issue's file of
24 groups of 120 piles, and its move taking from and giving to some of them.
"""

from __future__ import annotations

import re
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from conftest import GAMES, run_cli
from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.core.state import Action
from yaml_solitaire.engine.game.load import check_game
from yaml_solitaire.rules.spec import MAX_ALL_PILES, MAX_PAIRS

SECONDS = 1.0
BYTES = 200_000_000
GOLF = (GAMES / "golf.yaml").read_text(encoding="utf-8")


def golf_with(groups: list[int], move_from: list[int], move_to: list[int]) -> str:
    """Golf with groups ``x0, x1 ..`` of so many tableau piles; the move also takes from the
    groups numbered in ``move_from`` and gives to those in ``move_to``."""
    added = "".join(
        f"  x{i}:\n    role: tableau\n    names: [{', '.join(f'p{i}_{j}' for j in range(n))}]\n"
        for i, n in enumerate(groups)
    )
    text = GOLF.replace("id: golf", "id: big-golf").replace("piles:\n", "piles:\n" + added, 1)
    sources = ", ".join(["tableau", *(f"x{i}" for i in move_from)])
    targets = ", ".join(["w", *(f"x{i}" for i in move_to)])
    return text.replace("from: [tableau]", f"from: [{sources}]").replace(
        "to: [w]", f"to: [{targets}]"
    )


def bounded(work: Callable[[], Any]) -> Any:
    """Run ``work`` twice: timed (in CPU seconds, which a busy machine does not inflate), then
    with its memory traced; both within the bounds."""
    start = time.process_time()
    work()
    seconds = time.process_time() - start
    tracemalloc.start()
    try:
        result = work()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seconds < SECONDS, f"{seconds:.2f} s"
    assert peak < BYTES, f"{peak:,} bytes"
    return result


def check_bounded(path: Path) -> None:
    bounded(lambda: load_game(path))

    def one_move() -> None:
        fresh = load_game(path)  # afresh: what a game keeps is measured each time
        state = fresh.deal_seed(3)
        fresh.apply(state, fresh.legal_actions(state)[0])

    bounded(one_move)
    shown = bounded(lambda: run_cli("rules", str(path)))
    assert shown.code == 0 and "Golf" in shown.out, shown.err


def test_the_issues_file_starts_within_bounds(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(golf_with([120] * 24, [], []), encoding="utf-8")
    assert [d for d in check_game(path) if d.severity == "error"] == []
    check_bounded(path)


def test_moves_of_runs_in_a_game_of_many_piles_are_bounded(tmp_path: Path) -> None:
    """Klondike (runs move, with a count) after 2,880 reserve piles: moves are kept by their
    pair of piles, not by pile numbers squared."""
    added = "".join(
        f"  x{i}:\n    role: reserve\n    names: [{', '.join(f'p{i}_{j}' for j in range(120))}]\n"
        for i in range(24)
    )
    klondike = (GAMES / "klondike.yaml").read_text(encoding="utf-8")
    path = tmp_path / "klondike.yaml"
    path.write_text(klondike.replace("piles:\n", "piles:\n" + added, 1), encoding="utf-8")

    def play() -> None:
        game = load_game(path)  # afresh: what a game keeps is measured each time
        state = game.deal_seed(3)
        for _ in range(30):
            actions = game.legal_actions(state)
            if not actions:
                break
            state = game.apply(state, actions[-1])

    bounded(play)


def test_too_many_piles_in_all_is_refused_where_it_happens(tmp_path: Path) -> None:
    path = tmp_path / "bigger.yaml"
    groups = [120] * (MAX_ALL_PILES // 120 + 1)
    path.write_text(golf_with(groups, [], []), encoding="utf-8")
    result = run_cli("validate", str(path))
    assert result.code == 1
    last = len(groups) - 1
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if f"x{last}:" in t)
    assert re.search(
        rf"bigger\.yaml:{line + 2}:\d+: piles\.x{last}\.names: .*more than {MAX_ALL_PILES:,} "
        "piles in all",
        result.err,
    ), result.err


def test_too_many_pairs_of_piles_is_refused_at_the_action(tmp_path: Path) -> None:
    path = tmp_path / "pairs.yaml"
    path.write_text(golf_with([120] * 4, [0, 1, 2, 3], [0, 1, 2]), encoding="utf-8")
    result = run_cli("validate", str(path))
    assert result.code == 1
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "from: [tableau," in t)
    assert re.search(
        rf"pairs\.yaml:{line}:\d+: actions\.move\.from: .*more than {MAX_PAIRS:,} pairs", result.err
    ), result.err


# Large files: from a few hundred piles to past the bound on piles in all.
GOLF_GAME = load_game("golf")
group_sizes = st.lists(st.integers(40, 120), min_size=4, max_size=30)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(groups=group_sizes, data=st.data())
def test_every_big_file_that_validates_is_bounded(
    tmp_path: Path, groups: list[int], data: st.DataObject
) -> None:
    numbers = st.lists(st.integers(0, len(groups) - 1), unique=True, max_size=len(groups))
    move_from = data.draw(numbers)
    move_to = data.draw(st.lists(st.integers(0, len(groups) - 1), max_size=1))
    path = tmp_path / "drawn.yaml"
    path.write_text(golf_with(groups, move_from, move_to), encoding="utf-8")
    errors = [d for d in check_game(path) if d.severity == "error"]
    if errors:  # only the bounds refuse these files, at a position in them
        for error in errors:
            assert re.match(r".*drawn\.yaml:\d+:\d+: ", str(error)), str(error)
            assert "more than" in error.message, str(error)
        assert sum(groups) + 9 > MAX_ALL_PILES or move_to
        event("refused")
        return
    event("validated")
    check_bounded(path)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["move", "draw", "nothing", 3]),
    src=st.one_of(st.integers(-3, 12), st.booleans(), st.just(1.0)),
    dst=st.one_of(st.integers(-3, 12), st.booleans()),
    n=st.one_of(st.integers(-2, 3), st.booleans()),
)
def test_the_quick_form_check_agrees_with_the_effects(
    name: Any, src: Any, dst: Any, n: Any
) -> None:
    """``Game.well_formed`` answers most actions from a small table; it says what the
    effects' own check says, for every kind of field."""
    game = GOLF_GAME
    action = Action(name, src, dst, n)
    effect = game.effects.get(name) if isinstance(name, str) else None
    plain = all(type(v) is int for v in (src, dst, n))
    expected = effect is not None and not effect.automatic and plain and effect.well_formed(action)
    assert (game.well_formed(action) is None) == expected
