"""Checks of the flow: names that exist, states that can be reached and left, and no loops.

A game must end: 'auto' transitions may not lead round in a circle (the engine follows them
after every action without the player), and a state that plays by itself may only play actions
that make progress for good.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ..errors import suggest
from ..extends import Report
from ..model import ActionSpec, GameSpec
from ..source import Path as KeyPath
from ..spec import CONDITION, field_has

AUTO = "auto"


def _sources(spec: GameSpec, source: str | tuple[str, ...]) -> list[str]:
    names = (source,) if isinstance(source, str) else source
    out: list[str] = []
    for name in names:
        if name == "*":
            out += [s for s, st in spec.flow.states.items() if st.outcome is None]
        elif name in spec.flow.states:
            out.append(name)
    return out


def check_flow(spec: GameSpec, report: Report) -> None:
    flow = spec.flow
    states = flow.states
    err = report.add
    if flow.initial not in states:
        err(
            ("flow", "initial"),
            f"no state named '{flow.initial}'{suggest(flow.initial, states)}",
            about=("@states", flow.initial),
        )
    triggers = {*spec.actions, AUTO}
    edges: dict[str, set[str]] = {s: set() for s in states}
    used_actions: set[str] = set()
    # A misspelt name is reported once; the problems it causes elsewhere are not.
    unknown = {"state": False, "trigger": False, "condition": False}
    for i, tr in enumerate(flow.transitions):
        base: KeyPath = ("flow", "transitions", i)
        if tr.trigger not in triggers:
            unknown["trigger"] = True
            err(
                (*base, "trigger"),
                f"no action named '{tr.trigger}'{suggest(tr.trigger, triggers)}"
                "; a trigger is an action's name or 'auto'",
                about=(tr.trigger,),
            )
        used_actions.add(tr.trigger)
        action = spec.actions.get(tr.trigger)
        if action is not None and action.automatic:
            err(
                (*base, "trigger"),
                f"action '{tr.trigger}' is automatic: the engine plays it by itself whenever "
                "it is legal, so no transition may name it",
                about=(tr.trigger,),
            )
        sources = (tr.source,) if isinstance(tr.source, str) else tr.source
        for j, src in enumerate(sources):
            where = (*base, "source") if isinstance(tr.source, str) else (*base, "source", j)
            if src == "*":
                continue
            if src not in states:
                unknown["state"] = True
                err(where, f"no state named '{src}'{suggest(src, states)}", about=("@states", src))
            elif states[src].outcome is not None:
                err(
                    where,
                    f"state '{src}' ends the game ({states[src].outcome}); nothing can leave it",
                    about=(src,),
                )
        resolved = [s for s in _sources(spec, tr.source) if states[s].outcome is None]
        if tr.dest not in states:
            unknown["state"] = True
            err(
                (*base, "dest"),
                f"no state named '{tr.dest}'{suggest(tr.dest, states)}",
                about=("@states", tr.dest),
            )
        else:
            for src in resolved:
                edges[src].add(tr.dest)
        for key in ("conditions", "unless"):
            for j, name in enumerate(getattr(tr, key)):
                if name not in spec.conditions:
                    unknown["condition"] = True
                    err(
                        (*base, key, j),
                        f"no condition named '{name}'{suggest(name, spec.conditions)}",
                        about=(name,),
                    )
                elif tr.trigger != AUTO and spec.conditions[name].reads_legal_actions:
                    err(
                        (*base, key, j),
                        f"condition '{name}' asks which actions are legal, so it cannot decide "
                        f"whether '{tr.trigger}' is legal; use it on 'auto' transitions only",
                        about=(name,),
                    )
    if not any(s.outcome == "won" for s in states.values()):
        err(
            ("flow", "states"),
            "no state has 'outcome: won': the game could never be won",
            about=("@flow",),
        )
    if flow.initial in states and not unknown["state"]:
        reached = {flow.initial}
        todo = [flow.initial]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in reached:
                    reached.add(nxt)
                    todo.append(nxt)
        for name in states:
            if name not in reached:
                err(
                    ("flow", "states", name),
                    f"state '{name}' cannot be reached from '{flow.initial}'",
                    key=True,
                    about=("@flow", name),
                )
    for name, state in states.items():
        if state.outcome is None and not edges[name] and not unknown["state"]:
            err(
                ("flow", "states", name),
                f"state '{name}' has no way out and is not an "
                "outcome: give it a transition or 'outcome: won|lost'",
                key=True,
                about=("@flow", name),
            )
    if not unknown["state"]:
        _check_auto_loops(spec, report)
        _check_autoplay(spec, report)
    _check_automatic(spec, report)
    for name, action in spec.actions.items():
        if name not in used_actions and not unknown["trigger"] and not action.automatic:
            report.warn(("actions", name), f"action '{name}' is used by no transition", key=True)
    named = set(_named_conditions(spec))
    for t in flow.transitions:
        named.update(t.conditions, t.unless)
    for name in spec.conditions:
        used = name in named
        if not used and not unknown["condition"]:
            report.warn(
                ("conditions", name), f"condition '{name}' is used by no transition", key=True
            )


def _named_conditions(spec: GameSpec) -> Iterator[str]:
    """Conditions that the game's actions, tests and deal steps name (e.g. a chain's stop)."""
    for entries in (spec.actions.values(), spec.conditions.values(), spec.deal):
        for entry in entries:
            cls: type = type(entry)
            for f in dataclasses.fields(entry):
                value = getattr(entry, f.name)
                if isinstance(value, str) and field_has(cls, f.name, CONDITION):
                    yield value


def _check_auto_loops(spec: GameSpec, report: Report) -> None:
    """'auto' transitions must not form a circle: the engine would follow it for ever."""
    states = spec.flow.states
    auto_edges: dict[str, list[tuple[str, int]]] = {s: [] for s in states}
    for i, tr in enumerate(spec.flow.transitions):
        if tr.trigger != AUTO or tr.dest not in states:
            continue
        for src in _sources(spec, tr.source):
            if states[src].outcome is not None:
                continue
            if src == tr.dest:
                report.add(
                    ("flow", "transitions", i, "dest"),
                    f"an 'auto' transition from '{src}' to itself changes nothing and would "
                    "be tried for ever",
                    about=("@flow",),
                )
            else:
                auto_edges[src].append((tr.dest, i))
    # A depth-first search for a circle among the remaining 'auto' edges.
    colour: dict[str, int] = dict.fromkeys(states, 0)  # 0 new, 1 on the path, 2 done
    reported = False

    def visit(state: str, path: list[str]) -> None:
        nonlocal reported
        colour[state] = 1
        for nxt, index in auto_edges[state]:
            if colour[nxt] == 1 and not reported:
                circle = [*path[path.index(nxt) :], state, nxt] if nxt in path else [state, nxt]
                report.add(
                    ("flow", "transitions", index),
                    "'auto' transitions form a circle (" + " -> ".join(circle) + "): the engine "
                    "could follow it for ever; let a player's action lead back instead",
                    about=("@flow",),
                )
                reported = True
            elif colour[nxt] == 0:
                visit(nxt, [*path, state])
        colour[state] = 2

    for state in states:
        if colour[state] == 0:
            visit(state, [])


def _check_automatic(spec: GameSpec, report: Report) -> None:
    """An automatic action must not be able to play for ever: it must make progress for good,
    only take cards from piles that nothing the engine plays by itself gives cards to, or
    only fill gaps that nothing but progress opens again.

    Between two of the player's actions the engine plays only automatic actions and, in a
    state that plays by itself, the player's actions it may play there, and moves to the
    foundations: a pile that only the player can refill empties for good until the player
    acts again. An action that fills gaps repeats only when a gap opens again: when every
    action the engine plays that takes cards from those piles puts them on a foundation, and
    nothing the engine plays takes cards from a foundation, each repeat follows a card that
    went home for good, and there are only so many cards.
    """
    from .meaning import resolve

    by_engine = {name for name, action in spec.actions.items() if action.automatic}
    for tr in spec.flow.transitions:
        if any(spec.flow.states[s].autoplay for s in _sources(spec, tr.source)):
            by_engine.add(tr.trigger)
    given: set[str] = set()
    for name in by_engine & set(spec.actions):
        for ref in spec.actions[name].gives_to():
            given.update(resolve(spec, (ref,)))
    # The engine also plays moves to the foundations by itself (safe ones, a forced finish):
    # any foundation an action can give cards to.
    home = {p for g in spec.piles.values() if g.role == "foundation" for p in g.names}
    for action in spec.actions.values():
        given.update(p for p in resolve(spec, action.gives_to()) if p in home)
    for name, action in spec.actions.items():
        if not action.automatic or action.progresses:
            continue
        taken = [p for ref in action.takes_from() for p in resolve(spec, (ref,))]
        refilled = sorted({p for p in taken if p in given})
        if (refilled or not taken) and not _fills_gaps_only_progress_opens(
            spec, action, by_engine, home
        ):
            report.add(
                ("actions", name, "automatic"),
                f"'{name}' cannot be automatic: it can play again and again without end"
                + (f" ({', '.join(refilled)} can be given cards again)" if refilled else ""),
                about=("@flow",),
            )


def _fills_gaps_only_progress_opens(
    spec: GameSpec, action: ActionSpec, by_engine: set[str], home: set[str]
) -> bool:
    """Whether ``action`` fills gaps (``fills``) that only cards going home for good open:
    every action the engine may play that takes from those piles gives only to foundations
    (the engine plays the others' foundation moves alone), and none takes from a foundation."""
    from .meaning import resolve

    if action.fills is None:
        return False
    value = getattr(action, action.fills)
    gaps = set(resolve(spec, (value,) if isinstance(value, str) else value))
    for name, other in spec.actions.items():
        taken = set(resolve(spec, other.takes_from()))
        given = set(resolve(spec, other.gives_to()))
        engine_plays = name in by_engine
        if not engine_plays and not given & home:
            continue  # only the player plays it
        if taken & home:
            return False  # a card home may leave again: a gap could open without end
        if taken & gaps and engine_plays and given - home:
            return False  # the engine may open a gap other than by putting a card home
    return True


def _check_autoplay(spec: GameSpec, report: Report) -> None:
    """A state that plays by itself may only play actions that cannot repeat for ever."""
    for i, tr in enumerate(spec.flow.transitions):
        action = spec.actions.get(tr.trigger)
        if action is None or action.progresses:
            continue
        for src in _sources(spec, tr.source):
            if spec.flow.states[src].autoplay:
                report.add(
                    ("flow", "transitions", i, "trigger"),
                    f"state '{src}' plays by itself (autoplay), and '{tr.trigger}' can be "
                    "played again and again without end; only actions that turn cards face up "
                    "for good may be played by the engine",
                    about=("@flow",),
                )
