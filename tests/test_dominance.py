"""Moves home that Blake and Gent prove safe, derived from the rules (engine/play/dominance.py):
never a win lost, checked against an exhaustive search, and the rule itself on FreeCell and
Klondike positions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import pytest
from test_solver import distances_to_win, winnable_by_brute_force, winnable_positions

from conftest import ROOT
from yaml_solitaire.engine import Action, Game, State, load_game
from yaml_solitaire.engine.core.cards import DOWN, RANK, card_text
from yaml_solitaire.engine.play.dominance import home_dominance, taken_back_test, twin_swap_test
from yaml_solitaire.engine.play.solver import Solver

# Tiny games that declare no move safe, the deals of each searched to the end: alternate
# colours with cards back from home or not, a stock, any suit with cards back (Baker's Dozen).
TESTED: dict[str, Sequence[int]] = {
    "tiny/small_klondike": range(20),
    "tiny/small_klondike_back": range(20),
    "pruning/small_freecell": range(10),
    "pruning/small_bakers_dozen": range(40),
    "tiny/two_piles": range(40),
    "pruning/two_suit_canfield": range(20),  # from a dealt base, round the corner, gaps filled
}


def called_safe(
    game: Game, tests: dict[str, Callable[[State, Action], bool]], states: Iterable[State]
) -> Iterator[tuple[State, Action]]:
    """The moves ``tests`` call safe in each of ``states`` that the game has not ended."""
    for state in states:
        if game.outcome(state) is None:
            for action in game.legal_actions(state):
                test = tests.get(action.name)
                if test is not None and test(state, action):
                    yield state, action


@pytest.mark.parametrize(("name", "seeds"), TESTED.items())
def test_a_move_home_called_safe_never_loses_a_win(name: str, seeds: Sequence[int]) -> None:
    game = load_game(str(ROOT / "tests" / "data" / f"{name}.yaml"))
    tests = home_dominance(game)
    assert tests
    called = 0
    for seed in seeds:
        _, winnable = winnable_positions(game, game.deal_seed(seed))
        for state, action in called_safe(game, tests, winnable):
            assert game.apply(state, action) in winnable, (seed, state, action)
            called += 1
    assert called > 100


@pytest.mark.parametrize("name", ["small_freecell", "two_suit_canfield"])
def test_the_solver_with_safe_moves_home_agrees_with_exhaustive_search(name: str) -> None:
    # (the tiny games of tests/data/tiny/ are checked so by test_solver.py)
    game = load_game(str(ROOT / "tests" / "data" / "pruning" / f"{name}.yaml"))
    for seed in range(30):
        start = game.deal_seed(seed)
        found = Solver(game).solve(start)
        assert (found.result == "won") == winnable_by_brute_force(game, start), seed


def test_the_dominance_applies_where_the_rules_are_of_blake_and_gents_kind() -> None:
    for game_id in ("freecell", "klondike", "bakers-dozen", "king-albert", "fan", SV_CANFIELD):
        assert home_dominance(load_game(game_id)), game_id
    # foundations from another base, two decks, groups of any face-up cards, no foundations
    for game_id in ("canfield", "forty-thieves", "yukon", "golf", "spider", "big-ben"):
        assert home_dominance(load_game(game_id)) is None, game_id


SV_CANFIELD = str(ROOT / "tests" / "solvitaire" / "rules" / "canfield.yaml")


def test_canfield_counts_ranks_from_the_foundations_base() -> None:
    # Solvitaire's Canfield: the tableau turns the corner but takes nothing on a card of the
    # base rank, gaps are filled from the reserve at once. Ours builds across the base (a
    # Four on a Five when the base is Five), so no bound holds there (see test above).
    game = load_game(SV_CANFIELD)
    tests = home_dominance(game)
    assert tests is not None and set(tests) == {"home"}, "the waste's card is left out"
    safe = tests["home"]
    home = game.layout.index
    # Base Jack: the black foundations hold their Jack and Queen, one rank above the base.
    blacks = {"f1": "JC QC", "f2": "JS QS", "f3": "JD"}
    for hearts, card, called in [
        ("JH QH", "KH", True),  # one above both black foundations (its third rank)
        ("JH QH KH", "AH", True),  # round the corner: two above, three above diamonds
        ("JH QH KH AH", "2H", False),  # three above the black ones
    ]:
        state = laid_out(game, {**blacks, "f4": hearts, "t1": card})
        action = Action("home", home["t1"], home["f4"])
        assert action in game.legal_actions(state)
        assert safe(state, action) is called, card
    # The first card home sets the base: a choice, never called safe (not even an Ace, which
    # counted from the Ace would be one above the empty foundations).
    state = laid_out(game, {"t1": "AD"})
    assert not safe(state, Action("home", home["t1"], home["f1"]))


def _position(game: Game, piles: dict[str, str], top: str, rest: Sequence[str]) -> State:
    """A position of ``game``: the piles given (bottom card first), then ``top`` alone on the
    first of ``rest``, and every other card spread over the others of ``rest``."""
    return laid_out(game, {**piles, rest[0]: top}, rest[1:])


def laid_out(game: Game, piles: dict[str, str], spread: Sequence[str] = ("s",)) -> State:
    """A hand-made position: the cards named for each pile (bottom card first), every other
    card spread over the piles of ``spread`` in turn (the stock ``s``, unless told)."""
    start = game.deal_seed(1)
    by_text = {card_text(c): c for c in game.cards}
    index = game.layout.index
    laid: list[tuple[int, ...]] = [() for _ in start.piles]
    for name, cards in piles.items():
        laid[index[name]] = tuple(by_text[c] for c in cards.split())
    placed = {c for pile in laid for c in pile}
    others = [c for c in game.cards if c not in placed]
    for k, card in enumerate(others):
        laid[index[spread[k % len(spread)]]] += (card,)
    return State(tuple(laid), start.phase, start.counts)


HOME = {
    # 5H: two above both black foundations, three above diamonds
    "near": {"f1": "AC 2C 3C", "f2": "AS 2S 3S", "f3": "AD 2D", "f4": "AH 2H 3H 4H"},
    # 5H: two above both black foundations, four above diamonds
    "diamonds far": {"f1": "AC 2C 3C", "f2": "AS 2S 3S", "f3": "AD", "f4": "AH 2H 3H 4H"},
    # 5H: one above both black foundations (both black Fours home), four above diamonds
    "blacks home": {"f1": "AC 2C 3C 4C", "f2": "AS 2S 3S 4S", "f3": "AD", "f4": "AH 2H 3H 4H"},
}


@pytest.mark.parametrize(
    ("game_id", "case", "safe"),
    [
        ("freecell", "near", True),
        ("freecell", "diamonds far", False),
        ("freecell", "blacks home", True),  # no card ever leaves a foundation
        ("klondike", "near", True),
        ("klondike", "diamonds far", False),
        ("klondike", "blacks home", False),  # a black Four may come back, and need the Five
    ],
)
def test_a_card_goes_home_by_blake_and_gents_rule(game_id: str, case: str, safe: bool) -> None:
    game = load_game(game_id)
    tableau = [n for n in game.pile_names if n.startswith("t")]
    state = _position(game, HOME[case], "5H", tableau)
    src, dst = game.layout.index[tableau[0]], game.layout.index["f4"]
    (action,) = [a for a in game.legal_actions(state) if a.src == src and a.dst == dst]
    test = home_dominance(game)
    assert test is not None
    assert test[action.name](state, action) is safe
    # The search plays it alone exactly then: Klondike's own 'safe: builders_home' calls the
    # Five safe with both black Fours home, but a Four may come back, so it is not trusted.
    if len(game.legal_actions(state)) > 1:
        assert (Solver(game).search_order(state) == [action]) is safe


def test_no_move_home_is_called_safe_where_a_pile_cannot_give_its_card_home() -> None:
    # Only c1 gives to the foundations. With clubs home to 3C, diamonds to 4D, 5C in c1, 4C in
    # c2 and 5D alone on the tableau, 5D is two above clubs (Blake and Gent's bound), but
    # sending it home leaves 4C in c2 for good: 4C wins only by lying on 5D first.
    game = load_game(str(ROOT / "tests" / "data" / "symmetry" / "two_cells_apart.yaml"))
    assert home_dominance(game) is None
    start = game.deal_seed(14)
    _, winnable = winnable_positions(game, start)
    place = {name: i for i, name in enumerate(game.pile_names)}
    (position,) = [
        s for s in winnable
        if game.pile_text(s, place["c2"]) == ["4C"] and game.pile_text(s, place["t1"]) == ["5D"]
        and len(s.piles[place["f2"]]) == 4
    ]  # fmt: skip
    home = game.parse_action("t1 f2", position)
    assert game.apply(position, home) not in winnable
    # The same position in a game whose every cell gives home keeps the bound.
    assert home_dominance(load_game(str(ROOT / "tests" / "data" / "symmetry" / "two_cells.yaml")))


# Games whose cards come in twins, and deals of each small enough to search whole.
TWINS: dict[str, Sequence[int]] = {
    "twin_klondike": (0, 1),
    "twin_canfield": (0, 1, 3, 4, 8, 9, 10, 11),
}


@pytest.mark.parametrize(("name", "seeds"), TWINS.items())
def test_leaving_out_the_runs_traded_between_twins_loses_no_win(
    name: str, seeds: Sequence[int]
) -> None:
    # Every position, not only the deal: one from which some line wins has a winning line
    # without the moves left out.
    game = load_game(str(ROOT / "tests" / "data" / "pruning" / f"{name}.yaml"))
    left_out = twin_swap_test(game)
    assert left_out is not None
    traded = 0
    for seed in seeds:
        order, winnable = winnable_positions(game, game.deal_seed(seed))
        _, still = winnable_positions(game, game.deal_seed(seed), left_out)
        assert still == winnable, seed
        traded += sum(
            1 for state in order if game.outcome(state) is None
            for action in game.legal_actions(state) if left_out(state, action)
        )  # fmt: skip
    assert traded > 5000


def test_a_run_moves_between_twins_only_when_the_card_it_uncovers_goes_home() -> None:
    game = load_game(str(ROOT / "tests" / "data" / "pruning" / "twin_klondike.yaml"))
    left_out = twin_swap_test(game)
    assert left_out is not None
    for f1, kept in (("AH", False), ("AC 2C", True)):
        # 2H on 3C; 3S, twin of 3C
        state = laid_out(game, {"t1": "3C 2H", "t2": "3S", "f1": f1})
        move = game.parse_action("t1 t2", state)
        assert move in game.legal_actions(state)
        assert left_out(state, move) is not kept, f1
        assert (move in Solver(game).search_order(state)) is kept, f1


def test_the_solver_leaving_runs_out_agrees_with_exhaustive_search() -> None:
    for name, seeds in TWINS.items():
        game = load_game(str(ROOT / "tests" / "data" / "pruning" / f"{name}.yaml"))
        for seed in seeds:
            start = game.deal_seed(seed)
            found = Solver(game).solve(start)
            assert (found.result == "won") == winnable_by_brute_force(game, start), (name, seed)


def test_runs_are_left_out_where_the_rules_are_of_the_proofs_kind() -> None:
    for game_id in ("klondike", "klondike-draw-3", "westcliff", "northwest-territory"):
        assert twin_swap_test(load_game(game_id)), game_id
    canfield = ROOT / "tests" / "solvitaire" / "rules" / "canfield.yaml"
    assert twin_swap_test(load_game(str(canfield)))
    # Runs round the corner with no stop (a card above its twin), two decks (four of a kind),
    # a run limited by free cells, groups of any cards, no runs, the stock dealt onto the piles.
    for game_id in ("canfield", "double-klondike", "freecell", "yukon", "forty-thieves", "spider"):
        assert twin_swap_test(load_game(game_id)) is None, game_id


# Games whose foundations give cards back, and deals of each searched to the end.
TAKEN_BACK: dict[str, Sequence[int]] = {
    "tiny/small_klondike_back": range(20),
    "pruning/small_bakers_dozen": range(40),
}


@pytest.mark.parametrize(("name", "seeds"), TAKEN_BACK.items())
def test_leaving_out_cards_taken_back_only_to_go_home_again_loses_no_win(
    name: str, seeds: Sequence[int]
) -> None:
    # Every position, not only the deal: one from which some line wins has a winning line
    # without a card taken off its foundation that Blake and Gent's rule sends home again.
    game = load_game(str(ROOT / "tests" / "data" / f"{name}.yaml"))
    left_out = taken_back_test(game)
    assert left_out is not None
    taken = kept = 0
    for seed in seeds:
        order, winnable = winnable_positions(game, game.deal_seed(seed))
        _, still = winnable_positions(game, game.deal_seed(seed), left_out)
        assert still == winnable, seed
        for state in order:
            if game.outcome(state) is None:
                for action in game.legal_actions(state):
                    if action.src in game.foundations:
                        taken += left_out(state, action)
                        kept += not left_out(state, action)
    assert taken > 500 and kept > 100, (taken, kept)


def test_a_card_is_taken_back_unless_it_would_go_home_again_at_once() -> None:
    game = load_game(str(ROOT / "tests" / "data" / "tiny" / "small_klondike_back.yaml"))
    left_out = taken_back_test(game)
    assert left_out is not None
    # 3C back onto 4D: with the diamonds at the Ace, it would go home again at once (at most
    # two above the other colour); with none, it may be wanted to build on.
    for f2, pruned in (("AD", True), ("", False)):
        state = laid_out(game, {"f1": "AC 2C 3C", "f2": f2, "t1": "4D"})
        back = game.parse_action("f1 t1", state)
        assert back in game.legal_actions(state), f2
        assert left_out(state, back) is pruned, f2
        assert (back in Solver(game).search_order(state)) is not pruned, f2


@pytest.mark.parametrize(("game_id", "at_hand"), [("klondike", True), ("klondike-draw-3", False)])
def test_a_stock_card_goes_home_alone_where_every_stock_card_is_at_hand(
    game_id: str, at_hand: bool
) -> None:
    # Turning one card at a time without end, an Ace deep in the stock is as free as one on
    # the tableau: the search plays it home (draws and the move in one) and tries nothing
    # else. Turning three, taking it changes what later draws expose.
    game = load_game(game_id)
    stock = game.layout.index["s"]
    for seed in range(100):
        start = game.deal_seed(seed)
        tops = [start.piles[p][-1] for p in game.layout.groups["tableau"]]
        if any(RANK[c] == 1 for c in tops) or not any(
            RANK[c] == 1 for c in start.piles[stock][:-3]
        ):
            continue
        order = Solver(game).search_order(start)
        home = [a for a in order if a.dst in game.foundations]
        assert home, seed
        assert (order == home[:1]) is at_hand, seed
        # The same Ace turned onto the waste: its move home is safe where every card is at
        # hand, and only there.
        ace = next(c for c in start.piles[stock] if RANK[c] == 1)
        piles = list(start.piles)
        piles[stock] = tuple(c for c in piles[stock] if c != ace)
        piles[game.layout.index["w"]] = (ace & ~DOWN,)
        turned = State(tuple(piles), start.phase, start.counts)
        waste = game.layout.index["w"]
        play = next(a for a in game.legal_actions(turned)
                    if a.src == waste and a.dst in game.foundations)  # fmt: skip
        tests = home_dominance(game)
        assert tests is not None
        test = tests.get(play.name)
        assert (test is not None and test(turned, play)) is at_hand, seed
        return
    raise AssertionError("no deal with an Ace deep in the stock and none on top")


@pytest.mark.parametrize(("name", "seeds"), TAKEN_BACK.items())
def test_a_card_the_rule_sends_home_brings_the_win_nearer(name: str, seeds: Sequence[int]) -> None:
    # What leaving out a card taken back rests on: where the rule sends a card home from a
    # position that can be won, the position it leads to is nearer a win, by a move at least.
    game = load_game(str(ROOT / "tests" / "data" / f"{name}.yaml"))
    tests = home_dominance(game)
    assert tests
    called = 0
    for seed in seeds:
        _, far = distances_to_win(game, game.deal_seed(seed))
        for state, action in called_safe(game, tests, far):
            assert far[game.apply(state, action)] < far[state], (seed, state, action)
            called += 1
    assert called > 100
