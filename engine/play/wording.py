"""How the program words what it tells a player, whichever front end shows it: cards (with
suit symbols or letters), counts with their plural, times, the result of a game, the deal."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from ..core.cards import card_text, face_down_count
from ..core.seeds import Seed
from ..core.state import State, Step
from ..game.game import Game

SYMBOLS = "♣♦♥♠"


def face_name(face: int, symbols: bool = False) -> str:
    name = card_text(face)
    return name[:-1] + SYMBOLS[face // 13] if symbols else name


_CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])([CDHS])(?![A-Za-z0-9])")


def symbols_in(text: str, symbols: bool = True) -> str:
    """``text`` with the cards it names (``10H``, ``QS``) written as the board writes them."""
    if not symbols:
        return text
    return _CARD_IN_TEXT.sub(lambda m: m.group(1) + SYMBOLS["CDHS".index(m.group(2))], text)


def time_text(seconds: float) -> str:
    """Time played as m:ss, or h:mm:ss from an hour on."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def counted(count: int, label: str) -> str:
    """'1 card placed', '2 cards placed': a count and a label whose first word is a plural
    ('cards on the foundations'), made singular for one."""
    first, space, rest = label.partition(" ")
    if count == 1 and len(first) > 1 and first.endswith("s"):
        first = first[:-1]
    return f"{count} {first}{space}{rest}"


def score_text(game: Game, state: State) -> str:
    """'12 cards on the foundations'."""
    return counted(game.score(state), game.spec.score.label)


def ending(game: Game, state: State) -> str:
    """The result, or where an unfinished game stands: 'Won: 52 cards on the foundations.'"""
    outcome = game.outcome(state)
    score = score_text(game, state)
    if outcome == "won":
        return f"Won: {score}."
    hidden = face_down_count(state.piles)
    extra = f", {counted(hidden, 'cards')} still face down" if hidden else ""
    if outcome == "lost":
        return f"Lost: {score}{extra}."
    return f"Game not finished: {score}{extra}."


def seed_line(game: Game, seed: Seed, ref: str, width: int = 80) -> str:
    """The deal and how to play it again; on two lines when one would not fit ``width``."""
    head, replay = f"{game.name}, seed {seed}", f"(replay: solitaire play {ref} --seed {seed})"
    return f"{head} {replay}" if len(head) + 1 + len(replay) <= width else f"{head}\n{replay}"


def trace_lines(game: Game, steps: Sequence[Step], before: int = 0) -> Iterator[str]:
    """Every card moved, numbered from ``before + 1``: '  3.  10H  t2 -> f1'."""
    for n, step in enumerate(steps, before + 1):
        src, dst = game.pile_names[step.src], game.pile_names[step.dst]
        yield f"{n:3}. {card_text(step.card):>3}  {src} -> {dst}"
