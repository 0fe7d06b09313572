"""Keystrokes for one whole Big Ben game (seed 3), typed the old way and the new way.

The game is the one won by hand in tests/data/big_ben_seed_3_win.txt: the same decisions,
typed as a player would, Enter included.

- before: every move as ``SOURCE TARGET`` and the actions by their keys (``g`` for fill, ``d``
  for draw), which the program already had; the literal script (``fill``, ``draw``) is shown too;
- after: a move whose pile name alone picks the same move (its only one, or the preferred one)
  is typed as the pile name; a move the program plays by itself (a safe move to a foundation,
  the forced finish) is not typed at all.

The new command list is then played through ``solitaire play big-ben --seed 3`` to check that it
wins with every command accepted.

    python benchmarks/keystrokes.py [--show]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from yaml_solitaire.engine import Session, load_game
from yaml_solitaire.engine.play import assist
from yaml_solitaire.engine.ui.cli import main as solitaire

SCRIPT = Path(__file__).resolve().parent.parent / "tests" / "data" / "big_ben_seed_3_win.txt"
SEED = 3


def typed(commands: list[str]) -> int:
    return sum(len(c) + 1 for c in commands)


def new_way(commands: list[str]) -> list[str]:
    """The commands a player types for the same game with the new program."""
    game = load_game("big-ben")
    session = Session(game, game.deal_seed(SEED))
    safe = assist.nowhere_else(game)
    home: assist.Safe = lambda _, a: a.dst in game.foundations  # noqa: E731
    out: list[str] = []
    for text in commands:
        if session.is_over():
            break
        action = game.parse_action(text)
        if action.src >= 0 and action.dst >= 0:
            found = assist.preferred(game, session.position, action.src)
            short = game.pile_names[action.src]
            out.append(short if found and found[0] == action else text)
        else:
            keys = game.effects[action.name].spec.keys
            out.append(keys[0] if keys else text)
        session.push(action)
        session.play_automatic(safe)
        if assist.finishing_moves(game, session.position) is not None:
            session.play_automatic(home)
    return out


def check(commands: list[str]) -> dict[str, object]:
    """Play the commands through the command line; the last JSON record."""
    stdin, out = sys.stdin, io.StringIO()
    sys.stdin = io.StringIO("".join(c + "\n" for c in commands))
    try:
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            solitaire(["play", "big-ben", "--seed", str(SEED), "--json", "--no-record"])
    finally:
        sys.stdin = stdin
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert all(r["ok"] for r in records), [r for r in records if not r["ok"]][:1]
    last: dict[str, object] = records[-1]
    return last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print the new command list")
    args = parser.parse_args()
    script = [c.strip() for c in SCRIPT.read_text(encoding="utf-8").splitlines() if c.strip()]
    keys = {"fill": "g", "draw": "d"}
    before = [keys.get(c, c) for c in script]
    after = new_way(script)
    end = check(after)
    assert end["result"] == "won", end["result"]
    by_name = sum(1 for a, b in zip(after, before, strict=False) if a != b and " " not in a)
    print(f"Big Ben, seed {SEED}, the game won by hand ({len(script)} commands):")
    print(f"  literal script ('fill', 'draw'):   {typed(script):4} keystrokes")
    print(f"  before (moves 'SRC DST', g, d):    {typed(before):4} keystrokes")
    print(
        f"  after (pile names, auto-finish):   {typed(after):4} keystrokes, {len(after)} commands "
        f"({by_name} moves by pile name alone, {len(script) - len(after)} played by the program)"
    )
    print(f"  saved: {1 - typed(after) / typed(before):.0%}; the new list wins: {end['result']}")
    if args.show:
        print(" ".join(after))
    return 0


if __name__ == "__main__":
    sys.exit(main())
