"""The project's verdicts beside Solvitaire's, a solver no one here wrote, on the same deals.

For each deal of a Solvitaire preset written in our rule language (``tests/solvitaire/rules/``),
the project deals it (``--seed N``), solves it within a budget of positions, writes the same
position in Solvitaire's deal format and asks Solvitaire, within a budget of seconds. A deal
one solver wins and the other proves lost is a contradiction, reported deal by deal; the
script then exits 1, as it does when Solvitaire ends a deal without a verdict (it crashed or
refused the deal: a check that did not take place). ``--lost-only`` asks Solvitaire only
about the deals the project proves lost: the check of its proofs of loss, the claims a search
cannot confirm by replaying a line.

Solvitaire's deal format (its ``deal_parser.cpp``): every pile bottom card first; the tableau
piles in order (ours ``t1``, ``t2``, ...); a face-down card with its suit in lower case
(``"4d"``); the stock with its top card last; the reserve one card a pile, or, where it is
one pile of several cards (Canfield's 13, Solvitaire's "stacked" reserve, of which only the
top card plays), that pile's cards with its top card last; the foundations as a list of
cards, but for one foundation that takes a rank above or below its top (Black Hole):
Solvitaire's "hole", its top card alone. A preset whose rules ours translate only loosely can
be named instead of the file's own (``klondike:1-5@klondike-arbitrary-built-moves``:
Solvitaire's ``klondike`` moves part of a run only to uncover a card for a foundation, our file
any part). Where our rules allow more than the preset, a win of Solvitaire's against our proof
of loss is still a contradiction.

Known differences: where Solvitaire's own code does not play the rules its preset states, a
verdict that differs for that reason is listed as a known difference, with the reason, and is
no contradiction. The one known today: the presets that set ``only complete pile moves``
(Simple Simon, Spider, Spiderette, Will o' the Wisp, Mrs Mop): Solvitaire's rules parser reads
a key ``complete piles`` instead (its ``rules_parser.cpp`` at commit ``2815238``), so it
searches them with foundations that take any next card, where ours take only a finished
King-to-Ace run. Every win of ours is a win there too, but Solvitaire wins deals ours cannot:
its ``won`` beside our ``lost`` is the known difference; our ``won`` beside its ``lost`` is
still a contradiction.

Solvitaire is not packaged: build its ``solvitaire`` program from its source
(https://github.com/thecharlesblake/Solvitaire, C++14, needs Boost's program_options) and put
it on PATH or pass ``--solvitaire PATH``; without it the script says so and exits 2.

Run: ``python benchmarks/solvitaire_verdicts.py PRESET:SEEDS[@SOLVITAIRE_PRESET] ...
[--budget-nodes 2000] [--timeout 60] [--lost-only]``, e.g. ``fan:1-10 king-albert:1-10``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from yaml_solitaire.engine import Game, load_game
from yaml_solitaire.engine.core.cards import DOWN, MASK, card_text
from yaml_solitaire.engine.play.solver import Budget, Solver

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ROOT / "tests" / "solvitaire" / "rules"
RECORDS = ROOT / "tests" / "solvitaire" / "presets.yaml"  # Solvitaire's presets, option by option
INSTALL = (
    "solvitaire is not on PATH: build it from its source "
    "(https://github.com/thecharlesblake/Solvitaire; C++14 and Boost's program_options) "
    "and pass --solvitaire PATH"
)
# Solvitaire's "Solution Type" -> a verdict
ANSWERS = {"solved": "won", "unsolvable": "lost"}


def job(text: str) -> tuple[str, list[int], str]:
    """'fan:1-3,7@fan' -> ('fan', [1, 2, 3, 7], 'fan')."""
    match = re.fullmatch(r"([a-z0-9-]+):([0-9,-]+)(?:@([a-z0-9-]+))?", text)
    if not match or not (PRESETS / f"{match.group(1)}.yaml").exists():
        raise argparse.ArgumentTypeError(
            f"not PRESET:SEEDS with a file tests/solvitaire/rules/PRESET.yaml: {text[:40]!r}"
        )
    seeds: list[int] = []
    for part in match.group(2).split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise argparse.ArgumentTypeError(f"not a seed or a range of seeds: {part!r}")
        low, high = int(first), int(last) if dash else int(first)
        if not 1 <= low <= high:
            raise argparse.ArgumentTypeError(f"a range goes from low to high: {part!r}")
        seeds += [s for s in range(low, high + 1) if s not in seeds]
    return match.group(1), seeds, match.group(3) or match.group(1)


def sv_card(card: int, face_down_allowed: bool) -> str:
    """A card as Solvitaire writes it: our card text, its suit in lower case when face down."""
    text = card_text(card)
    if card & DOWN:
        if not face_down_allowed:
            raise ValueError(f"a face-down {text} where Solvitaire's format has none")
        return text[:-1] + text[-1].lower()
    return text


def deal_json(game: Game, seed: int) -> dict[str, object]:
    """The deal ``seed`` of ``game`` in Solvitaire's format (see the module's text)."""
    state = game.deal_seed(seed)
    piles = dict(zip(game.layout.names, state.piles, strict=True))
    # The piles of each kind by their names (t1, t2, ...), in order.
    kinds: dict[str, list[str]] = {}
    for name in piles:
        if re.fullmatch(r"[tfrc]\d+", name):
            kinds.setdefault(name[0], []).append(name)
    for names in kinds.values():
        names.sort(key=lambda n: int(n[1:]))
    tableau, home, reserve, cells = (kinds.get(k, []) for k in "tfrc")
    out: dict[str, object] = {}
    if tableau:
        out["tableau piles"] = [[sv_card(c, True) for c in piles[n]] for n in tableau]
    if cards := [sv_card(c, False) for n in home for c in piles[n]]:
        if _is_hole(game):  # Solvitaire's "hole": its top card alone
            out["hole"] = cards[-1]
        else:
            out["foundations"] = cards
    if len(reserve) == 1:  # one pile: Solvitaire's stacked reserve, its top card last
        out["reserve"] = [sv_card(c, False) for c in piles[reserve[0]]]
    elif reserve:
        if any(len(piles[n]) != 1 for n in reserve):
            raise ValueError("several reserve piles, one of more than one card")
        out["reserve"] = [sv_card(piles[n][0], False) for n in reserve]
    if "s" in piles:  # our stock lies face down; its top card, dealt first, is the last
        out["stock"] = [sv_card(c & MASK, False) for c in piles["s"]]
    if "w" in piles:
        out["waste"] = [sv_card(c, False) for c in piles["w"]]
    if any(piles[n] for n in cells):
        raise ValueError("cards in free cells, which Solvitaire's format cannot hold")
    known = {*tableau, *home, *reserve, *cells, "s", "w"}
    if left := [n for n in piles if n not in known and piles[n]]:
        raise ValueError(f"piles Solvitaire's format has no place for: {', '.join(left)}")
    return out


def known_difference(preset: str) -> str | None:
    """Why Solvitaire's preset ``preset`` may win a deal our rule file proves lost, where its
    code plays other rules than the preset states (see the module's text); None if not."""
    records = yaml.safe_load(RECORDS.read_text(encoding="utf-8"))["presets"]
    for name, record in records.items():
        if preset == name or preset in record.get("also", []):
            options = record.get("options", {})
            if options.get("foundations", {}).get("only complete pile moves"):
                return (
                    "Solvitaire's parser reads 'complete piles', not the preset's 'only complete"
                    " pile moves': it lets single cards go home, ours only finished runs"
                )
    return None


def compare(name: str, ours: str, theirs: str, known: str | None) -> tuple[str, str] | None:
    """A contradiction ('contradiction', text) or a known difference ('known', text) between
    the project's verdict and Solvitaire's on deal ``name``; None when they agree or one is
    undecided. ``known``: the preset's known difference (``known_difference``)."""
    if {ours, theirs} != {"won", "lost"}:
        return None
    text = f"{name}: Solvitaire says {theirs}, the project {ours}"
    if known is not None and theirs == "won":
        return "known", f"{text} (known difference: {known})"
    return "contradiction", text


def _is_hole(game: Game) -> bool:
    """Whether Solvitaire's format holds the game's one foundation as a "hole" (a pile that
    takes a card a rank above or below its top, as in Black Hole): such a preset refuses a deal
    that gives it as foundations (Solvitaire crashes)."""
    groups = [g for g in game.spec.piles.values() if g.role == "foundation"]
    if len(game.foundations) != 1 or len(groups) != 1:
        return False
    accepts = groups[0].accepts
    return accepts is not None and accepts.build == "up_or_down"


def ask_solvitaire(
    program: str, preset: str, deal: dict[str, object], seconds: float
) -> tuple[str, float]:
    """Solvitaire's verdict on a deal ('won', 'lost' or 'unknown', or 'failed' when it ended
    without one: it crashed or refused the deal) and its seconds."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.json"
        path.write_text(json.dumps(deal), encoding="utf-8")
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [program, "--type", preset, "--timeout", str(int(seconds * 1000)), str(path)],
                capture_output=True, text=True, timeout=seconds * 3 + 30, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return "unknown", time.perf_counter() - start
        found = re.search(r"Solution Type: (\S+)", done.stdout)
        if found is None:
            return "failed", time.perf_counter() - start
        return ANSWERS.get(found.group(1), "unknown"), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("jobs", nargs="+", type=job, help="PRESET:SEEDS[@SOLVITAIRE_PRESET]")
    parser.add_argument("--budget-nodes", type=int, default=2000, help="the project's budget")
    parser.add_argument("--timeout", type=float, default=60, help="Solvitaire's seconds a deal")
    parser.add_argument("--lost-only", action="store_true", help="ask only of deals proved lost")
    parser.add_argument("--solvitaire", help="the solvitaire program (default: on PATH)")
    args = parser.parse_args()
    program = args.solvitaire or shutil.which("solvitaire")
    if program is None:
        print(INSTALL, file=sys.stderr)
        raise SystemExit(2)
    both = 0
    contradictions: list[str] = []
    known: list[str] = []
    failed: list[str] = []
    print(f"{'deal':32} {'project':>8} {'solvitaire':>10} {'seconds':>8}")
    for preset, seeds, theirs in args.jobs:
        game = load_game(str(PRESETS / f"{preset}.yaml"))
        solver = Solver(game)
        for seed in seeds:
            ours = solver.solve(game.deal_seed(seed), Budget(nodes=args.budget_nodes)).result
            if args.lost_only and ours != "lost":
                continue
            name = f"{preset}:{seed}" + (f"@{theirs}" if theirs != preset else "")
            try:
                deal = deal_json(game, seed)
            except ValueError as problem:  # a layout Solvitaire's format cannot hold
                print(f"{name:32} {ours:>8} {'-':>10}  not asked: {problem}", flush=True)
                continue
            verdict, seconds = ask_solvitaire(program, theirs, deal, args.timeout)
            print(f"{name:32} {ours:>8} {verdict:>10} {seconds:8.1f}", flush=True)
            if verdict == "failed":
                failed.append(name)
            elif "unknown" not in (ours, verdict):
                both += 1
                found = compare(name, ours, verdict, known_difference(theirs))
                if found is not None:
                    (known if found[0] == "known" else contradictions).append(found[1])
    for line in known:
        print(line)
    for line in contradictions:
        print(line)
    if failed:  # a check that did not take place is no check
        print(f"Solvitaire gave no verdict (it crashed or refused the deal) on {len(failed)}"
              f" deals: {', '.join(failed)}")  # fmt: skip
    if contradictions or failed:
        raise SystemExit(1)
    aside = f"; {len(known)} known differences" if known else ""
    print(f"verdicts: no contradiction ({both} deals decided by both{aside})")


if __name__ == "__main__":
    main()
