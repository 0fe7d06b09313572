"""The published forms of the rule format: JSON Schema for editors, Markdown for people.

Both are generated from the records and the vocabulary the validator uses, so they cannot drift
from it; ``rules/schema.json`` and ``docs/rule-reference.md`` are these outputs, checked by tests.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import json
import textwrap
from functools import cache
from pathlib import Path
from typing import Any

from .model import (
    Accepts,
    BesideSpec,
    Display,
    Flow,
    Follows,
    GameSpec,
    Grid,
    GroupDisplay,
    PileGroup,
    RankOf,
    Relation,
    Score,
    StateSpec,
    TransitionSpec,
)
from .spec import tag_of
from .vocabulary import Vocabulary

SCHEMA_FILE = Path(__file__).resolve().parent / "schema.json"
SCHEMA_ID = "https://yaml-solitaire.invalid/rules/schema.json"
RECORDS: tuple[type, ...] = (
    GameSpec,
    PileGroup,
    Accepts,
    Relation,
    BesideSpec,
    Follows,
    RankOf,
    Grid,
    Flow,
    StateSpec,
    TransitionSpec,
    Score,
    Display,
    GroupDisplay,
)


@cache
def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of a record class, its bases' included."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not dataclasses.is_dataclass(klass):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in itertools.pairwise(body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def _class_doc(cls: type) -> str:
    return " ".join((cls.__doc__ or "").split())


def json_schema(vocabulary: Vocabulary) -> dict[str, Any]:
    schema = json.loads(json.dumps(vocabulary.json_schema))
    defs: dict[str, Any] = schema.get("$defs", {})
    classes = {c.__name__: c for c in (*RECORDS, *_entries(vocabulary))}
    tags = {
        c.__name__: (key, kind)
        for kind, key in Vocabulary.TAGS.items()
        for c in getattr(vocabulary, kind)
    }
    for name, defn in [("GameSpec", schema), *defs.items()]:
        cls = classes.get(name)
        if cls is None:
            continue
        defn["description"] = _class_doc(cls)
        docs = dict(field_docs(cls))
        if name in tags:
            key, kind = tags[name]
            docs[key] = f"Chooses this entry of the {kind.replace('_', ' ')}: '{tag_of(cls, key)}'."
        for f in dataclasses.fields(cls):
            key = _key(cls, f.name)
            prop = defn.get("properties", {}).get(key)
            if prop is not None:
                prop.pop("title", None)
                if f.name in docs:
                    prop["description"] = docs[f.name]
        defn.pop("title", None)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Solitaire rule file",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def _key(cls: type, name: str) -> str:
    from .spec import yaml_key

    return yaml_key(cls, name)


def _entries(vocabulary: Vocabulary) -> tuple[type, ...]:
    return (*vocabulary.deal_steps, *vocabulary.effects, *vocabulary.tests)


def schema_text(vocabulary: Vocabulary) -> str:
    return json.dumps(json_schema(vocabulary), indent=2, ensure_ascii=False) + "\n"


# --- Markdown reference --------------------------------------------------------------------


def _type(node: dict[str, Any]) -> str:
    if "$ref" in node:
        return str(node["$ref"]).split("/")[-1]
    if "const" in node:
        return f"`{node['const']}`"
    if "enum" in node:
        return " \\| ".join(f"`{v}`" for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " or ".join(_type(n) for n in node[key] if n.get("type") != "null")
    kind = node.get("type")
    if kind == "array":
        return f"list of {_type(node.get('items', {}))}"
    if kind == "object":
        inner: dict[str, Any] = node.get("additionalProperties") or next(
            iter(node.get("patternProperties", {}).values()), {}
        )
        return f"mapping of name to {_type(inner)}" if inner else "mapping"
    return {"string": "text", "integer": "integer", "boolean": "true/false"}.get(str(kind), "any")


def _default(node: dict[str, Any], required: bool) -> str:
    if required:
        return "required"
    if "default" not in node:
        return ""
    value = node["default"]
    if value is None:
        return "absent"
    return f"`{json.dumps(value)}`" if not isinstance(value, str) or not value else f"`{value}`"


def _fields(defn: dict[str, Any], skip: str | None = None) -> list[str]:
    required = set(defn.get("required", []))
    lines = ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
    for key, node in defn.get("properties", {}).items():
        if key == skip:
            continue
        desc = str(node.get("description", "")).replace("\n", " ").replace("|", "\\|")
        lines.append(f"| `{key}` | {_type(node)} | {_default(node, key in required)} | {desc} |")
    return lines


def _names_table(title: str, key: str, names: dict[str, str]) -> list[str]:
    out = ["", f"### `{key}` values: {title}", "", "| name | meaning |", "| --- | --- |"]
    out += [f"| `{name}` | {text} |" for name, text in names.items()]
    return out


def reference_markdown(vocabulary: Vocabulary) -> str:
    schema = json_schema(vocabulary)
    defs = schema["$defs"]
    defs["GameSpec"] = schema
    out = [
        "# Rule file reference",
        "",
        "Generated from the rule model and the engine's vocabulary by",
        "`solitaire schema --format markdown`; do not edit by hand. Every key of a rule file and",
        "every name of the vocabulary is listed here. A tutorial is in",
        "[writing-a-game.md](writing-a-game.md); how to add a word to the vocabulary is in",
        "[vocabulary.md](vocabulary.md).",
        "",
        "Conventions: cards are written rank then suit (`10H`, `QS`); a *pile reference* is a",
        "pile name or a pile group name (meaning all of the group's piles, in order).",
        "",
        "## Records",
    ]
    # The records of the model, then those an entry of the vocabulary brings (a move's
    # 'limit', say): every definition of the schema that is not an entry gets its table.
    entries = {cls.__name__ for cls in _entries(vocabulary)}
    named = [cls.__name__ for cls in RECORDS]
    named += sorted(n for n in defs if n not in entries and n not in named and n != "GameSpec")
    for name in named:
        defn = defs[name]
        out += ["", f"### {name}", "", str(defn.get("description", "")), ""]
        out += _fields(defn)
    out += _names_table("pile roles", "role", dict(vocabulary.roles))
    out += _names_table("build rules", "build", dict(vocabulary.builds))
    out += _names_table("suit rules", "suit", dict(vocabulary.suits))
    sections = (
        ("Deal steps", "step", vocabulary.deal_steps),
        ("Effects (actions)", "effect", vocabulary.effects),
        ("Tests (conditions)", "test", vocabulary.tests),
    )
    for title, tag, classes in sections:
        out += ["", f"## {title}", ""]
        out.append(f"Chosen with the `{tag}` key; each entry lists its own keys.")
        for cls in classes:
            defn = defs[cls.__name__]
            out += [
                "",
                f"### `{tag}: {tag_of(cls, tag)}`",
                "",
                str(defn.get("description", "")),
                "",
            ]
            rows = _fields(defn, skip=tag)
            out += rows if len(rows) > 2 else ["No other keys."]
    return "\n".join(out) + "\n"
