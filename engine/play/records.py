"""Game records: a game as a versioned JSON document, to save, resume and replay.

Modelled on python-chess's PGN: the record names the game and its rules (the game's id and the
SHA-256 of its rule file's bytes), the deal (a seed, or the deck order), and every action in
``play``'s notation with whether the engine played it by itself and when it was played::

    {"format": "yaml-solitaire game record", "version": 1,
     "id": "6f1c...", "game": "my-game", "rules_file": "/.../my_game.yaml",
     "rules_sha256": "9b2e...", "deal": {"seed": 3},
     "started": "2026-05-01T09:30:00Z", "saved": "2026-05-01T09:41:12Z", "seconds": 672.5,
     "result": null,
     "actions": [{"action": "t3 f5", "auto": false, "at": 4.2}, ...]}

``deal`` is ``{"seed": N}`` or ``{"deck": ["AC", ...]}`` (first card dealt first); ``seconds`` is
the time played; ``at`` the time played when the action was taken; ``result`` is ``won``,
``lost`` or null for a game still going. A record of another format version, one that cannot be
read, or one whose rule file has changed is refused with one line (``RecordError``).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...rules.errors import printable
from ...rules.files import Unreadable, read_limited
from ...rules.frozen import frozen_dataclass
from ..core.cards import DeckError, card_text, parse_deck
from ..core.seeds import Seed, is_seed
from ..core.state import IllegalAction
from ..game.game import Game
from .session import Session

FORMAT = "yaml-solitaire game record"
VERSION = 1
MAX_RECORD_BYTES = 20_000_000


class RecordError(ValueError):
    """A record that cannot be used; the message is one line."""


@frozen_dataclass
class Recorded:
    """One action of a record: its text, whether the engine played it, and when."""

    action: str
    auto: bool = False
    at: float = 0.0


@dataclass
class GameRecord:
    game: str
    rules_sha256: str
    seed: Seed | None
    deck: list[str] | None
    id: str
    started: str
    rules_file: str = ""
    seconds: float = 0.0
    result: str | None = None
    saved: str = ""
    actions: list[Recorded] = field(default_factory=list)
    cards_home: int | None = None  # cards on the foundations when saved (for lists of saves)
    cards: int | None = None  # the game's cards

    def as_json(self) -> dict[str, Any]:
        deal: dict[str, Any] = {"seed": self.seed} if self.seed is not None else {"deck": self.deck}
        return {
            "format": FORMAT,
            "version": VERSION,
            "id": self.id,
            "game": self.game,
            "rules_file": self.rules_file,
            "rules_sha256": self.rules_sha256,
            "deal": deal,
            "started": self.started,
            "saved": self.saved,
            "seconds": round(self.seconds, 1),
            "result": self.result,
            **({"cards_home": self.cards_home, "cards": self.cards} if self.cards else {}),
            "actions": [
                {"action": a.action, "auto": a.auto, "at": round(a.at, 1)} for a in self.actions
            ],
        }

    def dumps(self) -> str:
        """The record as JSON text: one field a line, one action a line."""
        data = self.as_json()
        actions = data.pop("actions")
        head = json.dumps(data, indent=1)[: -len("\n}")]
        lines = ",\n".join("  " + json.dumps(a) for a in actions)
        body = f"[\n{lines}\n ]" if actions else "[]"
        return f'{head},\n "actions": {body}\n}}\n'


def now() -> str:
    """The time now, UTC, as ISO 8601 text to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def rules_digest(game: Game) -> str:
    """The SHA-256 of the game's rule file bytes ('' for a game not read from a file)."""
    if game.path is None:
        return ""
    try:
        return hashlib.sha256(Path(game.path).read_bytes()).hexdigest()
    except OSError:
        return ""


def make_record(
    game: Game,
    session: Session,
    *,
    seed: Seed | None,
    order: list[int],
    uid: str,
    started: str,
    seconds: float,
    times: list[float],
) -> GameRecord:
    """The record of a session: its deal and every action so far (``times``: when each was
    played, aligned with the session's history)."""
    actions = [
        Recorded(
            game.action_text(entry.action, entry.before),
            entry.auto,
            times[k] if k < len(times) else 0.0,
        )
        for k, entry in enumerate(session.history)
    ]
    return GameRecord(
        game=game.id,
        rules_sha256=rules_digest(game),
        seed=seed,
        deck=None if seed is not None else [card_text(c) for c in order],
        id=uid,
        started=started,
        rules_file=str(Path(game.path).resolve()) if game.path else "",
        seconds=seconds,
        result=game.outcome(session.position),
        saved=now(),
        actions=actions,
        cards_home=game.foundation_cards(session.position),
        cards=len(game.cards),
    )


# --- reading ------------------------------------------------------------------------------


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"'{key}' must be {what}")
    return value


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


# The most seconds a record may give (about 317 years): more is not a time anyone played.
MAX_SECONDS = 10**10


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecordError(f"'{key}' must be a number of seconds")
    if not 0 <= value <= MAX_SECONDS:  # also refuses NaN and Infinity
        raise RecordError(f"'{key}' must be a number of seconds from 0 to {MAX_SECONDS:,}")
    return float(value)


def _count(data: dict[str, Any], key: str) -> int | None:
    """An optional count (a summary for lists of saves; the actions are what count)."""
    value = data.get(key)
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**6
    return value if ok else None


def loads(text: str) -> GameRecord:
    """A record from its JSON text; RecordError when it is not one this program can read."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a game record: not valid JSON ({exc})") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, deep nesting
        raise RecordError("not a game record: a number or nesting too large to read") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError("not a game record of this program")
    version = data.get("version")
    if version != VERSION:
        shown = printable(str(version), 20)
        raise RecordError(
            f"record format version {shown}; this program reads version {VERSION} only"
        )
    deal = _need(data, "deal", dict, "an object with 'seed' or 'deck'")
    seed: Seed | None = None
    deck: list[str] | None = None
    if "seed" in deal:
        seed = deal["seed"]
        if not is_seed(seed):
            raise RecordError("'deal.seed' must be a whole number from 0 to 2**63 - 1, or ms:N")
    else:
        deck = deal.get("deck")
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise RecordError("'deal' must hold a 'seed' number or a 'deck' list of cards")
    actions: list[Recorded] = []
    for k, item in enumerate(_need(data, "actions", list, "a list")):
        if not isinstance(item, dict) or not isinstance(item.get("action"), str):
            raise RecordError(f"action {k + 1}: must be an object with an 'action' text")
        auto = item.get("auto", False)
        if not isinstance(auto, bool):
            raise RecordError(f"action {k + 1}: 'auto' must be true or false")
        actions.append(Recorded(item["action"], auto, _number(item, "at")))
    result = data.get("result")
    if result not in (None, "won", "lost"):
        raise RecordError("'result' must be won, lost or null")
    return GameRecord(
        game=_need(data, "game", str, "the game's id"),
        rules_sha256=_need(data, "rules_sha256", str, "a SHA-256 in hex"),
        seed=seed,
        deck=deck,
        id=_need(data, "id", str, "text"),
        started=_need(data, "started", str, "a time"),
        rules_file=_text(data, "rules_file"),
        seconds=_number(data, "seconds"),
        result=result,
        saved=_text(data, "saved"),
        actions=actions,
        cards_home=_count(data, "cards_home"),
        cards=_count(data, "cards"),
    )


def read_record(path: Path) -> GameRecord:
    """The record in a file; RecordError (one line, naming the file) when it cannot be used."""
    shown = printable(str(path))
    try:  # a regular file, read without blocking (a FIFO would hang) and never past the limit
        raw = read_limited(path, MAX_RECORD_BYTES)
    except Unreadable as exc:
        raise RecordError(f"{shown}: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{shown}: not a game record (not UTF-8 text)") from None
    try:
        return loads(text)
    except RecordError as exc:
        raise RecordError(f"{shown}: {exc}") from None


def check_rules(record: GameRecord, game: Game) -> None:
    """RecordError unless the record is a game of ``game`` with the same rule file."""
    if record.game != game.id:
        raise RecordError(f"it is a game of '{printable(record.game, 40)}', not of '{game.id}'")
    if record.rules_sha256 != rules_digest(game):
        raise RecordError(
            f"the rule file of '{game.id}' has changed since this game was recorded "
            "(its SHA-256 differs), so the game cannot be replayed"
        )


def deal_order(record: GameRecord, game: Game) -> list[int]:
    if record.seed is not None:
        return game.seed_order(record.seed)
    try:
        return parse_deck(record.deck or [], game.cards)
    except DeckError as exc:
        raise RecordError(f"the deal in the record is not this game's deck: {exc}") from None


def replay(record: GameRecord, game: Game, session: Session) -> None:
    """Play the record's actions in ``session`` (dealt from the record), as they were played."""
    for k, recorded in enumerate(record.actions):
        try:
            action = game.parse_action(recorded.action, session.position)
            session.push_recorded(action, auto=recorded.auto)
        except (ValueError, IllegalAction) as exc:
            shown = printable(recorded.action, 30)
            raise RecordError(f"action {k + 1} '{shown}' cannot be played: {exc}") from None
