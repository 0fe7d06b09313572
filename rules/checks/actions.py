"""Checks of the actions: no card flows from a pile into itself, safe moves end, and no command
is ambiguous."""

from __future__ import annotations

from collections import Counter

from ..extends import Report
from ..model import RESERVED_COMMANDS, GameSpec
from ..spec import pile_fields, yaml_key
from .meaning import pile_names, resolve


def check_actions(spec: GameSpec, report: Report) -> None:
    for name, action in spec.actions.items():
        cls = type(action)
        for first, second in cls.disjoint:
            a = getattr(action, first)
            b = getattr(action, second)
            left = resolve(spec, (a,) if isinstance(a, str) else a or ())
            right = set(resolve(spec, (b,) if isinstance(b, str) else b or ()))
            shared = [p for p in left if p in right]
            if shared:
                # Shown where the file that made them meet writes one of them.
                keys = [("actions", name, yaml_key(cls, f)) for f in (second, first)]
                report.add(
                    min(keys, key=report.source.layer_of),
                    f"'{yaml_key(cls, first)}' and '{yaml_key(cls, second)}' both name "
                    f"{', '.join(dict.fromkeys(shared))}: cards would be taken from and put on "
                    "the same pile at once",
                    about=("@piles",),
                )
        for path, message in action.problems(spec):
            report.add(("actions", name, *path), message, about=("@piles",))
        _check_named_twice(spec, name, report)
        _check_safe(spec, name, report)
    _check_commands(spec, report)


def _check_named_twice(spec: GameSpec, name: str, report: Report) -> None:
    """A list of piles that names a pile twice (alone and through its group, or twice over):
    an effect that walks the list would take or give that pile's cards twice."""
    action = spec.actions[name]
    cls: type = type(action)
    for field in pile_fields(cls):
        value = getattr(action, field)
        if not isinstance(value, tuple):
            continue
        piles = Counter(resolve(spec, (v for v in value if isinstance(v, str))))
        twice = [p for p, times in piles.items() if times > 1]
        if twice:
            report.add(
                ("actions", name, yaml_key(cls, field)),
                f"names {', '.join(twice)} more than once (alone and through a group, or "
                "twice): list each pile once",
                about=("@piles",),
            )


def _check_safe(spec: GameSpec, name: str, report: Report) -> None:
    """A move declared safe is one the engine plays by itself; between two foundations such
    moves could undo each other for ever, so a safe move may not take from a foundation that
    it may also give to another foundation."""
    action = spec.actions[name]
    if getattr(action, "safe", "never") == "never":
        return
    group_of = pile_names(spec)
    home = {p for p, g in group_of.items() if spec.piles[g].role == "foundation"}
    taken = [p for p in resolve(spec, action.takes_from()) if p in home]
    given = [p for p in resolve(spec, action.gives_to()) if p in home]
    if not taken or not given or len({*taken, *given}) < 2:
        return
    cls = type(action)
    keys = [("actions", name, yaml_key(cls, f)) for f in ("safe", *cls.sources)]
    keys += [("piles", group_of[p], "role") for p in dict.fromkeys(taken)]
    report.add(
        min(keys, key=report.source.layer_of),
        f"'{name}' is safe, so the engine plays it by itself, and it may move cards from one "
        f"foundation to another ({', '.join(dict.fromkeys(taken))} to "
        f"{', '.join(dict.fromkeys(given))}): such moves could undo each other without end; "
        "take the foundations out of its 'from', or make it 'safe: never'",
        about=("@piles",),
    )


def _check_commands(spec: GameSpec, report: Report) -> None:
    """Action names, keys and pile names that a player's command could confuse."""
    owner: dict[str, str] = {}  # word -> what it already means
    for word in RESERVED_COMMANDS:
        owner[word] = f"the built-in command '{RESERVED_COMMANDS[word]}'"
    for name in spec.actions:
        if name in owner:
            report.warn(
                ("actions", name),
                f"action '{name}' has the name of {owner[name]}, which takes precedence",
                key=True,
            )
        else:
            owner[name] = f"action '{name}'"
    for name, action in spec.actions.items():
        for i, key in enumerate(action.keys):
            word = key.lower()
            if word in owner and owner[word] != f"action '{name}'":
                report.warn(
                    ("actions", name, "keys", i),
                    f"key '{key}' already means {owner[word]}",
                )
            else:
                owner[word] = f"action '{name}'"
    for pile, group in pile_names(spec).items():
        if pile.lower() in owner:
            index = spec.piles[group].names.index(pile)
            report.warn(
                ("piles", group, "names", index),
                f"pile name '{pile}' is also {owner[pile.lower()]}: a command starting with "
                "it is read as that",
            )
