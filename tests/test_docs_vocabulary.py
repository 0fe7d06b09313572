"""docs/vocabulary.md's worked example works: the entry it shows, added as shown, plays."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

from conftest import ROOT

PROGRAM = textwrap.dedent(
    """
    import dataclasses, sys
    from pathlib import Path
    from yaml_solitaire.engine.vocab import conditions, VOCABULARY
    from yaml_solitaire.engine.game.game import Game
    from yaml_solitaire.rules import load_rules

    namespace = dict(vars(conditions))
    exec(sys.stdin.read(), namespace)
    vocabulary = dataclasses.replace(VOCABULARY, tests=conditions.TESTS.specs())
    game = Game(load_rules(Path(sys.argv[1]), vocabulary))
    state = game.deal(list(game.cards))
    print(game.outcome(state))
    """
)

RULES = """\
extends: {base}
id: kings-on-top
name: Kings on top
conditions:
  all_home: {{test: top_rank, piles: [t1, t2], rank: K}}
"""


def test_the_worked_example_adds_a_test_that_plays(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    text = (ROOT / "docs" / "vocabulary.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    rules = tmp_path / "kings.yaml"
    rules.write_text(RULES.format(base=ROOT / "tests" / "vocab" / "_base" / "tableau.yaml"))
    # The canonical deck puts QC then KC on t1's top, and KD then ... : t1 shows 4C, t2 5C.
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(rules)],
        input=code,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "None", "the canonical deal shows no King on top: not won"
