"""Mutants of the shipped rule files, and what must hold for every one that validates (issue 18).

A *mutant* is a shipped game (``games/``) or Solvitaire preset (``tests/solvitaire/rules/``)
after one to three edits that know the rule language: an enumerated value swapped for another
of the schema's (a role, a build rule, a deal step, an effect), a pile or group name pointed at
another, a name added to or taken from a list of piles, a number or a flag changed, the roles of
two groups swapped, a key deleted, a new move action (with its transition) between two groups,
a deal step added. Each edit is a path and a new value, so that any subset of a mutant's edits
is a mutant too: that is how a failure is shrunk.

Every mutant that ``validate --strict`` accepts (no error, no warning) is then played at random
with undo and redo (the engine's automatic moves on, as ``play`` has them) from a deal, its
rules and board drawn, and solved with a small budget, the solver's winning lines replayed.
What must hold: every card of the game is in exactly one place after every action; nothing
raises; each mutant takes at most ``SECONDS`` of CPU time and ``MEMORY`` bytes of address space.

``run(count, seed, jobs)`` checks mutants ``0 .. count-1`` of a seed in ``jobs`` processes;
a finding is shrunk (fewest edits, shortest play) and returned with its rule file.
"""

from __future__ import annotations

import copy
import functools
import json
import multiprocessing
import os
import random
import resource
import signal
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "games").glob("*.yaml")) + sorted(
    (ROOT / "tests" / "solvitaire" / "rules").glob("*.yaml")
)
SECONDS = 20.0  # CPU seconds one mutant may take (most take a tenth of one)
MEMORY = 2_000_000_000  # address space of a worker process
STEPS = 60  # random actions per deal
SOLVER_NODES = 100

Path_ = tuple[str | int, ...]
# A path into the file's data, what is done there ("set", "insert" into a list, "delete") and
# the new value.
Edit = tuple[Path_, str, Any]


def _enums() -> dict[str, list[str]]:
    """For each key of the schema, the strings it may hold when it is enumerated."""
    schema = json.loads((ROOT / "rules" / "schema.json").read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}

    def walk(node: Any, key: str | None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "properties":
                    for name, sub in v.items():
                        walk(sub, name)
                elif k in ("enum", "const") and key:
                    values = v if isinstance(v, list) else [v]
                    found.setdefault(key, set()).update(x for x in values if isinstance(x, str))
                else:
                    walk(v, key)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)

    walk(schema, None)
    return {k: sorted(v) for k, v in found.items() if len(v) > 1}


ENUMS = _enums()
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
NUMBERS = [0, 1, 2, 3, 4, 7, 8, 12, 13, 26, 52, -1]


@functools.cache
def source_data(path: Path) -> dict[str, Any]:
    """The data of a shipped file (not to be changed: ``apply_edits`` makes a copy)."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    assert isinstance(data, dict)
    return data


# --- edits --------------------------------------------------------------------------------


def _leaves(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every value of the tree with its path, containers included (the root excepted)."""
    if path:
        yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))


def _key_of(path: Path_) -> str | None:
    return next((p for p in reversed(path) if isinstance(p, str)), None)


def _names(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The group names and pile names of a file (as far as it says)."""
    piles = data.get("piles")
    groups = list(piles) if isinstance(piles, dict) else []
    names: list[str] = []
    for g in groups:
        entry = piles[g]
        if isinstance(entry, dict) and isinstance(entry.get("names"), list):
            names += [n for n in entry["names"] if isinstance(n, str)]
    return groups, names


def _transition_for(data: dict[str, Any], trigger: str) -> dict[str, Any] | None:
    flow = data.get("flow")
    if not isinstance(flow, dict) or not isinstance(flow.get("initial"), str):
        return None
    return {"trigger": trigger, "source": flow["initial"], "dest": flow["initial"]}


def draw_edits(rng: random.Random, data: dict[str, Any]) -> list[Edit]:
    """One to three edits of ``data`` (each applied before the next is drawn)."""
    edits: list[Edit] = []
    current = copy.deepcopy(data)
    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        for _attempt in range(20):
            made = _one_edit(rng, current)
            if made:
                edits += made
                current = apply_edits(current, made)
                break
    return edits


def _one_edit(rng: random.Random, data: dict[str, Any]) -> list[Edit]:
    leaves = list(_leaves(data))
    groups, piles = _names(data)
    everything = groups + piles
    kind = rng.choice(
        ["enum", "enum", "enum", "name", "name", "names", "number", "flag", "roles", "delete",
         "move", "move", "step", "copy"]
    )  # fmt: skip
    if kind == "enum":
        choices = [
            (p, v)
            for p, v in leaves
            if isinstance(v, str) and isinstance(p[-1], str) and p[-1] in ENUMS
        ]
        if choices:
            p, v = rng.choice(choices)
            return [(p, "set", rng.choice([x for x in ENUMS[str(p[-1])] if x != v]))]
    elif kind == "name" and everything:
        choices = [(p, v) for p, v in leaves if isinstance(v, str) and v in everything]
        choices = [(p, v) for p, v in choices if p[:1] != ("piles",) or "names" not in p]
        if choices:
            p, v = rng.choice(choices)
            return [(p, "set", rng.choice(everything))]
    elif kind == "names" and everything:
        lists = [
            (p, v)
            for p, v in leaves
            if isinstance(v, list) and v and all(isinstance(x, str) and x in everything for x in v)
        ]
        if lists:
            p, v = rng.choice(lists)
            new = list(v)
            if len(new) > 1 and rng.random() < 0.4:
                del new[rng.randrange(len(new))]
            else:
                new.insert(rng.randrange(len(new) + 1), rng.choice(everything))
            return [(p, "set", new)]
    elif kind == "number":
        choices = [(p, v) for p, v in leaves if isinstance(v, int) and not isinstance(v, bool)]
        if choices:
            p, v = rng.choice(choices)
            return [(p, "set", rng.choice([v + 1, v - 1, v * 2, *NUMBERS]))]
    elif kind == "flag":
        choices = [(p, v) for p, v in leaves if isinstance(v, bool)]
        actions = data.get("actions")
        if isinstance(actions, dict) and actions:
            name = rng.choice(list(actions))
            choices.append((("actions", name, "automatic"), False))
        if choices:
            p, v = rng.choice(choices)
            return [(p, "set", not v)]
    elif kind == "roles" and len(groups) > 1:
        a, b = rng.sample(groups, 2)
        ga, gb = data["piles"][a], data["piles"][b]
        if isinstance(ga, dict) and isinstance(gb, dict) and ga.get("role") != gb.get("role"):
            return [
                (("piles", a, "role"), "set", gb.get("role")),
                (("piles", b, "role"), "set", ga.get("role")),
            ]
    elif kind == "delete":
        choices = [p for p, _ in leaves if len(p) > 1]
        if choices:
            return [(rng.choice(choices), "delete", None)]
    elif kind == "move" and groups and isinstance(data.get("actions"), dict):
        name = f"mut{len(data['actions'])}"
        action: dict[str, Any] = {
            "effect": "move",
            "from": rng.sample(everything, rng.choice((1, 1, 2))),
            "to": rng.sample(everything, rng.choice((1, 1, 2))),
            "cards": rng.choice(ENUMS["cards"]),
        }
        if rng.random() < 0.4:
            action["safe"] = rng.choice(ENUMS["safe"])
        if rng.random() < 0.2:
            action["automatic"] = True
        made: list[Edit] = [(("actions", name), "set", action)]
        transitions = data.get("flow", {}).get("transitions")
        edge = _transition_for(data, name)
        if isinstance(transitions, list) and edge and not action.get("automatic"):
            made.append((("flow", "transitions", len(transitions)), "insert", edge))
        return made
    elif kind == "step" and isinstance(data.get("deal"), list) and everything:
        deal = data["deal"]
        step: dict[str, Any] = rng.choice(
            [
                {"step": "rest", "pile": rng.choice(everything)},
                {"step": "round_robin", "piles": [rng.choice(everything)], "counts": [1]},
                {"step": "turn", "piles": [rng.choice(everything)]},
                {"step": "rest", "pile": rng.choice(everything), "face": "down"},
            ]
        )
        return [(("deal", rng.randrange(len(deal) + 1)), "insert", step)]
    elif kind == "copy":
        by_key: dict[str, list[tuple[Path_, Any]]] = {}
        for p, v in leaves:
            if isinstance(p[-1], str):
                by_key.setdefault(p[-1], []).append((p, v))
        pairs = [c for c in by_key.values() if len(c) > 1]
        if pairs:
            (p, _), (_, v) = rng.sample(rng.choice(pairs), 2)
            return [(p, "set", copy.deepcopy(v))]
    return []


def apply_edits(data: dict[str, Any], edits: list[Edit]) -> dict[str, Any]:
    """A copy of ``data`` with the edits made; an edit whose place is gone is left out."""
    out = copy.deepcopy(data)
    for path, op, value in edits:
        node: Any = out
        for part in path[:-1]:
            if (isinstance(node, dict) and part in node) or (
                isinstance(node, list) and isinstance(part, int) and part < len(node)
            ):
                node = node[part]
            else:
                node = None
                break
        last = path[-1]
        if isinstance(node, dict):
            if op == "delete":
                node.pop(last, None)
            else:
                node[last] = copy.deepcopy(value)
        elif isinstance(node, list) and isinstance(last, int):
            if op == "insert":
                node.insert(min(last, len(node)), copy.deepcopy(value))
            elif last < len(node):
                if op == "delete":
                    del node[last]
                else:
                    node[last] = copy.deepcopy(value)
    return out


def mutant_text(source: Path, edits: list[Edit]) -> str:
    """The rule file of a mutant; a parent named by a relative path is found beside its
    source (the mutant is written elsewhere)."""
    data = apply_edits(source_data(source), edits)
    parent = data.get("extends")
    if isinstance(parent, str) and parent.endswith((".yaml", ".yml")):
        data["extends"] = str((source.parent / parent).resolve())
    return dump(data)


def mutant(seed: int, index: int) -> tuple[Path, list[Edit]]:
    """Mutant number ``index`` of a run: the same for the same seed, whatever the jobs."""
    rng = random.Random(f"{seed}:{index}")
    source = rng.choice(SOURCES)
    return source, draw_edits(rng, source_data(source))


# --- what must hold -----------------------------------------------------------------------


@dataclass
class Finding:
    source: str
    edits: list[Edit]
    problem: str
    deal: int = 0
    steps: int = 0
    text: str = ""
    notes: list[str] = field(default_factory=list)

    def report(self) -> str:
        edits = "\n".join(
            f"  {op} {'.'.join(map(str, p))}" + ("" if op == "delete" else f" = {v!r}")
            for p, op, v in self.edits
        )
        return (
            f"{self.source} with\n{edits}\n"
            f"deal {self.deal}, {self.steps} random actions: {self.problem}\n"
            f"--- the rule file ---\n{self.text}"
        )


class Hang(Exception):
    """The mutant took more CPU time than ``SECONDS``."""


def _on_alarm(*_: object) -> None:
    raise Hang(f"more than {SECONDS:.0f} s of CPU time")


def dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=100)


def _conserved(game: Any, state: Any, what: str) -> None:
    from yaml_solitaire.engine.core.cards import MASK

    held = Counter(card & MASK for pile in state.piles for card in pile)
    if held != Counter(game.cards):
        lost = Counter(game.cards) - held
        made = held - Counter(game.cards)
        raise AssertionError(f"cards not conserved after {what}: lost {lost}, made {made}")


def check_text(text: str, folder: Path, deal_seeds: tuple[int, ...], steps: int) -> str | None:
    """'rejected' when ``validate --strict`` refuses the text; None when it validates and every
    check holds; otherwise what went wrong (one line, the exception's place)."""
    from yaml_solitaire.engine import Game
    from yaml_solitaire.engine.vocab import VOCABULARY
    from yaml_solitaire.rules.checks import analyse

    path = folder / "mutant.yaml"
    path.write_text(text, encoding="utf-8")
    signal.signal(signal.SIGVTALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, SECONDS)
    try:
        spec, problems, _ = analyse(path, str(path), VOCABULARY)  # what 'validate' runs
        if problems or spec is None:  # --strict: a warning rejects the file too
            return "rejected"
        game = Game(spec, path)
        for deal in deal_seeds:
            _play(game, deal, steps)
        return None
    except Exception as exc:  # anything at all is a finding
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return f"{type(exc).__name__}: {exc} ({Path(where.filename).name}:{where.lineno})"
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)


def _play(game: Any, deal: int, steps: int) -> None:
    from yaml_solitaire.engine.play.progress import Progress, new_deal
    from yaml_solitaire.engine.play.rules_text import rules_text
    from yaml_solitaire.engine.play.solver import Budget, Solver
    from yaml_solitaire.engine.ui.render import Renderer

    rng = random.Random(deal)
    progress = Progress(game, new_deal(game, deal), auto=deal % 4 != 3)
    session = progress.session
    _conserved(game, session.position, "the deal")
    rules_text(game)
    renderer = Renderer(game)
    renderer.board(session.position)
    for step in range(steps):
        roll = rng.random()
        if roll < 0.1 and session.history:
            with_choice = any(not p.auto for p in session.history)
            if with_choice:
                session.undo()
        elif roll < 0.15 and session.undone:
            session.redo_choice()
        elif session.is_over():
            break
        else:
            actions = session.legal_actions()
            if not actions:
                break
            action = rng.choice(actions)
            game.action_text(action)
            session.push(action)
            progress.settle()
        _conserved(game, session.position, f"action {step + 1}")
    renderer.board(session.position)
    start = Progress(game, new_deal(game, deal)).session.position
    # The winning line as found: its polish costs seconds and is not what is checked here.
    solution = Solver(game).solve(start, Budget(nodes=SOLVER_NODES), shorten=False)
    if solution.result == "won":
        state = start
        for before, action in solution.line:
            if before != state:
                raise AssertionError("the solver's line does not follow its own positions")
            state = game.apply(state, action)
            _conserved(game, state, "a solver's action")
        if game.outcome(state) != "won":
            raise AssertionError("the solver's winning line does not win")


# --- running and shrinking ----------------------------------------------------------------

_FOLDER: Path | None = None


def _start_worker() -> None:
    from yaml_solitaire.engine.play.stats import end_with_parent

    global _FOLDER
    end_with_parent()
    os.environ["SOLITAIRE_NO_CACHE"] = "1"
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    _FOLDER = Path(tempfile.mkdtemp(prefix="solitaire-mutants-"))


def _check(job: tuple[int, int]) -> tuple[int, bool, str | None]:
    """Mutant ``index`` of ``seed``: (index, accepted, problem or None)."""
    seed, index = job
    assert _FOLDER is not None
    source, edits = mutant(seed, index)
    text = mutant_text(source, edits)
    try:
        problem = check_text(text, _FOLDER, (index,), STEPS)
    except MemoryError:
        problem = f"MemoryError: more than {MEMORY:,} bytes"
    if problem == "rejected":
        return index, False, None
    return index, True, problem


@dataclass
class Summary:
    mutants: int = 0
    accepted: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)


def run(count: int, seed: int = 0, jobs: int = 1, start: int = 0, progress: Any = None) -> Summary:
    """Check mutants ``start .. start+count-1`` of ``seed`` in ``jobs`` processes."""
    summary = Summary()
    began = time.monotonic()
    failed: list[tuple[int, str]] = []
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(jobs, initializer=_start_worker) as pool:
        jobs_list = [(seed, i) for i in range(start, start + count)]
        for index, accepted, problem in pool.imap_unordered(_check, jobs_list, chunksize=8):
            summary.mutants += 1
            summary.accepted += accepted
            if problem is not None:
                failed.append((index, problem))
            if progress is not None:
                progress(summary)
        for index, _problem in sorted(failed)[:5]:
            summary.findings.append(pool.apply(shrink, (seed, index)))
    summary.seconds = time.monotonic() - began
    return summary


def minimal_edits(edits: list[Edit], fails: Callable[[list[Edit]], bool]) -> list[Edit]:
    """The edits without every one whose removal keeps the failure (one at a time)."""
    kept = list(edits)
    changed = True
    while changed:
        changed = False
        for i in range(len(kept)):
            fewer = kept[:i] + kept[i + 1 :]
            if fails(fewer):
                kept, changed = fewer, True
                break
    return kept


def shrink(seed: int, index: int) -> Finding:
    """The failure of mutant ``index`` with as few edits and random actions as still fail."""
    assert _FOLDER is not None
    source, edits = mutant(seed, index)

    def fails(some: list[Edit], deal: int, steps: int) -> str | None:
        problem = check_text(mutant_text(source, some), _FOLDER, (deal,), steps)
        return None if problem == "rejected" else problem

    deal = index
    kept = minimal_edits(edits, lambda some: fails(some, deal, STEPS) is not None)
    low, high = 0, STEPS  # the fewest random actions that still fail
    while low < high:
        mid = (low + high) // 2
        if fails(kept, deal, mid):
            high = mid
        else:
            low = mid + 1
    problem = fails(kept, deal, high) or "(not repeated when shrunk)"
    text = mutant_text(source, kept)
    return Finding(str(source.relative_to(ROOT)), kept, problem, deal, high, text)
