"""The typed, frozen record of one game: what a rule file says once it has been read.

Every name a rule file may use (a deal step, an effect, a test, a pile role) is one member of a
discriminated union or literal here; the engine implements exactly these names. The JSON Schema
published for editors is generated from these classes, so each field carries a description.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from .notation import NotationError, card_name, parse_card, parse_rank


def _card(value: str) -> str:
    try:
        return card_name(*parse_card(value))
    except NotationError as exc:
        raise ValueError(str(exc)) from None


def _rank_ref(value: str | int) -> str | int:
    if value == "hour":
        return value
    try:
        return parse_rank(value)
    except NotationError:
        raise ValueError(
            f"not a rank: {value!r} (expected A 2..10 J Q K, 1..13 or 'hour')"
        ) from None


CardName = Annotated[
    StrictStr,
    AfterValidator(_card),
    Field(description="A card: rank (A 2..10 J Q K) then suit (C D H S), e.g. 10H, QS."),
]
RankRef = Annotated[
    StrictInt | StrictStr,
    AfterValidator(_rank_ref),
    Field(description="A rank (A 2..10 J Q K, or 1..13), or 'hour': the rank of the pile's hour."),
]


class _PileName:
    """Marks a text field that names a pile or a pile group, so checks can find every one."""


PILE_NAME = _PileName()
PileRef = Annotated[
    StrictStr,
    PILE_NAME,
    Field(
        description="The name of a pile, or of a pile group (meaning all of its piles, in order)."
    ),
]
PileRefs = Annotated[tuple[PileRef, ...], Field(min_length=1)]
Face = Literal["up", "down"]
PileMention = tuple[tuple[str | int, ...], str]
Name = Annotated[StrictStr, Field(pattern=r"^[a-z][a-z0-9_]*$")]


class Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --- piles ---------------------------------------------------------------------------------


class Accepts(Spec):
    """What a pile accepts onto its top (by a move) or, for a chain, as its home."""

    rank: RankRef | None = Field(
        None, description="Only cards of this rank ('hour': the pile's hour, 1..12 = A..Q)."
    )
    build: Literal["up", "down", "same", "any", "none"] = Field(
        "any",
        description="Rank of the new card relative to the top card: one higher, one lower, "
        "equal, any, or nothing may be built.",
    )
    suit: Literal["same", "any", "different", "alternate"] = Field(
        "any",
        description="Suit of the new card relative to the top card: same suit, any suit, "
        "another suit, or the other colour.",
    )
    wrap: StrictBool = Field(
        False, description="Building wraps round: K then A going up, A then K going down."
    )
    empty: Literal["any", "none"] | RankRef = Field(
        "any", description="What an empty pile accepts: any card, none, or one rank."
    )
    min_cards: Annotated[StrictInt, Field(ge=0)] = Field(
        0, description="The pile accepts nothing while it holds fewer cards than this."
    )
    complete_at: RankRef | None = Field(
        None,
        description="The pile is complete, and accepts nothing more, once its top card "
        "has this rank ('hour': the rank of its hour).",
    )


class PileGroup(Spec):
    """A named group of piles that share a role and rules."""

    role: Literal["foundation", "tableau", "stock", "waste", "reserve", "cell"] = Field(
        description="What the piles are for; decides how they are drawn and counted."
    )
    names: Annotated[tuple[Name, ...], Field(min_length=1)] = Field(
        description="The pile names, as players type them (e.g. t1, f12, s)."
    )
    label: StrictStr | None = Field(None, description="How the group is titled on screen.")
    hours: tuple[Annotated[StrictInt, Field(ge=1, le=12)], ...] | None = Field(
        None, description="For a clock layout: the hour (1..12) of each pile, in order of names."
    )
    position: Literal["centre"] | None = Field(
        None, description="For a clock layout: 'centre' draws these piles in the middle."
    )
    bases: tuple[CardName, ...] | None = Field(
        None,
        description="A base card for each pile, in order of names; a 'bases' deal step "
        "puts the first occurrence of each in the deck order there.",
    )
    accepts: Accepts | None = Field(
        None, description="What the piles accept; absent: they accept nothing by a move."
    )


# --- deal ----------------------------------------------------------------------------------


class DealBases(Spec):
    """Take each pile's base card out of the deck order (its first occurrence) onto the pile."""

    step: Literal["bases"] = Field(description="This step's kind.")
    face: Face = Field("up", description="Whether the base cards lie face up or down.")


class DealRoundRobin(Spec):
    """Deal one card to each pile in turn, in the order listed, for a number of passes."""

    step: Literal["round_robin"] = Field(description="This step's kind.")
    piles: PileRefs = Field(description="The piles, in dealing order.")
    passes: Annotated[StrictInt, Field(ge=1)] | None = Field(
        None, description="How many passes; absent: until the cards run out."
    )
    face: Face = Field("down", description="Whether the dealt cards lie face up or down.")


class DealRest(Spec):
    """All remaining cards go to one pile; the next card in deck order ends on top."""

    step: Literal["rest"] = Field(description="This step's kind.")
    pile: PileRef = Field(description="The pile that receives the remaining cards.")
    face: Face = Field("down", description="Whether the cards lie face up or down.")


DealStep = Annotated[DealBases | DealRoundRobin | DealRest, Field(discriminator="step")]


# --- actions -------------------------------------------------------------------------------


class ActionBase(Spec):
    help: StrictStr = Field("", description="One line that tells the player what the action does.")
    keys: tuple[StrictStr, ...] = Field(
        (), description="Short commands that also mean this action (e.g. 'd' for draw)."
    )


class MoveTop(ActionBase):
    """The player moves the top card of one pile onto another that accepts it."""

    effect: Literal["move_top"] = Field(description="The effect this action has.")
    source: PileRefs = Field(alias="from", description="Piles whose top card may be moved.")
    target: PileRefs = Field(alias="to", description="Piles the card may be moved onto.")


class Chain(ActionBase):
    """Turn the top face-down card of a pile, place it on its home pile, and go on from there.

    The home of a card is the first of the ``to`` piles that accepts it. The chain stops when
    the pile it must turn from has no face-down card on top.
    """

    effect: Literal["chain"] = Field(description="The effect this action has.")
    start: PileRef = Field(description="The pile the first card is turned from.")
    target: PileRefs = Field(alias="to", description="The piles cards are placed on.")
    place: Literal["bottom", "top"] = Field(
        "bottom", description="Where a placed card goes: under the pile's cards, or on top."
    )


class FillGaps(ActionBase):
    """Deal from a pile, one card per short pile in the order listed, until none is short."""

    effect: Literal["fill_gaps"] = Field(description="The effect this action has.")
    piles: PileRefs = Field(description="The piles to fill, in filling order.")
    size: Annotated[StrictInt, Field(ge=1)] = Field(description="A pile is short below this size.")
    source: PileRef = Field(alias="from", description="The pile the cards are dealt from.")
    face: Face = Field("up", description="Whether the dealt cards lie face up or down.")


class Deal(ActionBase):
    """Move cards from the top of one pile onto another (for example stock to waste)."""

    effect: Literal["deal"] = Field(description="The effect this action has.")
    source: PileRef = Field(alias="from", description="The pile cards are taken from.")
    target: PileRef = Field(alias="to", description="The pile cards are put on.")
    count: Annotated[StrictInt, Field(ge=1)] = Field(1, description="How many cards at most.")
    face: Face = Field("up", description="Whether the moved cards lie face up or down.")


class Exchange(ActionBase):
    """The player picks a pile; its top face-down card changes places with a card of another.

    The picked card goes face down onto the top of the ``with`` pile (so a chain starting there
    turns it next); the card taken from the ``with`` pile goes face down where the picked card was.
    """

    effect: Literal["exchange"] = Field(description="The effect this action has.")
    pick: PileRefs = Field(description="Piles the player may pick; the pile needs a face-down top.")
    partner: PileRef = Field(alias="with", description="The pile the picked card goes to.")
    take: Literal["bottom", "top"] = Field(
        "bottom", description="Which card of the 'with' pile goes back in the picked card's place."
    )


ActionSpec = Annotated[MoveTop | Chain | FillGaps | Deal | Exchange, Field(discriminator="effect")]


# --- conditions ----------------------------------------------------------------------------


class TestBase(Spec):
    describe: StrictStr = Field(
        "", description="The condition in words, used when an action is refused."
    )


class NotEmpty(TestBase):
    """True when some listed pile holds a card."""

    test: Literal["not_empty"] = Field(description="The test this condition makes.")
    piles: PileRefs = Field(description="The piles looked at.")


class FaceDown(TestBase):
    """True when some listed pile (all piles when absent) holds a face-down card."""

    test: Literal["face_down"] = Field(description="The test this condition makes.")
    piles: PileRefs | None = Field(None, description="The piles looked at; absent: all.")


class ShortPile(TestBase):
    """True when some listed pile holds fewer cards than ``size``."""

    test: Literal["short_pile"] = Field(description="The test this condition makes.")
    piles: PileRefs = Field(description="The piles looked at.")
    size: Annotated[StrictInt, Field(ge=1)] = Field(description="A pile below this size is short.")


class HoldsAllCards(TestBase):
    """True when the listed piles together hold every card of the game."""

    test: Literal["holds_all_cards"] = Field(description="The test this condition makes.")
    piles: PileRefs = Field(description="The piles looked at.")


class NoLegalAction(TestBase):
    """True when the player has no legal action in the current phase."""

    test: Literal["no_legal_action"] = Field(description="The test this condition makes.")


ConditionSpec = Annotated[
    NotEmpty | FaceDown | ShortPile | HoldsAllCards | NoLegalAction,
    Field(discriminator="test"),
]


# --- flow ----------------------------------------------------------------------------------


class StateSpec(Spec):
    """A phase of the game."""

    outcome: Literal["won", "lost"] | None = Field(
        None, description="Makes the state terminal: the game ends here, won or lost."
    )
    autoplay: StrictBool = Field(
        False,
        description="In this state the engine plays the player's only legal action by itself.",
    )
    help: StrictStr = Field("", description="What the player is doing in this phase.")


class TransitionSpec(Spec):
    """A move of the phase machine from one state to another."""

    trigger: Name = Field(
        description="An action's name, or 'auto': tried after every action, in order."
    )
    source: StrictStr | tuple[StrictStr, ...] = Field(
        description="The state(s) it leaves; '*' for every non-terminal state."
    )
    dest: StrictStr = Field(description="The state it enters.")
    conditions: tuple[StrictStr, ...] = Field(
        (), description="Names of conditions that must all hold."
    )
    unless: tuple[StrictStr, ...] = Field((), description="Names of conditions that must not hold.")


class Flow(Spec):
    """The phase machine: states, the initial state and the transitions."""

    initial: StrictStr = Field(description="The state a game starts in, after the deal.")
    states: dict[Name, StateSpec] = Field(description="Every phase of the game.")
    transitions: Annotated[tuple[TransitionSpec, ...], Field(min_length=1)] = Field(
        description="How the game moves between states; for one trigger and state, the first "
        "transition whose conditions hold is taken."
    )


class Score(Spec):
    """The progress count shown to the player and reported by stats."""

    label: StrictStr = Field("cards placed", description="What the count is called on screen.")
    count: Literal["face_up", "cards"] = Field(
        "cards", description="Count face-up cards, or all cards."
    )
    piles: PileRefs | None = Field(None, description="Where to count; absent: every pile.")


class GameSpec(Spec):
    """One game: identity, piles, deal, actions, conditions, flow and score."""

    id: Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")] = Field(
        description="Short name used on the command line (e.g. my-game)."
    )
    name: StrictStr = Field(description="The game's display name.")
    extends: StrictStr | None = Field(
        None,
        description="Another rule file (a path relative to this one, or a game id) "
        "whose keys this file starts from and overrides.",
    )
    aliases: tuple[StrictStr, ...] = Field((), description="Other names the game is known by.")
    description: StrictStr = Field("", description="One paragraph about the game.")
    decks: Annotated[StrictInt, Field(ge=1, le=8)] = Field(
        1, description="How many 52-card decks are shuffled together."
    )
    remove: tuple[CardName, ...] = Field(
        (), description="Cards taken out of the game before the deal (one copy each)."
    )
    layout: Literal["clock", "rows"] = Field(
        "rows", description="'clock' draws piles with hours round a clock face."
    )
    piles: dict[Name, PileGroup] = Field(description="The pile groups, by group name.")
    deal: Annotated[tuple[DealStep, ...], Field(min_length=1)] = Field(
        description="How the shuffled cards are laid out, step by step."
    )
    actions: dict[Name, ActionSpec] = Field(description="The player's actions, by name.")
    conditions: dict[Name, ConditionSpec] = Field(
        {}, description="Named tests of the position, used by the flow."
    )
    flow: Flow = Field(description="The phase machine.")
    score: Score = Field(Score(), description="The progress count shown and reported.")


# --- walking a spec ------------------------------------------------------------------------


def _names_piles(annotation: object) -> bool:
    if annotation is PILE_NAME:
        return True
    return any(_names_piles(arg) for arg in get_args(annotation))


def pile_references(spec: BaseModel, path: tuple[str | int, ...] = ()) -> Iterator[PileMention]:
    """Every pile or group name a spec mentions, with its key path as written in YAML."""
    for name, field in type(spec).model_fields.items():
        value = getattr(spec, name)
        here = (*path, field.alias or name)
        if _names_piles(field.annotation) or PILE_NAME in field.metadata:
            if isinstance(value, str):
                yield here, value
            elif isinstance(value, tuple):
                yield from (((*here, i), ref) for i, ref in enumerate(value))
        elif isinstance(value, BaseModel):
            yield from pile_references(value, here)
        elif isinstance(value, dict | tuple):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                if isinstance(child, BaseModel):
                    yield from pile_references(child, (*here, key))
