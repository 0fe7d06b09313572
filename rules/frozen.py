"""Frozen dataclasses that are quick to make: their generated methods are made when first called.

A standard dataclass compiles the source of six methods for each class when the class is made
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and the frozen ``__setattr__`` and
``__delattr__``): about a millisecond and a half a class here, which was most of a cached
game's start. ``frozen_dataclass`` makes a class that behaves as ``@dataclass(frozen=True)``
(``frozen_record`` as ``@dataclass(frozen=True, kw_only=True)``): its fields are read at once
(``dataclasses.fields`` works at once), the frozen ``__setattr__`` and ``__delattr__`` are
shared by all, ``__repr__`` is one function of the field names (as dataclasses writes it), and
the three others are made by ``dataclasses`` the first time one of them is called (for a class
of the same fields, and copied). A game read back from the cache fills
its records' ``__dict__`` without calling any of them. Methods a class defines itself are kept, as a
dataclass keeps them. The classes have no slots: the cache fills their ``__dict__``.
"""

from __future__ import annotations

import _thread
import dataclasses
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# The classes whose methods are still to be made: the names to make, and keyword-only or not.
_PENDING: dict[type, tuple[tuple[str, ...], bool]] = {}


@typing.dataclass_transform(frozen_default=True)
def frozen_dataclass(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True)``, its generated methods made when first called."""
    return _defer(cls, kw_only=False)


@typing.dataclass_transform(kw_only_default=True, frozen_default=True)
def frozen_record(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True, kw_only=True)``, its generated methods made when first called."""
    return _defer(cls, kw_only=True)


def _defer(cls: type[T], *, kw_only: bool) -> type[T]:
    if cls.__doc__ is None:  # dataclasses writes the signature there: a class must say more
        raise TypeError(f"{cls.__qualname__} needs a docstring")
    own = cls.__dict__
    for name in ("__setattr__", "__delattr__"):
        if name in own:  # as dataclasses refuses it for a frozen class
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    names = [name for name in ("__init__", "__eq__") if name not in own]
    class_hash = own.get("__hash__", dataclasses.MISSING)
    if class_hash is dataclasses.MISSING or (class_hash is None and "__eq__" in own):
        names.append("__hash__")  # a frozen dataclass hashes its fields
    made = dataclasses.dataclass(init=False, repr=False, eq=False, kw_only=kw_only)(cls)
    if "__repr__" not in own:  # the accept tables' cache key is a repr: made at once
        shown = tuple(f.name for f in dataclasses.fields(made) if f.repr)  # type: ignore[arg-type]
        setattr(made, "__repr__", _repr(made, shown))  # noqa: B010
    setattr(made, "__setattr__", _frozen_setattr)  # noqa: B010 (mypy: not an attribute)
    setattr(made, "__delattr__", _frozen_delattr)  # noqa: B010
    _PENDING[made] = (tuple(names), kw_only)
    for name in names:
        setattr(made, name, _deferred(made, name))
    return made


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


_RUNNING: set[tuple[int, int]] = set()


def _repr(cls: type, names: tuple[str, ...]) -> Callable[[Any], str]:
    """A dataclass's ``__repr__`` (``Name(field=value, ...)``, ``...`` for a record inside
    itself), without compiling one for each class."""

    def __repr__(self: Any) -> str:
        key = id(self), _thread.get_ident()
        if key in _RUNNING:
            return "..."
        _RUNNING.add(key)
        try:
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            _RUNNING.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
    return __repr__


def _deferred(cls: type, name: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        _complete(cls)
        return getattr(cls, name)(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


def _complete(cls: type) -> None:
    """Give a class the methods dataclasses makes for a frozen class of its fields."""
    pending = _PENDING.get(cls)
    if pending is None:
        return  # already complete
    names, kw_only = pending
    namespace: dict[str, Any] = {
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__,
        "__annotations__": {},
    }
    for f in dataclasses.fields(cls):
        namespace["__annotations__"][f.name] = f.type
        namespace[f.name] = dataclasses.field(
            default=f.default,
            default_factory=f.default_factory,
            init=f.init,
            repr=f.repr,
            hash=f.hash,
            compare=f.compare,
            metadata=f.metadata,
            kw_only=f.kw_only,
        )
    if hasattr(cls, "__post_init__"):
        namespace["__post_init__"] = cls.__post_init__
    twin: type = dataclasses.dataclass(frozen=True, kw_only=kw_only)(
        type(cls.__name__, (), namespace)
    )
    for name in names:
        setattr(cls, name, twin.__dict__[name])
    _PENDING.pop(cls, None)
