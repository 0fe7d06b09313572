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


class Unreadable(Exception):
    """Why a file cannot be read, in a few words (the message)."""


def _problem(info: os.stat_result, limit: int) -> str | None:
    if stat.S_ISDIR(info.st_mode):
        return "a directory, not a file"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > limit:
        return f"the file is too large ({info.st_size:,} bytes; the limit is {limit:,})"
    return None


def _os_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    return f"cannot read the file: {exc.strerror or exc}"


def file_problem(path: str | FilePath, limit: int = MAX_BYTES) -> str | None:
    """Why ``path`` cannot be read as a file of at most ``limit`` bytes, in a few words; None
    when it can. Never raises, whatever the name (too long, in a folder that cannot be searched,
    a loop of links)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        return _os_problem(exc) if isinstance(exc, OSError) else "not a file name"
    return _problem(info, limit)


def is_file(path: FilePath) -> bool:
    """Whether ``path`` is a readable regular file (never raises, whatever the name)."""
    return file_problem(path) is None


def read_limited(path: str | FilePath, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; Unreadable otherwise.

    Devices, pipes and folders are refused before a byte is read: the file is opened without
    blocking (a FIFO with no writer does not hang) and checked again once open, so a file
    swapped after the first look is caught too; at most ``limit + 1`` bytes are ever read.
    """
    problem = file_problem(path, limit)
    if problem is not None:
        raise Unreadable(problem)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except (OSError, ValueError) as exc:
        raise Unreadable(
            _os_problem(exc) if isinstance(exc, OSError) else "not a file name"
        ) from None
    try:
        problem = _problem(os.fstat(fd), limit)
        if problem is not None:
            raise Unreadable(problem)
        chunks: list[bytes] = []
        size = 0
        while size <= limit and (chunk := os.read(fd, min(1 << 16, limit + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise Unreadable(_os_problem(exc)) from None
    finally:
        os.close(fd)
    if size > limit:  # it grew since it was looked at
        raise Unreadable(f"the file is too large (the limit is {limit:,} bytes)")
    return b"".join(chunks)


def read_bytes(path: FilePath, display: str) -> bytes:
    """A rule file's bytes; RuleError with one clear line when it cannot be read."""
    try:
        return read_limited(path, MAX_BYTES)
    except Unreadable as exc:
        raise RuleError([Diagnostic(display, 1, 1, "", str(exc))]) from None


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
