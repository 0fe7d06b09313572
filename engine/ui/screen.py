"""Styled lines for a terminal, or plain text: what the board and the game's messages are made of.

A ``Line`` is a list of spans, each a piece of text with a style (space-separated words:
``bold``, ``dim``, ``underline``, ``red``, ``green``, ``yellow``, ``cyan``). A ``Screen`` writes
lines to a stream: with ANSI colour codes on a terminal, as plain text otherwise (a pipe, a
file, ``NO_COLOR`` set, ``TERM=dumb``, or ``--ascii``). Writing the codes directly keeps a game's
start free of a rendering library: the board is a few dozen short lines.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TextIO

_SGR = {
    "bold": "1",
    "dim": "2",
    "underline": "4",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "cyan": "36",
}


class Line:
    """Text in spans, each with a style; ``len`` is its width on screen."""

    __slots__ = ("spans",)

    def __init__(self, text: str = "", style: str = "") -> None:
        self.spans: list[tuple[str, str]] = [(text, style)] if text else []

    def add(self, text: str, style: str = "") -> Line:
        if text:
            self.spans.append((text, style))
        return self

    def extend(self, other: Line) -> Line:
        self.spans.extend(other.spans)
        return self

    def pad(self, width: int) -> Line:
        """This line followed by spaces up to ``width``."""
        return self.add(" " * (width - len(self)))

    def __len__(self) -> int:
        return sum(len(text) for text, _ in self.spans)

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.spans)

    def ansi(self) -> str:
        out: list[str] = []
        for text, style in self.spans:
            codes = ";".join(_SGR[w] for w in style.split() if w in _SGR)
            out.append(f"\x1b[{codes}m{text}\x1b[0m" if codes else text)
        return "".join(out)


def wants_colour(stream: TextIO, ascii_only: bool = False) -> bool:
    """Colour (and suit symbols) for this stream: a terminal, unless the user asked for plain."""
    if ascii_only or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError):
        return False
    encoding = getattr(stream, "encoding", None) or "utf-8"  # None: a stream of text
    try:
        "♣♦♥♠".encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return False
    return True


class Screen:
    """Writes lines to a stream, in colour or plain."""

    def __init__(self, stream: TextIO | None = None, colour: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.colour = wants_colour(self.stream) if colour is None else colour

    def width(self, default: int = 80) -> int:
        """The terminal's width; off a terminal ``COLUMNS`` or ``default``."""
        try:
            if self.stream.isatty():
                return os.get_terminal_size(self.stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            pass
        try:
            return int(os.environ.get("COLUMNS", "")) or default
        except ValueError:
            return default

    def height(self, default: int = 24) -> int:
        """The terminal's height in lines; off a terminal ``LINES`` or ``default``."""
        try:
            if self.stream.isatty():
                return os.get_terminal_size(self.stream.fileno()).lines
        except (AttributeError, ValueError, OSError):
            pass
        try:
            return int(os.environ.get("LINES", "")) or default
        except ValueError:
            return default

    def write(self, lines: Iterable[Line | str]) -> None:
        for line in lines:
            text = line if isinstance(line, str) else line.ansi() if self.colour else line.plain
            self.stream.write(text.rstrip() + "\n")
        self.stream.flush()

    def say(self, text: str) -> None:
        self.write(text.split("\n"))
