"""Moves home that cannot hurt, derived from the rules: Blake and Gent's dominance.

A card may go onto its foundation without the search trying the alternatives when no line of
play could need it elsewhere. Charles Blake and Ian Gent prove when (*The Winnability of
Klondike Solitaire and Many Other Patience Games*, 2019, their Appendix B; Solvitaire's
``is_valid_auto_foundation_move``), for games whose foundations build up in suit from the Ace
with one card of each kind, by what the other piles build:

- nothing, or down in suit: any card the foundation takes (what could lie on it lies home
  already);
- down in any suit: a card at most two ranks above every other foundation's top;
- down in alternate colours: a card at most two ranks above both foundations of the other
  colour and at most three above the other foundation of its colour; or, where no card ever
  leaves a foundation, at most one above both of the other colour (every card that could lie
  on it is home, for good).

``home_dominance`` reads a rule file for these conditions and answers None where they do not
hold: every effect moves cards by the piles' accept rules, deals or turns cards face up (no
removal of pairs or runs, no chains); one phase of play, whose actions have no conditions; a
win only with every card home; one card of each kind, each suit from the Ace up without gaps;
every pile a card can leave is one a move takes cards home from, or a stock that deals onto
one. Moves from a pile the stock deals to (a waste) are left out: taking its card changes which
cards later draws expose.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.cards import DOWN, FACE, RANK, SUIT
from ..core.state import Action, State
from ..game.game import Game
from ..vocab.effects.dealing import Deal, Redeal
from ..vocab.effects.moves import Move
from ..vocab.effects.turning import TurnUp
from .pruning import _won_by_foundations

NO_BUILD, SAME_SUIT, ANY_SUIT, RED_BLACK = "none", "same suit", "any suit", "alternate colours"
_RED = (False, True, True, False)  # by suit: clubs, diamonds, hearts, spades


def _fits(kind: str, face: int, other: int) -> bool:
    """Whether ``other`` may lie on ``face`` where piles build as ``kind`` says."""
    below = face % 13 == other % 13 + 1
    if kind == NO_BUILD:
        return False
    if kind == SAME_SUIT:
        return below and face // 13 == other // 13
    if kind == RED_BLACK:
        return below and _RED[face // 13] != _RED[other // 13]
    return below


def _building(game: Game, foundations: frozenset[int]) -> str | None:
    """How the other piles build, as one of Blake and Gent's kinds (None: none of them):
    for each face, the faces that some pile other than a foundation lets lie on it."""
    layout = game.layout
    kinds = [NO_BUILD, SAME_SUIT, RED_BLACK, ANY_SUIT]  # the narrowest that fits first
    for p, rule in enumerate(layout.accepts):
        if p in foundations or rule.max_cards == 1:
            continue  # a place that holds one card builds nothing
        for face in range(52):
            for other in rule.on_top[face]:
                kinds = [k for k in kinds if _fits(k, face, other)]
    return kinds[0] if kinds else None


def _foundations_in_suit(game: Game) -> bool:
    """Whether every foundation takes an Ace when empty, then the next card of its suit."""
    layout = game.layout
    for f in game.foundations:
        rule = layout.accepts[f]
        if rule.reads_others or rule.blind or any(face % 13 for face in rule.on_empty):
            return False
        for face in range(52):
            wanted = frozenset({face + 1}) if face % 13 < 12 else frozenset()
            if rule.on_top[face] != wanted:
                return False
    return True


def _one_of_each(game: Game) -> int:
    """The ranks of each suit (all from the Ace, none missing), or 0 when the cards are not
    one of each kind so."""
    faces = [FACE[c] for c in game.cards]
    if len(set(faces)) != len(faces):
        return 0
    tops = set()
    for suit in {face // 13 for face in faces}:
        ranks = sorted(face % 13 for face in faces if face // 13 == suit)
        if ranks != list(range(len(ranks))):
            return 0
        tops.add(len(ranks))
    return tops.pop() if len(tops) == 1 else 0


def home_dominance(game: Game) -> dict[str, Callable[[State, Action], bool]] | None:
    """For each move effect that may put a card home, the test of Blake and Gent's safe move
    (see the module); None where the rules are not of their kind."""
    spec = game.spec
    layout = game.layout
    foundations = frozenset(game.foundations)
    if not foundations or not _won_by_foundations(game) or not _foundations_in_suit(game):
        return None
    most = _one_of_each(game)
    if not most:
        return None
    effects = list(game.effects.values())
    if not all(isinstance(e, (Move, Deal, Redeal, TurnUp)) for e in effects):
        return None
    if any(e.automatic and not isinstance(e, TurnUp) for e in effects):
        return None
    for e in effects:
        if isinstance(e, Move) and (e.spec.end != "top" or e.spec.compare != "lowest"):
            return None
    playing = [name for name, st in spec.flow.states.items() if st.outcome is None]
    if len(playing) != 1 or spec.flow.states[playing[0]].autoplay:
        return None
    for tr in spec.flow.transitions:
        if tr.trigger != "auto":
            if tr.conditions or tr.unless or tr.dest != playing[0]:
                return None
        elif spec.flow.states[tr.dest].outcome is None:
            return None
    building = _building(game, foundations)
    if building is None:
        return None
    # Cards move together only as runs built the same way: a group of any face-up cards
    # (Yukon's) carries a card that lies out of order with it, onto a card it builds on, and
    # then that card may be needed where the card could not go home.
    for e in effects:
        if isinstance(e, Move) and e.mode != "top":
            for src in e.sources:
                link = e.unit_link(src)
                if link is None or not all(
                    _fits(building, face, other) for face in range(52) for other in link[face]
                ):
                    return None
    # The proof sends each card that could want the card moved home as a place to lie on to
    # its own foundation instead: every card must be able to go home from where it lies, or
    # be dealt onto a pile from which it can (a cell that gives only to the tableau would
    # hold it for good once its place is gone).
    home_sources = {
        p
        for e in effects
        if isinstance(e, Move) and foundations & set(e.targets)
        for p in e.sources
    }
    for p in range(len(layout)):
        if p in foundations or p in home_sources:
            continue
        for e in effects:
            if p in layout.resolve(e.spec.takes_from()) and not (
                isinstance(e, Deal) and e.target in home_sources
            ):
                return None
    comes_back = _cards_come_back(game)
    dealt = set()  # the stocks and the piles they deal to
    for e in effects:
        if isinstance(e, (Deal, Redeal)):
            dealt |= set(layout.resolve(e.spec.takes_from())) | set(
                layout.resolve(e.spec.gives_to())
            )
    suits = frozenset(SUIT[c] for c in game.cards)
    test = _SafeHome(
        tuple(sorted(foundations)), building, comes_back, most, suits, frozenset(dealt)
    )
    return {
        name: test.safe
        for name, e in game.effects.items()
        if isinstance(e, Move) and foundations & set(e.targets) and set(e.sources) - dealt
    }


class _SafeHome:
    """The test of ``home_dominance`` for one game."""

    def __init__(
        self,
        foundations: tuple[int, ...],
        building: str,
        comes_back: bool,
        most: int,
        suits: frozenset[int],
        dealt: frozenset[int],
    ) -> None:
        self.foundations = foundations
        self.foundation_set = frozenset(foundations)
        self.always = building in (NO_BUILD, SAME_SUIT)
        self.colours = building == RED_BLACK
        self.comes_back = comes_back
        # Each suit's rank at home before the foundations are looked at: none of a suit of the
        # game, every rank of a suit it lacks (no card of it can need a place).
        self.none_home = tuple(0 if s in suits else most for s in range(4))
        self.dealt = dealt

    def safe(self, state: State, action: Action) -> bool:
        if action.dst not in self.foundation_set or action.src in self.dealt or action.n > 1:
            return False
        if self.always:
            return True
        piles = state.piles
        card = piles[action.src][-1]
        if card & DOWN:
            return False
        rank = RANK[card]
        suit = SUIT[card]
        home = list(self.none_home)
        for f in self.foundations:
            pile = piles[f]
            if pile:
                home[SUIT[pile[0]]] = len(pile)
        other = same = 0
        for s in range(4):
            if s == suit:
                continue
            diff = rank - home[s]
            if self.colours and _RED[s] == _RED[suit]:
                same = diff
            elif diff > other:
                other = diff
        if not self.colours:
            return other <= 2
        return (other <= 2 and same <= 3) or (other <= 1 and not self.comes_back)


class _Either:
    """Two tests of a safe move as one: the first, then the second."""

    def __init__(
        self,
        first: Callable[[State, Action], bool],
        second: Callable[[State, Action], bool],
    ) -> None:
        self.first = first
        self.second = second

    def safe(self, state: State, action: Action) -> bool:
        return self.first(state, action) or self.second(state, action)


def _cards_come_back(game: Game) -> bool:
    """Whether some action takes a card from a foundation."""
    foundations = set(game.foundations)
    return any(
        foundations & set(game.layout.resolve(e.spec.takes_from())) for e in game.effects.values()
    )


def with_dominance(game: Game) -> dict[str, Callable[[State, Action], bool]]:
    """The tests of safe moves by effect name: those the rule file declares (``safe:``), and
    where ``home_dominance`` applies, its test too (a move either calls safe is safe).

    A declared ``builders_home`` is trusted only where no card leaves a foundation: where one
    may come back, a card home can be wanted again as a place to build on (Blake and Gent's
    reason for their stricter bound there), so a search that never tried the other moves
    could call a winnable deal lost. Play still makes such moves by itself; the player can
    take the card back."""
    back = _cards_come_back(game)
    tests: dict[str, Callable[[State, Action], bool]] = {
        name: effect.is_safe
        for name, effect in game.effects.items()
        if effect.may_be_safe()
        and not (back and isinstance(effect, Move) and effect.spec.safe == "builders_home")
    }
    derived = home_dominance(game)
    for name, test in (derived or {}).items():
        known = tests.get(name)
        tests[name] = test if known is None else _Either(known, test).safe
    return tests
