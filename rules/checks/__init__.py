"""Every check of a rule file, in one run: shape, names, cards, deal, actions, flow, display.

Shape errors come from the validator; the rest of the file is then checked as far as it can
be, so that an author sees every problem at once.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Diagnostic, RuleError
from ..extends import Report, Source, read_source
from ..model import GameSpec
from ..vocabulary import Vocabulary
from .actions import check_actions
from .flow import check_flow
from .meaning import (
    check_cards,
    check_deal,
    check_display,
    check_entries,
    check_names,
    check_score,
)
from .shape import SchemaWalker, report_shape_errors, without_broken_parts
from .size import check_size


def check_meaning(spec: GameSpec, report: Report) -> None:
    """Checks that need the whole, well-shaped file."""
    check_names(spec, report)
    check_entries(spec, report)
    check_cards(spec, report)
    check_deal(spec, report)
    check_actions(spec, report)
    check_flow(spec, report)
    check_display(spec, report)
    check_score(spec, report)
    check_size(spec, report)


def analyse(
    path: Path, display: str, vocabulary: Vocabulary
) -> tuple[GameSpec | None, list[Diagnostic], Source | None]:
    """The spec of a rule file (None when it has errors), every finding, and the source read."""
    from pydantic import ValidationError

    try:
        source = read_source(path, display)
    except RuleError as exc:
        return None, exc.diagnostics, None
    report = Report(source)
    report.items += source.problems
    try:
        spec = vocabulary.validate(source.data)
    except ValidationError as exc:
        walker = SchemaWalker(vocabulary)
        report_shape_errors(exc, source, report, walker)
        _check_the_rest(exc, source, report, walker, vocabulary)
        return None, report.items, source
    check_meaning(spec, report)
    failed = source.problems or any(d.severity == "error" for d in report.items)
    return (None if failed else spec), report.items, source


def _check_the_rest(
    exc: object, source: Source, report: Report, walker: SchemaWalker, vocabulary: Vocabulary
) -> None:
    """After shape errors, check the meaning of everything else, so one round shows all.

    Findings that involve a left-out name, or a count or flow that the left-out parts would
    change, are not reported.
    """
    from pydantic import ValidationError

    assert isinstance(exc, ValidationError)
    repaired = without_broken_parts(source.data, exc, walker)
    if repaired is None:
        return
    data, names, sections = repaired
    try:
        spec = vocabulary.validate(data)
    except ValidationError:
        return
    rest = Report(source)
    check_meaning(spec, rest)
    report.items += [
        d for d in rest.items if d.severity == "error" and not d.about & (names | sections)
    ]
