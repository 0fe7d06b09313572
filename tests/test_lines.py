"""Action texts read back as the action they were written for, and solved lines replay.

Every action text means exactly one action in the position it was written for: a count where a
longer run could go too, the action's name where another action could be meant, nothing that
goes without saying. Solved lines of every game with moves of runs (and of one-card moves of
several kinds) replay through ``solitaire play``, with automatic moves off and on.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, run_cli
from yaml_solitaire.engine import Game, load_game
from yaml_solitaire.engine.core.seeds import parse_seed
from yaml_solitaire.engine.play import lines
from yaml_solitaire.engine.play.progress import Deal, Progress
from yaml_solitaire.engine.play.solver import Budget, Solver

SHIPPED = [load_game(str(p)) for p in sorted((ROOT / "games").glob("*.yaml"))]


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.id)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), walk=st.integers(0, 10**9), steps=st.integers(0, 80))
def test_every_legal_action_reads_back_from_its_text(
    game: Game, seed: int, walk: int, steps: int
) -> None:
    rng = random.Random(walk)
    state = game.deal_seed(seed)
    for _ in range(steps + 1):
        actions = game.legal_actions(state)
        if not actions:
            break
        for action in actions:
            text = game.action_text(action, state)
            assert game.parse_action(text, state) == action, (text, action)
            words = text.split()
            alike = [a for a in actions if a[:3] == action[:3]]
            if len(alike) == 1:  # no count where no other is legal
                assert not words[-1].isdigit(), text
            mover = action.dst >= 0
            named = len({a.name for a in actions if a[1:3] == action[1:3]}) > 1
            if mover and not named:  # no name where no other action could be meant
                assert words[0] != action.name, text
        state = game.apply(state, rng.choice(actions))


def test_a_count_is_written_where_a_longer_run_could_go() -> None:
    # FreeCell ms:1, along the solver's line: wherever one card may go onto an empty pile where
    # its longer run could go too, the text of the one-card move says '1' ('t8 t3' alone would
    # mean the run), reads back as that move, and moves one card.
    game = load_game("freecell")
    result = run_cli("solve", "freecell", "--seed", "ms:1", "--json", "--budget-nodes", "20000")
    state = game.deal_seed("ms:1")
    checked = 0
    for text in result.json_lines()[0]["actions"]:
        legal = game.legal_actions(state)
        for action in legal:
            longer = [
                a for a in legal if (a.src, a.dst) == (action.src, action.dst) and a.n > action.n
            ]
            if action.n == 1 and longer and not state.piles[action.dst]:
                written = game.action_text(action, state)
                assert written.split()[-1] == "1", written
                assert game.parse_action(written, state) == action
                after = game.apply(state, action)
                assert len(after.piles[action.dst]) == 1
                checked += 1
        state = game.apply(state, game.parse_action(text, state))
    assert game.outcome(state) == "won"
    assert checked


# Deals the solver wins within the budget, so that the tests are quick and the same everywhere:
# they check that lines replay, not the solver's power. Through the CLI (each command of 'play'
# runs a short search for a proof of loss, so these are a few short lines), and as 'play' reads
# them (the text read in the position reached, the action pushed, the engine's own moves).
CLI_DEALS = [
    ("freecell", "ms:3", ("--no-auto",)),
    ("scorpion", "12", ("--no-auto", "")),
    ("beleaguered-castle", "1", ("",)),
]
DEALS = [
    # Microsoft's deals 1..12 but 9 and 10, which take the solver longer.
    *[("freecell", f"ms:{n}") for n in (1, 2, 3, 4, 5, 6, 7, 8, 11, 12)],
    ("bakers-dozen", "4"),
    ("klondike", "1"),
    ("klondike-draw-3", "2"),
    ("yukon", "3"),
    ("spider-1-suit", "18"),
    ("canfield", "30"),
    ("forty-thieves", "27"),
    ("accordion", "11"),
]
NODES = 20000


def solved(game_ref: str, seed: str, auto: bool) -> list[str]:
    solve = ["solve", game_ref, "--seed", seed, "--json", "--budget-nodes", str(NODES)]
    (found,) = run_cli(*solve, *(["--auto"] if auto else [])).json_lines()
    assert found["result"] == "won" and found["auto"] is auto, (seed, found)
    actions: list[str] = found["actions"]
    return actions


@pytest.mark.parametrize(("game_ref", "seed", "modes"), CLI_DEALS, ids=[d[0] for d in CLI_DEALS])
def test_solved_lines_replay_through_play(game_ref: str, seed: str, modes: tuple[str]) -> None:
    for flag in modes:
        actions = solved(game_ref, seed, auto=not flag)
        script = "".join(a + "\n" for a in actions)
        flags = [flag] if flag else []
        result = run_cli("play", game_ref, "--seed", seed, "--json", *flags, stdin=script)
        records = result.json_lines()
        assert all(r["ok"] for r in records), [r["error"] for r in records if not r["ok"]]
        assert records[-1]["result"] == "won" and len(records) == len(actions) + 1


@pytest.mark.parametrize(("game_ref", "seed"), DEALS, ids=[f"{g}-{s}" for g, s in DEALS])
def test_solved_lines_replay_as_play_reads_them(game_ref: str, seed: str) -> None:
    game = load_game(game_ref)
    order = game.seed_order(parse_seed(seed))
    found = Solver(game).solve(game.deal(order), Budget(nodes=NODES))
    assert found.result == "won"
    replayed = lines.with_auto(game, order, found, Budget(nodes=NODES))
    assert replayed is not None
    for auto, texts in ((False, lines.typed(game, found.line)), (True, replayed)):
        progress = Progress(game, Deal(seed, order), auto=auto)
        session = progress.session
        for text in texts:
            assert not session.is_over(), (auto, text)
            session.push(game.parse_action(text, session.position))
            progress.settle()
        assert game.outcome(session.position) == "won", auto


def test_the_text_of_solve_says_how_to_replay() -> None:
    off = run_cli("solve", "yukon", "--seed", "3", "--budget-nodes", str(NODES)).out
    assert (
        f"Replay: solitaire solve yukon --seed 3 --budget-nodes {NODES} --line"
        " | solitaire play yukon --seed 3 --no-auto --line\n"
    ) in off
    on = run_cli("solve", "yukon", "--seed", "3", "--budget-nodes", str(NODES), "--auto").out
    assert "--auto --line | solitaire play yukon --seed 3 --line\n" in on


@pytest.mark.parametrize("auto", [(), ("--auto",)])
def test_the_line_solve_prints_pipes_into_play_as_printed(auto: tuple[str, ...]) -> None:
    # What the Replay sentence says to run: solve's --line output, as printed, is play's input.
    deal = ("--seed", "3")
    solved = run_cli("solve", "yukon", *deal, "--budget-nodes", str(NODES), *auto, "--line")
    assert solved.code == 0 and solved.err == ""
    actions = solved.out.splitlines()
    assert len(actions) > 50 and all(a and "," not in a for a in actions)
    off = () if auto else ("--no-auto",)
    played = run_cli("play", "yukon", *deal, *off, "--line", stdin=solved.out)
    assert played.code == 0, played.err
    assert "Won: 52 cards on the foundations." in played.out
    assert "!" not in played.err + played.out  # no line refused


def test_solve_line_prints_no_actions_when_no_win_was_found() -> None:
    result = run_cli("solve", "yukon", "--seed", "3", "--budget-nodes", "5", "--line")
    assert result.code == 0 and result.out == ""
    assert "unknown" in result.err
