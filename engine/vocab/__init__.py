"""The engine's vocabulary: every word a rule file may use, one registry per kind.

- ``effects.EFFECTS``: what actions do (``effect:``), by spec class;
- ``conditions.TESTS``: tests of a position (``test:``), by spec class;
- ``deal_steps.DEAL_STEPS``: how cards are laid out (``step:``), by spec class;
- ``accepts.BUILDS`` and ``accepts.SUITS``: what piles accept (``build:``, ``suit:``);
- ``roles.ROLES``: what pile groups are for (``role:``).

``VOCABULARY`` hands all of them to the rule language, which derives its validator, the JSON
Schema and the rule reference from it. docs/vocabulary.md shows how to add an entry.
"""

from __future__ import annotations

from ...rules.vocabulary import Vocabulary
from .accepts import BUILDS, SUITS
from .conditions import TESTS
from .deal_steps import DEAL_STEPS
from .effects import EFFECTS
from .roles import ROLES

VOCABULARY = Vocabulary(
    deal_steps=DEAL_STEPS.specs(),
    effects=EFFECTS.specs(),
    tests=TESTS.specs(),
    builds={name: rule.describe for name, rule in BUILDS.items()},
    suits={name: rule.describe for name, rule in SUITS.items()},
    roles={name: role.describe for name, role in ROLES.items()},
)

__all__ = ["BUILDS", "DEAL_STEPS", "EFFECTS", "ROLES", "SUITS", "TESTS", "VOCABULARY"]
