"""Reading rule files from disk: bounded, and every failure one short reason, never a traceback.

Kept apart from YAML parsing so that finding a cached game needs no YAML library at all.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path as FilePath

from .errors import Diagnostic, RuleError

MAX_BYTES = 1_000_000  # a rule file is a few kilobytes; this bounds memory and time
MAX_EXTENDS = 16  # files in an 'extends' chain


def file_problem(path: FilePath) -> str | None:
    """Why ``path`` cannot be read as a rule file, in a few words; None when it can."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read the file: {exc.strerror or exc}"
    if stat.S_ISDIR(info.st_mode):
        return "a directory, not a rule file"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > MAX_BYTES:
        return (
            f"the file is too large ({info.st_size:,} bytes; a rule file has at most {MAX_BYTES:,})"
        )
    return None


def is_file(path: FilePath) -> bool:
    """Whether ``path`` is a readable regular file (never raises, whatever the name)."""
    return file_problem(path) is None


def read_bytes(path: FilePath, display: str) -> bytes:
    """A rule file's bytes; RuleError with one clear line when it cannot be read."""
    problem = file_problem(path)
    if problem is None:
        try:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            problem = f"cannot read the file: {exc.strerror or exc}"
        else:
            if len(raw) <= MAX_BYTES:
                return raw
            problem = f"the file is too large (a rule file has at most {MAX_BYTES:,} bytes)"
    raise RuleError([Diagnostic(display, 1, 1, "", problem)])


def decode(raw: bytes, display: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read"
        raise RuleError([Diagnostic(display, line, column, "", message)]) from None


def resolved(path: FilePath) -> FilePath:
    """The absolute, resolved path (never raises: a path that cannot be resolved stays as is)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def display_path(path: FilePath) -> str:
    """A path as shown in messages: relative to the working directory when below it."""
    try:
        return str(resolved(path).relative_to(FilePath.cwd()))
    except (ValueError, OSError):
        return str(path)
