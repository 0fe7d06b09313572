"""What becomes of a game being played: its save, its row in the history, the questions asked.

``Keeper`` is the part of a front end that never loses a game, shared by every front end (line
mode, a full-screen table): it saves the game in a file of its own (``saves``), locked while it
is played so that no other program writes it; it writes the game to the history once, as it
ends (a win is recorded when it happens and stays a win, whatever ``undo`` does after it); and
it says when a command would leave a game with moves, with the question to ask and the choices
(``Question``): keep it saved, abandon it, or go on playing. The front end asks, in its own way.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from ...rules.errors import printable
from ...rules.frozen import frozen_dataclass
from ..game.game import Game
from .progress import Progress
from .saves import SaveLock, SaveStore, short_id


def _real(path: Path) -> Path:
    """The file a path names: absolute, with links, '.' and '..' resolved."""
    return Path(os.path.realpath(path))


Means = Literal["keep", "abandon", "cancel"]
Leaving = Literal["quit", "restart", "new"]


@frozen_dataclass
class Choice:
    """One answer to a question: the key that chooses it and the choice in words."""

    key: str  # one letter the player may type
    word: str  # the choice in a word or two
    means: Means


@frozen_dataclass
class Question:
    """A question before a game with moves is left; the answer is one of ``choices``."""

    text: str
    choices: tuple[Choice, ...]
    default: Means  # what an empty answer means

    def prompt(self) -> str:
        words = [
            f"[{c.key.upper() if c.means == self.default else c.key}]{c.word[1:]}"
            if c.word.startswith(c.key)
            else f"[{c.key}] {c.word}"
            for c in self.choices
        ]
        return f"{self.text} {', '.join(words)}? "

    def read(self, answer: str) -> Means | None:
        """What an answer means; None when it is none of the choices."""
        text = answer.strip().lower()
        if not text:
            return self.default
        for choice in self.choices:
            if text in (choice.key, choice.word.split()[0], choice.means):
                return choice.means
        yes_no: dict[str, Means] = {"y": "keep", "yes": "keep", "n": "cancel", "no": "cancel"}
        return yes_no.get(text)


class Keeper:
    """The files of the games played in one run: saves (locked while played) and history."""

    def __init__(
        self,
        game: Game,
        *,
        record_history: bool = True,
        store: SaveStore | None = None,
        warn: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.game = game
        self.record_history = record_history
        self.store = store or SaveStore()
        self.warn = warn
        self.lock: SaveLock | None = None
        self.progress: Progress | None = None
        self.source: Path | None = None  # the save this game was resumed from
        self.finished = False  # written to the history as over
        self.won = False  # won once: the history keeps the win

    # --- which game -----------------------------------------------------------------------

    def claim(self, uid: str) -> None:
        """Lock the save of the game with record id ``uid`` before it is read and played;
        SaveLocked when another program plays it."""
        if self.lock is not None and self.progress is not None and self.progress.id == uid:
            return
        lock = SaveLock(self.store, uid)
        lock.acquire()
        self.release()
        self.lock = lock

    def begin(self, progress: Progress, source: Path | None = None) -> None:
        """Keep ``progress`` from now on (``source``: the save it was resumed from)."""
        if source is None:  # a new game: a lock still held is the last game's
            self.release()
        self.progress = progress
        # By what the file is, not by how its name was written: a save resumed as
        # 'ID.json', '../autosave/ID.json' or through a link is the save about to be written.
        self.source = _real(source) if source is not None else None
        self.finished = False
        self.won = False

    def release(self) -> None:
        if self.lock is not None:
            self.lock.release(remove=not self.is_saved())
            self.lock = None

    @property
    def id(self) -> str:
        return short_id(self._progress().id)

    def _progress(self) -> Progress:
        if self.progress is None:  # pragma: no cover - begin comes first
            raise RuntimeError("no game")
        return self.progress

    def saved_path(self) -> Path:
        return self.store.path_for(self._progress().id)

    # --- saving ---------------------------------------------------------------------------

    def autosave(self) -> Path | None:
        """Save an unfinished game in which the player has moved; the file, or None."""
        progress = self._progress()
        if progress.session.is_over() or not progress.moves:
            return None
        path = self.saved_path()
        try:
            if self.lock is None:
                self.claim(progress.id)
            from .atomic import write_text

            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, progress.record().dumps())
        except OSError as exc:
            self.warn(f"cannot save the game in {printable(str(path))}: {exc.strerror or exc}")
            return None
        written = _real(path)
        if self.source is not None and self.source != written and self._in_store(self.source):
            with contextlib.suppress(OSError):  # an older save's name: the game moved
                self.source.unlink()
        self.source = written
        return path

    def _in_store(self, path: Path) -> bool:
        return _real(path).parent == _real(self.store.folder)

    def is_saved(self) -> bool:
        try:
            os.stat(self.saved_path())
        except OSError:  # absent, or in a folder this user cannot search: not kept either way
            return False
        return True

    def forget(self) -> None:
        """A game finished or abandoned needs no save."""
        for path in {self.saved_path(), *([self.source] if self.source else [])}:
            if self._in_store(path):
                with contextlib.suppress(OSError):
                    path.unlink()
        self.source = None
        if self.lock is not None:
            self.lock.release(remove=True)
            self.lock = None

    # --- the history ----------------------------------------------------------------------

    def to_history(self, result: str) -> None:
        """Write this game to the history (once it is a game: a move, or its end); a game
        once won stays won."""
        progress = self._progress()
        if not self.record_history or (self.won and result != "won"):
            return
        if not progress.moves and not progress.session.is_over():
            return
        from .history import History, HistoryError
        from .userdata import history_path

        try:
            History(history_path()).record(progress.row(result))
        except HistoryError as exc:
            self.warn(f"{exc}; this game is not in the history")

    def game_over(self) -> None:
        """The game has ended: record it (a win at once, for good) and forget its save."""
        progress = self._progress()
        if self.finished:
            return
        self.finished = True
        progress.stop()
        outcome = self.game.outcome(progress.session.position) or "lost"
        self.to_history(outcome)
        if outcome == "won":
            self.won = True
        self.forget()

    def leave(self, saving: bool, abandon: bool = False) -> Path | None:
        """The player leaves this game unfinished: save it when ``saving`` (the file, or None),
        forget its save when ``abandon``, and write it to the history: unfinished while a save
        of it is kept, else abandoned."""
        progress = self._progress()
        if progress.session.is_over() or self.won:
            self.release()
            return None
        saved = self.autosave() if saving else None
        if abandon:
            self.forget()
        kept = saved is not None or (not abandon and self.is_saved())
        self.to_history("unfinished" if kept else "abandoned")
        if not abandon:
            self.release()
        return saved

    # --- what the player may do -----------------------------------------------------------

    def undo_refusal(self) -> str | None:
        """Why undo is refused now (a won game stays won), or None."""
        if self.won:
            return (
                "the game is won, and stays won: 'restart' plays this deal again, 'new' another one"
            )
        return None

    def question(self, leaving: Leaving) -> Question | None:
        """The question to ask before ``leaving`` a game with moves; None when nothing would
        be lost (no move made, or the game is over)."""
        progress = self._progress()
        if progress.session.is_over() or self.won or not progress.moves:
            return None
        moves = progress.moves
        done = f"{moves} move{'s' if moves != 1 else ''}"
        if leaving == "quit":
            return Question(
                f"Leave this game ({done})? It stays saved (solitaire play --resume {self.id})",
                (
                    Choice("y", "yes", "keep"),
                    Choice("a", "abandon it", "abandon"),
                    Choice("n", "no", "cancel"),
                ),
                "keep",
            )
        what = "Play this deal again from the start" if leaving == "restart" else "Deal again"
        return Question(
            f"{what}? This game ({done}) is",
            (
                Choice("k", "kept saved", "keep"),
                Choice("a", "abandoned", "abandon"),
                Choice("c", "cancel", "cancel"),
            ),
            "keep",
        )
