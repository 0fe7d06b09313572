"""Start-up time of the command line, against a bare Python that imports argparse.

Runs, interleaved and many times over, ``python -c "import argparse"``, ``solitaire --help``
and ``solitaire play clock --seed 1`` (a cached game start: validated rule files are cached, so
the first run of each is a warm-up and not counted), and prints the median time of each and the
ratios side by side. The targets: --help within 2x the bare start, a Clock game within 4x.

    python benchmarks/startup.py [--runs 30]

Bytecode is written and used as in a normal installation (PYTHONDONTWRITEBYTECODE is removed
from the environment), and the runs use a temporary cache and data folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def solitaire_command() -> list[str]:
    script = Path(sys.executable).parent / "solitaire"
    if script.exists():
        return [str(script)]
    found = shutil.which("solitaire")
    return [found] if found else [sys.executable, "-m", "yaml_solitaire.engine"]


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each (default 30)")
    args = parser.parse_args()
    solitaire = solitaire_command()
    commands = {
        "python -c 'import argparse'": [sys.executable, "-c", "import argparse"],
        "solitaire --help": [*solitaire, "--help"],
        "solitaire play clock --seed 1": [*solitaire, "play", "clock", "--seed", "1"],
    }
    with tempfile.TemporaryDirectory(prefix="solitaire-startup-") as home:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(XDG_CACHE_HOME=f"{home}/cache", XDG_DATA_HOME=f"{home}/data")
        for command in commands.values():  # warm-up: bytecode, the rule-file cache
            timed(command, env)
            timed(command, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(timed(command, env))
    base = statistics.median(next(iter(times.values())))
    print(f"{'command':<32} {'median':>9} {'min':>9} {'ratio':>7}  target")
    targets = ["", "2x", "4x"]
    for (name, values), target in zip(times.items(), targets, strict=True):
        median = statistics.median(values)
        print(
            f"{name:<32} {median * 1000:7.1f}ms {min(values) * 1000:7.1f}ms "
            f"{median / base:6.2f}x  {target}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
