"""The cache of validated rule files: a changed rule file (or a file it extends) or changed code
is read afresh, and an entry that cannot be read is rebuilt without a word."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from yaml_solitaire.rules import cache


def play(rule_file: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"))
    env.pop("SOLITAIRE_NO_CACHE", None)
    return subprocess.run(
        [sys.executable, "-m", "yaml_solitaire.engine", "play", str(rule_file), "--seed", "1"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def entries(home: Path) -> list[Path]:
    return sorted((home / "cache").rglob("rules/*.pickle"))


def test_an_edited_rule_file_and_the_file_it_extends_are_read_afresh(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for name in ("clock.yaml", "clock_peek.yaml"):
        shutil.copy(ROOT / "games" / name, games / name)
    parent, child = games / "clock.yaml", games / "clock_peek.yaml"
    child.write_text(child.read_text().replace("extends: clock\n", "extends: clock.yaml\n"))
    first = play(parent, tmp_path)
    assert first.returncode == 0 and first.stdout.startswith("Clock, seed 1")
    assert play(parent, tmp_path).stdout == first.stdout  # from the cache
    assert entries(tmp_path)
    parent.write_text(parent.read_text().replace("name: Clock\n", "name: Clock Two\n"))
    assert play(parent, tmp_path).stdout.startswith("Clock Two, seed 1")
    peek = play(child, tmp_path)
    assert peek.returncode == 0, peek.stderr
    assert play(child, tmp_path).stdout == peek.stdout  # from the cache
    # The variant has a name of its own; its cached spec follows the parent's rules, so
    # break the parent: the variant is then refused, not played from a stale entry.
    parent.write_text(parent.read_text().replace("flow:", "flow_is_gone:", 1))
    refused = play(child, tmp_path)
    assert refused.returncode == 1 and refused.stdout == ""


def test_a_corrupt_or_foreign_entry_is_rebuilt_silently(tmp_path: Path) -> None:
    clock = ROOT / "games" / "clock.yaml"
    first = play(clock, tmp_path)
    assert first.returncode == 0
    for garbage in (b"not a pickle", b"", pickle.dumps(("a tuple", "of the wrong kind"))):
        for entry in entries(tmp_path):
            entry.write_bytes(garbage)
        again = play(clock, tmp_path)
        assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)
        for entry in entries(tmp_path):
            assert entry.read_bytes() != garbage  # rewritten by the fresh load


def test_the_key_changes_with_the_code_of_its_folders(tmp_path: Path) -> None:
    folder = tmp_path / "vocab"
    folder.mkdir()
    code = folder / "entry.py"
    code.write_text("X = 1\n")
    before = cache.key((folder,), b"rule file")
    cache.code_fingerprint.cache_clear()
    assert cache.key((folder,), b"rule file") == before
    code.write_text("X = 22\n")
    cache.code_fingerprint.cache_clear()
    assert cache.key((folder,), b"rule file") != before
    assert cache.key((folder,), b"another rule file") != cache.key((folder,), b"rule file")
