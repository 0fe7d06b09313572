"""Shape errors: pydantic's findings said in an author's terms, at the key they are about.

When parts of a file have shape errors, those parts are left out and the rest is validated
again (``without_broken_parts``), so that one run shows the meaning problems of the rest too.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..errors import suggest
from ..extends import Report, Source
from ..source import Path as KeyPath
from ..vocabulary import Vocabulary

if TYPE_CHECKING:  # pragma: no cover
    from pydantic import ValidationError

_EXTRA = ("extra_forbidden", "unexpected_keyword_argument")
_MISSING = ("missing", "missing_keyword_only_argument", "missing_argument")
_NOT_MAPPING = ("dict_type", "model_type", "dataclass_type", "dataclass_args_type")


class SchemaWalker:
    """The JSON Schema of a vocabulary, walked along the key paths of a file's data."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.root = vocabulary.json_schema
        self.defs: dict[str, Any] = self.root.get("$defs", {})

    def _resolve(self, node: dict[str, Any], value: Any) -> dict[str, Any]:
        while True:
            if "$ref" in node:
                node = self.defs[node["$ref"].split("/")[-1]]
            elif "oneOf" in node or "anyOf" in node:
                options = node.get("oneOf") or node.get("anyOf") or []
                mapping = node.get("discriminator", {}).get("mapping", {})
                prop = node.get("discriminator", {}).get("propertyName")
                if prop and isinstance(value, dict) and value.get(prop) in mapping:
                    node = self.defs[mapping[value[prop]].split("/")[-1]]
                    continue
                objects = [
                    o for o in options if "$ref" in o or o.get("type") in ("object", "array")
                ]
                if isinstance(value, list):
                    objects = [o for o in objects if o.get("type") == "array"] or objects
                if not objects:
                    return {}
                node = objects[0]
            else:
                return node

    def node(self, data: Any, path: KeyPath) -> dict[str, Any]:
        """The schema of the value at ``path`` of ``data`` (unions resolved by their tag)."""
        node = self._resolve(self.root, data)
        value = data
        for part in path:
            if isinstance(part, int):
                item = value[part] if isinstance(value, list) and part < len(value) else None
                node = self._resolve(node.get("items", {}), item)
                value = item
            else:
                props = node.get("properties", {})
                patterns = list(node.get("patternProperties", {}).values())
                extra = node.get("additionalProperties")
                inner = (
                    props.get(part)
                    or (extra if isinstance(extra, dict) else None)
                    or (patterns[0] if patterns else {})
                )
                value = value.get(part) if isinstance(value, dict) else None
                node = self._resolve(inner if isinstance(inner, dict) else {}, value)
        return node

    def allowed_keys(self, data: Any, path: KeyPath) -> list[str]:
        """The keys the schema allows in the mapping at ``path`` of ``data``."""
        return list(self.node(data, path).get("properties", {}))

    def optional(self, data: Any, path: KeyPath) -> bool:
        """Whether the key at the end of ``path`` may be left out (the schema has a default)."""
        if not path or isinstance(path[-1], int):
            return False
        parent = self.node(data, path[:-1])
        props = parent.get("properties", {})
        return path[-1] in props and path[-1] not in parent.get("required", [])

    def data_path(self, data: Any, loc: tuple[Any, ...]) -> KeyPath:
        """A pydantic error location as a path in the YAML data (union tags dropped)."""
        path: list[str | int] = []
        value = data
        for part in loc:
            if (isinstance(value, dict) and part in value) or (
                isinstance(value, list) and isinstance(part, int) and part < len(value)
            ):
                path.append(part)
                value = value[part]
            elif (
                isinstance(value, dict)
                and isinstance(part, str)
                and part in self.allowed_keys(data, tuple(path))
            ):
                # A missing key is kept; a union tag (e.g. 'move') is not a key: dropped.
                path.append(part)
                value = None
        return tuple(path)


def follows_from_another(err: Any, errors: list[Any]) -> bool:
    """A list reported too short only because one of its own items was rejected."""
    loc = tuple(err["loc"])
    return err["type"] == "too_short" and any(
        tuple(o["loc"])[: len(loc)] == loc and tuple(o["loc"]) != loc for o in errors
    )


_NAMES = {
    "states": "state name",
    "piles": "pile group name",
    "actions": "action name",
    "conditions": "condition name",
    "groups": "pile group name",
}
_WHAT = {"effect": "effect", "test": "test", "step": "deal step"}


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def report_shape_errors(
    exc: ValidationError, source: Source, report: Report, walker: SchemaWalker
) -> None:
    data = source.data
    seen: set[tuple[KeyPath, str]] = set()
    errors = exc.errors()
    paths = [walker.data_path(data, tuple(err["loc"])) for err in errors]
    for err, path in zip(errors, paths, strict=True):
        if follows_from_another(err, errors) or _other_branch(err, path, errors, paths):
            continue
        loc = tuple(err["loc"])
        kind = err["type"]
        ctx = err.get("ctx") or {}
        got = err.get("input")
        if kind == "too_short":
            report.add(path, f"needs at least {ctx.get('min_length', 1)} item(s)")
        elif kind == "too_long":
            report.add(path, f"has too many items: at most {ctx.get('max_length')}")
        elif kind in _EXTRA:
            allowed = walker.allowed_keys(data, path[:-1])
            name = str(path[-1]) if path else str(loc[-1])
            message = f"unknown key '{name}'{suggest(name, allowed)}"
            if allowed:
                message += f"; expected one of: {', '.join(allowed)}"
            if (path, message) not in seen:
                seen.add((path, message))
                report.add(path, message, key=True)
        elif kind in _MISSING:
            name = str(loc[-1])
            parent = path[:-1] if path and path[-1] == name else path
            report.add(parent, f"missing required key '{name}'", shown=(*parent, name))
        elif kind in ("union_tag_invalid", "union_tag_not_found"):
            disc = str(ctx.get("discriminator", "")).strip("'")
            kind_name = walker.vocabulary.kind_of_tag(disc)
            expected = sorted(walker.vocabulary.tags(kind_name)) if kind_name else []
            what = _WHAT.get(disc, disc)
            if kind == "union_tag_not_found":
                report.add(
                    path, f"missing key '{disc}': one of {', '.join(expected)}", shown=(*path, disc)
                )
            else:
                tag = str(ctx.get("tag"))
                report.add(
                    (*path, disc),
                    f"unknown {what} '{tag}'{suggest(tag, expected)}; "
                    f"expected one of: {', '.join(expected)}",
                )
        elif kind == "literal_error":
            literals = str(ctx.get("expected", ""))
            options = [o.strip().strip("'") for o in literals.replace(" or ", ",").split(",")]
            hint = suggest(str(got), options) if isinstance(got, str) else ""
            shown = _kind(got).removeprefix("the text ") if isinstance(got, str) else repr(got)
            report.add(
                path, f"expected one of: {', '.join(o for o in options if o)}; got {shown}{hint}"
            )
        elif kind in _NOT_MAPPING and not isinstance(got, dict):
            report.add(path, f"expected a mapping of keys, got {_kind(got)}")
        elif kind == "string_pattern_mismatch":
            is_key = "[key]" in loc
            what = _NAMES.get(str(path[-2]) if is_key and len(path) > 1 else "", "name")
            if path and path[-1] == "id":
                rule = "lower-case letters, digits and '-'"
                what = "id"
            else:
                rule = "lower-case letters, digits and '_', starting with a letter"
            report.add(path, f"{what} {_kind(got)[9:]} is not allowed: use {rule}", key=is_key)
        elif kind in ("less_than_equal", "greater_than_equal"):
            bound = ctx.get("le", ctx.get("ge"))
            word = "at most" if kind == "less_than_equal" else "at least"
            report.add(path, f"{got} is out of range: {word} {bound}")
        elif kind == "string_too_long":
            report.add(path, f"is too long: at most {ctx.get('max_length')} characters")
        else:
            report.add(path, _plain(err))


def _other_branch(err: Any, path: KeyPath, errors: list[Any], paths: list[KeyPath]) -> bool:
    """A union's branch for another kind of value ('expected a list' when text was given and
    the text branch said what is wrong with it): only the fitting branch's error is kept."""
    if not err["type"].endswith("_type") or err["type"] in _NOT_MAPPING:
        return False
    return any(
        other is not err and where == path and not other["type"].endswith("_type")
        for other, where in zip(errors, paths, strict=True)
    )


def _plain(err: Any) -> str:
    message = str(err["msg"])
    for old, new in (("a valid tuple", "a list"), ("a valid array", "a list"), ("Tuple", "List")):
        message = message.replace(old, new)
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    message = message[:1].lower() + message[1:]
    if "input" in err and err["type"].endswith("_type"):
        message += f", got {_kind(err['input'])}"
    return message


# --- the rest of a file with shape errors --------------------------------------------------


def _at_path(data: Any, path: KeyPath) -> Any:
    for part in path:
        in_dict = isinstance(data, dict) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if not (in_dict or in_list):
            return None
        data = data[part]
    return data


def _touches(path: KeyPath) -> set[str]:
    """The sections whose whole-file checks a changed value at ``path`` may upset."""
    head = path[0]
    if head in ("deal", "decks", "remove") or (head == "piles" and "bases" in path):
        return {"@deal"}
    if head == "flow":
        return {"@flow"}
    return set()


def without_broken_parts(
    data: Any, exc: ValidationError, walker: SchemaWalker
) -> tuple[dict[str, Any], set[str], set[str]] | None:
    """A copy of ``data`` without the parts that have shape errors (None: nothing to check).

    Returns the copy, the names of the left-out entries, and the whole-file checks
    ('@deal', '@flow') and kinds of name ('@piles', '@states') that the left-out parts
    could change, so that findings about them can be left unsaid.
    """
    out: dict[str, Any] = json.loads(json.dumps(data))
    names: set[str] = set()
    sections: set[str] = set()
    drop_items: dict[str, set[int]] = {}
    errors = exc.errors()
    for err in errors:
        if follows_from_another(err, errors):
            continue  # the rejected item is handled
        path = walker.data_path(data, tuple(err["loc"]))
        head = path[0] if path else None
        if len(path) > 2 and err["type"] not in _MISSING and walker.optional(data, path):
            holder = _at_path(out, path[:-1])
            if isinstance(holder, dict):  # a bad optional value: its default stands in
                holder.pop(str(path[-1]), None)
                sections.update(_touches(path))
                continue
        if head in ("piles", "actions", "conditions") and len(path) >= 2:
            name = str(path[1])
            entry = out.get(head, {}).pop(name, None)
            names.add(name)
            if head == "piles":
                sections.update(("@deal", "@piles"))
                if isinstance(entry, dict) and isinstance(entry.get("names"), list):
                    names.update(str(n) for n in entry["names"])
        elif head == "flow" and len(path) >= 3 and path[1] == "states":
            out["flow"]["states"].pop(str(path[2]), None)
            names.add(str(path[2]))
            sections.update(("@flow", "@states"))
        elif head in ("flow", "deal") and len(path) >= 3 - (head == "deal"):
            key = "transitions" if head == "flow" else "deal"
            if head == "flow" and path[1] != "transitions":
                return None
            drop_items.setdefault(key, set()).add(int(path[2 if head == "flow" else 1]))
            sections.add(f"@{head}")
        elif head in ("score", "aliases", "description", "decks", "remove", "display"):
            out.pop(str(head), None)
            if head in ("decks", "remove"):
                sections.add("@deal")
        elif head in ("id", "name") and len(path) == 1:
            out[str(head)] = "x"
        else:
            return None  # a whole section is unusable: its meaning cannot be checked
    for key, indices in drop_items.items():
        holder = out["flow"] if key == "transitions" else out
        if isinstance(holder.get(key), list):
            holder[key] = [v for i, v in enumerate(holder[key]) if i not in indices]
    return out, names, sections
