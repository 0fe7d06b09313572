"""The vocabulary loads lazily: a cached game imports only the entries its rule file uses, and
the reference lists the entries in one order whichever were imported first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

EFFECTS = "yaml_solitaire.engine.vocab.effects."


def run(program: str, home: Path) -> object:
    """The JSON a fresh interpreter prints for ``program``, with a cache of its own."""
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"))
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(program)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


LOAD = """
    import json, sys
    from yaml_solitaire.engine import load_game
    game = load_game({game!r})
    state = game.deal_seed(1)
    print(json.dumps({{
        "modules": sorted(m for m in sys.modules if m.startswith("yaml_solitaire.engine.vocab")),
        "validated": "pydantic" in sys.modules,
        "actions": len(game.legal_actions(state)),
    }}))
"""


def cached_start(game: str, home: Path) -> dict[str, object]:
    run(LOAD.format(game=game), home)  # validates the rule file and fills the cache
    found = run(LOAD.format(game=game), home)
    assert isinstance(found, dict)
    return found


def test_a_cached_game_imports_only_the_entries_it_uses(tmp_path: Path) -> None:
    clock = cached_start("clock", tmp_path)  # one action, a chain; two tests
    assert clock["validated"] is False
    modules = clock["modules"]
    assert isinstance(modules, list)
    assert EFFECTS + "chains" in modules
    for unused in ("dealing", "moves", "moves_spec", "removal", "turning"):
        assert EFFECTS + unused not in modules
    assert clock["actions"]


def test_a_spec_kept_apart_brings_its_implementation(tmp_path: Path) -> None:
    """A move's spec lives in moves_spec, its compiled implementation in moves: looking it up
    imports moves, and no other family of effects."""
    klondike = cached_start("klondike", tmp_path)
    modules = klondike["modules"]
    assert isinstance(modules, list)
    assert EFFECTS + "moves" in modules and EFFECTS + "moves_spec" in modules
    assert EFFECTS + "removal" not in modules
    assert klondike["actions"]


ORDER = """
    import importlib, json
    for module in {first!r}:
        importlib.import_module("yaml_solitaire.engine.vocab.effects." + module)
    from yaml_solitaire.engine.vocab import VOCABULARY
    print(json.dumps([VOCABULARY.tags(kind) for kind in ("effects", "tests", "deal_steps")]))
"""


def test_the_reference_order_does_not_depend_on_what_was_imported_first(tmp_path: Path) -> None:
    plain = run(ORDER.format(first=[]), tmp_path)
    reordered = run(ORDER.format(first=["turning", "removal", "moves"]), tmp_path)
    assert reordered == plain
    assert isinstance(plain, list) and len(plain[0]) > 10
