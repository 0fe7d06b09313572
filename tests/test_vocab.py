"""The behaviour corpus: every word of the vocabulary, and every option of it, shown at work.

Each ``tests/vocab/*.yaml`` is a small rule file (most extend ``_base/tableau.yaml``) whose
leading comment lines say what it covers, how it is dealt, what is played and what follows::

    # covers: effect:move, build:same      vocabulary items this case shows at work
    # deck: 5C 5D 6H                           the first cards dealt; the rest follow in
    #                                          canonical order (C D H S, each A..K)
    # expect: t1#=18 s^=~9H                    a pile's number of cards, its top card
    # play: t2 t1                              a command that must be accepted
    # refuse: t1 t3 | does not go on           a command that must be refused, and why
    # expect: t1=5C,5D t2= f1=~AC phase=won    piles (bottom to top, ~ = face down), phase
    # moves: t1 t2, draw                       exactly the legal commands now
    # safe: t1 f1                              exactly the moves that can never hurt now

Lines are replayed in order through the engine's public API, as ``solitaire play`` does. The
completeness test holds the corpus to the registries: every entry and option is covered.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CANONICAL, ROOT
from yaml_solitaire.engine import Game, IllegalAction, Session, State, check_game, load_game
from yaml_solitaire.engine.core.cards import DOWN, MASK, card_text, parse_deck
from yaml_solitaire.engine.vocab import BUILDS, DEAL_STEPS, EFFECTS, ROLES, SUITS, TESTS
from yaml_solitaire.rules.model import Accepts
from yaml_solitaire.rules.spec import hints, tag_of, yaml_key

VOCAB = ROOT / "tests" / "vocab"
CASES = sorted(VOCAB.glob("*.yaml"))
LINE = re.compile(r"#\s*(covers|deck|seed|play|refuse|expect|moves|safe):\s*(.*)")
BASE_FIELDS = {"help", "keys", "describe", "automatic"}  # every action's; covered once


@dataclass
class Case:
    path: Path
    covers: list[str] = field(default_factory=list)
    deck: list[str] | None = None
    seed: int | None = None
    steps: list[tuple[str, str]] = field(default_factory=list)


def read_case(path: Path) -> Case:
    case = Case(path)
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.startswith("#"):
            break
        match = LINE.fullmatch(raw.strip())
        if match is None:
            continue
        kind, value = match.groups()
        if kind == "covers":
            case.covers += [c.strip() for c in value.split(",") if c.strip()]
        elif kind == "deck":
            case.deck = value.split()
        elif kind == "seed":
            case.seed = int(value)
        else:
            case.steps.append((kind, value.strip()))
    return case


def deal_order(game: Game, first: list[str]) -> list[int]:
    """The named cards first, then every other card of the game in canonical order."""
    rest = Counter(card_text(c) for c in game.cards) - Counter(first)
    names = list(first)
    for name in CANONICAL * game.spec.decks:
        if rest[name] > 0:
            rest[name] -= 1
            names.append(name)
    return parse_deck(names, game.cards)


def pile_state(game: Game, session: Session, pile: str) -> str:
    cards = session.position.piles[game.layout.index[pile]]
    return ",".join(("~" if c & DOWN else "") + card_text(c & MASK) for c in cards)


def check_expect(game: Game, session: Session, text: str, where: str) -> None:
    for item in text.split():
        key, _, want = item.partition("=")
        if key == "phase":
            got = session.position.phase
        elif key == "result":
            got = str(game.outcome(session.position))
        elif key == "score":
            got = str(game.score(session.position))
        elif key.endswith("#"):
            got = str(len(session.position.piles[game.layout.index[key[:-1]]]))
        elif key.endswith("^"):
            got = pile_state(game, session, key[:-1]).split(",")[-1]
        else:
            got = pile_state(game, session, key)
        assert got == want, f"{where}: {key} is {got!r}, expected {want!r}"


def autoplay_fast(game: Game, state: State) -> State:
    """What Session.autoplay does, through Game.apply alone (the fast path)."""
    while not game.is_terminal(state) and game.autoplays(state):
        actions = game.legal_actions(state)
        if len(actions) != 1:
            break
        state = game.apply(state, actions[0])
    return state


def replay(case: Case) -> None:
    """Replay a case through a Session (the phase machine) and through Game.apply alike."""
    game = load_game(str(case.path))
    order = deal_order(game, case.deck or []) if case.seed is None else game.seed_order(case.seed)
    session = Session(game, game.deal(order))
    session.autoplay()
    fast = autoplay_fast(game, game.deal(order))
    for n, (kind, value) in enumerate(case.steps, 1):
        where = f"{case.path.name} step {n} ({kind}: {value})"
        if kind == "play":
            action = game.parse_action(value, session.position)
            session.push(action)
            session.autoplay()
            fast = autoplay_fast(game, game.apply(fast, action))
        elif kind == "refuse":
            command, _, reason = (part.strip() for part in value.partition("|"))
            before = session.position
            with pytest.raises((IllegalAction, ValueError)) as caught:
                session.push(game.parse_action(command, session.position))
            assert reason in str(caught.value), f"{where}: refused with {caught.value}"
            assert session.position == before, f"{where}: a refused command changed the game"
            if isinstance(caught.value, IllegalAction):
                with pytest.raises(IllegalAction):
                    game.apply(fast, game.parse_action(command, fast))
        elif kind == "expect":
            check_expect(game, session, value, where)
        elif kind in ("moves", "safe"):
            want = sorted(m.strip() for m in value.split(",") if m.strip())
            listed = (
                session.legal_actions() if kind == "moves" else game.safe_actions(session.position)
            )
            got = sorted(game.action_text(a) for a in listed)
            assert got == want, f"{where}: {kind} {got}, expected {want}"
        assert fast == session.position, f"{where}: Game.apply and the Session disagree"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    case = read_case(path)
    assert case.covers, f"{path.name}: no '# covers:' line"
    assert case.steps, f"{path.name}: nothing is played or checked"
    assert check_game(path) == [], "a case is a valid game, without warnings"
    replay(case)


# --- the corpus covers the whole vocabulary ------------------------------------------------


def _literal_values(annotation: Any) -> list[str]:
    if typing.get_origin(annotation) is typing.Literal:
        return [str(v) for v in typing.get_args(annotation)]
    out: list[str] = []
    for arg in typing.get_args(annotation):
        out += _literal_values(arg)
    return out


def _other_than_literal(annotation: Any) -> bool:
    """Whether a field also takes values that are not one of its literal names."""
    if typing.get_origin(annotation) is typing.Annotated:
        return _other_than_literal(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(
            _other_than_literal(a) for a in typing.get_args(annotation) if a is not type(None)
        )
    return typing.get_origin(annotation) is not typing.Literal


def _options(kind: str, cls: type, tag_key: str | None) -> list[str]:
    """The items of one entry: itself, each key, and each named value of a key."""
    name = tag_of(cls, tag_key) if tag_key else ""
    prefix = f"{kind}:{name}" if name else kind
    items = [prefix] if name else []
    for f in dataclasses.fields(cls):
        if f.name in BASE_FIELDS or f.name == tag_key:
            continue
        key = f"{prefix}.{yaml_key(cls, f.name)}"
        annotation = hints(cls)[f.name]
        values = _literal_values(annotation)
        items += [f"{key}={v}" for v in values]
        if not values or _other_than_literal(annotation):
            items.append(key)
    return items


def vocabulary_items() -> list[str]:
    items: list[str] = []
    for kind, registry, key in (
        ("effect", EFFECTS, "effect"),
        ("test", TESTS, "test"),
        ("step", DEAL_STEPS, "step"),
    ):
        for cls in registry:
            items += _options(kind, cls, key)
    items += [f"build:{name}" for name in BUILDS]
    items += [f"suit:{name}" for name in SUITS]
    items += [f"role:{name}" for name in ROLES]
    items.append("action.automatic")
    # The values of 'build' and 'suit' are the build and suit rules, listed above.
    named = ("accepts.build", "accepts.suit")
    items += [i for i in _options("accepts", Accepts, None) if i not in named]
    return items


def test_every_vocabulary_item_has_a_case() -> None:
    covered = {item for path in CASES for item in read_case(path).covers}
    missing = [item for item in vocabulary_items() if item not in covered]
    assert not missing, "no tests/vocab case covers: " + ", ".join(missing)
    flow = {c for c in covered if c.startswith("flow.")}  # the flow interpreter's features
    unknown = sorted(covered - set(vocabulary_items()) - flow)
    assert not unknown, f"cases cover items the vocabulary does not have: {unknown}"


# --- card conservation over every case -----------------------------------------------------


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_random_play_conserves_cards(path: Path, seed: int, choices: list[int]) -> None:
    game = load_game(str(path))
    session = Session(game, game.deal_seed(seed))
    dealt = session.position
    session.autoplay()
    every = Counter(c & MASK for c in game.cards)
    for pick in choices:
        actions = session.legal_actions()
        if not actions:
            break
        session.push(actions[pick % len(actions)])
        session.autoplay()
        assert Counter(c & MASK for p in session.position.piles for c in p) == every
    # Undo lands only where the player chose, never half-way through what the engine played.
    while True:
        try:
            session.undo()
        except IndexError:
            break
        assert not game.autoplays(session.position), "undo stopped where the engine plays"
    while session.history:
        session.pop()
    assert session.position == dealt
