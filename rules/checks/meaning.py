"""Checks that need the whole file: names that must exist, cards, the deal, the display."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable

from ..errors import suggest
from ..extends import Report
from ..model import Covering, Follows, GameSpec, Grid, PileGroup
from ..notation import RANK_NAMES
from ..spec import CONDITION, ONE_PILE, field_has, pile_references, yaml_key


def pile_names(spec: GameSpec) -> dict[str, str]:
    """Every pile name, with the group it belongs to (the first, if named twice)."""
    names: dict[str, str] = {}
    for group_name, group in spec.piles.items():
        for name in group.names:
            names.setdefault(name, group_name)
    return names


def resolve(spec: GameSpec, refs: Iterable[str]) -> list[str]:
    """Pile names of pile and group references (unknown names are left out)."""
    piles = pile_names(spec)
    out: list[str] = []
    for ref in refs:
        if ref in spec.piles:
            out.extend(spec.piles[ref].names)
        elif ref in piles:
            out.append(ref)
    return out


def check_names(spec: GameSpec, report: Report) -> None:
    err = report.add
    seen: dict[str, str] = {}
    for group_name, group in spec.piles.items():
        for i, name in enumerate(group.names):
            if name in seen:
                err(
                    ("piles", group_name, "names", i),
                    f"pile '{name}' is already defined in group '{seen[name]}'",
                )
            seen.setdefault(name, group_name)
        if group.bases is not None and len(group.bases) != len(group.names):
            err(
                ("piles", group_name, "bases"),
                f"{len(group.bases)} bases given for {len(group.names)} piles; give one per pile",
            )
        accepts = group.accepts
        if accepts is not None:
            # Parameters that may give one value per pile of the group: a list must give one
            # for each pile.
            per_pile: list[tuple[tuple[str | int, ...], object, str]] = [
                (("piles", group_name, "accepts", key), getattr(accepts, key), "ranks")
                for key in ("rank", "empty", "complete_at")
            ]
            per_pile.append((("piles", group_name, "accepts", "step"), accepts.step, "steps"))
            for k, relation in enumerate(accepts.any_of or ()):
                at_step: tuple[str | int, ...] = (
                    "piles",
                    group_name,
                    "accepts",
                    "any_of",
                    k,
                    "step",
                )
                per_pile.append((at_step, relation.step, "steps"))
            for where, value, noun in per_pile:
                if isinstance(value, tuple) and len(value) != len(group.names):
                    err(
                        where,
                        f"{len(value)} {noun} given for {len(group.names)} piles; "
                        f"give one {noun[:-1]}, or one per pile",
                    )
            if accepts.follows is not None:
                _check_follows(group_name, group, accepts.follows, report)
            if accepts.rank_in is not None and len(accepts.rank_in.piles) != len(group.names):
                err(
                    ("piles", group_name, "accepts", "rank_in", "piles"),
                    f"{len(accepts.rank_in.piles)} piles given for {len(group.names)} piles; "
                    "give one (or null) for each pile",
                )
        if isinstance(group.arrangement, Covering):
            _check_covering(spec, group_name, group.arrangement, report)
    for group_name in spec.piles:
        owner = seen.get(group_name)
        if owner is not None and not (
            owner == group_name and spec.piles[group_name].names == (group_name,)
        ):
            err(
                ("piles", group_name),
                f"group name '{group_name}' is also a pile name in group "
                f"'{owner}'; a name must mean one thing",
                key=True,
            )

    known = sorted({*spec.piles, *seen})
    for path, ref in pile_references(spec):
        if ref not in spec.piles and ref not in seen:
            err(
                path,
                f"no pile or pile group named '{ref}'{suggest(ref, known)}",
                about=("@piles", ref),
            )
    _check_single_piles(spec, report)
    if "auto" in spec.actions:
        err(("actions", "auto"), "'auto' is reserved for transitions tried after every action",
            key=True)  # fmt: skip


def _check_covering(spec: GameSpec, name: str, covering: Covering, report: Report) -> None:
    """Each pile of the group names the piles covering it; a pile that covered itself, by
    itself or round a circle, could never be uncovered."""
    group = spec.piles[name]
    where = ("piles", name, "arrangement", "covered_by")
    if len(covering.covered_by) != len(group.names):
        report.add(
            where,
            f"{len(covering.covered_by)} lists given for {len(group.names)} piles; give one "
            "list of covering piles for each pile",
        )
        return
    over = dict(zip(group.names, covering.covered_by, strict=True))
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def circle(pile: str, path: list[str]) -> list[str] | None:
        state[pile] = 1
        for upper in over.get(pile, ()):
            if state.get(upper) == 1:
                return [*path[path.index(upper) :], upper] if upper in path else [pile, upper]
            if upper not in state:
                found = circle(upper, [*path, upper])
                if found:
                    return found
        state[pile] = 2
        return None

    for k, pile in enumerate(group.names):
        if pile not in state:
            found = circle(pile, [pile])
            if found:
                report.add(
                    (*where, k),
                    "the piles cover each other in a circle ("
                    + " over ".join(reversed(found))
                    + "): none of them could ever be uncovered",
                )
                return


def _check_follows(name: str, group: PileGroup, follows: Follows, report: Report) -> None:
    """A pile follows its neighbour in a grid: the group must lie in one, and an edge list
    gives one value for each row (left, right) or column (above, below)."""
    where = ("piles", name, "accepts", "follows")
    if not isinstance(group.arrangement, Grid):
        report.add(
            where,
            "'follows' looks at the next pile in a grid: give the group 'arrangement: {grid: N}'",
        )
        return
    columns = group.arrangement.grid
    lines = columns if follows.side in ("above", "below") else -(-len(group.names) // columns)
    if isinstance(follows.edge, tuple) and len(follows.edge) != lines:
        kind = "columns" if follows.side in ("above", "below") else "rows"
        report.add(
            (*where, "edge"),
            f"{len(follows.edge)} edges given for {lines} {kind}; give one, or one per {kind[:-1]}",
        )


def check_entries(spec: GameSpec, report: Report) -> None:
    """Conditions named by other entries exist; each condition's own problems."""
    for section in ("deal", "actions", "conditions"):
        entries = getattr(spec, section)
        items = entries.items() if isinstance(entries, dict) else enumerate(entries)
        for key, entry in items:
            cls: type = type(entry)
            for f in dataclasses.fields(entry):
                ref = getattr(entry, f.name)
                known = ref in spec.conditions
                if isinstance(ref, str) and field_has(cls, f.name, CONDITION) and not known:
                    report.add(
                        (section, key, yaml_key(cls, f.name)),
                        f"no condition named '{ref}'{suggest(ref, spec.conditions)}",
                        about=(ref,),
                    )
    for name, condition in spec.conditions.items():
        for path, message in condition.problems(spec):
            report.add(("conditions", name, *path), message, about=("@piles",))


def _check_single_piles(spec: GameSpec, report: Report) -> None:
    """A key that takes one pile must not name a group of several."""
    for section in ("deal", "actions", "conditions"):
        entries = getattr(spec, section)
        items = entries.items() if isinstance(entries, dict) else enumerate(entries)
        for key, entry in items:
            cls: type = type(entry)
            for f in dataclasses.fields(entry):
                if not field_has(cls, f.name, ONE_PILE):
                    continue
                ref = getattr(entry, f.name)
                group = spec.piles.get(ref) if isinstance(ref, str) else None
                if group is not None and len(group.names) > 1:
                    report.add(
                        (section, key, yaml_key(cls, f.name)),
                        f"'{ref}' is a group of {len(group.names)} piles; this key takes one pile",
                        about=("@piles",),
                    )


def _deck(spec: GameSpec) -> Counter[str]:
    return Counter(r + s for _ in range(spec.decks) for s in spec.suits for r in RANK_NAMES)


def check_cards(spec: GameSpec, report: Report) -> None:
    deck = _deck(spec)
    for i, card in enumerate(spec.remove):
        if deck[card] <= 0:
            report.add(("remove", i), f"{card} cannot be removed: the decks have no more {card}")
        deck[card] -= 1
    based: dict[str, str] = {}
    for group_name, group in spec.piles.items():
        for i, base in enumerate(group.bases or ()):
            if isinstance(base, int):  # a rank alone: the first card of that rank
                rank = RANK_NAMES[base - 1]
                card = next((c for c in deck if c[:-1] == rank and deck[c] > 0), rank)
            else:
                card = base
            if deck[card] <= 0:
                if card in based:
                    why = f"is already the base of {based[card]} and the decks have no more"
                elif card in spec.remove:
                    why = "is removed before the deal ('remove')"
                else:
                    why = "is not in the deck"
                report.add(
                    ("piles", group_name, "bases", i), f"base card {card} {why}", about=("@deal",)
                )
            elif i < len(group.names):
                based.setdefault(card, group.names[i])
            deck[card] -= 1


# More cards than any deck holds: what a step asks for when it does not simply take the rest.
_UNBOUNDED = 10**9


def check_deal(spec: GameSpec, report: Report) -> None:
    """Every card is dealt, by steps that each have cards to deal and none that asks for more
    cards than are left."""
    left = 13 * len(spec.suits) * spec.decks - len(spec.remove)
    placed_bases = False
    last_dealing = None
    for i, step in enumerate(spec.deal):
        wanted = step.cards_dealt(spec, _UNBOUNDED)
        if left <= 0 and step.deals_cards:
            report.add(
                ("deal", i), "no cards are left for this step", severity="warning", about=("@deal",)
            )
        elif wanted < _UNBOUNDED and wanted > left:
            report.add(
                ("deal", i),
                f"this step deals {wanted} cards but only {left} are left: the decks hold "
                f"{13 * len(spec.suits) * spec.decks - len(spec.remove)}",
                about=("@deal",),
            )
        for path, message in step.problems(spec, placed_bases):
            report.add(("deal", i, *path), message, about=("@deal",))
        placed_bases |= step.places_bases
        if step.deals_cards:
            last_dealing = i
        left -= min(left, step.cards_dealt(spec, left))
    if left > 0:
        report.add(
            ("deal",) if last_dealing is None else ("deal", last_dealing),
            f"{left} cards are never dealt: add a 'rest' step or more passes",
            about=("@deal",),
        )
    if any(g.bases for g in spec.piles.values()) and not placed_bases:
        report.add(
            ("deal",), "pile groups have 'bases' but no deal step places them", about=("@deal",)
        )


def check_score(spec: GameSpec, report: Report) -> None:
    """'count: in_place' reads the rows of one grid group."""
    score = spec.score
    if score.count != "in_place":
        return
    if spec.grid_group(score.piles) is None:
        report.add(
            ("score", "piles"),
            "'count: in_place' reads rows: name one pile group that lies in a grid "
            "('arrangement: {grid: N}')",
            about=("@piles",),
        )


def check_display(spec: GameSpec, report: Report) -> None:
    display = spec.display
    for name, group in display.groups.items():
        if name not in spec.piles:
            report.add(
                ("display", "groups", name),
                f"no pile group named '{name}'{suggest(name, spec.piles)}",
                key=True,
                about=("@piles", name),
            )
            continue
        size = len(spec.piles[name].names)
        if group.hours is not None and len(group.hours) != size:
            report.add(
                ("display", "groups", name, "hours"),
                f"{len(group.hours)} hours given for {size} piles; give one per pile",
            )
