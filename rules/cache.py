"""A cache of validated rule files, so that playing a game never pays for validation twice.

Entries live in the user's cache directory (``XDG_CACHE_HOME``), named by a hash of what they
were made from (the rule file's bytes, the files it extends, the code of the rule language and
of the vocabulary) and holding that whole hash, so an entry is used only for what it was made
from: a renamed or swapped entry is a miss. They are plain JSON data, never pickles: reading one
makes only records of the classes the caller allows (``allowed``), so whoever can write the
cache cannot make the program run anything. A folder or entry owned by another user is not
read, nor written. Entries are written atomically; any that cannot be read is simply rebuilt.
``SOLITAIRE_NO_CACHE`` turns the cache off.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

FORMAT = 3
_SUFFIX = ".json"
_ROOT_PACKAGE = __name__.split(".")[0]


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


def _ours(path: Path) -> bool:
    """Whether a folder of the cache is a real folder of this user (not a link, not another's)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    import stat

    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()


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
    """A cache key for these parts, valid while the code in ``folders`` is unchanged.

    The whole hash is kept in the entry and checked when it is read; its first half names the
    entry's file.
    """
    digest = hashlib.sha256(code_fingerprint(folders).encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _file(folder: Path, kind: str, name: str) -> Path:
    return folder / kind / f"{name[:32]}{_SUFFIX}"


def load(kind: str, name: str, allowed: Callable[[type], bool]) -> Any:
    """The value kept under ``name``, or None (absent, unreadable, made for another key, holding
    a class ``allowed`` refuses, not this user's, or the cache is off)."""
    folder = _directory()
    if folder is None or not (_ours(folder) and _ours(folder / kind)):
        return None
    try:
        fd = os.open(_file(folder, kind, name), os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if os.fstat(handle.fileno()).st_uid != os.getuid():
                return None
            entry = json.loads(handle.read())
        if not (
            isinstance(entry, dict)
            and entry.get("format") == FORMAT
            and entry.get("key") == name
            and "value" in entry
            and isinstance(entry.get("shared"), list)
        ):
            return None
        shared: list[Any] = []
        for item in entry["shared"]:  # each refers only to those before it
            shared.append(_decode(item, allowed, shared))
        return _decode(entry["value"], allowed, shared)
    except Exception:  # any unreadable entry is a miss; it is rebuilt and replaced
        return None


def store(kind: str, name: str, value: Any) -> None:
    """Keep a value; failures (no cache directory, a full disk) are ignored: it is a cache."""
    folder = _directory()
    if folder is None:
        return
    try:
        target = folder / kind
        target.mkdir(parents=True, mode=0o700, exist_ok=True)
        if not (_ours(folder) and _ours(target)):
            return
        pool = _Pool()
        encoded = _encode(value, pool)
        text = json.dumps(
            {"format": FORMAT, "key": name, "value": encoded, "shared": pool.items},
            separators=(",", ":"),
        )
        import tempfile  # only when an entry is written: a cached start does without

        fd, temp = tempfile.mkstemp(dir=target, prefix=".tmp-", suffix=_SUFFIX)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(temp, _file(folder, kind, name))
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    except (OSError, TypeError, ValueError):
        pass


# --- plain data ------------------------------------------------------------------------------
# A tuple is a JSON list; everything else that is not a JSON scalar is an object of one key:
# {"m": {...}} a mapping with text keys, {"f": [...]} a frozenset, {"p": "..."} a path,
# {"r": "module:Class", "v": {...}} a record (a dataclass) by its fields. A record, a
# frozenset, and a tuple of more than a few items are written once, in the entry's list
# "shared", and referred to as {"s": N}: piles of a group share one accept rule, and accept
# tables repeat the same sets and rows; written out each time, they made entries of megabytes
# that took longer to read than to make again.

_SHARED_FROM = 4  # tuples shorter than this are written where they stand


class _Pool:
    """The values written once, in order: each refers only to values before it."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[str, int] = {}

    def refer(self, value: Any, encode: Callable[[], Any]) -> Any:
        key = repr(value)  # equal text, equal value (True and 1 stay apart, as == would not)
        found = self._index.get(key)
        if found is None:
            item = encode()
            found = self._index[key] = len(self.items)
            self.items.append(item)
        return {"s": found}


def _encode(value: Any, pool: _Pool) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        if len(value) < _SHARED_FROM:
            return [_encode(v, pool) for v in value]
        return pool.refer(value, lambda: [_encode(v, pool) for v in value])
    if isinstance(value, frozenset):
        return pool.refer(value, lambda: {"f": sorted(_encode(v, pool) for v in value)})
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("a mapping with keys that are not text")
        return {"m": {k: _encode(v, pool) for k, v in value.items()}}
    if isinstance(value, Path):
        return {"p": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)

        def record() -> Any:
            fields = {
                f.name: _encode(getattr(value, f.name), pool) for f in dataclasses.fields(cls)
            }
            return {"r": f"{cls.__module__}:{cls.__qualname__}", "v": fields}

        return pool.refer(value, record)
    raise TypeError(f"cannot keep a {type(value).__name__} in the cache")


_SCALARS = (type(None), bool, int, float, str)


def _decode(value: Any, allowed: Callable[[type], bool], shared: list[Any]) -> Any:
    if type(value) in _SCALARS:
        return value
    if type(value) is list:
        return tuple(v if type(v) in _SCALARS else _decode(v, allowed, shared) for v in value)
    if type(value) is not dict or len(value) not in (1, 2):
        raise ValueError("not cache data")
    if "s" in value:  # an index into the values already read (an IndexError is a miss too)
        index = value["s"]
        if type(index) is not int or index < 0:
            raise ValueError("not cache data")
        return shared[index]
    if "f" in value:  # of scalars only: anything else is unhashable, and refused by frozenset
        return frozenset(value["f"])
    if "m" in value:
        return {str(k): _decode(v, allowed, shared) for k, v in value["m"].items()}
    if "p" in value:
        return Path(value["p"])
    return _record(value["r"], value["v"], allowed, shared)


@cache
def _record_class(name: str) -> type:
    """The class a record names, from this package's own modules only."""
    module, _, qualname = name.partition(":")
    if not (module == _ROOT_PACKAGE or module.startswith(_ROOT_PACKAGE + ".")) or not qualname:
        raise ValueError(f"not a class of this program: {name}")
    found: Any = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    if not (isinstance(found, type) and dataclasses.is_dataclass(found)):
        raise ValueError(f"not a record class: {name}")
    return found


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def _record(name: Any, fields: Any, allowed: Callable[[type], bool], shared: list[Any]) -> Any:
    if not isinstance(name, str) or not isinstance(fields, dict):
        raise ValueError("not cache data")
    cls = _record_class(name)
    if not allowed(cls) or fields.keys() != _field_names(cls):
        raise ValueError(f"a record the cache may not hold: {name}")
    values = {k: _decode(v, allowed, shared) for k, v in fields.items()}
    if not cls.__dictoffset__:  # slots, or a compiled class: made by its own __init__
        return cls(**values)
    made: Any = object.__new__(cls)
    made.__dict__.update(values)  # as unpickling fills it: the records' __init__ is made lazily
    return made
