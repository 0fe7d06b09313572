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
cards later draws expose. Not where the stock is turned one card at a time without end: there
every card of the stock and the waste stays at hand whatever is taken, and the search reaches
each in one macro action (``stock``), so such a card is as free as a tableau pile's top card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..core.accept_rules import AcceptRule, TakenBits, first_rank
from ..core.cards import DOWN, FACE, FACE_BIT, RANK, SUIT
from ..core.state import Action, State
from ..game.game import Game
from ..vocab.effects.dealing import Deal, FillGaps, Redeal
from ..vocab.effects.moves import Move
from ..vocab.effects.turning import TurnUp
from .pruning import _won_by_foundations
from .stock import stock_reach

NO_BUILD, SAME_SUIT, ANY_SUIT, RED_BLACK = "none", "same suit", "any suit", "alternate colours"
ACE, BASE = "ace", "base"  # what an empty foundation takes (``_foundations_in_suit``)
_RED = (False, True, True, False)  # by suit: clubs, diamonds, hearts, spades


def _fits(kind: str, face: int, other: int, round_the_corner: bool = False) -> bool:
    """Whether ``other`` may lie on ``face`` where piles build as ``kind`` says (with
    ``round_the_corner``, ranks follow each other round the thirteen: a King on an Ace)."""
    below = (face - other) % 13 == 1 if round_the_corner else face % 13 == other % 13 + 1
    if kind == NO_BUILD:
        return False
    if kind == SAME_SUIT:
        return below and face // 13 == other // 13
    if kind == RED_BLACK:
        return below and _RED[face // 13] != _RED[other // 13]
    return below


def _building(game: Game, foundations: frozenset[int], from_base: bool) -> str | None:
    """How the other piles build, as one of Blake and Gent's kinds (None: none of them):
    for each face, the faces that some pile other than a foundation lets lie on it.

    Where the foundations start from a base rank (``from_base``), ranks are counted from
    the base, so a pile may build round the corner (a King on an Ace) but not across the
    base: a pile that builds must take nothing on a card of the base rank (complete at the
    foundations' rank), and start with one face-up card at most (no run dealt across it)."""
    layout = game.layout
    kinds = [NO_BUILD, SAME_SUIT, RED_BLACK, ANY_SUIT]  # the narrowest that fits first
    builders: list[int] = []
    for p, rule in enumerate(layout.accepts):
        if p in foundations or rule.max_cards == 1:
            continue  # a place that holds one card builds nothing
        for face in range(52):
            if rule.on_top[face]:
                builders.append(p)
                break
        for face in range(52):
            for other in rule.on_top[face]:
                kinds = [k for k in kinds if _fits(k, face, other, from_base)]
    if from_base:
        for p in builders:
            rule = layout.accepts[p]
            if frozenset(rule.stop_group) != foundations or rule.stop_offset:
                return None
        for seed in (1, 2):  # (the deal's shape does not depend on the cards)
            piles = game.deal_seed(seed).piles
            if any(sum(1 for c in piles[p] if not c & DOWN) > 1 for p in builders):
                return None
    return kinds[0] if kinds else None


def _foundations_in_suit(game: Game) -> str | None:
    """How the foundations build up in suit: ``ACE`` where each takes an Ace when empty,
    then the next card of its suit; ``BASE`` where the first card on any of them sets the
    rank every one starts with (``empty: group_rank``), each taking the next card of its suit
    round the corner from King to Ace; None otherwise."""
    layout = game.layout
    foundations = frozenset(game.foundations)
    kind: str | None = None
    for f in game.foundations:
        rule = layout.accepts[f]
        if rule.blind:
            return None
        if not rule.reads_others and not any(face % 13 for face in rule.on_empty):
            here = ACE
        elif (
            frozenset(rule.group) == foundations
            and not rule.group_offset
            and rule.on_empty == frozenset(range(52))
            and not rule.stop_group
            and rule.beside is None
            and rule.follows is None
            and rule.rank_in < 0
        ):
            here = BASE
        else:
            return None
        if kind is not None and here != kind:
            return None
        kind = here
        for face in range(52):
            if face % 13 < 12:
                wanted = frozenset({face + 1})
            else:  # a King: then nothing, or the Ace of its suit round the corner
                wanted = frozenset() if here == ACE else frozenset({face - 12})
            if rule.on_top[face] != wanted:
                return None
    return kind


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
    found = _safe_home(game)
    if found is None:
        return None
    test, names = found
    return {name: test.safe for name in names}


def _safe_home(game: Game) -> tuple[_SafeHome, list[str]] | None:
    """The test of ``home_dominance`` and the move effects it is asked about; None where the
    rules are not of Blake and Gent's kind."""
    layout = game.layout
    foundations = frozenset(game.foundations)
    if not foundations or not _won_by_foundations(game):
        return None
    start = _foundations_in_suit(game)
    if start is None:
        return None
    from_base = start == BASE
    most = _one_of_each(game)
    if not most:
        return None
    effects = list(game.effects.values())
    if not all(isinstance(e, (Move, Deal, Redeal, TurnUp, FillGaps)) for e in effects):
        return None
    if any(e.automatic and not isinstance(e, (TurnUp, FillGaps)) for e in effects):
        return None
    if not all(_fills_as_moves(game, e) for e in effects if isinstance(e, FillGaps)):
        return None
    for e in effects:
        if isinstance(e, Move) and (e.spec.end != "top" or e.spec.compare != "lowest"):
            return None
    if not _one_plain_phase(game):
        return None
    building = _building(game, foundations, from_base)
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
                    _fits(building, face, other, from_base)
                    for face in range(52)
                    for other in link[face]
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
    reach = stock_reach(game)
    if reach is not None and reach.all_at_hand:
        dealt.discard(reach.waste)
    suits = frozenset(SUIT[c] for c in game.cards)
    test = _SafeHome(
        tuple(sorted(foundations)), building, comes_back, most, suits, frozenset(dealt), from_base
    )
    names = [
        name
        for name, e in game.effects.items()
        if isinstance(e, Move) and foundations & set(e.targets) and set(e.sources) - dealt
    ]
    return test, names


def left_out_test(game: Game) -> LeftOut | None:
    """The moves a search may leave out, where the rules prove them useless: a run traded
    between twins (``twin_swap_test``), a card taken off its foundation for a safe move to
    send it back (``taken_back_test``). None where neither applies."""
    swapped = _twin_swap(game)
    taken_back = _taken_back(game)
    if swapped is None and taken_back is None:
        return None
    return LeftOut(swapped, taken_back)


class LeftOut:
    """The tests of ``left_out_test`` for one game, asked of a position's actions at once (a
    search lists millions of actions: each test is a direct call here, not a call through a
    bound method)."""

    def __init__(self, swapped: _TwinSwap | None, taken_back: _TakenBack | None) -> None:
        self.swapped = swapped
        self.taken_back = taken_back

    def pruned(self, state: State, action: Action) -> bool:
        """Whether the rules prove ``action`` useless in ``state``."""
        swapped = self.swapped
        if swapped is not None and swapped.pruned(state, action):
            return True
        taken_back = self.taken_back
        return taken_back is not None and taken_back.pruned(state, action)

    def kept(self, state: State, actions: tuple[Action, ...]) -> tuple[Action, ...]:
        """The actions the search tries: those the rules do not prove useless."""
        return tuple([action for action in actions if not self.pruned(state, action)])


def taken_back_test(game: Game) -> Callable[[State, Action], bool] | None:
    """A move the search may leave out: a card taken off its foundation onto a pile from
    which ``home_dominance`` would send it home again at once (Solvitaire's
    ``dominance_blocks_foundation_move``). None where that test does not apply.

    Blake and Gent's proof turns a winning line from a position where their test sends a card
    home into one from the position with that card home, no longer than the first less the
    move home. So were such a move the first of a shortest winning line from a position P,
    the position it leads to, Q, would be one move nearer a win than P, and the card sent home
    from Q, which is P again, nearer still: no shortest winning line begins with one, and
    every winnable position keeps a shortest line without it."""
    found = _taken_back(game)
    return found.pruned if found is not None else None


def _taken_back(game: Game) -> _TakenBack | None:
    """The test of ``taken_back_test``; None where it does not apply."""
    found = _safe_home(game)
    if found is None:
        return None
    home, names = found
    foundations = home.foundation_set
    routes: set[tuple[int, int]] = set()  # the moves home the test is asked about: from, to
    for name in names:
        effect = game.effects[name]
        assert isinstance(effect, Move)
        routes |= {(p, f) for p in effect.sources for f in effect.targets if f in foundations}
    return _TakenBack(home, frozenset(routes))


class _TakenBack:
    """The test of ``taken_back_test`` for one game."""

    def __init__(self, home: _SafeHome, routes: frozenset[tuple[int, int]]) -> None:
        self.home = home
        self.foundations = home.foundation_set
        self.routes = routes

    def pruned(self, state: State, action: Action) -> bool:
        src, dst = action.src, action.dst
        if src not in self.foundations or action.n > 1 or (dst, src) not in self.routes:
            return False
        # The card would lie on ``dst``, its foundation one card shorter: the test reads the
        # other foundations only, so it is asked of this position.
        home = self.home
        if dst in home.dealt:
            return False
        piles = state.piles
        return home.always or home.card_safe(piles, piles[src][-1])


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
        from_base: bool = False,
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
        # Ranks counted from the rank the foundations start with (``BASE``): the base is 1.
        self.from_base = from_base

    def safe(self, state: State, action: Action) -> bool:
        if action.dst not in self.foundation_set or action.src in self.dealt or action.n > 1:
            return False
        if self.always and not self.from_base:
            return True
        piles = state.piles
        return self.card_safe(piles, piles[action.src][-1])

    def card_safe(self, piles: tuple[tuple[int, ...], ...], card: int) -> bool:
        """Whether ``card`` may go home by the bound, with the other foundations as in
        ``piles`` (its own foundation is not read)."""
        if card & DOWN:
            return False
        rank = RANK[card]
        if self.from_base:
            base = first_rank(piles, self.foundations)
            if base is None:  # the first card home sets the rank of all: a choice, not safe
                return False
            rank = (rank - base) % 13 + 1
        if self.always:
            return True
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
    """Two tests as one, which holds where either does: the first, then the second."""

    def __init__(
        self,
        first: Callable[[State, Action], bool],
        second: Callable[[State, Action], bool],
    ) -> None:
        self.first = first
        self.second = second

    def safe(self, state: State, action: Action) -> bool:
        return self.first(state, action) or self.second(state, action)


def _fills_as_moves(game: Game, fill: FillGaps) -> bool:
    """Whether ``fill`` keeps Blake and Gent's proof: it puts one card, face up, from one
    pile into each empty pile of its own, at once, and a card so put may go wherever it
    could have gone from where it was taken.

    The proof plays a card home earlier than a winning line does; where that empties a
    pile, the fill puts the source's next card there at once, one card sooner than in the
    line. Until the line empties that pile itself, the card stands there instead of on the
    source, as free as it was (by the condition), and the source shows the card beneath it:
    the line's moves from the source are played from that pile, whose next fill takes the
    source's card that the line's own fill would take."""
    if not fill.automatic or fill.size != 1 or fill.flag:
        return False
    takes: dict[int, set[int]] = {}
    for e in game.effects.values():
        if isinstance(e, Move):
            for p in e.sources:
                takes.setdefault(p, set()).update(e.targets)
    gives = takes.get(fill.source, set())
    return all(gives <= takes.get(p, set()) | {p} for p in fill.piles)


def _one_plain_phase(game: Game) -> bool:
    """Whether the game has one phase of play, with no autoplay, whose actions have no
    conditions, and whose automatic transitions only end the game."""
    flow = game.spec.flow
    playing = [name for name, st in flow.states.items() if st.outcome is None]
    if len(playing) != 1 or flow.states[playing[0]].autoplay:
        return False
    for tr in flow.transitions:
        if tr.trigger != "auto":
            if tr.conditions or tr.unless or tr.dest != playing[0]:
                return False
        elif flow.states[tr.dest].outcome is None:
            return False
    return True


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


def twin_swap_test(game: Game) -> Callable[[State, Action], bool] | None:
    """A move the search may leave out: part of a run moved onto another pile of its group,
    where the card it uncovers cannot go home at once (Solvitaire's
    ``partial-if-card-above-buildable``, derived and proved here; None where the rules are
    not of the kind the proof covers).

    Such a move puts the run from a card X onto X's twin Y: the card on which the run's
    lowest card may lie besides X, so of the same rank and colour where piles build in
    alternate colours. Afterwards the position is the one before but for the runs on X and
    on Y, which have traded places. Where twins come in pairs and every rule treats them
    alike, that trade changes nothing a line of play can use, except that X is uncovered: a
    line that wins from after the move is mirrored from before it, move for move, with the
    runs on X and Y swapped, until X goes home, when moving the run off X to Y first (a move
    this test keeps: X then goes home) makes the two positions one. The mirrored line is no
    longer and holds one such move fewer; so every winnable position has a winning line
    without them, as short as any.

    What the proof needs, read from the rule file: one group of piles between which runs
    move (the tableau), by one accept rule that reads no other pile's top card, no limit on
    a run's length, and runs followed by the rule's own build relation; that relation puts
    a card on at most two cards of the game, on both or neither of any two (twins), and
    never a card above its twin in a run (no run goes round to its own rank and colour,
    unless a stop rank always set breaks it); every action that takes from or puts on
    those piles moves top cards by the accept rules (into every pile of the group, or out
    of every one to the foundations or within the group as runs), turns a face-down card
    up, or fills empty piles one card deep; one phase of play, actions without conditions,
    outcomes decided by the legal actions or by piles outside the group."""
    found = _twin_swap(game)
    return found.pruned if found is not None else None


def _twin_swap(game: Game) -> _TwinSwap | None:
    """The test of ``twin_swap_test``; None where the rules are not of its kind."""
    layout = game.layout
    spec = game.spec
    runs = [
        (name, e)
        for name, e in game.effects.items()
        if isinstance(e, Move) and e.mode == "run" and set(e.sources) & set(e.targets)
    ]
    if not runs:
        return None
    group = frozenset(runs[0][1].sources) & frozenset(runs[0][1].targets)
    if any(set(e.sources) & set(e.targets) != group for _, e in runs):
        return None
    rules = {layout.accepts[p] for p in group}
    if len(rules) != 1:
        return None
    rule = rules.pop()
    if not _builds_in_twins(rule, game, group):
        return None
    foundations = frozenset(game.foundations)
    for p, other in enumerate(layout.accepts):
        if layout.covered_by[p] and p in group:
            return None
        if (
            (other.beside is not None and group & set(other.beside.piles))
            or (other.follows is not None and other.follows.neighbour in group)
            or other.rank_in in group
        ):
            return None  # a rule that reads the top cards of the group
    homes: set[int] = set()
    for e in game.effects.values():
        takes = set(layout.resolve(e.spec.takes_from()))
        gives = set(layout.resolve(e.spec.gives_to()))
        if isinstance(e, TurnUp) or not (takes | gives) & group:
            continue
        if isinstance(e, FillGaps):
            if e.spec.size <= 1 and not takes & group:
                continue  # fills empty piles, and they are empty on both sides of a trade
            return None
        if not isinstance(e, Move) or e.automatic or e.mode not in ("top", "run"):
            return None
        if e.spec.end != "top" or e.spec.compare != "lowest" or e.spec.reach is not None:
            return None
        if (takes & group and not group <= takes) or (gives & group and not group <= gives):
            return None  # a pile of the group told apart from another
        if takes & group:
            if not (gives - group) <= foundations:
                return None
            homes |= gives - group
            if gives & group:
                if e.mode != "run" or e.spec.limit is not None:
                    return None
                link = e.unit_link(next(iter(group)))
                if link is None or any(not rule.on_top[f] <= link[f] for f in range(52)):
                    return None  # a run built by the rule must move as one
    if not _one_plain_phase(game):
        return None
    for tr in spec.flow.transitions:
        if tr.trigger == "auto":
            for name in (*tr.conditions, *tr.unless):
                condition = spec.conditions[name]
                if condition.reads_legal_actions:
                    continue
                piles = getattr(condition, "piles", None)
                if piles is None or group & set(layout.resolve(piles)):
                    return None
    return _TwinSwap(
        frozenset(name for name, _ in runs),
        group,
        rule.on_top,
        tuple(sorted(homes)),
        layout.taken,
    )


def _builds_in_twins(rule: AcceptRule, game: Game, group: frozenset[int]) -> bool:
    """Whether ``rule`` puts a card on its twins only (see ``twin_swap_test``): on at most two
    cards of the game, on both or neither of any two; and whether no run holds two cards of
    one kind: its build relation is acyclic, or, where a stop rank (``complete_at``) always
    set ends runs, acyclic once the cards of any one rank take nothing."""
    if (
        rule.min_cards
        or rule.max_cards
        or rule.beside is not None
        or rule.follows is not None
        or rule.rank_in >= 0
    ):
        return False
    copies = Counter(FACE[c] for c in game.cards)
    present = frozenset(copies)
    takes = {f: rule.on_top[f] & present for f in present}
    kinds: dict[frozenset[int], int] = {}
    for f, children in takes.items():
        if children:
            kinds[children] = kinds.get(children, 0) + copies[f]
    if any(count > 2 for count in kinds.values()):
        return False
    sets = list(kinds)
    if any(a & b for k, a in enumerate(sets) for b in sets[k + 1 :]):
        return False
    if _acyclic(takes, -1):
        return True
    fixed = game.keys.first_fixed
    if not any(p in fixed for p in rule.stop_group):
        return False
    return all(_acyclic(takes, rank) for rank in range(1, 14))


def _acyclic(takes: dict[int, frozenset[int]], stop: int) -> bool:
    """Whether no card lies, by ``takes``, on a chain of cards that leads back to it, when
    cards of rank ``stop`` take nothing."""
    state: dict[int, int] = {}  # 1: on the path being walked, 2: done

    def walk(face: int) -> bool:
        state[face] = 1
        if RANK[face] != stop:
            for child in takes[face]:
                seen = state.get(child, 0)
                if seen == 1 or (not seen and not walk(child)):
                    return False
        state[face] = 2
        return True

    return all(state.get(f, 0) or walk(f) for f in takes)


class _TwinSwap:
    """The test of ``twin_swap_test`` for one game."""

    def __init__(
        self,
        names: frozenset[str],
        group: frozenset[int],
        on_top: tuple[frozenset[int], ...],
        foundations: tuple[int, ...],
        taken: TakenBits,
    ) -> None:
        self.names = names
        self.group = group
        self.on_top = on_top
        self.foundations = foundations
        self.taken = taken  # what each pile takes now, as bits

    def pruned(self, state: State, action: Action) -> bool:
        if action.name not in self.names or action.src not in self.group:
            return False
        piles = state.piles
        if action.dst not in self.group or not piles[action.dst]:
            return False
        pile = piles[action.src]
        n = action.n
        if len(pile) <= n:
            return False
        under = pile[-n - 1]
        if under & DOWN:
            return False
        face = FACE[under]
        if FACE[pile[-n]] not in self.on_top[face]:
            return False  # the card uncovered is not part of the run
        taken = self.taken
        bit = FACE_BIT[face]
        return not any(taken.taken(piles, f) & bit for f in self.foundations)
