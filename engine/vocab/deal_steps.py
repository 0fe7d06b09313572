"""Deal steps: how the shuffled cards are laid out. One entry per ``step:`` name.

A step either lays cards by their place in the deck order (``lay``: the same piles for every
deal, so the deal is compiled once into index lookups), picks cards by what they are (``take``:
the pile groups' base cards), or rearranges the dealt piles by what their cards are
(``rearrange``); the last two are done for each deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Generic, Literal, TypeVar

from ...rules.model import DealStepSpec, Face, GameSpec, Problem
from ...rules.notation import parse_card
from ...rules.spec import MAX_PILES, Count, MaxLen, MinLen, PileName, PileRefs, Rank, Size, record
from ..core.cards import DOWN, FACE, MASK, RANK, face_of
from ..core.layout import Layout
from .registry import Registry

S = TypeVar("S", bound=DealStepSpec)


def _count(game: GameSpec, refs: tuple[str, ...]) -> int:
    return sum(len(game.piles[r].names) if r in game.piles else 1 for r in refs)


class DealStep(Generic[S]):
    """The implementation of one deal step of a game."""

    # How the step works: by position (``lay``), by taking cards out of the deck order before
    # the others (``take``), or by rearranging the dealt piles afterwards (``rearrange``).
    kind: ClassVar[Literal["lay", "take", "rearrange"]] = "lay"
    # For a step that rearranges: whether a pile that held cards before it still holds some
    # after it (a step that takes cards away need not).
    keeps_piles_filled: ClassVar[bool] = False

    def __init__(self, spec: S, layout: Layout) -> None:
        self.spec = spec
        self.layout = layout
        self.flag = DOWN if getattr(spec, "face", "up") == "down" else 0

    def lay(self, left: int) -> list[tuple[int, int]]:
        """(position among the ``left`` cards, pile) for each card, in the order laid."""
        raise NotImplementedError

    def take(self, order: list[int], piles: list[tuple[int, ...]]) -> None:
        """Take this step's cards out of ``order`` and put them on ``piles``."""
        raise NotImplementedError

    def rearrange(self, piles: list[tuple[int, ...]]) -> None:
        """Reorder the cards of the dealt ``piles`` in place."""
        raise NotImplementedError


DEAL_STEPS: Registry[DealStepSpec, type[DealStep[Any]]] = Registry("deal step")


@record
class BasesSpec(DealStepSpec):
    """Take each pile's base card out of the deck order (its first occurrence) onto the pile.

    Base cards are taken out before any other step deals, wherever this step is listed.
    """

    places_bases = True
    step: Literal["bases"]
    face: Face = "up"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return sum(len(g.bases or ()) for g in game.piles.values())

    def problems(self, game: GameSpec, bases_placed: bool) -> Iterator[Problem]:
        if bases_placed:
            yield (), "a second 'bases' step has nothing to do"
        elif not any(g.bases for g in game.piles.values()):
            yield (), "no pile group has 'bases' to deal"


@DEAL_STEPS.entry(BasesSpec)
class Bases(DealStep[BasesSpec]):
    kind = "take"

    def __init__(self, spec: BasesSpec, layout: Layout) -> None:
        super().__init__(spec, layout)
        # A base is a card (matched by face) or a rank alone (matched by rank).
        self.wanted = tuple(
            (pile, FACE, face_of(*parse_card(base)))
            if isinstance(base, str)
            else (pile, RANK, base)
            for pile, base in layout.bases.items()
        )

    def take(self, order: list[int], piles: list[tuple[int, ...]]) -> None:
        for pile, table, value in self.wanted:
            for k, card in enumerate(order):
                if table[card] == value:
                    piles[pile] += (order.pop(k) | self.flag,)
                    break


@record
class SameRankAsFirstSpec(DealStepSpec):
    """Take out of the deck order the other cards of the rank of the first card to be dealt
    (a card that sets the game's base rank), onto the listed piles, one a pile in order of
    the deck; the first card itself stays first, for the next step to lay.

    Like 'bases', this is done before any other step deals, wherever it is listed. Rules can
    then read the base rank from where the cards went ('empty: group_rank', 'rank_of').
    """

    step: Literal["same_rank_as_first"]
    to: PileRefs
    """The piles the other cards of that rank go to, one each, in this order."""
    face: Face = "up"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        copies = _copies_of_each_rank(game)
        return min(left, max(copies or 1, 1) - 1)

    def problems(self, game: GameSpec, bases_placed: bool) -> Iterator[Problem]:
        copies = _copies_of_each_rank(game)
        if copies is None:
            why = "'same_rank_as_first' needs every rank left in the game to have as many cards"
            yield (), why + ": remove all the cards of a rank, or none"
        elif _count(game, self.to) != copies - 1:
            yield (
                ("to",),
                f"{_count(game, self.to)} piles given for the {copies - 1} other cards of the "
                "first card's rank; give one pile for each",
            )


def _copies_of_each_rank(game: GameSpec) -> int | None:
    """How many cards each rank has (after 'remove'), when all have as many; else None."""
    counts = Counter(RANK[face_of(*parse_card(name))] for name in game.remove)
    per_rank = {game.decks * len(game.suits) - counts[rank] for rank in range(1, 14)}
    per_rank.discard(0)
    return per_rank.pop() if len(per_rank) == 1 else None


@DEAL_STEPS.entry(SameRankAsFirstSpec)
class SameRankAsFirst(DealStep[SameRankAsFirstSpec]):
    kind = "take"

    def __init__(self, spec: SameRankAsFirstSpec, layout: Layout) -> None:
        super().__init__(spec, layout)
        # One entry a card taken (the deal plan counts them): the piles, in order.
        self.wanted = layout.resolve(spec.to)

    def take(self, order: list[int], piles: list[tuple[int, ...]]) -> None:
        rank = RANK[order[0]]
        found = [k for k in range(1, len(order)) if RANK[order[k]] == rank]
        for pile, k in zip(self.wanted, found, strict=False):
            piles[pile] += (order[k] | self.flag,)
        for k in reversed(found[: len(self.wanted)]):
            del order[k]


@record
class RoundRobinSpec(DealStepSpec):
    """Deal one card to each pile in turn, in the order listed, pass after pass.

    With ``counts``, a pass skips the piles that already have their count from this step:
    counts of 0, 1, 2 ... 6 over seven piles deal a triangle row by row.
    """

    step: Literal["round_robin"]
    piles: PileRefs
    """The piles, in dealing order."""
    passes: Count | None = None
    """How many passes; absent: until the cards run out (or, with counts, the counts are met)."""
    counts: Annotated[tuple[Size, ...], MinLen(1), MaxLen(MAX_PILES)] | None = None
    """How many cards this step deals to each pile, in the order of 'piles'."""
    face: Face = "down"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        if self.counts is not None:
            return min(left, sum(self.counts))
        if self.passes is None:
            return left
        return min(left, self.passes * _count(game, self.piles))

    def problems(self, game: GameSpec, bases_placed: bool) -> Iterator[Problem]:
        if self.counts is not None:
            if self.passes is not None:
                yield ("passes",), "give 'passes' or 'counts', not both"
            if len(self.counts) != _count(game, self.piles):
                yield (
                    ("counts",),
                    (
                        f"{len(self.counts)} counts given for {_count(game, self.piles)} piles; "
                        "give one per pile"
                    ),
                )


@DEAL_STEPS.entry(RoundRobinSpec)
class RoundRobin(DealStep[RoundRobinSpec]):
    def lay(self, left: int) -> list[tuple[int, int]]:
        piles = self.layout.resolve(self.spec.piles)
        counts = self.spec.counts
        if counts is None:
            total = left if self.spec.passes is None else self.spec.passes * len(piles)
            return [(k, piles[k % len(piles)]) for k in range(min(left, total))]
        out: list[tuple[int, int]] = []
        for row in range(max(counts)):
            for pile, wanted in zip(piles, counts, strict=True):
                if row < wanted and len(out) < left:
                    out.append((len(out), pile))
        return out


@record
class RestSpec(DealStepSpec):
    """All remaining cards go to one pile; the next card in deck order ends on top."""

    step: Literal["rest"]
    pile: PileName
    """The pile that receives the remaining cards."""
    face: Face = "down"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return left


@DEAL_STEPS.entry(RestSpec)
class Rest(DealStep[RestSpec]):
    def lay(self, left: int) -> list[tuple[int, int]]:
        pile = self.layout.one(self.spec.pile)
        return [(k, pile) for k in reversed(range(left))]


@record
class SinkSpec(DealStepSpec):
    """Move the cards of one rank to the bottom of each listed pile, keeping the order of the
    rest (Baker's Dozen: Kings go under their piles)."""

    deals_cards = False
    step: Literal["sink"]
    piles: PileRefs
    """The piles rearranged."""
    rank: Rank
    """The rank whose cards go to the bottom."""

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return 0


@DEAL_STEPS.entry(SinkSpec)
class Sink(DealStep[SinkSpec]):
    kind = "rearrange"
    keeps_piles_filled = True

    def rearrange(self, piles: list[tuple[int, ...]]) -> None:
        rank = self.spec.rank
        for pile in self.layout.resolve(self.spec.piles):
            cards = piles[pile]
            piles[pile] = (
                *(c for c in cards if RANK[c] == rank),
                *(c for c in cards if RANK[c] != rank),
            )


@record
class SetAsideSpec(DealStepSpec):
    """Take the cards of one rank out of the listed piles, once the cards are laid, onto
    another pile: the places they leave stay empty (gaps that other cards may then fill)."""

    deals_cards = False
    step: Literal["set_aside"]
    piles: PileRefs
    """The piles the cards are taken from."""
    rank: Rank
    """The rank whose cards are taken out."""
    to: PileName
    """The pile they go to, in the order of the listed piles, face up."""

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return 0

    def problems(self, game: GameSpec, bases_placed: bool) -> Iterator[Problem]:
        for ref in self.piles:
            names = game.piles[ref].names if ref in game.piles else (ref,)
            if self.to in names or self.to == ref:
                yield ("to",), f"'{self.to}' is one of the piles the cards are taken from"
                return


@DEAL_STEPS.entry(SetAsideSpec)
class SetAside(DealStep[SetAsideSpec]):
    kind = "rearrange"

    def rearrange(self, piles: list[tuple[int, ...]]) -> None:
        rank, to = self.spec.rank, self.layout.one(self.spec.to)
        for pile in self.layout.resolve(self.spec.piles):
            cards = piles[pile]
            piles[to] += tuple(c & MASK for c in cards if RANK[c] == rank)
            piles[pile] = tuple(c for c in cards if RANK[c] != rank)


@record
class TurnSpec(DealStepSpec):
    """Turn every card of the listed piles face up (or face down), once the cards are laid:
    piles dealt like others but lying open, every card in sight."""

    deals_cards = False
    step: Literal["turn"]
    piles: PileRefs
    """The piles whose cards are turned."""
    face: Face = "up"

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        return 0


@DEAL_STEPS.entry(TurnSpec)
class Turn(DealStep[TurnSpec]):
    kind = "rearrange"
    keeps_piles_filled = True

    def rearrange(self, piles: list[tuple[int, ...]]) -> None:
        for pile in self.layout.resolve(self.spec.piles):
            piles[pile] = tuple((card & MASK) | self.flag for card in piles[pile])
