"""Mutation testing: does the test suite notice when the vocabulary or the flow is broken?

Each mutant below is one deliberate breakage of the engine (a rule ignored, an off-by-one, a
check removed). For each, the repository is copied, the mutant applied to the copy, and the
test suite run against the copy; a mutant that no test notices *survives*. The report lists
survivors, each with its description, so that a missing test can be written (or the mutant
explained as equivalent: a change that cannot alter behaviour).

Run from the repository root: ``python benchmarks/mutants.py [--jobs 2] [--only ID ...]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    old: str
    new: str
    what: str


V = "engine/vocab/"
MUTANTS = [
    # The breakages a review planted by hand (all of them went unnoticed once).
    Mutant("chain-dynamic-noop", V + "effects.py",
           "        work = [list(p) for p in piles]\n        current = self.start\n",
           "        return piles\n"
           "        work = [list(p) for p in piles]\n        current = self.start\n",
           "chain's pile-dependent path does nothing"),
    Mutant("chain-place-top-ignored", V + "effects.py",
           'self.bottom = spec.place == "bottom"', "self.bottom = True",
           "chain's place: top is ignored"),
    Mutant("exchange-take-top-ignored", V + "effects.py",
           'self.from_bottom = spec.take == "bottom"', "self.from_bottom = True",
           "exchange's take: top is ignored"),
    Mutant("deal-count-ignored", V + "effects.py",
           "self.count = spec.count", "self.count = 1", "deal's count is ignored"),
    Mutant("build-same-broken", V + "accepts.py",
           'lambda r, w: frozenset({r})', "lambda r, w: frozenset(range(1, 14))",
           "build: same accepts any rank"),
    Mutant("build-none-broken", V + "accepts.py",
           'BuildRule("nothing may be built on a card", lambda r, w: NOTHING)',
           'BuildRule("nothing may be built on a card", lambda r, w: frozenset({r}))',
           "build: none accepts the same rank"),
    Mutant("suit-different-broken", V + "accepts.py",
           "lambda s: frozenset(range(4)) - {s}", "lambda s: frozenset(range(4))",
           "suit: different accepts the same suit too"),
    Mutant("star-source-empty", "engine/core/flow.py",
           "expanded += [n for n, st in self.states.items() if st.outcome is None]",
           "expanded += []", "a '*' transition source stands for no state"),
    Mutant("apply-unchecked", "engine/core/game.py",
           "if t is None or t.effect is None or not t.effect.allows(state.piles, action):",
           "if t is None or t.effect is None:", "Game.apply no longer checks legality"),
    Mutant("face-down-piles-ignored", V + "conditions.py",
           "idx = layout.resolve(spec.piles) if spec.piles else tuple(range(len(layout)))",
           "idx = tuple(range(len(layout)))", "face_down ignores its piles"),
    Mutant("remove-wrong-copy", "engine/core/cards.py",
           "        for card in cards:\n            if FACE[card] == face:",
           "        for card in reversed(cards):\n            if FACE[card] == face:",
           "remove takes the last copy of a card, not the first"),
    Mutant("settle-one-step", "engine/core/flow.py",
           "for _ in range(len(self.states) + 1):", "for _ in range(1):",
           "settle follows one auto transition only"),
    Mutant("hint-ignores-seen", "engine/play/hints.py",
           "fresh = 0 if after in seen else 1", "fresh = 1",
           "the hint no longer prefers positions not seen before"),
    Mutant("need-wrong-going-down", "engine/ui/render.py",
           'if rule.build == "down":', 'if rule.build == "never":',
           "'need N' counts upward for a foundation that builds down"),
    Mutant("session-without-machine", "engine/play/session.py",
           "            return bool(self.machine.events[trigger].trigger(self._model, *args))",
           "            if trigger == AUTO:\n                return False\n"
           "            self.position = self.game.apply(self.position, args[0])  # type: ignore\n"
           "            return True",
           "Session plays through Game.apply; the phase machine is never used"),
    # Accept rules.
    Mutant("build-up-by-two", V + "accepts.py",
           '"up": BuildRule("one rank higher (with wrap: A on K)", lambda r, w: _step(r, 1, w))',
           '"up": BuildRule("one rank higher (with wrap: A on K)", lambda r, w: _step(r, 2, w))',
           "build: up steps by two"),
    Mutant("build-down-no-wrap", V + "accepts.py",
           "lambda r, w: _step(r, -1, w)", "lambda r, w: _step(r, -1, False)",
           "build: down ignores wrap"),
    Mutant("suit-alternate-same", V + "accepts.py",
           "lambda s: frozenset(x for x in range(4) if (x in _RED) != (s in _RED))",
           "lambda s: frozenset(x for x in range(4) if (x in _RED) == (s in _RED))",
           "suit: alternate asks for the same colour"),
    Mutant("suit-same-any", V + "accepts.py",
           'SuitRule("the same suit", lambda s: frozenset({s}))',
           'SuitRule("the same suit", lambda s: frozenset(range(4)))',
           "suit: same accepts any suit"),
    Mutant("min-cards-ignored", V + "accepts.py",
           '    def wanted(self, pile: tuple[int, ...]) -> frozenset[int]:\n'
           '        """The faces that may be put on top of ``pile``."""\n'
           "        if len(pile) < self.min_cards:",
           '    def wanted(self, pile: tuple[int, ...]) -> frozenset[int]:\n'
           '        """The faces that may be put on top of ``pile``."""\n'
           "        if False:",
           "min_cards is ignored for moves"),
    Mutant("complete-at-ignored", V + "accepts.py",
           "NOTHING if complete is not None and RANK[top] == complete else allowed(relation[top])",
           "allowed(relation[top])", "complete_at is ignored"),
    Mutant("empty-none-any", V + "accepts.py",
           '    elif spec.empty == "none":\n        on_empty = NOTHING',
           '    elif spec.empty == "none":\n        on_empty = allowed(ALL_FACES)',
           "empty: none accepts any card"),
    Mutant("rank-list-first-only", V + "accepts.py",
           "        return value[index]", "        return value[0]",
           "a list of ranks gives every pile the first rank"),
    Mutant("under-ignores-rank", V + "accepts.py",
           "under = [allowed(frozenset(x for x in range(52) if face in relation[x]))",
           "under = [(frozenset(x for x in range(52) if face in relation[x]))",
           "a card placed beneath a pile escapes the pile's rank limit"),
    Mutant("blind-nothing", V + "accepts.py",
           "blind = on_top[0] if independent else NOTHING", "blind = NOTHING",
           "a face-down neighbour blocks every rule"),
    # Effects.
    Mutant("move-bottom-card", V + "effects.py",
           "        card = piles[src][-1]\n        if trace is not None:\n"
           "            trace.append(Step(card, src, dst))\n"
           "        return _set(piles, src, piles[src][:-1], dst, piles[dst] + (card,))",
           "        card = piles[src][0]\n        if trace is not None:\n"
           "            trace.append(Step(card, src, dst))\n"
           "        return _set(piles, src, piles[src][1:], dst, piles[dst] + (card,))",
           "move_top moves the bottom card"),
    Mutant("move-onto-itself", V + "effects.py",
           "if face in wanted and dst != src:", "if face in wanted:",
           "move_top offers a move onto the same pile"),
    Mutant("move-face-down", V + "effects.py",
           "            card = pile[-1]\n            if card & DOWN:\n                continue\n",
           "            card = pile[-1]\n", "move_top offers face-down cards"),
    Mutant("fill-face-ignored", V + "effects.py",
           "        self.size = spec.size\n        self.source = layout.one(spec.source)\n"
           '        self.flag = DOWN if spec.face == "down" else 0',
           "        self.size = spec.size\n        self.source = layout.one(spec.source)\n"
           "        self.flag = 0",
           "fill_gaps ignores face: down"),
    Mutant("fill-order-reversed", V + "effects.py",
           "            for p in self.piles:\n                if len(work[p]) < size and stock:",
           "            for p in reversed(self.piles):\n"
           "                if len(work[p]) < size and stock:",
           "fill_gaps fills its piles in reverse order"),
    Mutant("fill-one-more", V + "effects.py",
           "if len(work[p]) < size and stock:", "if len(work[p]) <= size and stock:",
           "fill_gaps fills one card past the size"),
    Mutant("deal-face-ignored", V + "effects.py",
           "        self.count = spec.count\n"
           '        self.flag = DOWN if spec.face == "down" else 0',
           "        self.count = spec.count\n        self.flag = 0",
           "deal ignores face: down"),
    Mutant("deal-order-kept", V + "effects.py",
           "moved = tuple((c & MASK) | self.flag for c in reversed(src[len(src) - n :]))",
           "moved = tuple((c & MASK) | self.flag for c in src[len(src) - n :])",
           "deal keeps the cards' order instead of turning them over one by one"),
    Mutant("exchange-face-up", V + "effects.py",
           "(*picked_pile[:-1], (given & MASK) | DOWN)", "(*picked_pile[:-1], given & MASK)",
           "exchange leaves the given card face up"),
    Mutant("chain-stays-down", V + "effects.py",
           "            card ^= DOWN\n            placed[dst].append(card)",
           "            placed[dst].append(card)",
           "chain places cards face down"),
    # Tests.
    Mutant("not-empty-all", V + "conditions.py",
           "return lambda s: any(s.piles[i] for i in idx)",
           "return lambda s: all(s.piles[i] for i in idx)", "not_empty asks every pile"),
    Mutant("short-pile-or-equal", V + "conditions.py",
           "return lambda s: any(len(s.piles[i]) < size for i in idx)",
           "return lambda s: any(len(s.piles[i]) <= size for i in idx)",
           "short_pile counts a pile of the size as short"),
    Mutant("holds-all-but-one", V + "conditions.py",
           "== total", ">= total - 1", "holds_all_cards is content with one card short"),
    # Deal steps.
    Mutant("passes-ignored", V + "deal_steps.py",
           "count = left if self.spec.passes is None else min(left, self.spec.passes * len(piles))",
           "count = left", "round_robin deals every card, whatever its passes"),
    Mutant("rest-not-reversed", V + "deal_steps.py",
           "return [(k, pile) for k in reversed(range(left))]",
           "return [(k, pile) for k in range(left)]",
           "rest puts the next card at the bottom instead of on top"),
    Mutant("bases-face-ignored", V + "deal_steps.py",
           "piles[pile] += (order.pop(k) | self.flag,)", "piles[pile] += (order.pop(k),)",
           "bases ignores face: down"),
    Mutant("deal-face-down-ignored", "engine/core/deal.py",
           "down = bool(step.flag)", "down = False", "the deal lays every card face up"),
    # The flow.
    Mutant("unless-ignored", "engine/core/flow.py",
           "        return lambda s: not only(s)", "        return lambda s: True",
           "an unless-condition on its own never blocks"),
    Mutant("last-transition-first", "engine/core/flow.py",
           '        for t in self.by_trigger.get((state.phase, trigger), ()):\n'
           "            if t.check is None or t.check(state):",
           '        for t in reversed(self.by_trigger.get((state.phase, trigger), ())):\n'
           "            if t.check is None or t.check(state):",
           "the last open transition is taken instead of the first"),
    Mutant("undo-one-step", "engine/play/session.py",
           "        while kept and self.game.autoplays(self.history[kept - 1][0]):",
           "        if kept and self.game.autoplays(self.history[kept - 1][0]):",
           "undo stops in a position the engine played through by itself"),
    Mutant("score-face-up-counts-all", "engine/core/game.py",
           "return sum(1 for i in self._score_piles for c in piles[i] if not c & DOWN)",
           "return sum(1 for i in self._score_piles for c in piles[i])",
           "a face-up score counts face-down cards too"),
    # Words added for Solvitaire's presets.
    Mutant("pile-run-ignored", V + "effects/moves.py",
           "                return 0  # the pile is not one run: it may not move at all",
           "                pass", "cards: pile moves a pile that is not one run"),
    Mutant("rank-of-stop-ignored", V + "accepts.py",
           "            if stop is not None and not top & DOWN and RANK[top] == stop:",
           "            if False:", "complete_at: rank_of never completes a pile"),
    Mutant("follows-any-card", V + "accepts.py",
           "                faces = faces & follow.showing[FACE[pile[-1]]] if shows else NOTHING",
           "                faces = faces if shows else NOTHING",
           "follows takes any card next to a face-up neighbour"),
    Mutant("set-aside-loses-cards", V + "deal_steps.py",
           "            piles[to] += tuple(c & MASK for c in cards if RANK[c] == rank)",
           "            pass", "set_aside drops the cards it takes out"),
    Mutant("rows-built-first-row-only", V + "conditions.py",
           "                below = face\n        return True",
           "                below = face\n            return True\n        return True",
           "rows_built looks at the first row only"),
]  # fmt: skip


def apply(mutant: Mutant, root: Path) -> None:
    path = root / mutant.file
    text = path.read_text(encoding="utf-8")
    count = text.count(mutant.old)
    if count != 1:
        raise SystemExit(f"{mutant.id}: the text to change occurs {count} times in {mutant.file}")
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")


def run(mutant: Mutant, timeout: float) -> tuple[Mutant, str, float, str]:
    """Copy the repository, apply the mutant, run the tests: (mutant, verdict, seconds, note)."""
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.id}-") as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(
            ROOT,
            copy,
            ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", ".*_cache"),
        )
        apply(mutant, copy)
        # A folder whose only entry is the copy, named as the package: it is found before the
        # installed (editable) package, so the tests import the mutant.
        package_root = Path(tmp) / "packages"
        package_root.mkdir()
        (package_root / "yaml_solitaire").symlink_to(copy)
        env = dict(os.environ)
        env["PYTHONPATH"] = str(package_root)
        start = time.perf_counter()
        try:
            done = subprocess.run(
                # The behaviour corpus first: it notices most breakages soonest.
                [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                 "--hypothesis-seed=0", "tests/test_vocab.py", "tests"],
                cwd=copy, env=env, capture_output=True, text=True, timeout=timeout,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return mutant, "killed", time.perf_counter() - start, "the tests ran out of time"
        seconds = time.perf_counter() - start
        if done.returncode == 0:
            return mutant, "survived", seconds, ""
        failed = [ln for ln in done.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        return mutant, "killed", seconds, failed[0] if failed else done.stdout[-200:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once")
    parser.add_argument("--only", nargs="*", help="mutant ids to run (default: all)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per mutant")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or m.id in args.only]
    for mutant in chosen:  # every mutant must apply before any runs
        text = (ROOT / mutant.file).read_text(encoding="utf-8")
        if text.count(mutant.old) != 1:
            raise SystemExit(f"{mutant.id}: the text to change is not found once in {mutant.file}")
    print(f"{len(chosen)} mutants, {args.jobs} at a time")
    start = time.perf_counter()
    survivors: list[Mutant] = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for mutant, verdict, seconds, note in pool.map(lambda m: run(m, args.timeout), chosen):
            print(f"{verdict:9} {seconds:6.1f}s  {mutant.id:28} {note[:90]}", flush=True)
            if verdict == "survived":
                survivors.append(mutant)
    print(
        f"\n{len(chosen)} mutants: {len(chosen) - len(survivors)} killed, "
        f"{len(survivors)} survived ({time.perf_counter() - start:.0f} s)"
    )
    for mutant in survivors:
        print(f"  survived: {mutant.id} ({mutant.file}): {mutant.what}")


if __name__ == "__main__":
    main()
