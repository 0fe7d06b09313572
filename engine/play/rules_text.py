"""A game's rules in words, written from its rule file.

The description the file gives, then a summary generated from the records: the piles (role,
count, what each accepts), the deal, the actions (help lines, keys, when they are allowed), the
phases, and how the game is won and lost (the flow's outcomes and the conditions' ``describe``
texts). Nothing here knows a particular game: any rule file gets the same treatment.
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Iterable, Sequence

from ...rules.model import Accepts, Covering, Follows, GameSpec, PileGroup, RankOf
from ...rules.notation import rank_name
from ...rules.spec import yaml_key
from ..game.flow import AUTO, Transition
from ..game.game import Game
from ..vocab.accepts import BUILDS, SUITS
from ..vocab.roles import ROLES

_BUILD = {
    "up": "one rank higher",
    "down": "one rank lower",
    "same": "of the same rank",
    "any": "of any rank",
}
_SUIT = {
    "same": "in the same suit",
    "alternate": "in the other colour",
    "different": "in another suit",
    "any": "in any suit",
}
_WRAP = {"up": " (K then A)", "down": " (A then K)"}
_ROLE_NAMES = {
    "foundation": ("foundation", "foundations"),
    "tableau": ("tableau pile", "tableau piles"),
    "cell": ("cell", "cells"),
    "reserve": ("reserve", "reserves"),
    "stock": ("stock", "stocks"),
    "waste": ("waste pile", "waste piles"),
}


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _names(names: Sequence[str]) -> str:
    if len(names) > 3 and all(n.rstrip("0123456789") == names[0].rstrip("0123456789")
                              for n in names):  # fmt: skip
        return f"{names[0]}..{names[-1]}"
    return ", ".join(names)


def _ranks(value: int | tuple[int, ...], names: Sequence[str], what: str) -> str:
    """A rank parameter in words: one rank, or one for each pile."""
    if isinstance(value, int):
        return f"{what} rank {rank_name(value)}"
    pairs = ", ".join(f"{n} {rank_name(r)}" for n, r in zip(names, value, strict=False))
    return f"{what} the rank of its place ({pairs})"


def _rank_of_words(rank_of: RankOf) -> str:
    """A rank set by another group's first card, in words."""
    base = f"the rank of the first card of {rank_of.rank_of}"
    if not rank_of.offset:
        return base
    how = "above" if rank_of.offset > 0 else "below"
    return f"the rank {_plural(abs(rank_of.offset), 'rank', 'ranks')} {how} {base}"


def _kinds(value: int | str | tuple[int | str, ...], names: Sequence[str]) -> str:
    """What an empty pile takes, in words: a rank, a card or a suit, or one for each pile."""

    def one(kind: int | str) -> str:
        if isinstance(kind, int):
            return f"rank {rank_name(kind)}"
        return f"suit {kind}" if len(kind) == 1 else kind

    if not isinstance(value, tuple):
        return "only " + one(value)
    pairs = ", ".join(f"{n} {one(k)}" for n, k in zip(names, value, strict=False))
    return f"only the card of its place ({pairs})"


def _follows_words(follows: Follows) -> str:
    rel = follows.relation
    side = {"left": "on its left", "right": "on its right", "above": "above it"}
    where = side.get(follows.side, "below it")
    how = _relation_words(rel.build, rel.suit, rel.step, rel.wrap)
    text = f"a card goes there only when it follows the top card of the pile {where} ({how})"
    edge = follows.edge
    if edge is None:
        return text + "; a pile with none there takes nothing"
    values = edge if isinstance(edge, tuple) else (edge,)
    words = ", ".join(rank_name(v) if isinstance(v, int) else v for v in values)
    line = "row" if follows.side in ("left", "right") else "column"
    each = f" (one for each {line})" if isinstance(edge, tuple) else ""
    return text + f"; a pile with none there takes only {words}{each}"


def _relation_words(build: str, suit: str, step: int | tuple[int, ...], wrap: bool) -> str:
    """How a card relates to the one it goes on, in words ('one rank lower in the other colour')."""
    if isinstance(step, tuple) or step != 1:
        by = "its step" if isinstance(step, tuple) else f"{step} ranks"
        words = {"up": f"{by} higher", "down": f"{by} lower", "up_or_down": f"{by} up or down"}
    else:
        words = {}
    rank = words.get(build) or _BUILD.get(build) or BUILDS[build].describe
    text = f"{rank} {_SUIT.get(suit) or SUITS[suit].describe}"
    return text + (_WRAP.get(build, " (round the corner)") if wrap else "")


def accepts_words(group: PileGroup) -> str:
    """What the piles of a group accept, in words."""
    rule: Accepts | None = group.accepts
    names = group.names
    if rule is None:
        return "Takes no card by a move."
    parts: list[str] = []
    if rule.any_of:
        ways = [_relation_words(r.build, r.suit, r.step, r.wrap) for r in rule.any_of]
        parts.append("takes a card " + " or ".join(ways) + " on its top card")
    elif rule.build == "none":
        parts.append("nothing is built on its cards")
    elif rule.build == "any" and rule.suit == "any":
        parts.append(
            "takes "
            + ("any card" if rule.rank is None else _ranks(rule.rank, names, "only cards of"))
        )
    else:
        card = f"a card {_relation_words(rule.build, rule.suit, rule.step, rule.wrap)}"
        card += " on its top card"
        if rule.rank is not None:
            card += ", " + _ranks(rule.rank, names, "only cards of")
        parts.append(f"takes {card}")
    if rule.aces_high:
        parts.append("aces rank above Kings")
    if rule.beside is not None:
        rel = rule.beside.relation
        parts.append(
            "a card goes there only while "
            + _names(list(rule.beside.piles))
            + f" shows a card {_relation_words(rel.build, rel.suit, rel.step, rel.wrap)}"
        )
    if isinstance(rule.complete_at, RankOf):
        parts.append(
            "complete (taking nothing more) once its top card has "
            + _rank_of_words(rule.complete_at)
        )
    elif rule.complete_at is not None:
        parts.append(_ranks(rule.complete_at, names, "complete (taking nothing more) at"))
    if rule.follows is not None:
        parts.append(_follows_words(rule.follows))
    if rule.rank_in is not None:
        pairs = ", ".join(
            f"{n} in {p}" for n, p in zip(names, rule.rank_in.piles, strict=False) if p
        )
        first = " (when empty: the rank of its first card)" if rule.rank_in.empty == "first" else ""
        parts.append(f"a card goes there only while another pile holds its rank{first}: {pairs}")
    if rule.min_cards:
        parts.append(f"takes nothing while it holds fewer than {rule.min_cards} cards")
    capacity = rule.max_cards or ROLES[group.role].capacity
    if capacity:
        parts.append(f"holds at most {_plural(capacity, 'card', 'cards')}")
    if rule.empty == "any":
        empty = "any card" if rule.rank is None else "a card of its rank"
    elif rule.empty == "none":
        empty = "nothing"
    elif rule.empty == "group_rank":
        empty = "only the rank of the first card its group was given (any while all are empty)"
    elif isinstance(rule.empty, RankOf):
        empty = f"only {_rank_of_words(rule.empty)} (any while it has none)"
    else:
        empty = _kinds(rule.empty, names)
    parts.append(f"when empty it takes {empty}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def _group_text(name: str, group: PileGroup) -> list[str]:
    one, many = _ROLE_NAMES.get(group.role, (group.role, group.role))
    count = _plural(len(group.names), one, many)
    head = f"{name} ({_names(group.names)}): {count}. {ROLES[group.role].describe}"
    lines = [head.replace("..", ".") if head.endswith("..") else head]
    if group.arrangement == "pyramid":
        lines.append("They lie in a pyramid: a card is free once the two below it are gone.")
    elif isinstance(group.arrangement, Covering):
        lines.append(
            "Some lie over others: a card is free, and turns face up, once the piles over it "
            "are gone."
        )
    elif group.arrangement is not None:
        lines.append(f"They lie in rows of {group.arrangement.grid}; neighbours touch.")
    if group.bases:
        pairs = ", ".join(f"{n} {b}" for n, b in zip(group.names, group.bases, strict=False))
        lines.append(f"Base cards: {pairs}.")
    lines.append(accepts_words(group))
    return lines


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return _names([str(v) for v in value])
    if dataclasses.is_dataclass(value):  # a nested part, as the rule file writes it
        return "{" + _parameters(value, (), ", ") + "}"
    return str(value)


def _parameters(entry: object, skip: Iterable[str], between: str = "; ") -> str:
    """An entry's parameters as written in the rule file (``from: s; count: 1``), leaving
    out the switches left off."""
    if not dataclasses.is_dataclass(entry):
        return ""
    cls = type(entry)
    out: list[str] = []
    for f in dataclasses.fields(entry):
        if f.name in skip:
            continue
        value = getattr(entry, f.name)
        if value is None or value == () or value is False:
            continue
        out.append(f"{yaml_key(cls, f.name)}: {_value_text(value)}")
    return between.join(out)


def _first_sentence(doc: str | None) -> str:
    text = " ".join((doc or "").split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def _deal_lines(spec: GameSpec, total: int) -> list[str]:
    lines: list[str] = []
    bases = sum(s.cards_dealt(spec, total) for s in spec.deal if s.places_bases)
    left = total - bases
    for n, step in enumerate(spec.deal, 1):
        if step.places_bases:
            count = bases
        else:
            count = step.cards_dealt(spec, left)
            left -= count
        tag = getattr(step, "step", type(step).__name__)
        params = _parameters(step, ("step",))
        what = _first_sentence(type(step).__doc__)
        lines.append(
            f"{n}. {tag}" + (f" ({params})" if params else "") + f": {what} "
            f"[{_plural(count, 'card', 'cards')}]"
        )
    return lines


def _when(game: Game, t: Transition) -> str:
    """The conditions of a transition in words ('' when it has none)."""
    text = game.flow.condition_text
    when = " and ".join(text[name] for name, _ in t.conditions)
    unless = " or ".join(text[name] for name, _ in t.unless)
    return ", ".join(
        p for p in (f"when {when}" if when else "", f"unless {unless}" if unless else "") if p
    )


def _phase(game: Game, phase: str) -> str:
    help_text = game.states[phase].help
    return f"{phase} ({help_text})" if help_text else phase


def _action_lines(game: Game) -> list[str]:
    notation = game.notation
    several = sum(1 for s in game.states.values() if s.outcome is None) > 1
    lines: list[str] = []
    for name, effect in game.effects.items():
        if effect.automatic:
            lines.append(
                f"{name} (by itself): {(effect.help or name).rstrip('.')}; the engine plays it "
                "whenever it can."
            )
            continue
        keys = [k for k, v in notation.keys.items() if v == name and k != name]
        if effect.takes_piles == 2:
            form = "SOURCE TARGET" if len(notation.movers) == 1 else f"{name} SOURCE TARGET"
        elif effect.takes_piles == 1:
            form = f"{name} PILE"
        else:
            form = name
        alias = f" [{', '.join(keys)}]" if keys else ""
        params = _parameters(effect.spec, ("help", "keys", "effect"))
        line = f"{form}{alias}: {effect.help or name}"
        if params:
            line += f" ({params})"
        whens: list[str] = []
        for t in game.flow.transitions:
            if t.trigger != name:
                continue
            when = _when(game, t)
            where = f"in {_phase(game, t.source)}" if several else ""
            text = " ".join(p for p in (where, when) if p)
            if text and text not in whens:
                whens.append(text)
        if whens:
            line += " Allowed " + "; ".join(whens) + "."
        lines.append(line)
    return lines


def _phase_lines(game: Game) -> list[str]:
    playing = [n for n, s in game.states.items() if s.outcome is None]
    if len(playing) < 2 and not any(game.states[n].autoplay for n in playing):
        return []
    lines: list[str] = []
    for phase in playing:
        state = game.states[phase]
        text = _phase(game, phase)
        if phase == game.initial:
            text += ", where the game starts"
        if state.autoplay:
            text += "; the engine plays the only possible action by itself"
        moves = [
            f"to {t.dest} {_when(game, t) or 'when nothing else applies'}"
            for t in game.flow.transitions
            if t.trigger == AUTO and t.source == phase and t.dest in playing and t.dest != phase
        ]
        if moves:
            text += "; goes " + "; ".join(moves)
        lines.append(text + ".")
    return lines


def _outcome_lines(game: Game) -> list[str]:
    several = sum(1 for s in game.states.values() if s.outcome is None) > 1
    lines: list[str] = []
    for outcome in ("won", "lost"):
        ways: list[str] = []
        for t in game.flow.transitions:
            if game.outcomes.get(t.dest) != outcome:
                continue
            parts: list[str] = []
            if t.trigger != AUTO:
                parts.append(f"after '{t.trigger}'")
            if several:
                parts.append(f"in {t.source}")
            text = game.flow.condition_text
            when = [text[name] for name, _ in t.conditions]
            if when:
                parts.append("when " + " and ".join(when))
            unless = [text[name] for name, _ in t.unless]
            if unless:
                parts.append("once this no longer holds: " + " or ".join(unless))
            way = " ".join(parts) or "at once"
            if way not in ways:
                ways.append(way)
        if ways:
            lines.append(f"{outcome.capitalize()} " + "; or ".join(ways) + ".")
    return lines


def rules_text(game: Game, width: int = 80) -> str:
    """The rules of ``game`` in words, wrapped to ``width`` columns."""
    spec = game.spec
    width = max(40, width)
    out: list[str] = []

    def para(text: str, indent: str = "", hang: str = "  ") -> None:
        out.extend(
            textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + hang)
            or [""]
        )

    total = len(game.cards)
    aliases = f"; also {', '.join(spec.aliases)}" if spec.aliases else ""
    decks = _plural(spec.decks, "deck", "decks")
    if len(spec.suits) < 4:  # eight decks of spades are two decks' worth of cards
        decks = f"{decks} of {', '.join(spec.suits)} only"
    removed = f", without {', '.join(spec.remove)}" if spec.remove else ""
    para(f"{spec.name} ({spec.id}{aliases}): {decks}{removed}, {total} cards.")
    if spec.description:
        out.append("")
        para(spec.description, hang="")
    out += ["", "Piles"]
    for name, group in spec.piles.items():
        lines = _group_text(name, group)
        para(lines[0], "  ")
        for line in lines[1:]:
            para(line, "    ")
    out += ["", "Deal"]
    for line in _deal_lines(spec, total):
        para(line, "  ")
    out += ["", "Actions"]
    for line in _action_lines(game):
        para(line, "  ")
    phases = _phase_lines(game)
    if phases:
        out += ["", "Phases"]
        for line in phases:
            para(line, "  ")
    out += ["", "End"]
    for line in _outcome_lines(game):
        para(line, "  ")
    score = spec.score
    counted = "face-up cards" if score.count == "face_up" else "cards"
    where = f"on {_names(list(score.piles))}" if score.piles else "in every pile"
    para(f"Score: {score.label}, counting the {counted} {where} ({total} in all).", "  ")
    return "\n".join(out)
