"""Reading a rule file into a GameSpec, with every problem reported at its line and column."""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import catalog
from .diagnostics import Diagnostic, RuleError, Severity
from .model import GameSpec, pile_references
from .notation import RANK_NAMES, SUIT_NAMES
from .yamlpos import Document, Position, YamlSyntaxError, read_yaml
from .yamlpos import Path as KeyPath


def dotted(path: Iterable[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def suggest(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


@dataclass
class _Source:
    """Merged data of a file and its ``extends`` chain, with where each value came from."""

    data: Any
    layers: list[tuple[str, Document]] = field(default_factory=list)  # child first
    problems: list[Diagnostic] = field(default_factory=list)  # found while reading the YAML

    def where(self, path: KeyPath, *, key: bool = False) -> tuple[str, Position]:
        for name, doc in self.layers:
            table = doc.keys if key else doc.values
            if tuple(path) in table or (key and tuple(path) in doc.values):
                return name, doc.where(path, key=key)
        # Not in any file as such (a default or a parent key): point at the nearest ancestor.
        name, doc = self.layers[0]
        return name, doc.where(path, key=key)


class _Report:
    def __init__(self, source: _Source) -> None:
        self.source = source
        self.items: list[Diagnostic] = []

    def add(
        self,
        path: KeyPath,
        message: str,
        *,
        key: bool = False,
        severity: Severity = "error",
        shown: KeyPath | None = None,
        about: Iterable[str] = (),
    ) -> None:
        name, pos = self.source.where(path, key=key)
        self.items.append(
            Diagnostic(
                name,
                pos.line,
                pos.column,
                dotted(shown if shown is not None else path),
                message,
                severity,
                frozenset(about),
            )
        )


# --- reading and merging -----------------------------------------------------------------


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            if value is None:
                merged.pop(key, None)
            elif key in merged:
                merged[key] = _merge(merged[key], value)
            else:
                merged[key] = value
        return merged
    return over


def _read(path: Path, display: str, chain: tuple[Path, ...]) -> _Source:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RuleError([Diagnostic(display, 1, 1, "", "no such file")]) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise RuleError(
            [Diagnostic(display, 1, 1, "", f"cannot read the file: {reason}")]
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read"
        raise RuleError([Diagnostic(display, line, column, "", message)]) from None
    try:
        doc = read_yaml(text)
    except YamlSyntaxError as exc:
        raise RuleError(
            [Diagnostic(display, exc.position.line, exc.position.column, "", exc.message)]
        ) from None
    # Duplicate keys and unreadable scalars are reported with everything else found later.
    problems = [Diagnostic(display, p.line, p.column, dotted(k), m) for p, k, m in doc.problems]
    source = _Source(doc.data, [(display, doc)], problems)
    if doc.data is None:
        raise RuleError(
            [Diagnostic(display, 1, 1, "", "the file is empty: a rule file is a mapping")]
        )
    if not isinstance(doc.data, dict):
        raise RuleError([Diagnostic(display, 1, 1, "", "a rule file must be a mapping of keys")])
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        return source
    report = _Report(source)
    if not isinstance(parent_ref, str):
        report.add(("extends",), "expected a game id or a path to a rule file")
        raise RuleError(report.items)
    parent = _resolve_parent(parent_ref, path)
    if parent is None:
        hint = suggest(parent_ref, catalog.game_names())
        report.add(("extends",), f"no game or rule file '{parent_ref}'{hint}")
        raise RuleError(report.items)
    if parent.resolve() in chain or parent.resolve() == path.resolve():
        cycle = " -> ".join(p.name for p in (*chain, path.resolve(), parent.resolve()))
        report.add(("extends",), f"extends forms a cycle: {cycle}")
        raise RuleError(report.items)
    parent_display = _display(parent)
    upper = _read(parent, parent_display, (*chain, path.resolve()))
    own = {k: v for k, v in doc.data.items()}
    return _Source(
        _merge(upper.data, own), [(display, doc), *upper.layers], problems + upper.problems
    )


def _resolve_parent(ref: str, child: Path) -> Path | None:
    if catalog.looks_like_path(ref):
        candidate = (child.parent / ref) if not Path(ref).is_absolute() else Path(ref)
        return candidate if candidate.is_file() else None
    return catalog.find_game(ref)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --- schema errors -------------------------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    return GameSpec.model_json_schema(by_alias=True)


def _allowed_keys(data: Any, path: KeyPath) -> list[str]:
    """The keys the schema allows in the mapping at ``path`` of ``data``."""
    return list(_schema_node(data, path).get("properties", {}))


def _optional(data: Any, path: KeyPath) -> bool:
    """Whether the key at the end of ``path`` may be left out (the schema has a default)."""
    if not path or isinstance(path[-1], int):
        return False
    parent = _schema_node(data, path[:-1])
    return path[-1] in parent.get("properties", {}) and path[-1] not in parent.get("required", [])


def _schema_node(data: Any, path: KeyPath) -> dict[str, Any]:
    """The schema of the value at ``path`` of ``data`` (unions resolved by their tag)."""
    root = _schema()
    defs = root.get("$defs", {})

    def resolve(node: dict[str, Any], value: Any) -> dict[str, Any]:
        while True:
            if "$ref" in node:
                node = defs[node["$ref"].split("/")[-1]]
            elif "oneOf" in node or "anyOf" in node:
                options = node.get("oneOf") or node.get("anyOf") or []
                mapping = node.get("discriminator", {}).get("mapping", {})
                prop = node.get("discriminator", {}).get("propertyName")
                if prop and isinstance(value, dict) and value.get(prop) in mapping:
                    node = defs[mapping[value[prop]].split("/")[-1]]
                    continue
                objects = [
                    o for o in options if "$ref" in o or o.get("type") in ("object", "array")
                ]
                if not objects:
                    return {}
                node = objects[0]
            else:
                return node

    node = resolve(root, data)
    value = data
    for part in path:
        if isinstance(part, int):
            node = resolve(node.get("items", {}), value[part] if isinstance(value, list) else None)
            value = value[part] if isinstance(value, list) and part < len(value) else None
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
            node = resolve(inner if isinstance(inner, dict) else {}, value)
    return node


def _data_path(data: Any, loc: tuple[Any, ...]) -> KeyPath:
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
            and part in _allowed_keys(data, tuple(path))
        ):
            # A missing key is kept; a union tag (e.g. 'move_top') is not a key and is dropped.
            path.append(part)
            value = None
    return tuple(path)


def _schema_errors(exc: ValidationError, source: _Source, report: _Report) -> None:
    data = source.data
    seen: set[tuple[KeyPath, str]] = set()
    errors = exc.errors()
    for err in errors:
        if _follows_from_another(err, errors):
            continue
        loc = tuple(err["loc"])
        kind = err["type"]
        path = _data_path(data, loc)
        ctx = err.get("ctx") or {}
        if kind == "too_short":
            report.add(path, f"needs at least {ctx.get('min_length', 1)} item(s)")
            continue
        if kind == "extra_forbidden":
            allowed = _allowed_keys(data, path[:-1])
            name = str(path[-1])
            message = f"unknown key '{name}'{suggest(name, allowed)}"
            if allowed:
                message += f"; expected one of: {', '.join(allowed)}"
            item = (path, message)
            if item not in seen:
                seen.add(item)
                report.add(path, message, key=True)
            continue
        if kind == "missing":
            name = str(loc[-1])
            parent = path[:-1] if path and path[-1] == name else path
            report.add(parent, f"missing required key '{name}'", shown=(*parent, name))
            continue
        if kind in ("union_tag_invalid", "union_tag_not_found"):
            disc = str(ctx.get("discriminator", "")).strip("'")
            expected = vocabulary(disc)
            what = {"effect": "effect", "test": "test", "step": "deal step"}.get(disc, disc)
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
            continue
        if kind == "literal_error":
            literals = str(ctx.get("expected", ""))
            options = [o.strip().strip("'") for o in literals.replace(" or ", ",").split(",")]
            got = err.get("input")
            hint = suggest(str(got), options) if isinstance(got, str) else ""
            report.add(
                path, f"expected one of: {', '.join(o for o in options if o)}; got {got!r}{hint}"
            )
            continue
        if kind in ("dict_type", "model_type") and not isinstance(err.get("input"), dict):
            report.add(path, f"expected a mapping of keys, got {_kind(err.get('input'))}")
            continue
        if kind == "string_pattern_mismatch":
            is_key = "[key]" in loc
            what = _NAMES.get(str(path[-2]) if is_key and len(path) > 1 else "", "name")
            if path and path[-1] == "id":
                rule = "lower-case letters, digits and '-'"
                what = "id"
            else:
                rule = "lower-case letters, digits and '_', starting with a letter"
            report.add(path, f"{what} {err.get('input')!r} is not allowed: use {rule}", key=is_key)
            continue
        message = str(err["msg"]).replace("a valid tuple", "a list").replace("Tuple", "List")
        for prefix in ("Value error, ", "Assertion failed, "):
            message = message.removeprefix(prefix)
        message = message[:1].lower() + message[1:]
        if "input" in err and kind.endswith("_type"):
            message += f", got {_kind(err['input'])}"
        report.add(path, message)


_NAMES = {
    "states": "state name",
    "piles": "pile group name",
    "actions": "action name",
    "conditions": "condition name",
}


def vocabulary(discriminator: str) -> list[str]:
    """The names a discriminated key (effect, test, step) may take, in the model's order."""
    defs = _schema().get("$defs", {})
    return [
        str(d["properties"][discriminator]["const"])
        for d in defs.values()
        if "const" in d.get("properties", {}).get(discriminator, {})
    ]


def _follows_from_another(err: Any, errors: list[Any]) -> bool:
    """A list reported too short only because one of its own items was rejected."""
    loc = tuple(err["loc"])
    return err["type"] == "too_short" and any(
        tuple(o["loc"])[: len(loc)] == loc and tuple(o["loc"]) != loc for o in errors
    )


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


# --- meaning -------------------------------------------------------------------------------


def _check_meaning(spec: GameSpec, report: _Report) -> None:
    """Checks that need the whole file: names that must exist, the deal, the flow."""
    err = report.add
    pile_names: dict[str, str] = {}
    for group_name, group in spec.piles.items():
        for i, name in enumerate(group.names):
            if name in pile_names:
                err(
                    ("piles", group_name, "names", i),
                    f"pile '{name}' is already defined in group '{pile_names[name]}'",
                )
            pile_names.setdefault(name, group_name)
        for key, values in (("hours", group.hours), ("bases", group.bases)):
            if values is not None and len(values) != len(group.names):
                err(
                    ("piles", group_name, key),
                    f"{len(values)} {key} given for {len(group.names)} piles; give one per pile",
                )
    for group_name, group in spec.piles.items():
        owner = pile_names.get(group_name)
        if owner is not None and not (owner == group_name and group.names == (group_name,)):
            err(
                ("piles", group_name),
                f"group name '{group_name}' is also a pile name in group "
                f"'{owner}'; a name must mean one thing",
                key=True,
            )

    known = sorted({*spec.piles, *pile_names})

    # Every field typed as a pile reference, in any deal step, action, condition or score.
    for path, ref in pile_references(spec):
        if ref not in spec.piles and ref not in pile_names:
            err(
                path,
                f"no pile or pile group named '{ref}'{suggest(ref, known)}",
                about=("@piles", ref),
            )
    if "auto" in spec.actions:
        err(("actions", "auto"), "'auto' is reserved for transitions tried after every action",
            key=True)  # fmt: skip

    _check_cards(spec, report)
    _check_deal(spec, report, pile_names)
    _check_flow(spec, report)


def _deck(spec: GameSpec) -> Counter[str]:
    return Counter(r + s for _ in range(spec.decks) for s in SUIT_NAMES for r in RANK_NAMES)


def _check_cards(spec: GameSpec, report: _Report) -> None:
    deck = _deck(spec)
    for i, card in enumerate(spec.remove):
        if deck[card] <= 0:
            report.add(("remove", i), f"{card} cannot be removed: the decks have no more {card}")
        deck[card] -= 1
    based: dict[str, str] = {}
    for group_name, group in spec.piles.items():
        for i, card in enumerate(group.bases or ()):
            if deck[card] <= 0:
                if card in based:
                    why = f"is already the base of {based[card]} and the decks have no more"
                elif card in spec.remove:
                    why = "is removed before the deal ('remove')"
                else:
                    why = "is not in the deck"
                report.add(
                    ("piles", group_name, "bases", i), f"base card {card} {why}", about=("@deal",)
                )
            elif i < len(group.names):
                based.setdefault(card, group.names[i])
            deck[card] -= 1


def _check_deal(spec: GameSpec, report: _Report, pile_names: dict[str, str]) -> None:
    def size(refs: Iterable[str]) -> int:
        return sum(len(spec.piles[r].names) if r in spec.piles else 1 for r in refs)

    left = 52 * spec.decks - len(spec.remove)
    bases_seen = False
    for i, step in enumerate(spec.deal):
        if left <= 0:
            report.add(
                ("deal", i), "no cards are left for this step", severity="warning", about=("@deal",)
            )
        if step.step == "bases":
            if bases_seen:
                report.add(("deal", i), "a second 'bases' step has nothing to do", about=("@deal",))
            bases_seen = True
            count = sum(len(g.bases or ()) for g in spec.piles.values())
            if count == 0:
                report.add(("deal", i), "no pile group has 'bases' to deal", about=("@deal",))
            left -= count
        elif step.step == "round_robin":
            if step.passes is None:
                left = 0
            else:
                left -= min(left, step.passes * size(step.piles))
        else:
            left = 0
    if left > 0:
        report.add(
            ("deal",),
            f"{left} cards are never dealt: add a 'rest' step or more passes",
            about=("@deal",),
        )
    has_bases = any(g.bases for g in spec.piles.values())
    if has_bases and not any(s.step == "bases" for s in spec.deal):
        report.add(
            ("deal",), "pile groups have 'bases' but the deal has no 'bases' step", about=("@deal",)
        )


def _check_flow(spec: GameSpec, report: _Report) -> None:
    flow = spec.flow
    states = flow.states
    err = report.add
    if flow.initial not in states:
        err(
            ("flow", "initial"),
            f"no state named '{flow.initial}'{suggest(flow.initial, states)}",
            about=("@states", flow.initial),
        )
    triggers = {*spec.actions, "auto"}
    edges: dict[str, set[str]] = {s: set() for s in states}
    used_actions: set[str] = set()
    # A misspelt name is reported once; the problems it causes elsewhere are not.
    unknown = {"state": False, "trigger": False, "condition": False}
    for i, tr in enumerate(flow.transitions):
        base: KeyPath = ("flow", "transitions", i)
        if tr.trigger not in triggers:
            unknown["trigger"] = True
            err(
                (*base, "trigger"),
                f"no action named '{tr.trigger}'{suggest(tr.trigger, triggers)}"
                "; a trigger is an action's name or 'auto'",
                about=(tr.trigger,),
            )
        used_actions.add(tr.trigger)
        sources = (tr.source,) if isinstance(tr.source, str) else tr.source
        resolved: list[str] = []
        for j, src in enumerate(sources):
            where = (*base, "source") if isinstance(tr.source, str) else (*base, "source", j)
            if src == "*":
                resolved += [s for s, spec_ in states.items() if spec_.outcome is None]
            elif src not in states:
                unknown["state"] = True
                err(where, f"no state named '{src}'{suggest(src, states)}", about=("@states", src))
            else:
                if states[src].outcome is not None:
                    err(
                        where,
                        f"state '{src}' ends the game ({states[src].outcome}); "
                        "nothing can leave it",
                        about=(src,),
                    )
                resolved.append(src)
        if tr.dest not in states:
            unknown["state"] = True
            err(
                (*base, "dest"),
                f"no state named '{tr.dest}'{suggest(tr.dest, states)}",
                about=("@states", tr.dest),
            )
        else:
            for src in resolved:
                edges[src].add(tr.dest)
        for key in ("conditions", "unless"):
            for j, name in enumerate(getattr(tr, key)):
                if name not in spec.conditions:
                    unknown["condition"] = True
                    err(
                        (*base, key, j),
                        f"no condition named '{name}'{suggest(name, spec.conditions)}",
                        about=(name,),
                    )
    if not any(s.outcome == "won" for s in states.values()):
        err(
            ("flow", "states"),
            "no state has 'outcome: won': the game could never be won",
            about=("@flow",),
        )
    if flow.initial in states and not unknown["state"]:
        reached = {flow.initial}
        todo = [flow.initial]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        for name in states:
            if name not in reached:
                err(
                    ("flow", "states", name),
                    f"state '{name}' cannot be reached from '{flow.initial}'",
                    key=True,
                    about=("@flow", name),
                )
    for name, state in states.items():
        if state.outcome is None and not edges[name] and not unknown["state"]:
            err(
                ("flow", "states", name),
                f"state '{name}' has no way out and is not an "
                "outcome: give it a transition or 'outcome: won|lost'",
                key=True,
                about=("@flow", name),
            )
    for name in spec.actions:
        if name not in used_actions and not unknown["trigger"]:
            report.add(
                ("actions", name),
                f"action '{name}' is used by no transition",
                key=True,
                severity="warning",
            )
    for name in spec.conditions:
        used = any(name in t.conditions or name in t.unless for t in flow.transitions)
        if not used and not unknown["condition"]:
            report.add(
                ("conditions", name),
                f"condition '{name}' is used by no transition",
                key=True,
                severity="warning",
            )


# --- public ------------------------------------------------------------------------------


def _analyse(path: Path, display: str) -> tuple[GameSpec | None, list[Diagnostic]]:
    try:
        source = _read(path, display, ())
    except RuleError as exc:
        return None, exc.diagnostics
    report = _Report(source)
    report.items += source.problems
    try:
        spec = GameSpec.model_validate(source.data)
    except ValidationError as exc:
        _schema_errors(exc, source, report)
        _check_meaning_of_the_rest(exc, source, report)
        return None, report.items
    _check_meaning(spec, report)
    return (None if source.problems else spec), report.items


def _check_meaning_of_the_rest(exc: ValidationError, source: _Source, report: _Report) -> None:
    """After schema errors, check the meaning of everything else, so one round shows all.

    The entries with schema errors (a pile group, an action, a deal step, a transition ...)
    are left out and the rest is validated again; findings that involve a left-out name, or a
    count or flow that the left-out parts would change, are not reported.
    """
    repaired = _without_broken_parts(source.data, exc)
    if repaired is None:
        return
    data, names, sections = repaired
    try:
        spec = GameSpec.model_validate(data)
    except ValidationError:
        return
    rest = _Report(source)
    _check_meaning(spec, rest)
    # ``sections`` tags the whole-file checks ('@deal', '@flow') and the kinds of name
    # ('@piles', '@states') a left-out part could change; ``names``, the left-out names.
    report.items += [
        d for d in rest.items if d.severity == "error" and not d.about & (names | sections)
    ]


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


def _without_broken_parts(
    data: Any, exc: ValidationError
) -> tuple[dict[str, Any], set[str], set[str]] | None:
    """A copy of ``data`` without the parts that have schema errors (None: nothing to check)."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    names: set[str] = set()
    sections: set[str] = set()
    drop_items: dict[str, set[int]] = {}
    errors = exc.errors()
    for err in errors:
        if _follows_from_another(err, errors):
            continue  # the rejected item is handled
        path = _data_path(data, tuple(err["loc"]))
        head = path[0] if path else None
        if len(path) > 2 and err["type"] != "missing" and _optional(data, path):
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
        elif head in ("score", "aliases", "description", "layout", "decks", "remove"):
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


def check_rules(path: str | Path) -> list[Diagnostic]:
    """Every problem of a rule file, errors and warnings, in file order."""
    p = Path(path)
    _, items = _analyse(p, _display(p) if p.is_absolute() else str(path))
    return sorted(items, key=lambda d: (d.file != str(path), d.file, d.line, d.column))


def load_rules(path: str | Path) -> GameSpec:
    """The GameSpec of a rule file; RuleError (with every error) when it has errors."""
    p = Path(path)
    spec, items = _analyse(p, _display(p) if p.is_absolute() else str(path))
    errors = [d for d in items if d.severity == "error"]
    if errors or spec is None:
        raise RuleError(sorted(errors, key=lambda d: (d.file, d.line, d.column)))
    return spec
