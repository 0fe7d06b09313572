"""The smaller faults of issue 35, each through the command line: messages that name their real
cause, saves that cannot be read listed with why, a history row or a results line that cannot
be read skipped and counted, and names ``new`` cannot write refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-m", "yaml_solitaire.engine"]


def solitaire(
    *args: str,
    home: Path,
    stdin: str = "",
    prefix: list[str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(home / "data"))
    return subprocess.run(
        [*(prefix or []), *COMMAND, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def permissions_bite() -> list[str]:
    """A prefix under which the folder permissions hold: none for a user, and for root the
    same root without the capabilities that pass over them."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permissions do not bite")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search"]


# --- messages name their real cause ------------------------------------------------------------


@pytest.fixture
def short_home() -> Iterator[Path]:
    """A home whose paths are short enough to be shown whole in messages."""
    home = Path(tempfile.mkdtemp(prefix="sf-"))
    yield home
    shutil.rmtree(home, ignore_errors=True)


def test_an_unreadable_data_folder_is_named_not_taken_for_the_output(short_home: Path) -> None:
    prefix = permissions_bite()
    data = short_home / "data" / "yaml-solitaire"
    data.mkdir(parents=True)
    data.chmod(0)
    try:
        run = solitaire(
            "play",
            "big-ben",
            "--seed",
            "3",
            "--line",
            home=short_home,
            stdin="t3\nq\n",
            prefix=prefix,
        )
    finally:
        data.chmod(0o700)
    assert "the output" not in run.stderr, run.stderr
    lines = run.stderr.splitlines()
    assert any(
        line.startswith(f"solitaire: cannot save the game in {data}/autosave/")
        and line.endswith("Permission denied")
        for line in lines
    ), run.stderr
    assert "history.sqlite3: cannot open it: Permission denied" in run.stderr
    assert "Traceback" not in run.stderr
    assert "Big Ben: 1 move" in run.stdout
