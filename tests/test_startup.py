"""Fast start and one package: what the command line imports, and what the package installs."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

from conftest import ROOT

HEAVY = ("rich", "transitions", "pydantic", "yaml", "sqlite3", "readline")


def imported_after(*argv: str) -> list[str]:
    """The heavy modules loaded by one run of the command line (in a fresh interpreter)."""
    code = (
        "import sys\n"
        "from yaml_solitaire.engine.ui.cli import main\n"
        f"code = main({list(argv)!r})\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", "import json\n" + code], capture_output=True, text=True, check=True
    )
    found: list[str] = json.loads(run.stdout.strip().splitlines()[-1])
    return found


def test_help_and_a_cached_game_that_plays_itself_import_little() -> None:
    help_run = subprocess.run(
        [sys.executable, "-c", "import sys\nfrom yaml_solitaire.engine.ui.cli import main\n"
         "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
         f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert help_run.stdout.strip().splitlines()[-1] == "[]"
    imported_after("play", "clock", "--seed", "1", "--no-record")  # fills the cache
    assert imported_after("play", "clock", "--seed", "1", "--no-record") == []


def test_the_distribution_claims_no_generic_top_level_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = project["tool"]["setuptools"]
    assert all(p.startswith("yaml_solitaire.") for p in setuptools["packages"])
    assert setuptools["package-dir"] == {"yaml_solitaire": "."}
    assert project["project"]["scripts"]["solitaire"].startswith("yaml_solitaire.")
