"""A vocabulary: the named entries a rule file may use, and the validator built from them.

The rule language fixes the shape of a game; the engine supplies the words (its registries of
deal steps, effects, tests, build and suit rules, pile roles). The validator, the JSON Schema
and the rule reference are all derived from one ``Vocabulary``, so none can drift from the others.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .model import ActionSpec, ConditionSpec, DealStepSpec, GameSpec
from .spec import BUILDING, tag_of

if TYPE_CHECKING:  # pragma: no cover
    from pydantic import TypeAdapter


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """Every name a rule file may use, by kind, in the order the reference lists them."""

    deal_steps: tuple[type[DealStepSpec], ...]
    effects: tuple[type[ActionSpec], ...]
    tests: tuple[type[ConditionSpec], ...]
    builds: Mapping[str, str] = field(default_factory=dict)  # name -> what it means
    suits: Mapping[str, str] = field(default_factory=dict)
    roles: Mapping[str, str] = field(default_factory=dict)

    # The key each kind of entry is chosen by in a rule file.
    TAGS: ClassVar[dict[str, str]] = {"deal_steps": "step", "effects": "effect", "tests": "test"}

    @cached_property
    def code_folders(self) -> tuple[Path, ...]:
        """The folders of the modules that define the entries (for cache keys)."""
        folders: dict[Path, None] = {}
        for cls in (*self.deal_steps, *self.effects, *self.tests):
            module = sys.modules.get(cls.__module__)
            file = getattr(module, "__file__", None)
            if file:
                folders[Path(file).resolve().parent] = None
        return tuple(folders)

    def tags(self, kind: str) -> list[str]:
        """The names of one kind of entry ('effects', 'tests', 'deal_steps')."""
        return [tag_of(cls, self.TAGS[kind]) for cls in getattr(self, kind)]

    def kind_of_tag(self, key: str) -> str | None:
        """The kind chosen by a tag key ('effect' -> 'effects')."""
        return next((kind for kind, tag in self.TAGS.items() if tag == key), None)

    @cached_property
    def adapter(self) -> TypeAdapter[GameSpec]:
        from pydantic import TypeAdapter

        token = BUILDING.set(self)
        try:
            return TypeAdapter(GameSpec)
        finally:
            BUILDING.reset(token)

    def validate(self, data: Any) -> GameSpec:
        """A GameSpec from plain data; pydantic's ValidationError when it does not fit.

        The data goes through JSON, whose strict mode reads lists as tuples but refuses
        every other coercion (a number where text is expected, 1.0 for 1, 'yes' for true).
        """
        return self.adapter.validate_json(json.dumps(data))

    @cached_property
    def json_schema(self) -> dict[str, Any]:
        return self.adapter.json_schema(by_alias=True)


class LazyVocabulary:
    """A vocabulary made when it is first needed (a rule file is validated, the entries are
    listed), not when it is handed over.

    The folders of its entries' modules are given beforehand: they key the cache of validated
    rule files, so that a cached game starts without importing the entries it does not use.
    """

    def __init__(self, code_folders: tuple[Path, ...], make: Callable[[], Vocabulary]) -> None:
        self.code_folders = code_folders
        self._make = make

    @cached_property
    def vocabulary(self) -> Vocabulary:
        made = self._make()
        outside = [str(f) for f in made.code_folders if f not in self.code_folders]
        if outside:  # the cache would miss changes there
            raise ValueError(f"vocabulary entries outside its code folders: {', '.join(outside)}")
        return made


def vocabulary_of(vocabulary: Vocabulary | LazyVocabulary) -> Vocabulary:
    """The vocabulary itself (made now, if it is a lazy one)."""
    return vocabulary.vocabulary if isinstance(vocabulary, LazyVocabulary) else vocabulary
