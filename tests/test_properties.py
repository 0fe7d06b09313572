"""Invariants under random legal play, on many seeded deals of every shipped game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from yaml_solitaire.engine import Game, Session, load_game
from yaml_solitaire.engine.core.cards import MASK, card_text

BIG_BEN = load_game("big-ben")
CLOCK = load_game("clock")


def cards_everywhere(state_piles: tuple[tuple[int, ...], ...]) -> Counter[int]:
    return Counter(c & MASK for pile in state_piles for c in pile)


SHIPPED = [load_game(str(p)) for p in sorted((ROOT / "games").glob("*.yaml"))]


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.id)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), choices=st.lists(st.integers(0, 10**6), max_size=150))
def test_random_play_keeps_every_card_in_one_place(
    game: Game, seed: int, choices: list[int]
) -> None:
    session = Session(game, game.deal_seed(seed))
    dealt = session.position
    all_cards = Counter(game.cards)
    assert cards_everywhere(dealt.piles) == all_cards
    assert len(game.cards) == 13 * len(game.spec.suits) * game.spec.decks - len(game.spec.remove)
    fast = dealt
    for pick in choices:
        actions = session.legal_actions()
        if not actions:
            assert game.is_terminal(session.position)
            break
        before = session.position
        action = actions[pick % len(actions)]
        session.push(action)
        fast = game.apply(fast, action)
        after = session.position
        assert after == fast, "the machine and the fast path agree"
        assert session.machine.models[0].state == after.phase, "the machine made the move"
        assert cards_everywhere(after.piles) == all_cards
        for f in game.foundations:  # a move may take a foundation's top card back
            kept = before.piles[f][: len(before.piles[f]) - (f == action.src)]
            assert after.piles[f][: len(kept)] == kept, "foundations only grow, or give their top"
    while session.history:
        session.pop()
    assert session.position == dealt and session.phase == dealt.phase


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_clock_places_every_card_it_turns(seed: int) -> None:
    state = CLOCK.deal_seed(seed)
    assert cards_everywhere(state.piles) == Counter(CLOCK.cards)
    session = Session(CLOCK, state)
    session.trace = trace = []
    session.autoplay()
    end = session.position
    assert cards_everywhere(end.piles) == Counter(CLOCK.cards)
    assert CLOCK.score(end) == len(trace) and 4 <= len(trace) <= 52
    assert (CLOCK.outcome(end) == "won") == (len(trace) == 52)
    assert end == CLOCK.apply(state, CLOCK.legal_actions(state)[0])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), choices=st.lists(st.integers(0, 1000), max_size=40))
def test_undo_then_redo_returns_to_the_same_position(seed: int, choices: list[int]) -> None:
    session = Session(BIG_BEN, BIG_BEN.deal_seed(seed))
    for pick in choices:
        actions = session.legal_actions()
        if not actions:
            break
        session.push(actions[pick % len(actions)])
    end, steps = session.position, len(session.history)
    for _ in range(steps):
        session.pop()
    for _ in range(steps):
        session.redo()
    assert session.position == end


def test_removed_cards_are_taken_from_the_first_deck(tmp_path: Path) -> None:
    # With two decks, 'remove: [AC]' removes the first deck's AC; the canonical order (and so
    # every seeded deal) follows from that.
    path = tmp_path / "two_decks.yaml"
    path.write_text(
        f"extends: {ROOT / 'games' / 'big_ben.yaml'}\nid: big-ben-without-an-ace\n"
        "remove: [AC]\n"
        "piles:\n  stock: {names: [s]}\n",
        encoding="utf-8",
    )
    game = load_game(str(path))
    assert game.cards[:2] == (1, 2) and 52 in game.cards and 0 not in game.cards
    order = [card_text(c) for c in game.seed_order(5)]
    assert len(order) == 103 and order.count("AC") == 1
