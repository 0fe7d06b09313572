"""The rule-file mutation fuzzer of tests/test_rule_mutants.py with a larger budget.

Mutants of every shipped game and Solvitaire preset (see tests/rule_mutants.py); each that
``validate --strict`` accepts is played at random with undo, drawn and solved briefly: every
card kept, no exception, at most 20 s of CPU and 2 GB of address space a mutant. A failure
is shrunk (fewest edits, fewest random actions) and printed with its rule file. Prints the
number of mutants, how many validated, the time taken and the findings; exit status 0 when
nothing was found.

Run: ``nice python benchmarks/rule_mutants.py [--accepted N] [--seed S] [--jobs J] [--start K]``
(mutants until N of them validated, 20,000 by default; J processes, 2 by default; from mutant
number K, 0 by default, to continue an earlier run: mutant K of a seed is the same whatever the
jobs and the start).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import rule_mutants

BATCH = 2000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--accepted", type=int, default=20_000, help="mutants that validate")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed, to repeat it")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument(
        "--start", type=int, default=0, help="first mutant number (to continue a run)"
    )
    args = parser.parse_args()
    began = time.monotonic()
    mutants = accepted = 0
    findings: list[rule_mutants.Finding] = []
    while accepted < args.accepted and len(findings) < 5:
        start = args.start + mutants
        part = rule_mutants.run(BATCH, seed=args.seed, jobs=args.jobs, start=start)
        mutants += part.mutants
        accepted += part.accepted
        findings += part.findings
        minutes = (time.monotonic() - began) / 60
        print(
            f"mutants {args.start:,}..{start + BATCH - 1:,}: {mutants:,} checked, "
            f"{accepted:,} validated, {minutes:.1f} min",
            flush=True,
        )
    for finding in findings:
        print(f"\n{finding.report()}")
    minutes = (time.monotonic() - began) / 60
    verdict = f"{len(findings)} FOUND (see above)" if findings else "nothing found"
    print(
        f"rule mutants: seed {args.seed}, mutants {args.start:,}..{args.start + mutants - 1:,}: "
        f"{mutants:,} checked, {accepted:,} validated "
        f"and played, {minutes:.1f} min with {args.jobs} jobs: {verdict}"
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
