"""Symmetry in the position keys: piles the rules treat alike share a key whichever holds
which cards, and cards whose suits no rule reads are keyed by rank. Keys only merge positions,
so positions that share a key must be won alike: checked against exhaustive search."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from test_solver import winnable_by_brute_force, winnable_positions

from conftest import ROOT, run_cli
from yaml_solitaire.engine import Game, State, load_game
from yaml_solitaire.engine.core.cards import DOWN, FACE, card_text
from yaml_solitaire.engine.core.keys import face_classes
from yaml_solitaire.engine.play.solver import Solver

DATA = ROOT / "tests" / "data"
SYMMETRY = DATA / "symmetry"


def game_at(name: str) -> Game:
    return load_game(str(DATA / f"{name}.yaml"))


def by_name(game: Game) -> dict[str, int]:
    return {card_text(c): c for c in game.cards}


def with_piles(state: State, changes: dict[int, tuple[int, ...]]) -> State:
    piles = list(state.piles)
    for index, pile in changes.items():
        piles[index] = pile
    return State(tuple(piles), state.phase, state.counts)


# Games with a reduction of each kind (and of none: the cells told apart), the deals whose
# every reachable position is compared, and the fewest positions the keys must merge there.
MERGING: dict[str, tuple[Sequence[int], int]] = {
    "symmetry/two_cells": (range(30), 5000),  # cells and tableau piles alike
    "symmetry/two_cells_apart": (range(30), 3000),  # tableau piles alike, cells apart
    "symmetry/ranks_only": (range(12), 5000),  # cards keyed by rank, cells and piles alike
    # Foundations alike but for the first, dealt the card whose rank the others start from.
    "symmetry/small_canfield": (range(30), 20000),
    "tiny/small_golf": (range(30), 10),  # ranks only, a waste that only takes cards
    "tiny/small_black_hole": (range(20), 10),
}


@pytest.mark.parametrize(("name", "seeds", "least"), [(n, *v) for n, v in MERGING.items()])
def test_positions_that_share_a_key_are_won_alike(
    name: str, seeds: Sequence[int], least: int
) -> None:
    # Every position reachable by Game.apply, compared whole: among those that share a key,
    # either every one can be won or none. A merge of positions that the rules tell apart
    # would, sooner or later, put a winnable and a lost position under one key.
    game = game_at(name)
    merged = 0
    for seed in seeds:
        order, winnable = winnable_positions(game, game.deal_seed(seed))
        verdict: dict[int, bool] = {}
        for state in order:
            key = game.keys.hash(state)
            won = state in winnable
            assert verdict.setdefault(key, won) == won, (seed, state)
        merged += len(order) - len(verdict)
    assert merged >= least, merged


@pytest.mark.parametrize("name", ["two_cells", "two_cells_apart", "ranks_only", "small_canfield"])
def test_verdicts_agree_with_exhaustive_search(name: str) -> None:
    game = game_at(f"symmetry/{name}")
    verdicts = []
    for seed in range(20):
        start = game.deal_seed(seed)
        found = Solver(game).solve(start)
        assert found.result in ("won", "lost")
        assert (found.result == "won") == winnable_by_brute_force(game, start), seed
        verdicts.append(found.result)
    if name != "ranks_only":  # (nearly every deal of it is won)
        assert "won" in verdicts and "lost" in verdicts


def test_cells_alike_share_a_key_and_cells_told_apart_do_not() -> None:
    for name, alike in (("two_cells", True), ("two_cells_apart", False)):
        game = game_at(f"symmetry/{name}")
        cards = by_name(game)
        index = game.layout.index
        start = game.deal_seed(3)
        t1 = start.piles[index["t1"]]
        five, two = cards["5C"], cards["2D"]
        rest = tuple(c for c in t1 if c not in (five, two))
        one = with_piles(start, {index["t1"]: rest, index["c1"]: (five,), index["c2"]: (two,)})
        other = with_piles(start, {index["t1"]: rest, index["c1"]: (two,), index["c2"]: (five,)})
        assert (game.keys.hash(one) == game.keys.hash(other)) == alike, name
        assert (game.keys.key(one) == game.keys.key(other)) == alike, name
        groups = {tuple(game.layout.names[p] for p in g) for g in game.keys.groups}
        assert (("c1", "c2") in groups) == alike
        assert ("t1", "t2", "t3") in groups


def test_piles_named_alone_or_read_in_order_keep_their_places() -> None:
    # Osmosis: each foundation takes only ranks that the one before it holds (rank_in names
    # f1, f2, f3); Big Ben fills its tableau in a given order; Tri Peaks' piles cover others;
    # Golf's tableau piles are alike.
    groups = {
        g: {tuple(load_game(g).layout.names[p] for p in grp) for grp in load_game(g).keys.groups}
        for g in ("osmosis", "big-ben", "tri-peaks", "golf")
    }
    assert not any(group[0] == "f1" for group in groups["osmosis"])
    assert groups["big-ben"] == set() and groups["tri-peaks"] == set()
    assert groups["golf"] == {("t1", "t2", "t3", "t4", "t5", "t6", "t7")}


def _groups(game: Game) -> set[tuple[str, ...]]:
    return {tuple(game.layout.names[p] for p in group) for group in game.keys.groups}


def test_a_group_whose_first_pile_sets_a_rank_is_alike_but_for_that_pile(tmp_path: Path) -> None:
    # Canfield: f1 is dealt the card whose rank the other foundations start from and at which
    # tableau piles stop; no action takes from it, so it keeps that card, and f2..f4 are alike.
    assert ("f2", "f3", "f4") in _groups(load_game("canfield"))
    text = (SYMMETRY / "small_canfield.yaml").read_text()
    assert ("f2", "f3") in _groups(game_at("symmetry/small_canfield"))
    # Each of these may change f1's first card, or leave it empty, so that f2 or f3 would set
    # the rank: the foundations keep their order.
    variants = {
        "f1 dealt nothing": text.replace(
            "  - {step: round_robin, piles: [f1], passes: 1, face: up}\n", ""
        ),
        "cards taken back from the foundations": text.replace(
            "to: [foundations, tableau], cards: run}",
            "to: [foundations, tableau], cards: run}\n"
            "  back: {effect: move, from: [foundations], to: [tableau]}",
        ),
        "f1's cards set aside after the deal": text.replace(
            "  - {step: rest, pile: s, face: down}",
            "  - {step: rest, pile: s, face: down}\n"
            "  - {step: set_aside, piles: [f1], rank: A, to: t2}",
        ),
    }
    for reason, variant in variants.items():
        assert variant != text, reason
        path = tmp_path / "variant.yaml"
        path.write_text(variant)
        assert run_cli("validate", str(path)).code == 0, reason
        assert _groups(load_game(str(path))) == {("t1", "t2")}, reason
    # Where an action may put cards beneath a pile, its first card changes: every action
    # says so of the piles it puts cards on, but for those that put them on top only.
    path.write_text(
        text.replace(
            "  draw: {effect: deal",
            "  under: {effect: chain, start: t1, to: [f1], place: bottom}\n"
            "  over: {effect: chain, start: t1, to: [f1], place: top}\n"
            "  draw: {effect: deal",
        )
    )
    actions = load_game(str(path)).spec.actions
    assert actions["under"].puts_beneath() == ("f1",) and actions["over"].puts_beneath() == ()
    assert actions["move"].puts_beneath() == actions["draw"].puts_beneath() == ()
    assert actions["redeal"].puts_beneath() == ("s",)


def test_suits_no_rule_reads_are_left_out_of_the_key() -> None:
    # Golf reads ranks only: 5H and 5S that trade places make one position. Klondike builds
    # in alternate colours and home in suit: they make two.
    for game_id, alike in (("golf", True), ("klondike", False)):
        game = load_game(game_id)
        cards = by_name(game)
        start = game.deal_seed(7)
        five_h, five_s = cards["5H"], cards["5S"]

        trade = {FACE[five_h]: five_s, FACE[five_s]: five_h}
        other = State(
            tuple(
                tuple((c & DOWN) | trade[FACE[c]] if FACE[c] in trade else c for c in pile)
                for pile in start.piles
            ),
            start.phase,
            start.counts,
        )
        assert other != start
        assert (game.keys.hash(other) == game.keys.hash(start)) == alike, game_id
        assert (game.keys.key(other) == game.keys.key(start)) == alike, game_id


def test_the_faces_alike_are_read_from_the_rules() -> None:
    ranks = [face % 13 for face in range(52)]
    for game_id in ("golf", "tri-peaks", "pyramid", "black-hole", "clock", "calculation"):
        assert list(load_game(game_id).keys.alike) == ranks, game_id
    # Rules that read suits or colours keep them: every face apart, or rank and colour.
    for game_id in ("klondike", "freecell", "spider", "big-ben", "aces-up", "accordion"):
        assert load_game(game_id).keys.alike == tuple(range(52)), game_id
    assert len(set(load_game(str(SYMMETRY / "ranks_only.yaml")).keys.alike)) == 13


def test_a_rule_that_reads_a_cards_own_kind_tells_its_faces_apart() -> None:
    # Red cards build up and black cards down, in any suit: every set of faces read is a
    # union of ranks, but the table maps a red Five and a black Five to different sets, so
    # 5H and 5S do not play alike (5H and 5D do).
    def rank_set(rank: int) -> frozenset[int]:
        return frozenset(s * 13 + rank for s in range(4)) if 0 <= rank < 13 else frozenset()

    red = {1, 2}  # diamonds and hearts
    table = tuple(rank_set(f % 13 + (1 if f // 13 in red else -1)) for f in range(52))
    least = face_classes([table], [])
    five = {suit: suit * 13 + 4 for suit in range(4)}
    assert least[five[2]] == least[five[1]] != least[five[3]] == least[five[0]]
    assert len(set(least)) == 26
    # Without the table, its sets alone: one class per rank.
    assert len(set(face_classes([], [s for s in table]))) == 13


@pytest.mark.parametrize("name", ["two_cells", "ranks_only"])
def test_lines_found_through_merged_positions_replay_in_play(name: str) -> None:
    path = str(SYMMETRY / f"{name}.yaml")
    replayed = 0
    for seed in range(6):
        result = run_cli("solve", path, "--seed", str(seed), "--json")
        (found,) = result.json_lines()
        if found["result"] != "won":
            continue
        script = "".join(a + "\n" for a in found["actions"])
        played = run_cli("play", path, "--seed", str(seed), "--json", "--no-auto", stdin=script)
        records = played.json_lines()
        assert all(r["ok"] for r in records) and records[-1]["result"] == "won", seed
        replayed += 1
    assert replayed >= 3


def test_piles_filled_one_card_deep_are_alike_and_deeper_keep_their_order(tmp_path: Path) -> None:
    # Filled one card deep, the short piles are the empty ones: whichever takes which card,
    # the piles end the same but for their order. Two deep, a pile holding one card and an
    # empty one take different cards by their order (Canfield's tableau is filled from its
    # reserve one card deep).
    assert ("t1", "t2", "t3", "t4") in _groups(load_game("canfield"))
    text = (SYMMETRY / "small_canfield.yaml").read_text()
    assert ("t1", "t2") in _groups(game_at("symmetry/small_canfield"))
    deeper = text.replace(
        "piles: [tableau], size: 1, from: r1", "piles: [tableau], size: 2, from: r1"
    )
    assert deeper != text
    path = tmp_path / "deeper.yaml"
    path.write_text(deeper)
    assert _groups(load_game(str(path))) == {("f2", "f3")}
