"""Rule records behave as frozen keyword-only dataclasses, also when they come back from the
cache in a fresh process (their methods are made when first called) and whatever is called
first."""

from __future__ import annotations

import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yaml_solitaire.engine.game.load import check_game, read_game_rules
from yaml_solitaire.rules import CatalogEntry, shipped_games


def records(value: object) -> Iterator[Any]:
    """Every record a spec holds, the spec included."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for f in dataclasses.fields(value):
            yield from records(getattr(value, f.name))
    elif isinstance(value, dict):
        for child in value.values():
            yield from records(child)
    elif isinstance(value, tuple):
        for child in value:
            yield from records(child)


def expected_repr(record: Any) -> str:
    shown = ", ".join(
        f"{f.name}={getattr(record, f.name)!r}" for f in dataclasses.fields(record) if f.repr
    )
    return f"{type(record).__qualname__}({shown})"


def hashed(record: Any) -> int | str:
    try:
        return hash(record)
    except TypeError as error:
        return str(error)


def check(record: Any) -> None:
    cls = type(record)
    values = {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}
    same = pickle.loads(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
    assert same == record
    assert (same != record) is False
    assert hashed(same) == hashed(record)  # records that hold a dict are unhashable
    assert repr(record) == expected_repr(record)
    assert cls(**values) == record
    assert dataclasses.replace(record) == record
    assert record != object()
    parameters = inspect.signature(cls).parameters
    assert list(parameters) == [f.name for f in dataclasses.fields(cls) if f.init]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters.values())
    for f in dataclasses.fields(record):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, f.name, values[f.name])
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(record, f.name)
    with pytest.raises(TypeError):
        cls(**values, no_such_field=1)


@pytest.mark.parametrize("game", shipped_games(), ids=lambda e: e.id)
def test_every_record_of_a_game_is_a_frozen_keyword_only_dataclass(game: CatalogEntry) -> None:
    spec = read_game_rules(game.path)
    found = list(records(spec))
    assert len(found) > 5
    for record in found:
        check(record)
    other = dataclasses.replace(spec, name=spec.name + " (a variant)")
    assert other != spec and other.name != spec.name


# Each first call, in a process of its own that has just read the cached records.
FIRST_CALLS = {
    "eq": "assert spec == pickle.loads(pickle.dumps(spec))",
    "hash": "assert hash(spec.score) == hash(pickle.loads(pickle.dumps(spec.score)))",
    "repr": "assert repr(spec).startswith('GameSpec(id=')",
    "init": "assert type(spec)(**{f.name: getattr(spec, f.name) for f in fields(spec)}) == spec",
    "replace": "assert replace(spec, name='x').name == 'x'",
    "setattr": "exec('try:\\n spec.name = 1\\nexcept FrozenInstanceError: pass\\nelse: 1/0')",
}


@pytest.mark.parametrize("first", FIRST_CALLS)
def test_cached_records_work_whatever_is_called_first(tmp_path: Path, first: str) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    program = (
        "import pickle\n"
        "from dataclasses import FrozenInstanceError, fields, replace\n"
        "from yaml_solitaire.engine.game.load import check_game, read_game_rules\n"
        "spec = read_game_rules('games/klondike.yaml')\n"
    )
    root = Path(__file__).resolve().parents[1]
    for _ in range(2):  # the first run validates and caches, the second reads the cache
        subprocess.run(
            [sys.executable, "-c", program + FIRST_CALLS[first]],
            env=env,
            cwd=root,
            check=True,
            timeout=120,
        )
    assert list((tmp_path / "cache").rglob("rules/*.json"))


def test_other_frozen_dataclasses_keep_their_positional_form() -> None:
    broken = Path(__file__).resolve().parent / "broken" / "bad_base_card.yaml"
    diagnostic = check_game(broken)[0]
    entry = shipped_games()[0]
    for value in (diagnostic, entry):
        cls = type(value)
        values = [getattr(value, f.name) for f in dataclasses.fields(value)]
        assert cls(*values) == value and hash(cls(*values)) == hash(value)
        assert repr(value) == expected_repr(value)
        assert pickle.loads(pickle.dumps(value)) == value
        assert dataclasses.replace(value) == value
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)
