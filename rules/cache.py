"""A cache of validated rule files, so that playing a game never pays for validation twice.

Entries live in the user's cache directory (``XDG_CACHE_HOME``), keyed by a hash of the files'
bytes and of the rule language's own code; they are written atomically, and any entry that
cannot be read is simply rebuilt. ``SOLITAIRE_NO_CACHE`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import cache
from pathlib import Path
from typing import Any

FORMAT = 1


def _directory() -> Path | None:
    if os.environ.get("SOLITAIRE_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        root = Path(base)
    else:
        from platformdirs import user_cache_path

        root = user_cache_path(appauthor=False)
    return root / "yaml-solitaire"


@cache
def code_fingerprint(folders: tuple[Path, ...]) -> str:
    """Changes whenever the code in these folders (the rule language, a vocabulary) changes."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(str(FORMAT).encode())
    for folder in (here, here / "checks", *folders):
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(".py"):
                try:
                    info = entry.stat()
                except OSError:
                    continue
                digest.update(f"{entry.name}:{info.st_size}:{info.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]


def key(folders: tuple[Path, ...], *parts: bytes | str) -> str:
    """A cache key for these parts, valid while the code in ``folders`` is unchanged."""
    digest = hashlib.sha256(code_fingerprint(folders).encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def load(kind: str, name: str) -> Any:
    """The cached value, or None (absent, unreadable, or the cache is off)."""
    folder = _directory()
    if folder is None:
        return None
    try:
        with open(folder / kind / f"{name}.pickle", "rb") as handle:
            return pickle.load(handle)
    except Exception:  # any unreadable entry is a miss; it is rebuilt and replaced
        return None


def store(kind: str, name: str, value: Any) -> None:
    """Keep a value; failures (no cache directory, a full disk) are ignored: it is a cache."""
    folder = _directory()
    if folder is None:
        return
    try:
        target = folder / kind
        target.mkdir(parents=True, exist_ok=True)
        import tempfile  # only when an entry is written: a cached start does without

        fd, temp = tempfile.mkstemp(dir=target, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, target / f"{name}.pickle")
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except (OSError, pickle.PicklingError):
        pass
