"""Invariants under random legal play, on many seeded deals of every shipped game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from crafted import deck
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT
from yaml_solitaire.engine import Action, Game, Session, State, load_game
from yaml_solitaire.engine.core.cards import MASK, card_text, parse_deck
from yaml_solitaire.engine.vocab.effects.moves import Move

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


def _moves_to_ask(game: Game, state: State) -> Iterator[Action]:
    """Every move of a pile-to-pile effect, in the forms its listing gives: the top card
    (count 0), a whole pile (its size), or each count of cards from the top."""
    for name, effect in game.effects.items():
        if effect.automatic or not isinstance(effect, Move):
            continue
        for src in effect.sources:
            size = len(state.piles[src])
            if effect.mode == "top":
                counts: Sequence[int] = (0,)
            elif effect.mode == "pile":
                counts = (size,)
            else:
                counts = range(1, size + 1)
            for dst in effect.targets:
                for n in counts:
                    yield Action(name, src, dst, n)


@pytest.mark.parametrize("game", SHIPPED, ids=lambda g: g.id)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), choices=st.lists(st.integers(0, 10**6), max_size=80))
def test_the_moves_listed_are_exactly_the_moves_the_rules_allow(
    game: Game, seed: int, choices: list[int]
) -> None:
    """The search lists moves by tables and bits (``Move.generate``, ``TakenBits``); the
    player's moves are checked one by one by the rules (``Game.refusal``). The two must
    agree on every pile-to-pile move, in positions reached by random play."""
    state = game.deal_seed(seed)
    for step, pick in enumerate([*choices, -1]):
        listed = game.legal_actions(state)
        if step % 8 == 0 or pick < 0 or not listed:
            _assert_listed_as_allowed(game, state)
        if pick < 0 or not listed:
            break
        state = game.apply(state, listed[pick % len(listed)])


def _assert_listed_as_allowed(game: Game, state: State) -> None:
    allowed = {a for a in _moves_to_ask(game, state) if game.refusal(state, a) is None}
    shown = {a for a in game.legal_actions(state) if isinstance(game.effects[a.name], Move)}
    assert shown == allowed, (
        f"listed, not allowed: {sorted(shown - allowed)}; "
        f"allowed, not listed: {sorted(allowed - shown)}"
    )


def test_a_pile_complete_at_the_foundations_base_rank_is_listed_as_taking_nothing() -> None:
    """Solvitaire's Canfield: a tableau pile is complete at the rank the foundations start
    with (``complete_at: {rank_of: foundations}``); below it, 6D would build on 7S. The
    listing and the rules both leave it alone, and the other moves of the deal agree."""
    game = load_game(str(ROOT / "tests/solvitaire/rules/canfield.yaml"))
    order = deck(game, tops={"f1": "7H", "t1": "7S", "r1": "6D"})
    state = game.deal(parse_deck(order, game.cards))
    r1, t1 = game.layout.index["r1"], game.layout.index["t1"]
    assert game.refusal(state, Action("use", r1, t1, 0)) is not None
    assert Action("use", r1, t1, 0) not in game.legal_actions(state)
    _assert_listed_as_allowed(game, state)


def test_a_move_home_is_called_safe_by_the_cards_home_in_its_own_position() -> None:
    """What the foundations hold is kept for the last foundations asked about
    (``Move.is_safe``): 3H goes home safely once both black twos are home, and not in the
    next position asked about, where one is not, nor the other way round."""
    game = load_game("klondike")
    move = game.effects["move"]
    assert isinstance(move, Move)
    card = {card_text(c): c for c in game.cards}
    placed = {"AS", "2S", "AC", "2C", "AH", "2H", "3H"}
    dealt = game.deal_seed(1)
    rest = [tuple(c for c in p if card_text(c & MASK) not in placed) for p in dealt.piles]
    f1, f2, f3, _ = game.foundations
    t1 = game.layout.index["t1"]

    def position(spades: str, clubs: str) -> State:
        piles = list(rest)
        piles[f1] = tuple(card[c] for c in spades.split())
        piles[f2] = tuple(card[c] for c in clubs.split())
        piles[f3] = (card["AH"], card["2H"])
        piles[t1] = (*rest[t1], card["3H"])
        return State(tuple(piles), dealt.phase, dealt.counts)

    home = Action("move", t1, f3, 0)
    both, one = position("AS 2S", "AC 2C"), position("AS", "AC 2C")
    assert [move.is_safe(both, home), move.is_safe(one, home)] == [True, False]
    assert [move.is_safe(one, home), move.is_safe(both, home)] == [False, True]
