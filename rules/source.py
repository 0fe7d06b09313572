"""Reading rule files: bounded YAML that keeps where every value came from, and ``extends``.

PyYAML's own loaders silently keep the last of duplicate keys, apply YAML 1.1 coercions (``no``
becomes False, ``1:30`` an int) and expand aliases without limit. Rule files are read through
the composed node tree instead, with YAML 1.2 core scalars, after a pass over the event stream
that bounds size, nesting and alias expansion; duplicates are reported, and every key path maps
back to a line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

import yaml

from .errors import Diagnostic, RuleError, printable
from .files import decode, read_bytes

Path = tuple[str | int, ...]

MAX_DEPTH = 32  # mappings and lists inside each other
MAX_VALUES = 50_000  # values in a document once aliases are expanded


class _Resolver(yaml.resolver.BaseResolver):
    """YAML 1.2 core schema: only true/false are booleans, only plain decimals are numbers."""


_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789")
)
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$"),
    list("-+.0123456789"),
)
_Resolver.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)


class _Composer(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    yaml.composer.Composer,
    _Resolver,
):
    """The pure-Python composer: slower, but its error messages are the ones explained below."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _Resolver.__init__(self)


_FAST: Any = None
if getattr(yaml, "__with_libyaml__", False):  # libyaml keeps positions too, and is faster
    _CParser: Any = getattr(getattr(yaml, "cyaml", None), "CParser", None)

    if _CParser is not None:

        class _CComposer(_CParser, _Resolver):  # type: ignore[misc]
            def __init__(self, stream: str) -> None:
                _CParser.__init__(self, stream)
                _Resolver.__init__(self)

        _FAST = _CComposer


@dataclass(frozen=True, slots=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class Document:
    """Plain data of a YAML document plus the position of every value and key."""

    data: Any
    values: dict[Path, Position] = field(default_factory=dict)
    keys: dict[Path, Position] = field(default_factory=dict)
    problems: list[tuple[Position, Path, str]] = field(default_factory=list)

    def where(self, path: Path, *, key: bool = False) -> Position:
        """The closest known position of ``path`` (walking up to its parents)."""
        probe = tuple(path)
        while True:
            if key and probe in self.keys:
                return self.keys[probe]
            if probe in self.values:
                return self.values[probe]
            if not probe:
                return Position(1, 1)
            probe = probe[:-1]


class YamlSyntaxError(Exception):
    def __init__(self, position: Position, message: str) -> None:
        self.position = position
        self.message = message
        super().__init__(message)


def _pos(node: yaml.Node | yaml.Event) -> Position:
    mark = node.start_mark
    return Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)


_SCALARS: dict[str, Any] = {
    "tag:yaml.org,2002:str": str,
    "tag:yaml.org,2002:int": int,
    "tag:yaml.org,2002:float": float,
    "tag:yaml.org,2002:bool": lambda v: v.lower() == "true",
    "tag:yaml.org,2002:null": lambda v: None,
}


def _build(node: yaml.Node, path: Path, doc: Document) -> Any:
    doc.values[path] = _pos(node)
    if isinstance(node, yaml.ScalarNode):
        if (bad := _escaped_character(node.value)) is not None:
            doc.problems.append((_pos(node), path, bad))
            return printable(node.value, None)
        convert = _SCALARS.get(node.tag)
        if convert is None:
            doc.problems.append((_pos(node), path, f"unsupported YAML tag {node.tag}"))
            return node.value
        try:
            return convert(node.value)
        except ValueError:
            doc.problems.append((_pos(node), path, f"cannot read {node.value!r} as {node.tag}"))
            return node.value
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), doc) for i, item in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                doc.problems.append((_pos(key_node), path, "a key must be a plain name"))
                continue
            key = key_node.value
            if (bad := _escaped_character(key)) is not None:
                doc.problems.append((_pos(key_node), path, bad))
                key = printable(key, None)
            if key in result:
                first = doc.keys[(*path, key)]
                doc.problems.append(
                    (
                        _pos(key_node),
                        (*path, key),
                        f"duplicate key '{key}' (first defined at line {first.line})",
                    )
                )
                continue
            doc.keys[(*path, key)] = _pos(key_node)
            result[key] = _build(value_node, (*path, key), doc)
        return result
    raise AssertionError(f"unexpected YAML node {node!r}")  # pragma: no cover


def _at(mark: yaml.Mark | None, text: str) -> Position:
    if mark is None:
        return Position(1, 1)
    lines = text.splitlines() or [""]
    if mark.line >= len(lines):  # the end of the stream: show the last line instead
        return Position(len(lines), len(lines[-1]) + 1)
    return Position(mark.line + 1, mark.column + 1)


# PyYAML's wording for the commonest mistakes, said in an author's terms. Each entry: words in
# the context, words in the problem, whether to point at where the context began, the message.
_PLAIN = [
    ("quoted scalar", "", True, "this quoted text is never closed: add the closing quote"),
    ("flow sequence", "", True, "this '[' list is not closed properly: check its ']' and commas"),
    ("flow mapping", "", True, "this '{' mapping is not closed properly: check its '}' and commas"),
    ("single document", "another document", False,
     "a rule file is one YAML document: remove the second '---' and what follows it"),
    ("", "'\\t'", False, "a tab character: YAML is indented with spaces only"),
]  # fmt: skip


def _syntax_error(exc: yaml.MarkedYAMLError, text: str) -> tuple[Position, str]:
    context, problem = exc.context or "", exc.problem or "invalid YAML"
    for in_context, in_problem, at_context, plain in _PLAIN:
        if in_context in context and in_problem in problem and (in_context or in_problem):
            mark = exc.context_mark if at_context and exc.context_mark else exc.problem_mark
            return _at(mark, text), f"YAML syntax error: {plain}"
    message = f"YAML syntax error: {problem}"
    if context and exc.context_mark is not None:
        where = _at(exc.context_mark, text)
        message += f" ({context} at line {where.line}, column {where.column})"
    return _at(exc.problem_mark or exc.context_mark, text), message


# What YAML allows in a file: tab, line breaks and printable characters (YAML 1.2, 5.1).
_NOT_ALLOWED = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _character_name(char: str) -> str:
    code = ord(char)
    return f"U+{code:04X}" if code > 0xFF else f"0x{code:02X}"


def _check_characters(text: str) -> None:
    bad = _NOT_ALLOWED.search(text)
    if bad is None:
        return
    line = text.count("\n", 0, bad.start()) + 1
    column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    raise YamlSyntaxError(
        Position(line, column),
        f"the character {_character_name(bad.group())} is not allowed in a rule file "
        "(a control or non-character)",
    )


def _escaped_character(value: str) -> str | None:
    """The problem with a value that an escape ('\\e', '\\x07') gave a character the file
    itself may not hold: every text a rule file gives is as printable as the file."""
    bad = _NOT_ALLOWED.search(value)
    if bad is None:
        return None
    return (
        f"the character {_character_name(bad.group())} (written as an escape) is not "
        "allowed in a rule file (a control or non-character)"
    )


def _check_bounds(parser: Any) -> None:
    """One pass over the event stream: nesting depth, and values once aliases are expanded."""
    sizes: dict[str, int] = {}  # anchor -> how many values it stands for
    open_nodes: list[list[Any]] = []  # [anchor, values so far] of each unclosed list or map
    total = 0

    def count(size: int, event: yaml.Event) -> None:
        nonlocal total
        total += size
        if total > MAX_VALUES:
            raise YamlSyntaxError(
                _pos(event),
                f"the document stands for more than {MAX_VALUES:,} values once its aliases "
                "are expanded; a rule file needs far fewer",
            )

    while (event := parser.get_event()) is not None:
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_nodes) >= MAX_DEPTH:
                raise YamlSyntaxError(
                    _pos(event), f"lists and mappings are nested more than {MAX_DEPTH} deep"
                )
            count(1, event)
            open_nodes.append([event.anchor, 1])
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_nodes.pop()
            if anchor is not None:
                sizes[anchor] = size
            if open_nodes:
                open_nodes[-1][1] += size
        elif isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):
            if isinstance(event, yaml.AliasEvent):
                if any(anchor == event.anchor for anchor, _ in open_nodes):
                    raise YamlSyntaxError(
                        _pos(event), f"the alias *{event.anchor} refers to a value it is inside"
                    )
                size = sizes.get(event.anchor or "", 1)
            else:
                size = 1
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            count(size, event)
            if open_nodes:
                open_nodes[-1][1] += size
        elif isinstance(event, yaml.StreamEndEvent):
            break


def read_yaml(text: str) -> Document:
    """Parse one YAML document; raise YamlSyntaxError with a position when it is not YAML."""
    _check_characters(text)
    node = None
    try:
        if _FAST is not None:
            try:
                _check_bounds(_FAST(text))
                node = _FAST(text).get_single_node()
            except yaml.YAMLError:
                node = None  # the pure-Python parser below explains the error in its words
        if node is None:
            _check_bounds(_Composer(text))
            node = _Composer(text).get_single_node()
    except yaml.MarkedYAMLError as exc:
        position, message = _syntax_error(exc, text)
        raise YamlSyntaxError(position, message) from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(Position(1, 1), f"YAML error: {exc}") from None
    doc = Document(data=None)
    if node is None:
        doc.values[()] = Position(1, 1)
        return doc
    doc.data = _build(node, (), doc)
    return doc


def read_document(path: FilePath, display: str) -> tuple[Document, bytes]:
    """A rule file read and parsed; RuleError with its position when it is not YAML."""
    raw = read_bytes(path, display)
    text = decode(raw, display)
    try:
        return read_yaml(text), raw
    except YamlSyntaxError as exc:
        raise RuleError(
            [Diagnostic(display, exc.position.line, exc.position.column, "", exc.message)]
        ) from None
