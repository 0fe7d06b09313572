"""The stock as the player's reach: the search moves straight to the waste cards draws expose.

Its verdicts hold against exhaustive search on small games (those of tests/data/tiny/ are
checked in test_solver.py; here, games that turn the stock over without limit), its solved
lines replay through ``solitaire play``, and it applies only where the rules make it sound.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_solver import winnable_by_brute_force

from conftest import ROOT, run_cli
from yaml_solitaire.engine import Game, State, load_game
from yaml_solitaire.engine.core.cards import DOWN
from yaml_solitaire.engine.core.state import new_state
from yaml_solitaire.engine.play import lines
from yaml_solitaire.engine.play.solver import Budget, Solver
from yaml_solitaire.engine.play.stock import StockReach, stock_reach

TINY = ROOT / "tests" / "data" / "tiny"
UNLIMITED = sorted((ROOT / "tests" / "data" / "stock").glob("*.yaml"))


@pytest.mark.parametrize(
    ("game_ref", "applies"),
    [
        ("klondike", True),  # draw one, redeals without limit
        ("klondike-draw-3", True),
        ("canfield", True),  # a reserve beside the stock; the waste played by its own action
        ("forty-thieves", True),  # no redeal
        (str(TINY / "small_klondike.yaml"), True),  # one redeal
        ("golf", False),  # the waste is built on: a draw changes what the tableau may do
        ("big-ben", False),  # the stock also fills the tableau
        ("pyramid", False),
        (str(TINY / "little_ben.yaml"), False),  # a draw with a condition on the tableau
    ],
)
def test_the_stock_reach_applies_where_the_rules_make_it_sound(
    game_ref: str, applies: bool
) -> None:
    assert (stock_reach(load_game(game_ref)) is not None) == applies


def without_redeals(state: State) -> State:
    """A position without the number of redeals made (no rule reads it where it has no
    limit): the exhaustive search would otherwise never end."""
    return new_state(state.piles, state.phase, ())


@pytest.mark.parametrize("path", UNLIMITED, ids=lambda p: p.stem)
def test_verdicts_agree_with_exhaustive_search_when_the_stock_turns_without_limit(
    path: Path,
) -> None:
    game = load_game(str(path))
    assert Solver(game).reach is not None
    verdicts = []
    for seed in range(60):
        start = game.deal_seed(seed)
        found = Solver(game).solve(start)
        assert found.result in ("won", "lost"), seed
        winnable = winnable_by_brute_force(game, start, without_redeals)
        assert (found.result == "won") == winnable, seed
        verdicts.append(found.result)
    assert "won" in verdicts and "lost" in verdicts, "the deals tried show both verdicts"


def test_positions_that_differ_only_in_redeals_no_rule_reads_share_a_key() -> None:
    for game_ref, limited in (("klondike", False), (str(TINY / "small_klondike.yaml"), True)):
        game = load_game(game_ref)
        start = game.deal_seed(1)
        again = new_state(start.piles, start.phase, tuple(n + 1 for n in start.counts))
        same = game.keys.hash(start) == game.keys.hash(again)
        assert same != limited, game_ref
        assert (game.keys.key(start) == game.keys.key(again)) != limited, game_ref


@pytest.mark.parametrize(
    ("game_ref", "seeds"),
    [("klondike", (1, 2)), ("klondike-draw-3", (1, 4)), ("canfield", (1, 2, 5))],
)
def test_solved_lines_are_the_games_own_actions_and_replay_to_a_win(
    game_ref: str, seeds: tuple[int, ...]
) -> None:
    # The search plays macro actions (draws and a waste card's move in one); the line it
    # gives is in the game's own actions, typed into 'play --line' as a player would.
    game = load_game(game_ref)
    for seed in seeds:
        found = Solver(game).solve(game.deal_seed(seed), Budget(seconds=20))
        assert found.result == "won", seed
        names = {action.name for action in found.actions}
        assert names <= set(game.effects) and {"draw"} <= names, names
        typed = lines.typed(game, found.line)
        result = run_cli(
            "play", game_ref, "--seed", str(seed), "--line", "--json", "--no-auto",
            stdin="".join(t + "\n" for t in typed),
        )  # fmt: skip
        records = result.json_lines()
        assert all(r["ok"] for r in records), [r["error"] for r in records if not r["ok"]]
        assert records[-1]["result"] == "won", seed


def test_the_search_moves_straight_to_the_waste_cards_draws_expose() -> None:
    # Canfield 501: Solvitaire decides it after 115 states; a draw at a time, the search
    # left it unknown after 1.2 million positions (20 s).
    game = load_game(str(ROOT / "tests" / "solvitaire" / "rules" / "canfield.yaml"))
    found = Solver(game).solve(game.deal_seed(501), Budget(nodes=20_000))
    assert found.result == "won"


def _turned(state: State, stock: int, waste: int, drawn: int) -> State:
    """``state`` with the stock turned until the waste holds ``drawn`` of its cards and the
    stock's (turning one card at a time: the order of both piles together kept)."""
    cards = state.piles[stock] + state.piles[waste][::-1]  # from the stock's bottom
    piles = list(state.piles)
    piles[stock] = cards[: len(cards) - drawn]
    piles[waste] = tuple(c & ~DOWN for c in reversed(cards[len(cards) - drawn :]))
    return State(tuple(piles), state.phase, state.counts)


@pytest.mark.parametrize(("game_ref", "per_draw"), [("klondike", 1), ("klondike-draw-3", 3)])
def test_the_search_keys_a_stock_turned_without_end_by_its_cards_not_how_far_it_came(
    game_ref: str, per_draw: int
) -> None:
    # Draws and turns reach every place a whole number of draws from the start (and the
    # end) from every other: positions that differ only there play alike, to the search.
    game = load_game(game_ref)
    keys = Solver(game).keys
    stock, waste = game.layout.index["s"], game.layout.index["w"]
    start = game.deal_seed(3)
    size = len(start.piles[stock])
    assert size == 24
    places = {drawn: _turned(start, stock, waste, drawn) for drawn in range(size + 1)}
    alike = {d for d in places if d % per_draw == 0 or d == size}
    hashes = {d: keys.hash(state) for d, state in places.items()}
    assert len({hashes[d] for d in alike}) == 1
    assert len({keys.key(places[d]) for d in alike}) == 1
    others = [d for d in places if d not in alike]
    assert len({hashes[d] for d in others} | {hashes[0]}) == len(others) + 1
    # The game's own keys (hints, a player's positions) tell every place apart.
    assert len({game.keys.hash(state) for state in places.values()}) == size + 1
    # Two other cards in the stock are another position.
    moved = list(start.piles)
    cards = moved[stock]
    moved[stock] = (cards[1], cards[0], *cards[2:])
    assert keys.hash(State(tuple(moved), start.phase, start.counts)) != hashes[0]


@pytest.mark.parametrize("game_ref", ["klondike", "klondike-draw-3", "canfield"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_the_search_keys_of_a_turned_stock_are_worked_out_move_by_move(
    game_ref: str, seed: int, choices: list[int]
) -> None:
    # The search's hash of a position reached by an action, from its parent's, is the hash
    # of that position (draws and redeals, macros and moves alike).
    game = load_game(game_ref)
    solver = Solver(game)
    keys = solver.keys
    assert keys is not game.keys
    state, actions = solver.expand(game.deal_seed(seed))
    total = keys.piles_sum(state)
    for pick in choices:
        if not actions or game.outcome(state) is not None:
            break
        reached = solver.successor(state, actions[pick % len(actions)])
        child, total = keys.child_hash(state, total, reached)
        assert (child, total) == (keys.hash(reached), keys.piles_sum(reached))
        state, actions = solver.expand(reached)


def _turned_by_hand(game: Game, reach: StockReach, state: State) -> list[State]:
    """The positions draws and redeals played one at a time lead to from ``state``, in turn:
    until the stock and the waste come back to what they were (and the redeals left, where
    they are limited), or no draw or redeal is left."""
    counted = reach.redeal is not None and reach.redeal.limit is not None

    def place(state: State) -> object:
        piles = state.piles
        return (piles[reach.stock], piles[reach.waste], state.counts if counted else ())

    seen = {place(state)}
    out: list[State] = []
    while True:
        turn = [a for a in game.legal_actions(state) if a.name in reach.turns]
        if not turn:
            return out
        state = game.expand(game.successor(state, turn[0]))[0]
        if place(state) in seen:
            return out
        seen.add(place(state))
        out.append(state)


def _waste_moves_by_hand(game: Game, reach: StockReach, state: State) -> dict[object, State]:
    """Each move of the waste's top card after some draws and redeals played one at a time,
    as (draws and redeals, action, target, count), with the position it leads to."""
    found: dict[object, State] = {}
    for steps, turned in enumerate(_turned_by_hand(game, reach, state), 1):
        for action in game.legal_actions(turned):
            if action.src == reach.waste and action.name not in reach.turns:
                found[(steps, action.name, action.dst, action.n)] = game.apply(turned, action)
    return found


def _macros(solver: Solver, reach: StockReach, state: State) -> dict[object, State]:
    """The search's macro actions from ``state``, as ``_waste_moves_by_hand`` gives them."""
    found: dict[object, State] = {}
    for action in solver.expand(state)[1]:
        if action.name in reach.macros:
            steps, name = reach.macros[action.name]
            found[(steps, name, action.dst, action.n)] = solver.expand(
                solver.successor(state, action)
            )[0]
    return found


@pytest.mark.parametrize(
    "game_ref",
    [
        "klondike",
        "klondike-draw-3",
        "canfield",
        str(TINY / "small_klondike.yaml"),
        *UNLIMITED,
        # its tableau reads the waste: what it takes changes with each draw
        str(ROOT / "tests" / "data" / "waste_watch.yaml"),
    ],
    ids=lambda ref: Path(str(ref)).stem,
)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=40))
def test_each_macro_is_a_waste_move_the_draws_played_one_at_a_time_reach(
    game_ref: str | Path, seed: int, choices: list[int]
) -> None:
    # The search works out a stock's course once, from the first position it meets on it,
    # and shares it with every position on the way (how many redeals each has made
    # included): what it lists and where each macro leads are what playing the draws one at
    # a time gives, counts and all, from that position and from each place on its course.
    game = load_game(str(game_ref))
    solver = Solver(game)
    reach = solver.reach
    assert reach is not None
    state, actions = solver.expand(game.deal_seed(seed))
    for k, pick in enumerate(choices):
        if not actions or game.outcome(state) is not None:
            break
        assert _macros(solver, reach, state) == _waste_moves_by_hand(game, reach, state)
        if k % 8 == 0:
            for turned in _turned_by_hand(game, reach, state):
                got = _macros(solver, reach, turned)
                assert got == _waste_moves_by_hand(game, reach, turned), (seed, k)
        state, actions = solver.expand(solver.successor(state, actions[pick % len(actions)]))


def _verdicts_by_brute_force(game: Game, start: State) -> dict[State, tuple[State, bool]]:
    """Every position reachable from ``start`` (the redeals made left out: see
    ``without_redeals``), each with one position that stands for it and whether a win can be
    reached from there: the graph searched whole, then the wins followed back."""
    seen: dict[State, State] = {without_redeals(start): start}
    parents: dict[State, list[State]] = {}
    won: list[State] = []
    todo = deque([start])
    while todo:
        state = todo.popleft()
        here = without_redeals(state)
        if game.outcome(state) == "won":
            won.append(here)
            continue
        for action in game.legal_actions(state):
            after = game.apply(state, action)
            there = without_redeals(after)
            parents.setdefault(there, []).append(here)
            if there not in seen:
                seen[there] = after
                todo.append(after)
    winnable = set(won)
    back = deque(won)
    while back:
        for parent in parents.get(back.popleft(), ()):
            if parent not in winnable:
                winnable.add(parent)
                back.append(parent)
    return {here: (state, here in winnable) for here, state in seen.items()}


def test_every_position_keeps_its_verdict_where_draws_pass_a_loss_on() -> None:
    # Turned three at a time without end, a position that draws alone lead to from one
    # proved lost is lost too (``Solver.led_to_loss``). Not only the deals: every position
    # their play reaches is solved, and each verdict is the one exhaustive search gives.
    game = load_game(
        str(ROOT / "tests" / "data" / "stock" / "small_klondike_draw_3_unlimited.yaml")
    )
    assert Solver(game).turned_place is not None
    verdicts = {True: 0, False: 0}
    for seed in range(12):
        for state, winnable in _verdicts_by_brute_force(game, game.deal_seed(seed)).values():
            if game.outcome(state) is not None:
                continue
            found = Solver(game).solve(state)
            assert found.result == ("won" if winnable else "lost"), (seed, state)
            verdicts[winnable] += 1
    assert verdicts[True] and verdicts[False], verdicts


def test_a_loss_is_passed_on_only_to_the_positions_draws_lead_to() -> None:
    # Every position of three deals, grouped by the key it would have at the start of a turn:
    # each one that exhaustive search finds lost is handed to ``led_to_loss`` alone, and every
    # position of its group that it then calls lost must be lost. (Three cards a turn: a
    # place further on by a number of draws is reached; one further on by another number of
    # cards is not, and some are winnable.)
    game = load_game(str(ROOT / "tests" / "data" / "three_suit_klondike_draw_3.yaml"))
    solver = Solver(game)
    assert solver.turned_place is not None
    called = 0
    for seed in range(3):
        groups: dict[int, list[tuple[int, bool]]] = {}
        for state, winnable in _verdicts_by_brute_force(game, game.deal_seed(seed)).values():
            if game.outcome(state) is None:
                start, place = solver.turned_place(state, solver.keys.hash(state))
                groups.setdefault(start, []).append((place, winnable))
        for start, members in groups.items():
            for place, winnable in members:
                if winnable or place < 0:
                    continue
                lost_places: dict[int, int] = {}
                solver.lost_at_place(lost_places, start, place)
                for other, other_winnable in members:
                    if solver.led_to_loss(lost_places, start, other):
                        assert not other_winnable, (seed, place, other)
                        called += 1
    assert called > 1000, called
