"""benchmarks/mutants.py: every planted bug still finds the text it changes.

A mutant whose text the code no longer holds cannot be planted, and the harness stops on it; a
refactor that moves such a line must move the mutant with it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_mutant_changes_exactly_one_place() -> None:
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "benchmarks" / "mutants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants"] = module
    spec.loader.exec_module(module)
    misplaced = [
        (m.id, (ROOT / m.file).read_text(encoding="utf-8").count(m.old))
        for m in module.MUTANTS
        if (ROOT / m.file).read_text(encoding="utf-8").count(m.old) != 1
    ]
    assert not misplaced, misplaced
