"""The compiled accept tables come back from the cache in the build that runs, compiled or
pure: a game's second start reads them and writes nothing."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from yaml_solitaire.engine import load_game
from yaml_solitaire.rules import game_names

VOCAB = Path(__file__).resolve().parent / "vocab"
# The shipped games, and rule files of the vocabulary's tests for the rules none of them uses.
GAMES = [*game_names(), *(str(VOCAB / f"{name}.yaml") for name in ("follows", "follows_above"))]


@pytest.mark.parametrize("game", GAMES)
def test_every_accept_rule_survives_a_pickle_and_the_cache(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("SOLITAIRE_NO_CACHE", raising=False)
    rules = load_game(game).layout.accepts
    assert pickle.loads(pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)) == rules
    (table,) = tmp_path.rglob("accepts/*.json")
    again = load_game(game).layout.accepts  # read back from the cache
    assert again == rules and again is not rules
    table.unlink()


def test_a_second_start_reads_the_tables_and_writes_none(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    # Aces Up: a rule that reads another pile (beside), whose tables nest.
    program = "from yaml_solitaire.engine import load_game; load_game('aces-up')"
    subprocess.run([sys.executable, "-c", program], env=env, check=True, timeout=120)
    (table,) = (tmp_path / "cache").rglob("accepts/*.json")
    before = table.stat().st_mtime_ns
    subprocess.run([sys.executable, "-c", program], env=env, check=True, timeout=120)
    assert list((tmp_path / "cache").rglob("accepts/*.json")) == [table]
    assert table.stat().st_mtime_ns == before


def test_an_entry_writes_each_repeated_table_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piles share their accept tables and rows of them: the cache writes each once, so an
    entry stays small and is read faster than the tables are made again (Montana's was 1.3 MB
    when every pile's tables were written out)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for game_id in ("montana", "big-ben", "clock", "spider"):
        fresh = load_game(game_id)
        assert load_game(game_id).layout.accepts == fresh.layout.accepts  # read back alike
    entries = list((tmp_path / "yaml-solitaire" / "accepts").glob("*.json"))
    assert len(entries) == 4
    assert max(entry.stat().st_size for entry in entries) < 100_000
