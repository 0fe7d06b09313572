"""The records of a rule file: what a game says once its YAML has been read and checked.

The fixed parts of every game are here: identity, pile groups, what piles accept, the flow, the
score and the display. The named entries of the vocabulary (deal steps, effects, tests) are
subclasses of ``DealStepSpec``, ``ActionSpec`` and ``ConditionSpec`` that the engine defines
next to their implementations; a ``Vocabulary`` tells the validator which exist.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import field
from typing import Annotated, ClassVar, Literal

from .spec import (
    MAX_CARDS,
    MAX_DECKS,
    MAX_NAME,
    MAX_PILES,
    CardName,
    Doc,
    Entries,
    Ge,
    Le,
    MaxLen,
    MinLen,
    Name,
    Names,
    Pattern,
    PileName,
    PileRef,
    PileRefs,
    Rank,
    Ranks,
    Record,
    Size,
    Text,
    config,
    record,
)

# A problem an entry finds in itself: the key path below the entry, and the message.
Problem = tuple[tuple[str | int, ...], str]
Family = Literal[
    "clock",
    "freecell",
    "klondike",
    "spider",
    "yukon",
    "forty-thieves",
    "gypsy",
    "canfield",
    "bakers-dozen",
    "beleaguered-castle",
    "raglan",
    "fan",
    "golf",
    "pairing",
    "montana",
    "other",
]
"""The families of the catalogue (``solitaire list``, docs/games.md); their titles are
``rules.catalog.FAMILY_TITLES``."""
Face = Annotated[Literal["up", "down"], Doc("Whether the cards lie face up or face down.")]
Short = Annotated[str, MaxLen(MAX_NAME)]
# Commands every game has (and their short forms); the player's program implements them.
RESERVED_COMMANDS: dict[str, str] = {
    **{name: name for name in (
        "undo", "redo", "hint", "moves", "board", "rules", "help", "save", "restart", "new",
        "quit", "exit", "auto",
    )},
    "u": "undo", "h": "hint", "m": "moves", "b": "board", "?": "help", "q": "quit",
}  # fmt: skip
MAX_STATES = 40
MAX_TRANSITIONS = 200
MAX_ENTRIES = 60


# --- piles ---------------------------------------------------------------------------------


Step = Annotated[int, Ge(1), Le(12)]
Steps = Annotated[
    Step | Annotated[tuple[Step, ...], MinLen(1), MaxLen(MAX_PILES)],
    Doc("A step of 1..12 ranks, or a list with one step for each pile of the group."),
]


@record
class Relation(Record):
    """How a card relates to the card it is built on: by rank and by suit."""

    build: Annotated[str, Names("builds")] = "any"
    """How the new card's rank relates to the other card's."""
    suit: Annotated[str, Names("suits")] = "any"
    """How the new card's suit relates to the other card's."""
    step: Steps = 1
    """How many ranks one step of 'up' or 'down' goes (a list: one per pile of the group)."""
    wrap: bool = False
    """Steps wrap round: K then A going up, A then K going down."""


@record
class BesideSpec(Record):
    """A card is accepted only while another pile shows a card related to it."""

    piles: PileRefs
    """The piles whose top cards are looked at."""
    relation: Relation
    """How a top card there must relate to the card accepted (e.g. higher, same suit)."""


@record
class Follows(Record):
    """A card is accepted only when it follows the card its neighbour in the grid shows."""

    side: Literal["left", "right", "above", "below"]
    """Where the neighbour lies in the group's grid."""
    relation: Relation
    """How the card accepted follows the neighbour's top card (build: up, suit: same: the
    next rank of the neighbour's suit)."""
    edge: (
        Rank | CardName | Annotated[tuple[Rank | CardName, ...], MinLen(1), MaxLen(MAX_PILES)]
    ) | None = None
    """What a pile with no neighbour on that side accepts: a rank or a card (a list: one
    for each row, or for each column with above and below); absent: nothing. A neighbour
    that is empty or face down lets nothing in."""


@record
class RankIn(Record):
    """A card is accepted only when a card of its rank lies somewhere in another pile: each
    pile of the group names its own (its neighbour), or none."""

    piles: Annotated[tuple[PileName | None, ...], MinLen(1), MaxLen(MAX_PILES)]
    """For each pile of the group, in order of names, the pile looked at (null: none, and no
    such condition for that pile)."""
    empty: Literal["first", "any"] = "first"
    """What an empty pile takes: only the rank of the first card of the pile looked at
    (nothing while that pile is empty), or any rank it holds."""


@record
class RankOf(Record):
    """The rank of the first card of another pile or group: the bottom card of its first pile
    that holds cards (a rank the deal decides, such as the foundations' starting rank), or a
    rank counted from it."""

    rank_of: PileRef
    """The pile or pile group looked at."""
    offset: Annotated[int, Ge(-12), Le(12)] = 0
    """So many ranks above (+) or below (-) that rank, round the thirteen ranks (-1: one below
    the base, a King below an Ace)."""


SuitName = Annotated[Literal["C", "D", "H", "S"], Doc("A suit: C, D, H or S.")]
# What an empty pile takes, one kind of card: a rank, one card, or a suit.
OneKind = Rank | CardName | SuitName
Takes = Annotated[
    OneKind | Annotated[tuple[OneKind, ...], MinLen(1), MaxLen(MAX_PILES)],
    Doc(
        "A rank (A 2..10 J Q K), a card (AC) or a suit (C D H S), or a list of them: one for "
        "each pile of the group."
    ),
]


@record
class Accepts(Record):
    """What a pile accepts on its top card, or when it is empty."""

    rank: Ranks | None = None
    """Only cards of this rank (a list: one rank for each pile of the group)."""
    build: Annotated[str, Names("builds")] = "any"
    """How the new card's rank relates to the top card's."""
    suit: Annotated[str, Names("suits")] = "any"
    """How the new card's suit relates to the top card's."""
    step: Steps = 1
    """How many ranks one step of 'up' or 'down' goes (a list: one per pile of the group)."""
    wrap: bool = False
    """Building wraps round: K then A going up, A then K going down."""
    aces_high: bool = False
    """Aces rank above Kings when ranks are compared ('higher', 'lower')."""
    any_of: Annotated[tuple[Relation, ...], MinLen(1), MaxLen(8)] | None = None
    """Instead of build and suit: the card may relate to the top card by any of these."""
    empty: Literal["any", "none", "group_rank"] | Takes | RankOf = "any"
    """What an empty pile accepts: any card, none, one rank, one card or one suit (a list: one
    per pile), 'group_rank': the rank of the first card of its group (the bottom card of the
    first pile of the group that has cards; any rank while all are empty), or rank_of: a rank
    another group's first card sets, or one counted from it (offset; any rank while that group
    is empty)."""
    min_cards: Size = 0
    """The pile accepts nothing while it holds fewer cards than this."""
    max_cards: Annotated[int, Ge(1), Le(MAX_CARDS)] | None = None
    """The pile holds at most this many cards (a cell: 1 unless given)."""
    complete_at: Ranks | RankOf | None = None
    """The pile is complete, and accepts nothing more, once its top card has this rank
    (a list: one rank for each pile of the group; rank_of: the rank of another group's first
    card, and nothing stops the pile while that group is empty)."""
    beside: BesideSpec | None = None
    """A card is accepted only while one of these piles shows a card related to it."""
    follows: Follows | None = None
    """A card is accepted only when it follows, by a relation, the top card of the pile next
    to this one on one side of the group's grid (the group needs 'arrangement: {grid: N}')."""
    rank_in: RankIn | None = None
    """A card is accepted only when a card of its rank lies anywhere in another pile, which
    each pile of the group names."""


@record
class Grid(Record):
    """Piles laid out in rows of equal length, each touching its eight neighbours."""

    grid: Annotated[int, Ge(1), Le(MAX_PILES)]
    """How many piles a row has."""


@record
class Covering(Record):
    """Piles that lie over others, in any arrangement: each pile of the group names the piles
    that cover it. A pile's cards cannot be taken, nor its face-down top card turned up, while
    a pile covering it holds a card."""

    covered_by: Annotated[
        tuple[Annotated[tuple[PileName, ...], MaxLen(8)], ...], MinLen(1), MaxLen(MAX_PILES)
    ]
    """For each pile of the group, in order of names, the piles that cover it ([] for none)."""


@record
class PileGroup(Record):
    """A named group of piles that share a role and rules."""

    role: Annotated[str, Names("roles")]
    """What the piles are for; decides how they are drawn and counted."""
    names: Annotated[tuple[Name, ...], MinLen(1), MaxLen(MAX_PILES)]
    """The pile names, as players type them (e.g. t1, f12, s)."""
    bases: tuple[CardName | Rank, ...] | None = None
    """A base card for each pile, in order of names; a 'bases' deal step puts the first
    occurrence of each in the deck order there. A rank alone (A, 2 ...) takes the first card
    of that rank."""
    accepts: Accepts | None = None
    """What the piles accept; absent: they accept nothing by a move."""
    arrangement: Literal["pyramid"] | Grid | Covering | None = None
    """How the piles lie: 'pyramid' (rows of 1, 2, 3 ... piles; each pile is covered by the
    two below it, and its cards cannot be taken while either holds a card), a grid
    (rows of so many piles; piles touch across sides and corners), or covered_by: the piles
    that cover each pile, in any arrangement."""


# --- the vocabulary's entries --------------------------------------------------------------


@record
class DealStepSpec(Record):
    """Base of deal steps: each subclass is one ``step:`` name of the vocabulary."""

    # True for a step that puts the pile groups' 'bases' cards in place.
    places_bases: ClassVar[bool] = False
    # False for a step that only rearranges cards already laid (it needs none left to deal).
    deals_cards: ClassVar[bool] = True

    def cards_dealt(self, game: GameSpec, left: int) -> int:
        """How many of the ``left`` cards still to deal this step deals (at most ``left``)."""
        raise NotImplementedError

    def problems(self, game: GameSpec, bases_placed: bool) -> Iterator[Problem]:
        """What is wrong with this step in this game, beyond its own keys' types."""
        return iter(())


@record
class ActionSpec(Record):
    """Base of actions: each subclass is one ``effect:`` name of the vocabulary."""

    # Pairs of fields (by name) that must not name the same pile: an effect that took cards
    # from and put cards on one pile at once would create or destroy cards.
    disjoint: ClassVar[tuple[tuple[str, str], ...]] = ()
    # True when every application strictly reduces a measure that no action of the game
    # increases again (cards turned face up for good): such an action cannot repeat forever.
    progresses: ClassVar[bool] = False
    # The field naming piles that this action fills, one card into each short pile (a gap),
    # and never takes from: each application fills a gap, so it repeats only as often as
    # something opens gaps there again (None: the action fills no gaps).
    fills: ClassVar[str | None] = None

    help: Text = ""
    """One line that tells the player what the action does."""
    keys: Annotated[tuple[Annotated[str, Pattern(r"^\S+$")], ...], MaxLen(8)] = ()
    """Short commands that also mean this action (e.g. 'd' for draw)."""
    automatic: bool = False
    """The engine plays this action by itself whenever it is legal, after every action and
    after the deal (turning up exposed cards, clearing finished runs); it takes no part in
    the flow's transitions."""

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        """What is wrong with this action in this game, beyond its own keys' types."""
        return iter(())

    def takes_from(self) -> tuple[str, ...]:
        """The piles (or groups) this action may take cards from."""
        return tuple(self._refs(*self.sources))

    def gives_to(self) -> tuple[str, ...]:
        """The piles (or groups) this action may put cards on."""
        return tuple(self._refs(*self.destinations))

    def puts_beneath(self) -> tuple[str, ...]:
        """The piles (or groups) this action may put cards beneath, so that their first card
        changes: all it puts cards on, unless it says it puts them on top (``on_top``)."""
        return () if self.on_top else self.gives_to()

    # The fields that name where cards come from and where they go, for the checks above.
    sources: ClassVar[tuple[str, ...]] = ()
    destinations: ClassVar[tuple[str, ...]] = ()
    # The fields whose piles are read in order (filling order, the first that accepts ...):
    # piles named there are not interchangeable for search.
    ordered: ClassVar[tuple[str, ...]] = ()
    # True when the action puts cards only on top of the piles it puts them on.
    on_top: ClassVar[bool] = False

    def ordered_fields(self) -> tuple[str, ...]:
        """The pile fields whose order matters in this action (see ``ordered``)."""
        return self.ordered

    def _refs(self, *fields: str) -> Iterator[str]:
        for name in fields:
            value = getattr(self, name, None)
            if isinstance(value, str):
                yield value
            elif isinstance(value, tuple):
                yield from (v for v in value if isinstance(v, str))


@record
class ConditionSpec(Record):
    """Base of conditions: each subclass is one ``test:`` name of the vocabulary."""

    # True when the test needs the player's legal actions: it may be tried only by the
    # engine ('auto' transitions), never as a condition of a player's action.
    reads_legal_actions: ClassVar[bool] = False

    describe: Text = ""
    """The condition in words, used when an action is refused."""

    def problems(self, game: GameSpec) -> Iterator[Problem]:
        """What is wrong with this condition in this game, beyond its own keys' types."""
        return iter(())

    def relations_read(self) -> tuple[Relation, ...] | None:
        """The relations between cards by which this test reads them, besides their ranks and
        places; None when it reads cards in some other way (then no two faces of a rank are
        taken to play alike in the position keys)."""
        return None


# --- flow ----------------------------------------------------------------------------------


@record
class StateSpec(Record):
    """A phase of the game."""

    outcome: Literal["won", "lost"] | None = None
    """Makes the state terminal: the game ends here, won or lost."""
    autoplay: bool = False
    """In this state the engine plays the player's only legal action by itself."""
    help: Text = ""
    """What the player is doing in this phase."""


@record
class TransitionSpec(Record):
    """A move of the phase machine from one state to another."""

    trigger: Name
    """An action's name, or 'auto': tried after every action, in order."""
    source: Short | Annotated[tuple[Short, ...], MinLen(1), MaxLen(MAX_STATES)]
    """The state(s) it leaves; '*' for every non-terminal state."""
    dest: Short
    """The state it enters."""
    conditions: Annotated[tuple[Short, ...], MaxLen(MAX_ENTRIES)] = ()
    """Names of conditions that must all hold."""
    unless: Annotated[tuple[Short, ...], MaxLen(MAX_ENTRIES)] = ()
    """Names of conditions that must not hold."""


@record
class Flow(Record):
    """The phase machine: states, the initial state and the transitions."""

    initial: Short
    """The state a game starts in, after the deal."""
    states: Annotated[dict[Name, StateSpec], MaxLen(MAX_STATES)]
    """Every phase of the game."""
    transitions: Annotated[tuple[TransitionSpec, ...], MinLen(1), MaxLen(MAX_TRANSITIONS)]
    """How the game moves between states; for one trigger and state, the first transition
    whose conditions hold is taken."""


@record
class Score(Record):
    """The progress count shown to the player and reported by stats."""

    label: Text = "cards placed"
    """What the count is called on screen."""
    count: Literal["face_up", "cards", "in_place"] = "cards"
    """Count face-up cards, all cards, or the cards in place: in each row of a grid group,
    those from the row's first place on that its rule accepts where they lie ('follows')."""
    piles: PileRefs | None = None
    """Where to count; absent: the foundations (every pile in a game without foundations).
    With 'count: in_place', one pile group that lies in a grid."""


# --- presentation --------------------------------------------------------------------------


@record
class GroupDisplay(Record):
    """How one pile group is drawn (presentation only: no rule reads it)."""

    label: Text | None = None
    """How the group is titled on screen."""
    hours: tuple[Annotated[int, Ge(1), Le(12)], ...] | None = None
    """For a clock layout: the hour (1..12) of each pile, in order of names."""
    position: Literal["centre"] | None = None
    """For a clock layout: 'centre' draws these piles in the middle."""


@record
class Display(Record):
    """How the game is drawn on screen; presentation only, never rules."""

    layout: Literal["clock", "rows"] = "rows"
    """'clock' draws piles with hours round a clock face; 'rows' one pile per line."""
    groups: Annotated[dict[Name, GroupDisplay], MaxLen(MAX_PILES)] = field(default_factory=dict)
    """Per pile group: its label and, in a clock layout, its hours or place in the centre."""


# --- the game ------------------------------------------------------------------------------


@record
class GameSpec(Record):
    """One game: identity, piles, deal, actions, conditions, flow, score and display."""

    id: Annotated[str, Pattern(r"^[a-z0-9][a-z0-9-]*$")]
    """Short name used on the command line (e.g. my-game)."""
    name: Text
    """The game's display name."""
    extends: Text | None = None
    """Another rule file (a path relative to this one, or a game id) whose keys this file
    starts from and overrides."""
    aliases: Annotated[tuple[Short, ...], MaxLen(20)] = ()
    """Other names the game is known by."""
    description: Text = ""
    """One paragraph about the game."""
    family: Family = "other"
    """The family the catalogue lists the game under: games played alike share one; ``other``
    for a game of no family."""
    decks: Annotated[int, Ge(1), Le(MAX_DECKS)] = 1
    """How many decks are shuffled together."""
    suits: Annotated[tuple[Literal["C", "D", "H", "S"], ...], MinLen(1), MaxLen(4)] = (
        "C",
        "D",
        "H",
        "S",
    )
    """The suits of each deck (one suit: 13 cards a deck)."""
    remove: Annotated[tuple[CardName, ...], MaxLen(MAX_CARDS)] = ()
    """Cards taken out of the game before the deal (one copy each)."""
    piles: Annotated[dict[Name, PileGroup], MinLen(1), MaxLen(MAX_PILES)]
    """The pile groups, by group name."""
    deal: Annotated[
        tuple[Annotated[DealStepSpec, Entries("deal_steps", "step")], ...],
        MinLen(1),
        MaxLen(MAX_ENTRIES),
    ]
    """How the shuffled cards are laid out, step by step."""
    actions: Annotated[
        dict[Name, Annotated[ActionSpec, Entries("effects", "effect")]], MaxLen(MAX_ENTRIES)
    ]
    """The player's actions, by name."""
    conditions: Annotated[
        dict[Name, Annotated[ConditionSpec, Entries("tests", "test")]], MaxLen(MAX_ENTRIES)
    ] = field(default_factory=dict)
    """Named tests of the position, used by the flow."""
    flow: Flow
    """The phase machine."""
    score: Score = field(default_factory=Score)
    """The progress count shown and reported."""
    display: Display = field(default_factory=Display)
    """How the game is drawn; presentation only."""

    def grid_group(self, refs: tuple[str, ...] | None) -> str | None:
        """The one pile group ``refs`` names, when it lies in a grid (its rows can be read)."""
        if refs is None or len(refs) != 1 or refs[0] not in self.piles:
            return None
        return refs[0] if isinstance(self.piles[refs[0]].arrangement, Grid) else None


__all__ = [
    "MAX_CARDS",
    "Accepts",
    "ActionSpec",
    "ConditionSpec",
    "Covering",
    "DealStepSpec",
    "Display",
    "Face",
    "Family",
    "Flow",
    "Follows",
    "GameSpec",
    "GroupDisplay",
    "PileGroup",
    "RankIn",
    "RankOf",
    "Score",
    "StateSpec",
    "TransitionSpec",
    "config",
]
