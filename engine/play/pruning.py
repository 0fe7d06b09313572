"""Sound pruning for the solver, derived from a game's rules: positions that can never be won.

It reads only the compiled rules (accept tables, the effects of the vocabulary); it applies
to the games whose rules it understands and answers None for the others, so the search then
simply does without it.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy_extensions import i64

from ..core.cards import DOWN, EVERY_FACE, FACE, face_bits, table_bits
from ..core.state import State, same_piles
from ..game.game import Game
from ..vocab.effects.dealing import Deal, DealRow, FillGaps, Redeal
from ..vocab.effects.moves import Move
from ..vocab.effects.removal import CloseGaps, Pair, RemoveRuns
from ..vocab.effects.turning import TurnUp


def dead_position_test(game: Game) -> Callable[[State], bool] | None:
    """The tests below that apply to ``game``, as one: a position is dead when any calls it
    dead (None when none applies)."""
    found: Callable[[State], bool] | None = None
    for test in (dead_card_test(game), rank_walk_test(game), cleared_piles_test(game)):
        if test is not None:
            found = test if found is None else _Either(found, test).dead
    return found


class _Either:
    """Two dead-position tests as one: the first, then the second."""

    def __init__(self, first: Callable[[State], bool], second: Callable[[State], bool]) -> None:
        self.first = first
        self.second = second

    def dead(self, state: State) -> bool:
        return self.first(state) or self.second(state)


def rank_walk_test(game: Game) -> Callable[[State], bool] | None:
    """A test for positions that can never be won because the foundation cannot take the cards
    left in any order: for games won with every card on one foundation, which takes cards one
    at a time by moves, gives none back, and takes on each card only cards one rank above or
    below it (in any suit or not, Kings and Aces touching or not).

    Then the cards the foundation takes, one after another, are a walk over the ranks: it
    starts at the foundation's top card, each step goes to a neighbouring rank, and it arrives
    at each rank as many times as cards of that rank are left. Count how often the walk
    crosses between each pair of neighbouring ranks: a rank's crossings, in and out, are twice
    its cards left, one more at the start and one fewer at the end. For each possible end rank
    that fixes every count (from one end of a line of ranks; on the ring of thirteen, through
    an alternating sum); a walk exists only if none is negative and the crossings used join
    every rank with cards left to the start (an Euler path). Where no end rank passes, no line
    of play wins. The test forgets where the cards lie and in what order, so a position it
    calls dead is dead.
    """
    layout = game.layout
    foundations = tuple(game.foundations)
    if len(foundations) != 1 or not _won_by_foundations(game):
        return None
    home = foundations[0]
    rule = layout.accepts[home]
    if not _fed_by_its_rule(game, home) or any(
        home in layout.resolve(e.spec.takes_from()) for e in game.effects.values()
    ):
        return None  # it takes cards otherwise than one at a time by its rule, or gives back
    for wrap in (False, True):
        if all(
            (g % 13 - face % 13) % 13 in (1, 12) if wrap else abs(g % 13 - face % 13) == 1
            for face in range(52)
            for g in rule.on_top[face]
        ):
            return _RankWalk(home, wrap).dead
    return None


class _RankWalk:
    """The reckoning of ``rank_walk_test`` for one game (see there)."""

    def __init__(self, home: int, wrap: bool) -> None:
        self.home = home
        self.wrap = wrap
        self.known: dict[tuple[int, tuple[int, ...]], bool] = {}

    def dead(self, state: State) -> bool:
        piles = state.piles
        home = self.home
        if not piles[home]:
            return False  # where the walk starts is not known
        face_of = FACE
        counts = [0] * 13
        for p in range(len(piles)):
            if p != home:
                for card in piles[p]:
                    counts[face_of[card] % 13] += 1
        start = face_of[piles[home][-1]] % 13
        # Many positions leave the same cards of each rank (the foundation took the same
        # ranks in another order): the answer is kept for each.
        key = (start, tuple(counts))
        known = self.known
        answer = known.get(key)
        if answer is None:
            wrap = self.wrap
            answer = any(counts) and not any(
                counts[end] and _walks(counts, start, end, wrap) for end in range(13)
            )
            if len(known) > 200_000:
                known.clear()
            known[key] = answer
        return answer


def cleared_piles_test(game: Game) -> Callable[[State], bool] | None:
    """A test for positions that can never be won because some card can never be played onto
    the one pile that takes cards (Golf's waste, its hole), in games won by emptying piles.

    It applies where the player's effects are moves of a pile's top card, each checked by
    that pile's accept rule against its top card (a rule that reads no other pile), and deals
    from a stock face up onto it; no effect takes from that pile (the sink) or gives to any
    other, no action is played automatically, and every way to win asks for some of the piles
    moved from to be empty. A card can go onto the sink only right after a card it may lie
    on: the sink's top card now (only for a card on top of its pile now: any card played
    first covers it), a card dealt from a stock, the card right above it in its pile (any
    card higher up was covered by that one), or a card of another pile. So it reckons,
    optimistically, which cards could ever leave: a pile's top card, then each card below it
    once the one above could leave, if one of those could lie under it; the cards of other
    piles that could leave count as they are found (a least fixed point: cards that wait on
    each other in a circle never leave). When a card of a pile that must be emptied could
    never leave, no line wins. None when the rules are not of this kind.
    """
    layout = game.layout
    known = list(game.effects.values())
    if game.automatic or any(
        t.effect is not None and t.effect not in known for t in game.flow.transitions
    ):
        return None
    moves: list[Move] = []
    deals: list[Deal] = []
    for effect in known:
        if isinstance(effect, Move):
            moves.append(effect)
        elif isinstance(effect, Deal):
            deals.append(effect)
        else:
            return None
    sinks = {t for e in moves for t in e.targets} | {e.target for e in deals}
    if len(sinks) != 1 or not moves:
        return None
    sink = next(iter(sinks))
    rule = layout.accepts[sink]
    if rule.reads_others:
        return None
    columns: set[int] = set()
    for move in moves:
        spec = move.spec
        if move.mode != "top" or spec.end != "top" or spec.reach is not None:
            return None
        columns |= set(move.sources)
    stocks = {e.source for e in deals}
    if any(e.flag for e in deals) or sink in columns | stocks or columns & stocks:
        return None
    if any(layout.covered_by[p] for p in columns):
        return None  # a card that other cards cover, not only the one above it
    emptied = _emptied_to_win(game)
    if emptied is None or not emptied & columns:
        return None
    order = tuple(sorted(columns))
    return _ClearedPiles(
        sink, order, tuple(p in emptied for p in order), tuple(sorted(stocks)),
        table_bits(rule.on_top), face_bits(rule.on_empty), face_bits(rule.blind),
    ).dead  # fmt: skip


def _emptied_to_win(game: Game) -> frozenset[int] | None:
    """The piles every way to win asks to be empty (None when there is no way to win)."""
    spec = game.spec
    layout = game.layout
    total = len(game.cards)
    everything = frozenset(range(len(layout)))
    wins = [t for t in game.flow.transitions if game.outcomes.get(t.dest) == "won"]
    if not wins:
        return None
    common = everything
    for t in wins:
        empty: set[int] = set()
        for name, _ in t.conditions:
            condition = spec.conditions[name]
            test = getattr(condition, "test", None)
            piles = getattr(condition, "piles", None)
            if not piles:
                continue
            named = frozenset(layout.resolve(piles))
            if test == "holds_all_cards":
                empty |= everything - named
            elif test == "count":
                most = getattr(condition, "at_most", None)
                least = getattr(condition, "at_least", None)
                if most == 0:
                    empty |= named
                if least == total:
                    empty |= everything - named
        for name, _ in t.unless:
            condition = spec.conditions[name]
            piles = getattr(condition, "piles", None)
            if getattr(condition, "test", None) == "not_empty" and piles:
                empty |= set(layout.resolve(piles))
        common &= empty
    return common


class _ClearedPiles:
    """The reckoning of ``cleared_piles_test`` for one game (see there)."""

    def __init__(
        self,
        sink: int,
        columns: tuple[int, ...],
        emptied: tuple[bool, ...],
        stocks: tuple[int, ...],
        takes: tuple[int, ...],
        on_empty: int,
        blind: int,
    ) -> None:
        self.sink = sink
        self.columns = columns
        self.emptied = emptied
        self.stocks = stocks
        self.takes = takes  # the faces that may lie on each face, as bits
        # the faces each face may lie on, as bits
        self.lies_on = tuple(
            sum(1 << g for g in range(52) if takes[g] >> face & 1) for face in range(52)
        )
        self.on_empty = on_empty
        self.blind = blind
        self.one: i64 = 1  # (see ``_DeadCards.dead``: a bit is shifted from this)
        # what the stocks' cards take, for the stocks last looked at
        self.stock_last: tuple[tuple[int, ...], ...] | None = None
        self.stock_takes: i64 = 0
        self.seen: i64 = 0  # (see ``_place``)

    def dead(self, state: State) -> bool:
        piles = state.piles
        face_of = FACE
        takes = self.takes
        held = tuple([piles[p] for p in self.stocks])
        last = self.stock_last
        if last is None or not same_piles(last, held):
            dealt: i64 = 0
            for pile in held:
                for card in pile:
                    dealt |= takes[face_of[card]]
            self.stock_last = held
            self.stock_takes = dealt
        from_stock: i64 = self.stock_takes
        sink = piles[self.sink]
        top: i64 = self.on_empty
        if sink:
            top = self.blind if sink[-1] & DOWN else takes[face_of[sink[-1]]]
        one = self.one
        columns = self.columns
        count = len(columns)
        gone = [0] * count  # how many cards from the top of each pile could leave
        given = [0] * count  # what the cards that could leave of each pile take, as bits
        changed = True
        while changed:
            changed = False
            for q in range(count):
                pile = piles[columns[q]]
                size: i64 = len(pile)
                k: i64 = gone[q]
                if k >= size:
                    continue
                others: i64 = from_stock
                for r in range(count):
                    if r != q:
                        others |= given[r]
                mine: i64 = given[q]
                while k < size:
                    i: i64 = size - 1 - k
                    under: i64 = top if i == size - 1 else takes[face_of[pile[i + 1]]]
                    face: i64 = face_of[pile[i]]
                    if not (others | under) & (one << face):
                        break
                    mine |= takes[face]
                    k += 1
                if k != gone[q]:
                    gone[q] = k
                    given[q] = mine
                    changed = True
        emptied = self.emptied
        if any(emptied[q] and gone[q] < len(piles[columns[q]]) for q in range(count)):
            return True
        return not self._matched(piles, held, top)

    def _matched(
        self, piles: tuple[tuple[int, ...], ...], held: tuple[tuple[int, ...], ...], top: int
    ) -> bool:
        """Whether each card that must leave can have a card of its own to lie on when it
        goes: the sink's top card (for a card on top of its pile now), a stock's card or a
        card of a pile (each under one card at most: a card played covers it for good). A
        matching of faces to faces (a card's own pile is not told apart: fewer calls, no
        wrong one); False when none covers every card that must leave."""
        face_of = FACE
        # how many cards of each face could be under one: the piles' and the stocks'
        under = [0] * 53
        columns = self.columns
        emptied = self.emptied
        wanted: list[int] = []  # the faces of the cards that must leave, a top card as -1-face
        for q in range(len(columns)):
            pile = piles[columns[q]]
            size = len(pile)
            for i in range(size):
                face = face_of[pile[i]]
                under[face] += 1
                if emptied[q]:
                    wanted.append(-1 - face if i == size - 1 else face)
        for pile in held:
            for card in pile:
                under[face_of[card]] += 1
        under[52] = 1  # the sink's top card, for a top card alone
        # Kuhn's augmenting paths: ``lying[g]`` the cards (indices into ``wanted``) on face g.
        lying: list[list[int]] = [[] for _ in range(53)]
        for k in range(len(wanted)):
            self.seen = 0
            if not self._place(k, wanted, top, under, lying):
                return False
        return True

    def _place(
        self, k: int, wanted: list[int], top: int, under: list[int], lying: list[list[int]]
    ) -> bool:
        """Find card ``k`` a card to lie on, moving others as need be (an augmenting path;
        ``seen``: the faces, as bits, 52 the sink's top, tried in this search for one)."""
        one = self.one
        entry = wanted[k]
        face = entry if entry >= 0 else -1 - entry
        options: i64 = self.lies_on[face]
        if entry < 0 and top >> face & 1:
            options |= one << 52
        options &= ~self.seen
        # first a face with room, then one whose cards may move on
        rest = options
        while rest:
            low = rest & -rest
            rest ^= low
            g = int(low).bit_length() - 1
            if len(lying[g]) < under[g]:
                lying[g].append(k)
                return True
        self.seen |= options
        rest = options
        while rest:
            low = rest & -rest
            rest ^= low
            g = int(low).bit_length() - 1
            others = lying[g]
            for m in range(len(others)):
                if self._place(others[m], wanted, top, under, lying):
                    others[m] = k
                    return True
        return False


def dead_card_test(game: Game) -> Callable[[State], bool] | None:
    """A test for positions that can never be won because some card can never go home.

    It applies to games won with every card on the foundations, whose foundations give a card
    back, if at all, only by moves. It works out, optimistically, which cards could ever leave
    the piles they lie in: a card in a pile whose cards leave by moves (of the top card, a run,
    a face-up group or the whole pile, as the moves that take from it say) can leave once every
    card above it could leave, or with the cards above it when they make a group one of those
    moves carries (a face-down card joins none), and then only if some foundation could ever
    take it (its foundation could grow up to it with cards that can be reached) or some other
    card could ever lie on top of a pile that takes it. The answer grows until nothing changes
    (a least fixed point, so cards that wait on each other in a circle never leave). Every real
    line of play only ever does what this reckoning allows (it forgets the order of events,
    which copy of a card serves where, how many cards a pile holds beyond its minimum, how many
    cards a move may carry, and treats the cards of other piles, such as the stock, and those a
    foundation may give back, as free to go anywhere), so when some card can never leave, no
    line wins. None when the game has no such pile.
    """
    layout = game.layout
    foundations = tuple(game.foundations)
    found_set = frozenset(foundations)
    if not foundations or not _won_by_foundations(game):
        return None
    effects = list(game.effects.values())
    takers = {p: [e for e in effects if p in layout.resolve(e.spec.takes_from())] for p in
              range(len(layout))}  # fmt: skip
    if any(not isinstance(e, Move) for f in foundations for e in takers[f]):
        return None  # a card at home may leave otherwise than by a move: not followed
    # Foundations that give cards back (by moves): their cards count as free to go anywhere,
    # like a stock's, and such a foundation may take again what it gave back.
    gives_back = tuple(f for f in foundations if takers[f])
    lifo = tuple(
        p
        for p in range(len(layout))
        if p not in found_set
        and takers[p]
        and all(
            isinstance(e, Move) and e.spec.compare == "lowest" and e.spec.end == "top"
            for e in takers[p]
        )
    )
    if not lifo:
        return None
    lifo_set = frozenset(lifo)
    loose = tuple(p for p in range(len(layout)) if p not in found_set and p not in lifo_set)
    # Foundations that take cards otherwise than one by one by their rule (a chain, a whole
    # run removed at once): what they show next is not read from the rule, so any card may go
    # there. A move of several cards never goes to a pile that takes one at a time.
    wild = frozenset(f for f in foundations if not _fed_by_its_rule(game, f))
    # Cards that move together (a run, a group, a whole pile): by pile, for each face, the
    # faces that may lie on it in such a group (as bits). A face-down card joins none, unless
    # some effect might turn a card face up under others.
    hidden_stays = all(isinstance(e, _TURN_TOP_ONLY) for e in effects)
    joins: dict[int, tuple[int, ...]] = {}
    whole: dict[int, tuple[int, ...]] = {}
    for p in lifo:
        for e in takers[p]:
            assert isinstance(e, Move)
            if e.mode == "top":
                continue
            link = e.unit_link(p)
            table = tuple(
                EVERY_FACE if link is None else face_bits(link[face]) for face in range(52)
            )
            if not any(table):
                continue  # a run of one card (a free cell): the top card alone
            into = whole if e.mode == "pile" else joins
            known = into.get(p, ())
            into[p] = tuple(a | b for a, b in zip(known, table, strict=True)) if known else table
    targets = sorted(
        {t for e in effects if isinstance(e, Move) for t in e.targets if t not in found_set}
    )
    rule_of = {t: layout.accepts[t] for t in targets}
    # What a card may take on top once it has moved: by the rule of any pile it may go to.
    on_moved: list[frozenset[int]] = [
        frozenset().union(*(rule_of[t].on_top[face] for t in targets)) for face in range(52)
    ]
    blind = frozenset().union(*(rule_of[t].blind for t in targets))
    # Piles of other kinds are not followed card by card: any of them may be empty some time.
    blind |= frozenset().union(*(rule_of[t].on_empty for t in targets if t not in lifo_set))
    empty_takes = {t: rule_of[t].on_empty for t in targets if rule_of[t].on_empty}
    found_rules = [layout.accepts[f] for f in foundations]
    # Faces as bits of an int: a set operation is one machine step.
    found_next = [table_bits(rule.on_top) for rule in found_rules]
    found_empty = [face_bits(rule.on_empty) for rule in found_rules]
    wild_at = [f in wild for f in foundations]
    none = tuple(0 for _ in range(52))
    own_takes = {t: table_bits(rule_of[t].on_top) for t in targets}
    moved_takes = tuple(face_bits(faces) for faces in on_moved)
    # A card cannot lie on itself: where a card of a face takes that face, it is not counted.
    own_loop = {t: face_bits(f for f in range(52) if f in rule_of[t].on_top[f]) for t in targets}
    plan = tuple(
        (
            p,
            own_takes.get(p, none),
            rule_of[p].min_cards if p in rule_of else 1 << 30,
            own_loop.get(p, 0),
            face_bits(empty_takes.get(p, frozenset())),
            joins.get(p, ()),
            whole.get(p, ()),
        )
        for p in lifo
    )
    test = _DeadCards(
        foundations, wild_at, found_next, found_empty, loose + gives_back,
        tuple(f in gives_back for f in foundations), plan, moved_takes, face_bits(blind),
        hidden_stays,
    )  # fmt: skip
    return test.dead


# Effects that turn no card face up but a pile's top one (or none at all).
_TURN_TOP_ONLY = (Move, Deal, DealRow, Redeal, FillGaps, TurnUp, RemoveRuns, Pair, CloseGaps)
# Each pile of the plan: its place, the faces each of its cards takes on top (by face), the
# fewest cards it takes on, the faces a card of which takes its own face, the faces it takes
# when empty, and the cards that move together from it (``joins``, ``whole``; () for none).
Plan = tuple[int, tuple[int, ...], int, int, int, tuple[int, ...], tuple[int, ...]]
# What the piles of other kinds and the foundations give, as bits of faces: the free faces, the
# faces with at least one and at least two places, the faces some foundation could take, and
# those it waits for (each foundation's reach is kept on its ``_Reach``).
Start = tuple[int, int, int, int, int]


class _Reach:
    """One foundation in the reckoning: the faces it could take at some time (``reach``) and
    those among them a free card has brought there (``done``; see ``_DeadCards._grow``), and
    both where the reckoning of the last position started. Kept as fields of an object, not
    items of a list: compiled code holds an int field unboxed, where a list boxes every int
    stored in it (a bit set of faces is too large for Python's cache of small ints)."""

    def __init__(self, table: tuple[int, ...]) -> None:
        self.table = table  # the faces it takes on each face, as bits
        self.reach: i64 = 0
        self.done: i64 = 0
        self.reach0: i64 = 0
        self.done0: i64 = 0


class _Column:
    """One pile of the plan (``Plan``), and how many cards from its top the reckoning of a
    position has found could leave (``gone``)."""

    def __init__(self, entry: Plan) -> None:
        self.place: i64 = entry[0]
        self.takes = entry[1]
        self.least: i64 = entry[2]
        self.loops: i64 = entry[3]
        self.empty: i64 = entry[4]
        self.joins = entry[5]
        self.whole = entry[6]
        self.gone: i64 = 0


class _DeadCards:
    """The reckoning of ``dead_card_test`` for one game (see there)."""

    def __init__(
        self,
        foundations: tuple[int, ...],
        wild_at: list[bool],
        found_next: list[tuple[int, ...]],
        found_empty: list[int],
        loose: tuple[int, ...],
        gives_back: tuple[bool, ...],
        plan: tuple[Plan, ...],
        moved_takes: tuple[int, ...],
        blind_bits: int,
        hidden_stays: bool,
    ) -> None:
        self.foundations = foundations
        self.wild_at = wild_at
        self.found_empty = found_empty
        self.loose = loose
        self.gives_back = gives_back
        self.hidden_stays = hidden_stays
        self.reaches = [_Reach(table) for table in found_next]
        self.columns = [_Column(entry) for entry in plan]
        self.moved_takes = moved_takes
        self.blind_bits = blind_bits
        self.one: i64 = 1
        # What the piles of other kinds (a stock) give: the faces they hold and how many cards
        # each face could be put on. They change seldom, so it is worked out once for each.
        self.loose_known: dict[tuple[tuple[int, ...], ...], tuple[int, int, int]] = {}
        self.loose_last: tuple[tuple[tuple[int, ...], ...], tuple[int, int, int]] | None = None
        # The foundations grown with those faces alone, by the faces and the foundations' tops.
        self.grown_known: dict[
            tuple[object, ...], tuple[tuple[int, ...], tuple[int, ...], int, int]
        ] = {}
        # The piles ``Start`` is read from, and the last of them with what they gave (the
        # foundations' part of it is on their ``_Reach``: ``reach0``, ``done0``).
        self.held = loose + tuple(f for f in foundations if f not in loose)
        self.start_held: tuple[tuple[int, ...], ...] | None = None
        self.start: Start = (0, 0, 0, 0, 0)

    def _grow(self, free: i64) -> tuple[i64, i64]:
        """Grow each foundation's reach with the free faces: the faces some foundation could
        take at some time, and those among them that no free face has brought there yet (a
        face outside them changes nothing: the next growth waits for one of them)."""
        homeable: i64 = 0
        want: i64 = 0
        for r in self.reaches:
            reach = r.reach
            done = r.done
            step = reach & free & ~done
            if step:
                table = r.table
                while step:
                    done |= step
                    while step:
                        low = step & -step
                        reach |= table[int(low).bit_length() - 1]
                        step ^= low
                    step = reach & free & ~done
                r.done = done
                r.reach = reach
            homeable |= reach
            want |= reach & ~done
        return homeable, want

    def _loose(self, held: tuple[tuple[int, ...], ...]) -> tuple[int, int, int]:
        """What the piles of other kinds give: their faces, and the faces that at least one
        and at least two of their cards could be put on (as bits)."""
        known = self.loose_known
        found = known.get(held)
        if found is None:
            if len(known) > 50_000:
                known.clear()
            face_of = FACE
            moved_takes = self.moved_takes
            free = once = twice = 0
            for pile in held:
                for card in pile:
                    face = face_of[card]
                    free |= 1 << face
                    gives = moved_takes[face]
                    twice |= once & gives
                    once |= gives
            found = known[held] = (free, once, twice)
        return found

    def _start(self, piles: tuple[tuple[int, ...], ...]) -> Start:
        """What the piles of other kinds and the foundations give before any card of the plan's
        piles is looked at (see ``Start``); each foundation's reach and what has passed it are
        left on its ``_Reach`` (``reach0``, ``done0``)."""
        # free: faces of which some card could be on top of its pile at some time; once,
        # twice: the faces that at least one, at least two cards could be put on (a card is
        # not counted as a place for itself: where it may lie on a card of its own face in
        # its pile, it needs two)
        loose = tuple([piles[p] for p in self.loose])
        # (the last piles asked about first: a long stock stays the same tuple from position
        # to position, and a lookup by value would hash it every time)
        last = self.loose_last
        if last is not None and same_piles(last[0], loose):
            free, once, twice = last[1]
        else:
            found = self._loose(loose)
            self.loose_last = (loose, found)
            free, once, twice = found
        # The foundations grown with the free cards of the other piles alone: the same for
        # every position with the same foundations' tops and those cards (often the case).
        face_of = FACE
        foundations = self.foundations
        count = len(foundations)
        gives_back = self.gives_back
        # then each foundation's top face, -1 when empty (a foundation that gives cards back:
        # its cards)
        parts: list[object] = [free]
        for i in range(count):
            pile = piles[foundations[i]]
            parts.append(pile if gives_back[i] else face_of[pile[-1]] if pile else -1)
        start = tuple(parts)
        grown_known = self.grown_known
        first = grown_known.get(start)
        reaches = self.reaches
        if first is None:
            for i in range(count):
                pile = piles[foundations[i]]
                r = reaches[i]
                table = r.table
                if self.wild_at[i]:
                    r.reach = EVERY_FACE
                elif gives_back[i]:  # what it takes with any of its cards on top, or none
                    reach = self.found_empty[i]
                    for card in pile:
                        reach |= table[face_of[card]]
                    r.reach = reach
                else:
                    r.reach = table[face_of[pile[-1]]] if pile else self.found_empty[i]
                r.done = 0
            homeable, want = self._grow(free)
            if len(grown_known) > 50_000:
                grown_known.clear()
            grown_known[start] = (
                tuple([r.reach for r in reaches]), tuple([r.done for r in reaches]), homeable,
                want,
            )  # fmt: skip
            for r in reaches:
                r.reach0 = r.reach
                r.done0 = r.done
        else:
            reach_at, done_at, homeable, want = first
            for i in range(count):
                r = reaches[i]
                r.reach0 = reach_at[i]
                r.done0 = done_at[i]
        return free, once, twice, homeable, want

    def _unit(
        self,
        pile: tuple[int, ...],
        top: int,
        units: tuple[int, ...],
        wholes: tuple[int, ...],
        least: int,
        loops: int,
        anywhere: int,
        once: int,
        twice: int,
    ) -> int:
        """The lowest card of a group that could move off a pile together with the card at
        ``top`` (the highest left) and those between, onto some place: its index, or -1.
        ``units``, ``wholes``: for each face, the faces that may lie on it in a group that
        moves (a run, face-up cards), and in a whole pile that moves ((): none)."""
        face_of = FACE
        hidden_stays = self.hidden_stays
        if units:
            upper = face_of[pile[top]]
            m = top
            while m > 0:
                lower = pile[m - 1]
                if hidden_stays and lower & DOWN:
                    break
                face = face_of[lower]
                if not units[face] >> upper & 1:
                    break
                m -= 1
                bit = 1 << face
                own = m + 1 >= least and loops & bit != 0
                if (anywhere | (twice if own else once)) & bit:
                    return m
                upper = face
        if wholes and top > 0:
            upper = face_of[pile[top]]
            for m in range(top, 0, -1):
                lower = pile[m - 1]
                if hidden_stays and lower & DOWN:
                    return -1
                face = face_of[lower]
                if not wholes[face] >> upper & 1:
                    return -1
                upper = face
            bit = 1 << upper
            own = least <= 1 and loops & bit != 0
            if (anywhere | (twice if own else once)) & bit:
                return 0
        return -1

    def dead(self, state: State) -> bool:
        piles = state.piles
        face_of = FACE
        moved_takes = self.moved_takes
        # What the other piles and the foundations give is worked out again only when one of
        # them is not the same tuple as at the last call (a move seldom changes them).
        held = tuple([piles[p] for p in self.held])
        last = self.start_held
        if last is None or not same_piles(last, held):
            self.start = self._start(piles)
            self.start_held = held
        start = self.start
        # Bit sets of faces, as machine ints in compiled code (see ``Start``).
        free: i64 = start[0]
        once: i64 = start[1]
        twice: i64 = start[2]
        homeable: i64 = start[3]
        want: i64 = start[4]
        # Each foundation's reach: the faces it could take at some time, as far as is known;
        # and what has passed it: those that a free card could bring there, so that the
        # foundation grows past them.
        for r in self.reaches:
            r.reach = r.reach0
            r.done = r.done0
        anywhere: i64 = self.blind_bits  # faces some empty pile could take
        # A bit is shifted from this, not from a literal 1, which compiled code shifts as a C
        # int of 32 bits (a face above 30 would get no bit); a local set to 1 is folded too.
        one = self.one
        # the piles not yet emptied, the first ``count`` of ``active``; on each, how many cards
        # from the top could leave
        active = list(self.columns)
        count: i64 = len(active)
        # The faces of cards that could only go home, waiting for a place: one such card at
        # least, two at least (a second card of a face gives the places it makes twice);
        # ``mine_*`` for cards that need two places (see ``own``).
        wait_one: i64 = 0
        wait_two: i64 = 0
        mine_one: i64 = 0
        mine_two: i64 = 0
        first = True  # the first pass: every pile's top card is reached for the first time
        changed = True
        while changed:
            changed = False
            if free & want:
                homeable, want = self._grow(free)
            kept: i64 = 0
            for q in range(count):
                column = active[q]
                pile = piles[column.place]
                size: i64 = len(pile)
                # (not a conditional expression: compiled, it would box both sides)
                k: i64 = 0
                if not first:
                    k = column.gone
                least = column.least
                takes = column.takes
                loops = column.loops
                # A pile stopped at a card on an earlier pass: that card was reached then.
                fresh = first
                while k < size:
                    i: i64 = size - 1 - k
                    face: i64 = face_of[pile[i]]
                    bit = one << face
                    mine = i + 1 >= least
                    if fresh:
                        free |= bit
                        changed = True
                        if mine:
                            gives: i64 = takes[face]
                            twice |= once & gives
                            once |= gives
                    own = mine and loops & bit != 0
                    if (anywhere | (twice if own else once)) & bit:
                        gives = moved_takes[face]
                        twice |= once & gives
                        once |= gives
                    elif homeable & bit:
                        if own:
                            mine_two |= mine_one & bit
                            mine_one |= bit
                        else:
                            wait_two |= wait_one & bit
                            wait_one |= bit
                    else:
                        units = column.joins
                        wholes = column.whole
                        if not units and not wholes:
                            break
                        low = self._unit(
                            pile, i, units, wholes, least, loops, anywhere, once, twice
                        )
                        if low < 0:
                            break
                        # The group from ``low`` up leaves together: its cards lie on a place
                        # now, and may be on top there some time.
                        for m in range(low, i + 1):
                            moved: i64 = face_of[pile[m]]
                            free |= one << moved
                            gives = moved_takes[moved]
                            twice |= once & gives
                            once |= gives
                        k = size - 1 - low
                    k += 1
                    fresh = True
                    changed = True
                column.gone = k
                if k < size:
                    active[kept] = column
                    kept += 1
                elif column.empty & ~anywhere:
                    anywhere |= column.empty
                    if anywhere == EVERY_FACE:
                        return False  # every card left can go to some emptied pile
                    changed = True
            if not kept:
                return False  # every card of these piles could leave: no proof
            count = kept
            first = False
            if wait_one | mine_one:
                # The waiting cards that have a place now leave, each giving its places (a
                # face that waits twice gives them twice).
                ready: i64 = wait_one & (anywhere | once)
                ready_mine: i64 = mine_one & (anywhere | twice)
                if ready | ready_mine:
                    changed = True
                    wait_one &= ~ready
                    mine_one &= ~ready_mine
                    for pending, doubled in ((ready, wait_two), (ready_mine, mine_two)):
                        while pending:
                            low = pending & -pending
                            pending ^= low
                            gives = moved_takes[int(low).bit_length() - 1]
                            if doubled & low:
                                twice |= gives
                            else:
                                twice |= once & gives
                            once |= gives
                    wait_two &= ~ready
                    mine_two &= ~ready_mine
        return True


def _fed_by_its_rule(game: Game, pile: int) -> bool:
    """Whether every card ``pile`` is given comes by a move of one card, checked by its accept
    rule (not a chain, a whole run removed at once, a deal)."""
    layout = game.layout
    return all(
        isinstance(e, Move) and (e.mode == "top" or pile in e.one_at_a_time)
        for e in game.effects.values()
        if pile in layout.resolve(e.spec.gives_to())
    )


def _won_by_foundations(game: Game) -> bool:
    """Whether every way to win asks that the foundations hold every card."""
    spec = game.spec
    total = len(game.cards)
    foundation_names = {game.layout.names[f] for f in game.foundations}
    groups = {n for n, g in spec.piles.items() if g.role == "foundation"}
    wins = [t for t in game.flow.transitions if game.outcomes.get(t.dest) == "won"]
    if not wins:
        return False
    for t in wins:
        ok = False
        for name, _ in t.conditions:
            condition = spec.conditions[name]
            piles = getattr(condition, "piles", None)
            if getattr(condition, "test", None) == "holds_all_cards" and piles:
                ok |= set(piles) <= groups | foundation_names
            least = getattr(condition, "at_least", None)
            if getattr(condition, "test", None) == "count" and piles and least == total:
                ok |= set(piles) <= groups | foundation_names
        if not ok:
            return False
    return True


def _walks(counts: list[int], start: int, end: int, wrap: bool) -> bool:
    """Whether a walk from rank ``start`` to rank ``end`` over neighbouring ranks (a ring of
    thirteen when ``wrap``) can arrive at each rank r exactly ``counts[r]`` times (see
    ``rank_walk_test``). ``cross[r]``: the crossings between ranks r and r + 1."""
    # Each rank's crossings in all: twice its arrivals, one more at the start, one less at
    # the end.
    degree = [2 * c for c in counts]
    degree[start] += 1
    degree[end] -= 1
    cross = [0] * 13
    if wrap:
        # With an odd number of ranks on the ring, the alternating sum of the degrees is twice
        # the crossings between the last rank and the first.
        alternating = 0
        for r in range(13):
            alternating += degree[r] if r % 2 == 0 else -degree[r]
        if alternating < 0:  # (never odd: the degrees add up to an even number)
            return False
        previous = cross[12] = alternating // 2
        for r in range(12):
            previous = cross[r] = degree[r] - previous
            if previous < 0:
                return False
        if cross[11] + cross[12] != degree[12]:
            return False
    else:
        previous = 0
        for r in range(12):
            previous = cross[r] = degree[r] - previous
            if previous < 0:
                return False
        if previous != degree[12]:
            return False
    # Joined: every rank with cards left is reached from the start over crossings used.
    reached = [False] * 13
    reached[start] = True
    todo = [start]
    while todo:
        r = todo.pop()
        up = r + 1 if r < 12 else 0 if wrap else -1
        if up >= 0 and cross[r] and not reached[up]:
            reached[up] = True
            todo.append(up)
        down = r - 1 if r > 0 else 12 if wrap else -1
        if down >= 0 and cross[down] and not reached[down]:
            reached[down] = True
            todo.append(down)
    return all(reached[r] or not counts[r] for r in range(13))
