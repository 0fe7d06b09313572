"""The building blocks of rule records: typed fields with their descriptions and checks.

Rule records are frozen standard dataclasses whose generated methods are made when first
called (``record``, ``rules.frozen``), cheap to import and to read back from the cache. Their fields
carry small markers (``Doc``, ``Pattern``, ``Card``, ``PILE``, the bounds ``Ge``, ``Le``,
``MinLen``, ``MaxLen`` ...) that mean nothing at run time;
pydantic reads them only when a rule file is validated (``rules.vocabulary``), and the JSON
Schema and the rule reference are generated from the same records. Nothing here imports
pydantic: playing a cached game never pays for it.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from typing import Annotated, Any, ClassVar, Final, TypeVar

from .frozen import frozen_record
from .notation import NotationError, parse_card, parse_rank

# Every number a rule file gives is bounded, so that no valid file can ask for unbounded work.
MAX_DECKS: Final = 8
MAX_CARDS: Final = 52 * MAX_DECKS
MAX_PILES: Final = 120  # piles in a group, groups in a file, entries in a list of piles
# What the engine's work grows with, bounded for the whole game (``checks.size``): piles in
# all, and pairs of piles an action may move between (summed over the actions). A game of the
# shipped ones has at most 52 piles and 2,704 pairs (Accordion).
MAX_ALL_PILES: Final = 3_000
MAX_PAIRS: Final = 20_000
MAX_NAME: Final = 40
MAX_TEXT: Final = 2000

if typing.TYPE_CHECKING:  # pragma: no cover
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
    from pydantic_core import CoreSchema


def config(**aliases: str) -> dict[str, Any]:
    """The validation settings of a record; ``aliases`` maps field names to YAML keys."""
    table = dict(aliases)
    return {
        "extra": "forbid",
        "strict": True,
        "alias_generator": functools.partial(_alias, table),
        "use_attribute_docstrings": True,
    }


def _alias(table: Mapping[str, str], name: str) -> str:
    return table.get(name, name)


T = TypeVar("T")


@typing.dataclass_transform(kw_only_default=True, frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """A frozen, keyword-only dataclass (its generated methods made when first called, see
    ``rules.frozen``): the form of every rule record."""
    return frozen_record(cls)


class Record:
    """Base of rule records: settings shared by all (unknown keys refused, strict types)."""

    __pydantic_config__: ClassVar[dict[str, Any]] = config()


# --- markers read by pydantic --------------------------------------------------------------


class Doc:
    """The description of a field, shown in the JSON Schema and the rule reference."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        out = dict(handler(schema))
        out["description"] = self.text
        return out


class _Bound:
    """A bound of a number (``Ge``, ``Le``) or of a length (``MinLen``, ``MaxLen``).

    Pydantic reads it as the marker of the same name of ``annotated_types``, which is imported
    only when a validator is built: a game's start does without it.
    """

    __slots__ = ("value",)
    kind: ClassVar[str] = ""

    def __init__(self, value: int) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Bound) and type(other) is type(self) and other.value == self.value

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.value))

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        import annotated_types

        return handler(Annotated[source, getattr(annotated_types, self.kind)(self.value)])


class Ge(_Bound):
    """At least ``value``."""

    kind = "Ge"


class Le(_Bound):
    """At most ``value``."""

    kind = "Le"


class MinLen(_Bound):
    """At least ``value`` items (or characters)."""

    kind = "MinLen"


class MaxLen(_Bound):
    """At most ``value`` items (or characters)."""

    kind = "MaxLen"


class Pattern:
    """A text field that must match a regular expression (names, ids)."""

    __slots__ = ("regex",)

    def __init__(self, regex: str) -> None:
        self.regex = regex

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.str_schema(pattern=self.regex, max_length=MAX_NAME, strict=True)


class _Converted:
    """A text (or number) field read through a function; ValueError gives the message."""

    kinds: ClassVar[tuple[str, ...]] = ("str",)
    json_type: ClassVar[dict[str, Any]] = {"type": "string"}

    def convert(self, value: Any) -> Any:
        raise NotImplementedError

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        inputs: list[Any] = []
        if "int" in self.kinds:
            inputs.append(core_schema.int_schema(strict=True))
        if "str" in self.kinds:
            inputs.append(core_schema.str_schema(strict=True, max_length=MAX_NAME))
        inner = inputs[0] if len(inputs) == 1 else core_schema.union_schema(inputs)
        return core_schema.no_info_after_validator_function(self.convert, inner)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return dict(self.json_type)


class _CardMarker(_Converted):
    json_type: ClassVar[dict[str, Any]] = {"type": "string"}

    def convert(self, value: Any) -> Any:
        try:
            rank, suit = parse_card(value)
        except NotationError as exc:
            raise ValueError(str(exc)) from None
        from .notation import card_name

        return card_name(rank, suit)


class _RankMarker(_Converted):
    kinds = ("int", "str")
    json_type: ClassVar[dict[str, Any]] = {
        "anyOf": [
            {"type": "integer", "minimum": 1, "maximum": 13},
            {"enum": ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]},
        ]
    }

    def convert(self, value: Any) -> Any:
        try:
            return parse_rank(value)
        except NotationError:
            raise ValueError(f"not a rank: {value!r} (expected A 2..10 J Q K, or 1..13)") from None


class _Marker:
    """A marker that only tags a field for the checks (pile references)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


class Entries:
    """A field whose value is one entry of a vocabulary, chosen by its tag key.

    The entries are those of the vocabulary being validated against (``rules.vocabulary``),
    so the rule language itself names no effect, test or deal step.
    """

    __slots__ = ("key", "kind")

    def __init__(self, kind: str, key: str) -> None:
        self.kind = kind
        self.key = key

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        classes: tuple[type, ...] = getattr(BUILDING.get(), self.kind)
        choices = {tag_of(c, self.key): handler.generate_schema(c) for c in classes}
        return core_schema.tagged_union_schema(choices, discriminator=self.key)


class Names:
    """A text field whose value is one name of a vocabulary list (build rules, roles ...)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        names: Mapping[str, str] = getattr(BUILDING.get(), self.kind)
        return core_schema.literal_schema(list(names))


# The vocabulary whose validator is being built (read by Entries and Names).
BUILDING: ContextVar[Any] = ContextVar("vocabulary_being_built")

CONDITION: Final = _Marker("CONDITION")  # the field names a condition of the game
PILE: Final = _Marker("PILE")  # the field names piles or pile groups
ONE_PILE: Final = _Marker("ONE_PILE")  # ... and must stand for exactly one pile
CARD: Final = _CardMarker()
RANK: Final = _RankMarker()

# --- field types ---------------------------------------------------------------------------

Name = Annotated[str, Pattern(r"^[a-z][a-z0-9_]*$")]
Text = Annotated[str, MaxLen(MAX_TEXT)]
CardName = Annotated[str, CARD, Doc("A card: rank (A 2..10 J Q K) then suit (C D H S), e.g. 10H.")]
Rank = Annotated[int, RANK, Doc("A rank: A 2..10 J Q K, or 1..13.")]
PileRef = Annotated[str, PILE, Doc("The name of a pile, or of a pile group (all of its piles).")]
PileName = Annotated[str, PILE, ONE_PILE, Doc("The name of one pile (or of a group of one).")]
PileRefs = Annotated[tuple[PileRef, ...], MinLen(1), MaxLen(MAX_PILES)]
ConditionName = Annotated[str, CONDITION, Doc("The name of one of the game's conditions.")]
Count = Annotated[int, Ge(1), Le(MAX_CARDS)]
Size = Annotated[int, Ge(0), Le(MAX_CARDS)]
Ranks = Annotated[
    Rank | tuple[Rank, ...],
    Doc("A rank (A 2..10 J Q K, or 1..13), or a list of ranks: one for each pile of the group."),
]


# --- walking records -----------------------------------------------------------------------


@functools.cache
def hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a record class, markers included."""
    return typing.get_type_hints(cls, include_extras=True)


def _marked(annotation: Any, marker: object) -> bool:
    if annotation is marker:
        return True
    if typing.get_origin(annotation) is Annotated and any(
        m is marker for m in annotation.__metadata__
    ):
        return True
    return any(_marked(arg, marker) for arg in typing.get_args(annotation))


@functools.cache
def field_has(cls: type, name: str, marker: object) -> bool:
    """Whether a field of a record class is tagged with ``marker`` (anywhere in its type)."""
    return _marked(hints(cls)[name], marker)


@functools.cache
def pile_fields(cls: type) -> tuple[str, ...]:
    """The fields of a record that name piles (alone or in lists)."""
    return tuple(f.name for f in dataclasses.fields(cls) if field_has(cls, f.name, PILE))


def yaml_key(cls: type, field: str) -> str:
    """The key a field is written with in a rule file."""
    conf = getattr(cls, "__pydantic_config__", {})
    alias: Callable[[str], str] | None = conf.get("alias_generator")
    return alias(field) if alias else field


PileMention = tuple[tuple[str | int, ...], str]


def pile_references(value: object, path: tuple[str | int, ...] = ()) -> Iterator[PileMention]:
    """Every pile or group name a record mentions, with its key path as written in YAML."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        marked = pile_fields(cls)
        for f in dataclasses.fields(cls):
            child = getattr(value, f.name)
            here = (*path, yaml_key(cls, f.name))
            if f.name in marked:
                if isinstance(child, str):
                    yield here, child
                elif isinstance(child, tuple):
                    for i, ref in enumerate(child):
                        if isinstance(ref, str):
                            yield (*here, i), ref
                        elif isinstance(ref, tuple):  # a list for each pile of a group
                            yield from (
                                ((*here, i, j), one)
                                for j, one in enumerate(ref)
                                if isinstance(one, str)
                            )
            else:
                yield from pile_references(child, here)
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from pile_references(child, (*path, key))
    elif isinstance(value, tuple):
        for i, child in enumerate(value):
            yield from pile_references(child, (*path, i))


def tag_of(cls: type, key: str) -> str:
    """The name a vocabulary entry is chosen by: the one value of its ``Literal`` tag field."""
    annotation = hints(cls)[key]
    while typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    (value,) = typing.get_args(annotation)
    return str(value)
