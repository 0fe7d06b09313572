"""Hints never go in circles, in any game: following them never comes back to a position
already played; heuristic hints prefer runs of one suit where the rules reward them; the board
and the hint agree on 'no win is possible'."""

from __future__ import annotations

import os
from typing import Any

import pytest

from conftest import run_cli
from yaml_solitaire.engine.core.cards import DOWN, FACE, card_text
from yaml_solitaire.engine.core.seeds import Seed
from yaml_solitaire.engine.core.state import State
from yaml_solitaire.engine.game.game import Game
from yaml_solitaire.engine.game.load import game_names, load_game
from yaml_solitaire.engine.play.advice import HINT_NODES, Adviser
from yaml_solitaire.engine.play.hints import Played, choose, rewarded_piles
from yaml_solitaire.engine.play.progress import Progress, new_deal

# The budgets the hints are followed with. The rule must hold however far a hint's search
# gets: "searched" bounds the search and the look-ahead by positions (the same hints on every
# machine, as SOLITAIRE_HINT_SECONDS=none gives); "cut short" bounds them by a few hundredths
# of a second, as on a slow or loaded machine (SOLITAIRE_HINT_SECONDS=0.02). Both are far below
# the shipped 8,000 positions or half a second. Every game's deals 1..20 with both budgets take
# about 190 CPU seconds compiled: CI follows the first deals of each game (about a quarter of
# that), SOLITAIRE_SLOW_TESTS=1 all twenty.
BUDGETS: dict[str, dict[str, Any]] = {
    "searched": {"nodes": 100, "seconds": None, "looks": 300},
    "cut short": {"nodes": HINT_NODES, "seconds": 0.02},
}
ACTIONS = 200
SLOW = bool(os.environ.get("SOLITAIRE_SLOW_TESTS"))
DEALS = {"searched": range(1, 21 if SLOW else 6), "cut short": range(1, 21 if SLOW else 3)}

Look = tuple[str, tuple[tuple[tuple[str, bool], ...], ...]]


def look(state: State) -> Look:
    """The position as the board shows it: the phase, and every pile's cards by name, face
    down or up (the test's own reading, not the engine's)."""
    piles = tuple(tuple((card_text(c), bool(c & DOWN)) for c in pile) for pile in state.piles)
    return state.phase, piles


def follow(game: Game, seed: Seed, budget: dict[str, Any], actions: int = ACTIONS) -> str:
    """Play the hints from deal ``seed`` as a player who follows each one would, to the end
    or ``actions`` actions; what went wrong, or "" (the engine's own moves count: every
    position the player saw is checked)."""
    progress = Progress(game, new_deal(game, seed))
    session = progress.session
    adviser = Adviser(game, after=progress.after, **budget)
    played = Played(game, [entry.before for entry in session.history])
    played.add(session.position)
    looks = {look(entry.before) for entry in session.history} | {look(session.position)}
    for made in range(actions):
        if session.is_over():
            return ""
        state = session.position
        advice = adviser.advise(state, played)
        if advice.action is None:
            # Hints stop only where every action leads back to a position played.
            back = all(look(progress.after(state, a)) in looks for a in game.legal_actions(state))
            return "" if back else f"seed {seed}: no hint after {made} actions"
        text = game.action_text(advice.action, state)
        known = len(session.history)
        session.push(advice.action)
        progress.settle()
        for entry in session.history[known + 1 :]:
            played.add(entry.before)
            if look(entry.before) in looks:
                return f"seed {seed}: hint {made + 1} ({text}) led back to a position played"
            looks.add(look(entry.before))
        played.add(session.position)
        if look(session.position) in looks:
            return f"seed {seed}: hint {made + 1} ({text}) led back to a position played"
        looks.add(look(session.position))
    return ""


@pytest.mark.parametrize("budget", list(BUDGETS))
@pytest.mark.parametrize("name", game_names())
def test_following_hints_never_comes_back_to_a_position(name: str, budget: str) -> None:
    game = load_game(name)
    problems = [p for seed in DEALS[budget] if (p := follow(game, seed, BUDGETS[budget]))]
    assert not problems, problems


def test_copies_of_a_card_do_not_make_a_position_new() -> None:
    # Spider's two decks have two of each card: a hint that swaps one 7H for the other goes
    # back to the position the player saw (SOLITAIRE_HINT_SECONDS=0.05, seed 5: the 15th hint
    # came back to the position after the 12th).
    game = load_game("spider")
    state = game.deal_seed(5)
    best = choose(game, state, Played(game, [state])).action
    assert best is not None
    then = game.apply(state, best)
    copied = swap_copies(then)
    assert copied != then and look(copied) == look(then)
    seen = Played(game, [state, copied])
    assert then in seen
    other = choose(game, state, seen).action
    assert other is not None and other != best and game.apply(state, other) not in seen
    advice = Adviser(game, nodes=100, seconds=None).advise(state, seen)
    assert advice.action is not None and game.apply(state, advice.action) not in seen


def swap_copies(state: State) -> State:
    """``state`` with the two copies of one face-up card swapped, each keeping its place."""
    places: dict[int, tuple[int, int, int]] = {}
    for p, pile in enumerate(state.piles):
        for i, card in enumerate(pile):
            if card & DOWN:
                continue
            face = FACE[card]
            if face in places and places[face][2] != card:
                q, j, other = places[face]
                piles = [list(x) for x in state.piles]
                piles[p][i], piles[q][j] = other, card
                return state._replace(piles=tuple(map(tuple, piles)))
            places[face] = (p, i, card)
    raise AssertionError("no card is there twice, face up")


def test_the_cli_hint_says_when_only_moves_back_remain() -> None:
    # Aces Up, seed 1, followed by hint to its end: a fresh move is always the hint, or none.
    records = run_cli("play", "aces-up", "--seed", "1", "--json", stdin="hint\n").json_lines()
    assert records[1]["ok"] and records[1]["hint"]


def _pairs(game: Game, state: State) -> int:
    from yaml_solitaire.engine.play.hints import _same_suit_pairs

    return _same_suit_pairs(state, rewarded_piles(game))


def test_heuristic_hints_prefer_runs_of_one_suit_where_the_rules_reward_them() -> None:
    spider = load_game("spider")
    assert rewarded_piles(spider) == tuple(spider.layout.resolve(("tableau",)))
    assert rewarded_piles(load_game("freecell")) == ()  # any run moves: no reward
    differing = 0
    for seed in range(40):
        state = spider.deal_seed(seed)
        plain = choose(spider, state).action
        chosen = choose(spider, state, builds=True).action
        assert chosen is not None and plain is not None
        best = max(_pairs(spider, spider.apply(state, a)) for a in spider.legal_actions(state))
        if best > _pairs(spider, state):
            # A move that builds in suit exists: the hint makes one (here, where nothing goes
            # home within two moves, runs of one suit decide).
            assert _pairs(spider, spider.apply(state, chosen)) == best, seed
        differing += plain != chosen
    assert differing, "the preference changed no hint at all"


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_the_board_and_the_hint_agree_that_no_win_is_possible(seed: int) -> None:
    game = load_game("golf")
    progress = Progress(game, new_deal(game, seed))
    session = progress.session
    adviser = Adviser(game, nodes=500, seconds=None, after=progress.after)
    seen = {session.position}
    while not session.is_over():
        state = session.position
        board = adviser.no_win(state, seen)
        advice = adviser.advise(state, seen)
        if advice.winnable is False:
            assert board is None or "no win is possible" in board
            assert adviser.no_win(state, seen) is not None, "the board says so too"
        if board is not None and "no win is possible" in board:
            assert advice.winnable is False, "the hint says so too"
        if advice.action is None:
            break
        session.push(advice.action)
        progress.settle()
        seen.add(session.position)
