"""The history of the player's games: an SQLite database in the user's data directory.

One row per game played with ``solitaire play``, keyed by the game record's id, so that a game
saved and resumed stays one row: game, deal (seed or deck), result, score, moves, start time,
time played and when it ended. Results: ``won``, ``lost``, ``abandoned`` (left for a new deal or
a restart, or unfinished at the end of a script) and ``unfinished`` (saved, to be resumed).

The program creates the database and migrates it itself: ``schema_version`` holds the version
of the tables, and each step in ``MIGRATIONS`` brings them one version further. A database that
is locked, corrupt or from a newer program raises ``HistoryError`` with one line; callers report
it and go on, since a game is never stopped by its history.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...rules.errors import printable
from ...rules.frozen import frozen_dataclass
from ..core.seeds import Seed

# The SQL that brings the tables from version k to version k + 1 is MIGRATIONS[k]. A seed is a
# number or 'ms:N' text; SQLite keeps text as text in the INTEGER column.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        seed INTEGER,
        deck TEXT,
        result TEXT NOT NULL,
        score INTEGER NOT NULL,
        cards INTEGER NOT NULL,
        moves INTEGER NOT NULL,
        started TEXT NOT NULL,
        seconds REAL NOT NULL,
        finished TEXT
    );
    CREATE INDEX games_by_game ON games (game, finished);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
# What each column of a row holds (a seed is a number or 'ms:N' text).
_KINDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "game": str, "seed": (int, str, type(None)), "deck": (str, type(None)),
    "result": str, "score": int, "cards": int, "moves": int, "started": str,
    "seconds": (int, float), "finished": (str, type(None)),
}  # fmt: skip
_COUNTS = ("score", "cards", "moves", "seconds")
FINISHED = ("won", "lost", "abandoned")
_TIMEOUT = 0.5  # seconds to wait for another program holding the database


class HistoryError(RuntimeError):
    """The history cannot be read or written; the message is one line."""


@frozen_dataclass
class GameRow:
    """One game in the history."""

    id: str
    game: str
    seed: Seed | None
    deck: str | None
    result: str
    score: int
    cards: int
    moves: int
    started: str
    seconds: float
    finished: str | None

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "deck": self.deck.split() if self.deck else None,
            "result": self.result,
            "score": self.score,
            "cards": self.cards,
            "moves": self.moves,
            "started": self.started,
            "seconds": round(self.seconds, 1),
            "finished": self.finished,
            "id": self.id,
        }


def _reason(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "locked" in text or "busy" in text:
        return "the database is locked by another program"
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return "the file is not a valid history database (corrupt?)"
    return text or type(exc).__name__


def _access_problem(path: Path) -> str | None:
    """Why the system keeps this program from a file, if it does."""
    try:
        os.stat(path)
    except FileNotFoundError:
        if not os.access(path.parent, os.W_OK | os.X_OK):
            return f"its folder {printable(str(path.parent))} cannot be written"
        return None
    except OSError as exc:
        return exc.strerror
    if not os.access(path, os.R_OK | os.W_OK):
        return "Permission denied"
    return None


class History:
    """The history database at ``path`` (created on first use)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        shown = printable(str(self.path))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=_TIMEOUT, isolation_level=None)
            # One row per game is not worth a disk flush (about 15 ms, more than the rest of
            # a game's start): with the write-ahead log a crash of the program never damages
            # the file; only a crash of the whole system in the instant after a game could.
            db.execute("PRAGMA synchronous = OFF")
        except (OSError, sqlite3.Error) as exc:
            reason = exc.strerror if isinstance(exc, OSError) else _reason(exc)
            if isinstance(exc, sqlite3.Error):  # its "unable to open" hides why
                reason = _access_problem(self.path) or reason
            raise HistoryError(f"history {shown}: cannot open it: {reason}") from None
        try:
            self._migrate(db)
            yield db
        except sqlite3.Error as exc:
            raise HistoryError(f"history {shown}: {_reason(exc)}") from None
        finally:
            db.close()

    def _version(self, db: sqlite3.Connection) -> int:
        try:
            row = db.execute("SELECT version FROM schema_version").fetchone()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return 0
            raise
        return self._checked_version(row[0]) if row else 0

    def _checked_version(self, value: object) -> int:
        """The tables' version as stored; HistoryError when it is not one (corrupt?)."""
        if isinstance(value, int) and value >= 0:
            return value
        raise HistoryError(
            f"history {printable(str(self.path))}: its schema_version holds "
            f"{printable(repr(value), 30)}, not a version number (corrupt?)"
        )

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Bring the tables to ``SCHEMA_VERSION`` (a no-op, read only, when they are)."""
        if self._version(db) == SCHEMA_VERSION:
            return
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = self._checked_version(row[0]) if row else 0
            if row is None:
                db.execute("INSERT INTO schema_version VALUES (0)")
            if version > SCHEMA_VERSION:
                raise HistoryError(
                    f"history {printable(str(self.path))}: written by a newer version of the "
                    f"program (tables version {version}; this one knows up to {SCHEMA_VERSION})"
                )
            for step in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("UPDATE schema_version SET version = ?", (step + 1,))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def record(self, game: GameRow) -> None:
        """Add a game, or update it (a resumed game keeps its row)."""
        with self._connect() as db:
            db.execute(
                # A game's row is updated as it goes on, except that a win stays a win.
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET result = excluded.result, "
                "score = excluded.score, moves = excluded.moves, seconds = excluded.seconds, "
                "finished = excluded.finished WHERE games.result != 'won'",
                (
                    game.id, game.game, game.seed, game.deck, game.result, game.score,
                    game.cards, game.moves, game.started, game.seconds, game.finished,
                ),
            )  # fmt: skip

    def games(self, game: str | None = None) -> list[GameRow]:
        """Every game in the history (of one game when given), oldest first; HistoryError
        (one line) at the first row that cannot be read."""
        rows, problems = self.readable_games(game)
        if problems:
            raise HistoryError(problems[0])
        return rows

    def readable_games(self, game: str | None = None) -> tuple[list[GameRow], list[str]]:
        """Every game in the history that can be read (of one game when given), oldest
        first, and why each other row cannot be: one bad row does not hide the others."""
        query = f"SELECT {', '.join(_KINDS)} FROM games"
        args: tuple[str, ...] = ()
        if game is not None:
            query += " WHERE game = ?"
            args = (game,)
        query += " ORDER BY COALESCE(finished, started), started"
        rows: list[GameRow] = []
        problems: list[str] = []
        with self._connect() as db:
            # Text that is not UTF-8 is read with replacement characters, not a failed query.
            db.text_factory = lambda raw: raw.decode("utf-8", "replace")
            for values in db.execute(query, args):
                try:
                    rows.append(self._row(values))
                except HistoryError as exc:
                    problems.append(str(exc))
        return rows, problems

    def _row(self, values: tuple[Any, ...]) -> GameRow:
        """A row as the program wrote it; HistoryError (one line) when a value is of the
        wrong kind (another program's row, a damaged file)."""
        row = GameRow(*values)
        for name, kinds in _KINDS.items():
            value = getattr(row, name)
            wrong = not isinstance(value, kinds) or isinstance(value, bool)
            if not wrong and name in _COUNTS:
                wrong = not 0 <= value < 10**12  # no negative or endless counts and times
            if not wrong and name == "result":
                wrong = value not in (*FINISHED, "unfinished")
            if wrong:
                raise HistoryError(
                    f"history {printable(str(self.path))}: the row of game "
                    f"{printable(str(row.id), 40)} holds {name} {printable(repr(value), 30)}, "
                    "which this program never writes (corrupt?)"
                )
        return row


@dataclass
class Summary:
    """The figures of one game's history."""

    game: str
    played: int = 0
    won: int = 0
    lost: int = 0
    abandoned: int = 0
    unfinished: int = 0
    streak: int = 0  # wins in a row, up to the last game won or lost (abandoned ones skipped)
    best_streak: int = 0
    best_score: int | None = None
    cards: int = 0
    fastest_win: float | None = None
    fewest_moves: int | None = None

    @property
    def finished(self) -> int:
        """Games played to their end, won or lost: what the win rate is of."""
        return self.won + self.lost

    @property
    def win_rate(self) -> float | None:
        return self.won / self.finished if self.finished else None


def summarise(games: list[GameRow]) -> list[Summary]:
    """Figures per game, in order of game id: counts, win rate, streaks, bests."""
    out: dict[str, Summary] = {}
    for g in games:
        s = out.setdefault(g.game, Summary(g.game))
        s.played += 1
        s.cards = max(s.cards, g.cards)
        if g.result == "unfinished":
            s.unfinished += 1
            continue
        if g.result == "won":
            s.won += 1
            s.streak += 1
            s.best_streak = max(s.best_streak, s.streak)
            s.fastest_win = g.seconds if s.fastest_win is None else min(s.fastest_win, g.seconds)
            s.fewest_moves = g.moves if s.fewest_moves is None else min(s.fewest_moves, g.moves)
        elif g.result == "lost":
            s.lost += 1
            s.streak = 0
        else:  # abandoned: apart from wins and losses; a streak goes on past it
            s.abandoned += 1
        s.best_score = g.score if s.best_score is None else max(s.best_score, g.score)
    return [out[k] for k in sorted(out)]
