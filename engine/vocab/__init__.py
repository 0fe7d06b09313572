"""The engine's vocabulary: every word a rule file may use, one registry per kind.

- ``effects.EFFECTS``: what actions do (``effect:``), by spec class;
- ``conditions.TESTS``: tests of a position (``test:``), by spec class;
- ``deal_steps.DEAL_STEPS``: how cards are laid out (``step:``), by spec class;
- ``accepts.BUILDS`` and ``accepts.SUITS``: what piles accept (``build:``, ``suit:``);
- ``roles.ROLES``: what pile groups are for (``role:``).

``VOCABULARY`` hands all of them to the rule language, which derives its validator, the JSON
Schema and the rule reference from it. docs/vocabulary.md shows how to add an entry.

Nothing is imported here until it is asked for: a cached game imports only the entries its
rule file uses (``ENGINE_VOCABULARY`` names the folders of the entries' code for the cache without
importing them; ``VOCABULARY`` and the registries are made when first named).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...rules.vocabulary import LazyVocabulary, Vocabulary

if TYPE_CHECKING:  # pragma: no cover
    from .accepts import BUILDS, SUITS
    from .conditions import TESTS
    from .deal_steps import DEAL_STEPS
    from .effects import EFFECTS
    from .roles import ROLES

_HERE = Path(__file__).resolve().parent


def _make() -> Vocabulary:
    from .accepts import BUILDS, SUITS
    from .conditions import TESTS
    from .deal_steps import DEAL_STEPS
    from .effects import EFFECTS
    from .roles import ROLES

    return Vocabulary(
        deal_steps=DEAL_STEPS.specs(),
        effects=EFFECTS.specs(),
        tests=TESTS.specs(),
        builds={name: rule.describe for name, rule in BUILDS.items()},
        suits={name: rule.describe for name, rule in SUITS.items()},
        roles={name: role.describe for name, role in ROLES.items()},
    )


# The folders of the entries' modules, in the order VOCABULARY.code_folders gives them.
ENGINE_VOCABULARY = LazyVocabulary((_HERE, _HERE / "effects"), _make)

_WHERE = {
    "BUILDS": ".accepts",
    "SUITS": ".accepts",
    "TESTS": ".conditions",
    "DEAL_STEPS": ".deal_steps",
    "EFFECTS": ".effects",
    "ROLES": ".roles",
}


def __getattr__(name: str) -> Any:
    if name == "VOCABULARY":
        value: Any = ENGINE_VOCABULARY.vocabulary
    elif name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


__all__ = [
    "BUILDS",
    "DEAL_STEPS",
    "EFFECTS",
    "ENGINE_VOCABULARY",
    "ROLES",
    "SUITS",
    "TESTS",
    "VOCABULARY",
]
