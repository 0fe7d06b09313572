"""The fuzz properties of tests/test_fuzz.py with a larger budget.

Random rule files (mutations of the shipped games), decks, commands in 'play' and command
lines: no traceback, exit 0, 1 or 2, each answer within seconds, and a refused command leaves
the position as it was. The run is held to an address space of 2 GB, so that runaway memory
is a failure rather than a swapping machine. Prints the statistics of each property and the
time taken; exit status 0 when nothing was found.

Run: ``python benchmarks/fuzz.py [--examples N] [--seed S] [-k PROPERTY]`` (N per property,
5000 by default).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MEMORY = 2_000_000_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5000, help="examples per property")
    parser.add_argument("--seed", help="hypothesis seed, to repeat a run")
    parser.add_argument("-k", dest="only", help="only the properties matching this")
    args = parser.parse_args()
    os.environ["SOLITAIRE_FUZZ_EXAMPLES"] = str(args.examples)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    options = [
        str(ROOT / "tests" / "test_fuzz.py"),
        "-q",
        "-p",
        "no:cacheprovider",
        "--hypothesis-show-statistics",
        f"--rootdir={ROOT}",
    ]
    if args.seed:
        options.append(f"--hypothesis-seed={args.seed}")
    if args.only:
        options += ["-k", args.only]
    began = time.monotonic()
    code = pytest.main(options)
    minutes = (time.monotonic() - began) / 60
    verdict = "nothing found" if code == 0 else "FOUND PROBLEMS (see above)"
    print(f"fuzz: {args.examples} examples per property, {minutes:.1f} min: {verdict}")
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
