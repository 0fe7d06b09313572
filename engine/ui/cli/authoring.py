"""Commands for game authors and for finding games: list, validate, schema, graph, new."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from ....rules import check_rules, shipped_games
from ....rules.errors import printable
from ....rules.schema import SCHEMA_FILE, reference_markdown, schema_text
from ...game.load import load_game
from ...play.atomic import write_text
from ...vocab import VOCABULARY
from .output import EXIT_INVALID, EXIT_OK, UsageError, console, fail


def cmd_list(args: argparse.Namespace) -> int:
    from ....rules.catalog import FAMILY_TITLES

    games = shipped_games()
    if args.json:
        for g in games:
            print(json.dumps(g.as_json()))
        return EXIT_OK
    from rich.table import Table

    # One table per family under its heading, the columns as wide in every table.
    columns = ("id", "name", "decks", "aliases")
    cells = {g.id: (g.id, g.name, str(g.decks), ", ".join(g.aliases)) for g in games}
    widths = [
        max([len(c), *(len(row[i]) for row in cells.values())]) for i, c in enumerate(columns)
    ]
    out = console()
    first = True
    for family, title in FAMILY_TITLES.items():
        members = [g for g in games if g.family == family]
        if not members:
            continue
        if not first:
            out.print()
        first = False
        out.print(title, style="bold", highlight=False, soft_wrap=True)
        table = Table(box=None, pad_edge=False, header_style="bold")
        for column, width in zip(columns, widths, strict=True):
            table.add_column(column, min_width=width)
        for g in members:
            table.add_row(*cells[g.id])
        out.print(table)
    return EXIT_OK


def cmd_validate(args: argparse.Namespace) -> int:
    from ....rules import find_game, looks_like_path

    failed = False
    for given in args.files:
        path = given
        if not looks_like_path(path) and not Path(path).exists():
            found = find_game(path)  # a game's id or alias: its rule file
            path = str(found) if found is not None else path
        items = check_rules(path, VOCABULARY)
        errors = [d for d in items if d.severity == "error"]
        warnings = [d for d in items if d.severity == "warning"]
        bad = bool(errors) or (args.strict and bool(warnings))
        failed |= bad
        if args.json:
            for d in items:  # 'file' is where the problem is; 'checked', the file named
                print(json.dumps({**d.as_json(), "checked": printable(path, None)}))
            continue
        for d in items:
            print(str(d), file=sys.stderr if d.severity == "error" else sys.stdout)
        if not bad:
            note = (
                f" ({len(warnings)} warning{'s' if len(warnings) != 1 else ''})" if warnings else ""
            )
            print(f"{printable(given, None)}: ok{note}")
    return EXIT_INVALID if failed else EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    text = schema_text(VOCABULARY) if args.format == "json" else reference_markdown(VOCABULARY)
    sys.stdout.write(text)
    return EXIT_OK


def cmd_graph(args: argparse.Namespace) -> int:
    from ..diagram import diagram

    sys.stdout.write(diagram(load_game(args.game), args.format))
    return EXIT_OK


def _starter_problem(text: str) -> str | None:
    """The first error of a starter rule file, found before it is written: ``new`` never
    writes a file that ``validate`` refuses."""
    import tempfile

    try:
        with tempfile.TemporaryDirectory(prefix="solitaire-new-") as folder:
            trial = Path(folder) / "starter.yaml"
            trial.write_text(text, encoding="utf-8")
            errors = [d for d in check_rules(trial, VOCABULARY) if d.severity == "error"]
    except OSError:  # no room for a trial (a full disk, a size limit): writing says why
        return None
    if not errors:
        return None
    first = errors[0]
    return f"{first.key}: {first.message}" if first.key else first.message


def cmd_new(args: argparse.Namespace) -> int:
    slug = "-".join(re.findall(r"[a-z0-9]+", args.name.lower()))[:40].strip("-")
    if not slug:
        raise UsageError(f"a game name needs letters or digits: '{printable(args.name)}'")
    path = Path(args.output) if args.output else Path(slug.replace("-", "_") + ".yaml")
    shown = printable(str(path), None)
    try:
        exists = path.exists()
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        reason = exc.strerror if isinstance(exc, OSError) else "not a file name"
        return fail(f"cannot write {shown}: {reason or exc}")
    if exists and not args.force:
        return fail(f"{shown} exists already (use --force to replace it)")
    template = (SCHEMA_FILE.parent / "starter.yaml").read_text(encoding="utf-8")
    title = args.name.strip() if args.name.strip() != slug else slug.replace("-", " ").title()
    if not title.isprintable():  # a rule file's text may hold no control character
        return fail(
            f"a game name must be printable text, not '{printable(title)}': "
            "it could not be written into a rule file that validates"
        )
    text = (
        template.replace("{file}", shown)
        .replace("{id}", slug)
        .replace("{name}", json.dumps(title, ensure_ascii=False))
    )
    problem = _starter_problem(text)
    if problem is not None:
        return fail(f"cannot write a game named '{printable(title)}': {problem}")
    try:
        write_text(path, text)
    except OSError as exc:
        return fail(f"cannot write {shown}: {exc.strerror or exc}")
    print(f"wrote {shown}: try 'solitaire play {shown}'")
    return EXIT_OK
