"""The cache of validated rule files: a changed rule file (or a file it extends) or changed code
is read afresh, an entry that cannot be read is rebuilt without a word, an entry is used only
for what it was made from, and it is plain data, read only from the user's own files."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from yaml_solitaire.rules import cache


def play(rule_file: Path | str, home: Path, seed: str = "1") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(home / "cache"), XDG_DATA_HOME=str(home / "data"))
    env.pop("SOLITAIRE_NO_CACHE", None)
    return subprocess.run(
        [sys.executable, "-m", "yaml_solitaire.engine", "play", str(rule_file), "--seed", seed],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def entries(home: Path, kind: str = "rules") -> list[Path]:
    return sorted((home / "cache").rglob(f"{kind}/*.json"))


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
    garbage_entries = (
        b"not json",
        b"",
        b'{"format": 2}',
        pickle.dumps(("a tuple", "of the wrong kind")),
    )
    for garbage in garbage_entries:
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


def test_swapped_entries_never_deal_another_game(tmp_path: Path) -> None:
    big_ben = play("big-ben", tmp_path, seed="3")
    assert big_ben.returncode == 0 and big_ben.stdout.startswith("Big Ben, seed 3")
    for game in ("klondike", "clock", "freecell"):
        assert play(game, tmp_path, seed="3").returncode == 0
    for kind in ("rules", "accepts", "catalog"):
        files = entries(tmp_path, kind)
        contents = [f.read_bytes() for f in files]
        for turn in range(1, len(files)):  # every entry gets each other entry's bytes in turn
            for i, file in enumerate(files):
                file.write_bytes(contents[(i + turn) % len(files)])
            again = play("big-ben", tmp_path, seed="3")
            assert (again.returncode, again.stdout, again.stderr) == (0, big_ben.stdout, "")
            contents = [f.read_bytes() for f in files]


def forge(home: Path, kind: str, victim: Path, source: Path) -> None:
    """Put ``source``'s entry where ``victim``'s is, relabelled with the victim's key: an entry
    the program would take for the victim's own, had it written it."""
    entry = json.loads(source.read_bytes())
    entry["key"] = json.loads(victim.read_bytes())["key"]
    victim.write_text(json.dumps(entry))


def test_an_entry_names_only_records_of_the_program(tmp_path: Path) -> None:
    clock = play("clock", tmp_path)
    assert clock.returncode == 0
    (entry,) = entries(tmp_path)
    marker = tmp_path / "ran"
    data = json.loads(entry.read_bytes())
    data["value"] = [{"r": "os:system", "v": {"command": f"touch {marker}"}}, []]
    entry.write_text(json.dumps(data))
    again = play("clock", tmp_path)
    assert (again.returncode, again.stdout) == (0, clock.stdout)
    assert not marker.exists()
    assert json.loads(entry.read_bytes())["value"] != data["value"]  # rebuilt


def game_id(entry: Path) -> str:
    """The id of the game whose rule file an entry keeps (its spec may be a shared value)."""
    data = json.loads(entry.read_bytes())
    spec = data["value"][0]
    while "s" in spec:
        spec = data["shared"][spec["s"]]
    return str(spec["v"]["id"])


def test_a_forged_entry_of_another_user_is_not_read(tmp_path: Path) -> None:
    if os.getuid() != 0:
        import pytest

        pytest.skip("giving a file to another user needs root")
    big_ben = play("big-ben", tmp_path, seed="3")
    klondike = play("klondike", tmp_path, seed="3")
    assert big_ben.returncode == klondike.returncode == 0
    by_name = {game_id(f): f for f in entries(tmp_path)}
    forge(tmp_path, "rules", by_name["big-ben"], by_name["klondike"])
    # Forged by the user, it is the user's own cache: used as it is (Klondike is dealt).
    assert play("big-ben", tmp_path, seed="3").stdout.startswith("Klondike")
    forge(tmp_path, "rules", by_name["big-ben"], by_name["klondike"])
    os.chown(by_name["big-ben"], 4321, 4321)
    assert play("big-ben", tmp_path, seed="3").stdout == big_ben.stdout
    forge(tmp_path, "rules", by_name["big-ben"], by_name["klondike"])
    os.chown(by_name["big-ben"], 0, 0)
    os.chown(by_name["big-ben"].parent, 4321, 4321)
    assert play("big-ben", tmp_path, seed="3").stdout == big_ben.stdout
