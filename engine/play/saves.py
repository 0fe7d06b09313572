"""Saved games: every unfinished game in a file of its own, kept until it ends or is deleted.

The saves live in the player's data folder (``autosave/ID.json``, ``ID`` the game record's id),
so that several unfinished games of one game, and of one deal, are kept side by side. A save
is found by its id (any unique beginning of it, the 8 characters ``solitaire saves`` shows),
by its game (the last one played), or by its deal (``play GAME --seed N`` offers it).

A game being played holds a lock on its save (``ID.lock``, an advisory ``flock`` held for the
whole game): a second program that would play the same saved game is refused in one line, so
two programs never overwrite each other's game. Files written before saves were kept per game
(``autosave/GAME.json``) are read the same way and move to their id's name when next saved.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
from pathlib import Path
from typing import IO, Any, NoReturn

from ...rules.errors import printable
from ...rules.frozen import frozen_dataclass
from ..core.seeds import Seed
from .records import GameRecord, RecordError, read_record
from .userdata import autosave_dir

SHORT = 8  # characters of a save's id that name it
_HEX_ID = re.compile(r"[0-9a-f]{8,64}")


class SaveLocked(RecordError):
    """The saved game is being played by another program; the message is one line."""


def file_name(uid: str) -> str:
    """A save's file name for a record id (an id that is not plain hex is hashed)."""
    if not _HEX_ID.fullmatch(uid):
        uid = hashlib.sha256(uid.encode("utf-8", "replace")).hexdigest()[:32]
    return f"{uid}.json"


def short_id(uid: str) -> str:
    return file_name(uid)[:SHORT]


@frozen_dataclass
class SavedGame:
    """One saved game: its file, its record, and when it was last saved (file time)."""

    path: Path
    record: GameRecord
    modified: float

    @property
    def id(self) -> str:
        return short_id(self.record.id)

    @property
    def moves(self) -> int:
        return sum(1 for a in self.record.actions if not a.auto)

    def deal_text(self) -> str:
        return f"seed {self.record.seed}" if self.record.seed is not None else "a given deck"

    def as_json(self) -> dict[str, Any]:
        r = self.record
        return {
            "id": self.id,
            "game": r.game,
            "seed": r.seed,
            "deck": r.deck,
            "moves": self.moves,
            "cards_home": r.cards_home,
            "cards": r.cards,
            "started": r.started,
            "last_played": r.saved,
            "seconds": round(r.seconds, 1),
            "file": str(self.path),
            "record_id": r.id,
        }


@frozen_dataclass
class Unreadable:
    """A file of the save folder that is no save this program can continue, and why."""

    path: Path
    why: str

    @property
    def id(self) -> str:
        return printable(self.path.name[:SHORT], SHORT)


class SaveStore:
    """The folder of saved games."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else autosave_dir()

    def path_for(self, uid: str) -> Path:
        return self.folder / file_name(uid)

    def all(self) -> list[SavedGame]:
        """Every readable save, the most recently played first."""
        return self.scan()[0]

    def scan(self) -> tuple[list[SavedGame], list[Unreadable]]:
        """Every readable save, the most recently played first, and every file of the folder
        that is no save this program can continue (damaged, of a later version, unreadable),
        with why; a folder that cannot be read is one of those."""
        try:
            entries = [e for e in os.scandir(self.folder) if e.name.endswith(".json")]
        except FileNotFoundError:
            return [], []
        except OSError as exc:
            return [], [Unreadable(self.folder, f"cannot read the folder: {exc.strerror or exc}")]
        saves: list[SavedGame] = []
        unreadable: list[Unreadable] = []
        for entry in entries:
            path = Path(entry.path)
            try:
                if not entry.is_file():
                    continue
                modified = entry.stat().st_mtime
                record = read_record(path)
            except OSError as exc:
                unreadable.append(Unreadable(path, exc.strerror or str(exc)))
                continue
            except RecordError as exc:
                why = str(exc)
                shown = printable(str(path)) + ": "
                unreadable.append(Unreadable(path, why.removeprefix(shown)))
                continue
            if record.result is None:
                saves.append(SavedGame(path, record, modified))
        saves.sort(key=lambda s: (s.record.saved, s.modified), reverse=True)
        unreadable.sort(key=lambda u: u.path.name)
        return saves, unreadable

    def of_game(self, game_id: str) -> list[SavedGame]:
        return [s for s in self.all() if s.record.game == game_id]

    def of_deal(self, game_id: str, seed: Seed | None, deck: list[str] | None) -> list[SavedGame]:
        """The saves of one deal of one game, the most recent first."""
        return [
            s
            for s in self.of_game(game_id)
            if (s.record.seed == seed if seed is not None else s.record.deck == deck)
        ]

    def find(self, wanted: str) -> SavedGame | None:
        """The save whose id begins with ``wanted``; None when none does, RecordError when
        several do."""
        wanted = wanted.strip().lower()
        if not wanted:
            return None
        saves, unreadable = self.scan()
        found = [s for s in saves if s.id.startswith(wanted) or s.record.id == wanted]
        if len(found) > 1:
            ids = ", ".join(s.id for s in found[:5])
            raise RecordError(f"'{printable(wanted, 20)}' is the start of several saves: {ids}")
        if not found:  # a save of that id that cannot be read says why, not "no such game"
            named = [u for u in unreadable if u.path.name.startswith(wanted)]
            if named:
                raise RecordError(f"saved game {named[0].id} cannot be read: {named[0].why}")
        return found[0] if found else None

    def latest(self, game_id: str | None = None) -> SavedGame | None:
        saves = self.of_game(game_id) if game_id else self.all()
        return saves[0] if saves else None


class SaveLock:
    """An advisory lock on one saved game, held while a program plays it."""

    def __init__(self, store: SaveStore, uid: str) -> None:
        self.path = store.folder / (file_name(uid)[: -len(".json")] + ".lock")
        self.handle: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock; SaveLocked when another program holds it. Where locks cannot be
        taken (no ``fcntl``, a read-only folder) the game is played unlocked."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - platforms without flock
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        handle = self._open()
        if handle is None:
            return
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            owner = handle.read(20).strip()
            handle.close()
            who = f" (process {owner})" if owner.isdigit() else ""
            raise SaveLocked(
                f"this game is being played in another window{who}; finish or quit it there"
            ) from None
        with contextlib.suppress(OSError):
            handle.truncate(0)
            handle.write(str(os.getpid()))
            handle.flush()
        self.handle = handle

    def _open(self) -> IO[str] | None:
        """The lock file, opened for reading and writing; None where it cannot be made (a
        read-only folder). Never through a link, and only a regular file: a link or a FIFO
        put in its place would have another file emptied and written, or a program hang."""
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK
        flags |= getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o600)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
                self._refuse()
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            self._refuse()
        return open(fd, "r+", encoding="utf-8", errors="replace")

    def _refuse(self) -> NoReturn:
        raise SaveLocked(
            f"its lock file {printable(str(self.path))} is not a regular file (a link, a "
            "folder or a pipe); remove it, then play again"
        )

    def release(self, remove: bool = False) -> None:
        """Let the lock go (removing its file when the game's save is gone)."""
        if self.handle is None:
            return
        if remove:
            with contextlib.suppress(OSError):
                self.path.unlink()
        with contextlib.suppress(OSError):
            self.handle.close()
        self.handle = None
