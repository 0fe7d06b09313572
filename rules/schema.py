"""The published forms of the rule format: JSON Schema for editors, Markdown for people.

Both are generated from the pydantic model that the loader uses, so they cannot drift from it;
``rules/schema.json`` and ``docs/rule-reference.md`` are these outputs, checked by the tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .model import GameSpec

SCHEMA_FILE = Path(__file__).resolve().parent / "schema.json"
SCHEMA_ID = "https://yaml-solitaire.invalid/rules/schema.json"


def json_schema() -> dict[str, Any]:
    schema = GameSpec.model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Solitaire rule file",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


# --- Markdown reference --------------------------------------------------------------------

_SECTIONS = [
    ("Deal steps", "step", ["DealBases", "DealRoundRobin", "DealRest"]),
    ("Effects (actions)", "effect", ["MoveTop", "Chain", "FillGaps", "Deal", "Exchange"]),
    ("Tests (conditions)", "test", ["NotEmpty", "FaceDown", "ShortPile", "HoldsAllCards",
                                     "NoLegalAction"]),
]  # fmt: skip
_RECORDS = ["GameSpec", "PileGroup", "Accepts", "Flow", "StateSpec", "TransitionSpec", "Score"]


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


def reference_markdown() -> str:
    schema = json_schema()
    defs = schema["$defs"]
    defs["GameSpec"] = schema
    out = [
        "# Rule file reference",
        "",
        "Generated from the rule model by `solitaire schema --format markdown`; do not edit by",
        "hand. Every key of a rule file and every name of the engine's vocabulary is listed here.",
        "A tutorial is in [writing-a-game.md](writing-a-game.md).",
        "",
        "Conventions: cards are written rank then suit (`10H`, `QS`); a *pile reference* is a",
        "pile name or a pile group name (meaning all of the group's piles, in order).",
        "",
        "## Records",
    ]
    for name in _RECORDS:
        defn = defs[name]
        out += ["", f"### {name}", "", " ".join(str(defn.get("description", "")).split()), ""]
        out += _fields(defn)
    for title, tag, names in _SECTIONS:
        out += ["", f"## {title}", ""]
        out.append(f"Chosen with the `{tag}` key; each entry lists its own keys.")
        for name in names:
            defn = defs[name]
            value = defn["properties"][tag].get("const") or defn["properties"][tag]["enum"][0]
            doc = " ".join(str(defn.get("description", "")).split())
            out += ["", f"### `{tag}: {value}`", "", doc, ""]
            rows = _fields(defn, skip=tag)
            out += rows if len(rows) > 2 else ["No other keys."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(schema_text(), end="")
