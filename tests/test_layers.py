"""The engine's layers import one way only: the core (cards, positions, keys, the layout view)
below the vocabulary, the vocabulary below the game (the ``Game`` facade, the flow, loading),
and none of them the player's programs above (``engine/play``, ``engine/ui``).

Read from the sources with ``ast``: every import counts, at the top of a module, inside a
function (imported late) or for the type checker only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "yaml_solitaire"
# Lowest first: a module may import its own layer and the layers before it.
LAYERS = ("engine.core", "engine.vocab", "engine.game", "engine.play", "engine.ui")
CHECKED = LAYERS[:3]


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def imported(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import of a source file, in line order."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            # 'from ..vocab import accepts' imports the submodule too
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return sorted(found)


def layer_of(module: str) -> int | None:
    for index, layer in enumerate(LAYERS):
        prefix = f"{PACKAGE}.{layer}"
        if module == prefix or module.startswith(prefix + "."):
            return index
    return None


def upward_imports(folder: Path, root: Path = ROOT) -> list[str]:
    """Every import of a module under ``folder`` that reaches a higher layer."""
    problems = []
    for path in sorted(folder.rglob("*.py")):
        own = layer_of(module_name(path, root))
        assert own is not None, path
        for line, target in imported(path, root):
            layer = layer_of(target)
            if layer is not None and layer > own:
                shown = path.relative_to(root)
                problems.append(f"{shown}:{line}: {LAYERS[own]} imports {target}")
    return problems


@pytest.mark.parametrize("layer", CHECKED)
def test_no_layer_imports_a_higher_one(layer: str) -> None:
    folder = ROOT.joinpath(*layer.split("."))
    assert folder.is_dir()
    assert upward_imports(folder) == []


def test_an_upward_import_is_found(tmp_path: Path) -> None:
    """The check sees an import planted in the core, relative or absolute, late or not."""
    lines = [
        "from ..vocab.accepts import compile_accepts",
        "from ...engine.game import game",
        "import yaml_solitaire.engine.play.solver",
        "def late() -> None:\n    from ..ui import render",
    ]
    core = tmp_path / "engine" / "core"
    core.mkdir(parents=True)
    (core / "planted.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = upward_imports(core, tmp_path)
    targets = [problem.rpartition(" imports ")[2] for problem in found]
    assert targets == [
        "yaml_solitaire.engine.vocab.accepts",
        "yaml_solitaire.engine.vocab.accepts.compile_accepts",
        "yaml_solitaire.engine.game",
        "yaml_solitaire.engine.game.game",
        "yaml_solitaire.engine.play.solver",
        "yaml_solitaire.engine.ui",
        "yaml_solitaire.engine.ui.render",
    ]


def test_the_player_layer_imports_no_front_end() -> None:
    """``engine/play`` (the player every front end shares) imports nothing from ``engine/ui``."""
    assert upward_imports(ROOT / "engine" / "play") == []


FRONT_ENDS = ("cli", "table", "web")


def front_end_crossings(root: Path = ROOT) -> list[str]:
    """Every import of one front end under ``engine/ui`` (line mode, the terminal table, the
    web server) by another: they live side by side over the shared player."""
    problems = []
    for own in FRONT_ENDS:
        folder = root / "engine" / "ui" / own
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else []:
            for line, target in imported(path, root):
                for other in FRONT_ENDS:
                    prefix = f"{PACKAGE}.engine.ui.{other}"
                    if other != own and (target == prefix or target.startswith(prefix + ".")):
                        problems.append(f"{path.relative_to(root)}:{line}: imports {target}")
    return problems


def test_front_ends_do_not_import_each_other() -> None:
    assert front_end_crossings() == []


def test_a_crossing_between_front_ends_is_found(tmp_path: Path) -> None:
    table = tmp_path / "engine" / "ui" / "table"
    table.mkdir(parents=True)
    (table / "planted.py").write_text("from ..cli.play import LineMode\n", encoding="utf-8")
    assert [p.rpartition(" imports ")[2] for p in front_end_crossings(tmp_path)] == [
        "yaml_solitaire.engine.ui.cli.play",
        "yaml_solitaire.engine.ui.cli.play.LineMode",
    ]
