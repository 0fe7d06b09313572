"""The work of the player that `stats` uses is capped: per choice (its look-ahead) and per deal.

Counted in positions examined (``choose(...).examined``, ``DealResult.examined``), not timed:
the same counts on every machine. Napoleon's Square is the game the caps were made for: runs of
any length go onto any space, so a position offers dozens of actions and the look-ahead the
square of that.
"""

from __future__ import annotations

from yaml_solitaire.engine import load_game
from yaml_solitaire.engine.play.hints import choose
from yaml_solitaire.engine.play.stats import LOOKS_PER_CHOICE, POSITIONS_PER_DEAL, play_deal


def test_a_choice_looks_at_no_more_positions_than_its_cap() -> None:
    game = load_game("napoleons-square")
    state = game.deal_seed(2)
    seen = {state}
    # Play the deal as stats does until a choice whose look-ahead passes a small cap.
    cap = 200
    for _ in range(300):
        actions = game.legal_actions(state)
        free = choose(game, state, seen, looks=None)
        if free.examined > len(actions) + cap:
            break
        assert free.action is not None
        state = game.apply(state, free.action)
        seen.add(state)
    else:
        raise AssertionError("no position of the deal needs more than the cap")
    capped = choose(game, state, seen, looks=cap)
    assert len(actions) < capped.examined <= len(actions) + cap
    assert capped.action in actions


def test_a_deal_of_stats_stops_at_its_caps() -> None:
    game = load_game("napoleons-square")
    small = play_deal(game, 2, looks=100, positions=3000)
    most_actions = max(len(game.legal_actions(game.deal_seed(2))), 60)
    assert small.most_examined <= most_actions + 100
    assert 3000 <= small.examined <= 3000 + most_actions + 100
    assert small.outcome == "unfinished"
    # Uncapped, the same deal goes on past that work.
    longer = play_deal(game, 2, max_actions=small.actions + 50, looks=None, positions=None)
    assert longer.actions > small.actions and longer.most_examined > small.most_examined


def test_stats_plays_with_the_caps_by_default() -> None:
    # Without the caps, deal 0 of Napoleon's Square examines 2,122 positions for one choice
    # within its first 514 actions, and runs to the move limit (2,080 actions), examining
    # several hundred thousand positions.
    result = play_deal(load_game("napoleons-square"), 0)
    assert result.most_examined <= LOOKS_PER_CHOICE + 60
    assert POSITIONS_PER_DEAL <= result.examined <= POSITIONS_PER_DEAL + LOOKS_PER_CHOICE + 60
    assert result.actions < 20 * 104 and result.outcome == "unfinished"
