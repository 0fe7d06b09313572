"""The games open in the browser: one ``WebTable`` per table, kept by ``Tables``.

A table plays one game through the shared ``Player`` (``engine/play/player.py``), as line mode
and the terminal table do: the moves, the engine's own moves, undo and redo, the hints, the
check that no win is possible, the save and the history (in the same files as
``solitaire play``), and the words for the player. Its answers are ``play --json``'s records
(``serial.outcome_record``) with the fields the page draws from. A table holds its save's lock
only while it answers a request, so that a game left in the browser can be resumed at the
terminal; when the save changed meanwhile (played elsewhere), the table reads it again first.
Everything a request can name is a game id, a deal number, a deck or a save's id: never a path.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ....rules.errors import printable
from ...core.cards import DOWN, DeckError, parse_deck
from ...core.seeds import Seed, parse_seed
from ...core.state import Action, State
from ...game.game import Game
from ...play.keeper import Means
from ...play.player import Outcome, Player, PlayOptions, checked_deal
from ...play.progress import Deal, new_deal
from ...play.records import GameRecord, RecordError, read_record
from ...play.saves import SaveStore
from ...play.serial import outcome_record  # the same records as play --json
from .layout import page_layout

MAX_TABLES = 32  # tables kept in memory; the oldest is saved and let go past this
MAX_COMMAND = 200  # characters of one command: an action is a few words
WIDTH = 100  # the player's lines (the rules, a list of automatic moves) are cut to this
_SAVE_ID = re.compile(r"[0-9a-f]{4,64}")


class Refused(Exception):
    """A request that names something that is not there, or cannot be used (4xx)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def game_by_name(name: object) -> Game:
    """A shipped game by id or alias; never a file named by the request."""
    from ....rules.catalog import find_game, looks_like_path
    from ...game.load import load_game

    if not isinstance(name, str) or not name or len(name) > 60 or looks_like_path(name):
        raise Refused("unknown game: give a game id from the list (GET /api/games)", 404)
    if find_game(name) is None:
        raise Refused(f"unknown game '{printable(name, 40)}' (GET /api/games lists them)", 404)
    return load_game(name)


def parse_deal(game: Game, seed: object, deck: object) -> Deal:
    if seed not in (None, "") and deck not in (None, ""):
        raise Refused("give a seed or a deck, not both")
    if deck not in (None, "") and not isinstance(deck, str):
        raise Refused("deck: the cards as text, separated by spaces or commas")
    if isinstance(deck, str) and deck:
        # Never read_deck_text: its '@FILE' would read a file the request names.
        names = deck.replace(",", " ").split()
        try:
            return Deal(None, parse_deck(names, game.cards))
        except DeckError as exc:
            raise Refused(f"deck: {exc}") from None
    if seed in (None, ""):
        return new_deal(game)
    if not isinstance(seed, str | int) or isinstance(seed, bool):
        raise Refused("seed: a whole number or ms:N")
    try:
        number: Seed = parse_seed(str(seed))
        return new_deal(game, number)
    except ValueError as exc:
        raise Refused(f"seed: {exc}") from None


# The commands a table takes: what changes the game or tells about it. 'save FILE' names a
# file and 'quit' ends a terminal's game: the page saves after every move and closes the table.
_TAKEN = frozenset(
    {"action", "undo", "redo", "hint", "moves", "board", "rules", "help", "auto", "restart", "new"}
)
_NOT_HERE = "'{}' is the terminal's: the table saves the game after every move (close it to leave)"
_ELSEWHERE = "this game was played elsewhere since: the table shows its save"


class WebTable:
    """One game open in the browser, played by the shared ``Player``."""

    def __init__(
        self,
        game: Game,
        deal: Deal,
        store: SaveStore,
        resume: Path | None = None,
        auto: bool = True,
        offer: bool = False,
    ) -> None:
        """``offer``: the deal was asked for by its number or its cards, so that unfinished
        games of it are named (as line mode names them)."""
        self.game = game
        self.lock = threading.Lock()  # one request at a time plays on a table
        # A person plays: every move, undo and redo is saved, as at a terminal.
        self.player = Player(game, PlayOptions(auto=auto, interactive=True), store=store)
        self.player.width = WIDTH
        self.message = ""
        self._saved_stamp: int | None = None
        if resume is not None:
            self._resume(resume)
        else:
            if offer:
                self.player.offered = [s.id for s in store.of_deal(game.id, deal.seed, deal.deck)]
            self._begin(deal)

    # --- starting and resuming ------------------------------------------------------------

    def _begin(
        self, deal: Deal, record: GameRecord | None = None, source: Path | None = None
    ) -> None:
        self.player.begin(deal, record, source)
        self.opened = self.player.introduce(str(source) if source is not None else None)
        self._saved_stamp = self._stamp()

    def _resume(self, path: Path) -> None:
        try:
            record, deal = self.player.claim_saved(read_record(path), path)
        except RecordError as exc:
            self.player.keeper.release()
            raise Refused(f"cannot resume: {exc}", 409) from None
        try:
            self._begin(deal, record, path)
        finally:
            self.player.keeper.release()

    def _stamp(self) -> int | None:
        try:
            return self.player.keeper.saved_path().stat().st_mtime_ns
        except OSError:
            return None

    def _catch_up(self) -> None:
        """The save changed since this table last wrote it: another program played on."""
        stamp = self._stamp()
        if stamp is None or stamp == self._saved_stamp:
            return
        path = self.player.keeper.saved_path()
        try:
            record = read_record(path)
            deal = checked_deal(record, self.game, path)
        except RecordError:
            return
        if record.result is None:
            self._begin(deal, record, path)
            self.message = _ELSEWHERE

    # --- playing --------------------------------------------------------------------------

    def command(self, text: str, answer: Means | None = None) -> dict[str, Any]:
        """Play one command of ``play`` (an action in its notation, undo, redo, hint, rules,
        restart, new [SEED]...) through the player; ``answer`` is the player's answer to the
        question a command that leaves a game with moves asks (``questions`` in the record).
        The answer is a JSON record (see docs/web.md)."""
        with self.lock:
            self.message = ""
            keeper = self.player.keeper
            keeper.claim(self.player.progress.id)
            try:
                self._catch_up()
                outcome = self._perform(text, answer)
                self._saved_stamp = self._stamp()
            finally:
                keeper.release()
            return self.record(outcome)

    def _perform(self, text: str, answer: Means | None) -> Outcome:
        player = self.player
        command = player.parse(text)
        if command.kind not in _TAKEN:
            return player.refused(text, _NOT_HERE.format(command.words[0].lower()))
        # Without an answer, leaving a game with moves abandons it, as a script's does.
        return player.perform(command, answer)

    def opening(self) -> dict[str, Any]:
        """The record of the game as it was dealt or resumed (the first answer), then what the
        page needs once: the game's name, its layout, its own actions and their keys."""
        with self.lock:
            record = self.record(self.opened)
        return {**record, **self._furniture()}

    def current(self) -> dict[str, Any]:
        """The record of the game as it stands, with what the page needs once."""
        with self.lock:
            record = self.record(self.player.outcome(None, "board"))
        return {**record, **self._furniture()}

    # --- answers --------------------------------------------------------------------------

    def record(self, outcome: Outcome) -> dict[str, Any]:
        """``play --json``'s record of ``outcome`` (``serial.outcome_record``), then the
        fields of the page: where the legal actions go, the counts, what can be undone."""
        player, game = self.player, self.game
        session = player.session
        state = session.position
        deal = player.deal
        record = outcome_record(game, outcome)
        record.update(game=game.id, seed=deal.seed)
        if deal.deck is not None:
            record["deck"] = deal.deck
        if outcome.ok and outcome.played_text is not None:
            record["played"] = outcome.played_text
        action = outcome.advice.action if outcome.advice is not None else None
        if action is not None:
            names = game.pile_names
            record.update(
                hint_source=names[action.src] if action.src >= 0 else None,
                hint_target=names[action.dst] if action.dst >= 0 else None,
                hint_count=max(action.n, 1),
            )
        # Said once by the player after the action that reached this position (the check
        # runs then, not at every request); the page shows it while the position stays.
        warning = outcome.no_win or player.told_lost.get(state)
        if warning and not session.is_over():
            record["no_win"] = warning
        legal = player.legal_moves()
        record.update(
            moves=[text for _, text in legal],
            move_piles=[self._piles_of(state, a) for a, _ in legal],
            moves_made=player.progress.moves,
            seconds=round(player.progress.seconds(), 1),
            cards=len(game.cards),
            score_label=game.spec.score.label,
            over=session.is_over(),
            can_undo=any(not p.auto for p in session.history) and not player.keeper.won,
            can_redo=bool(session.undone),
            auto_moves=player.auto,
            save=player.keeper.id,
            hidden={
                name: down
                for name, cards in zip(game.pile_names, state.piles, strict=True)
                if (down := [i for i, card in enumerate(cards) if card & DOWN])
            },
            messages=list(outcome.messages) if outcome.ok else [],
            message=self.message,
            questions=self._questions(),
        )
        return record

    def _questions(self) -> dict[str, Any]:
        """What restart and new would ask first (line mode's questions), by command."""
        asked: dict[str, Any] = {}
        for leaving in ("restart", "new"):
            question = self.player.keeper.question(leaving)
            if question is not None:
                asked[leaving] = {
                    "text": question.text,
                    "choices": [
                        {"key": c.key, "word": c.word, "means": c.means} for c in question.choices
                    ],
                    "default": question.default,
                }
        return asked

    def _piles_of(self, state: State, action: Action) -> dict[str, Any]:
        """Where an action goes, for the page to match clicks and drags."""
        names = self.game.pile_names
        return {
            "name": action.name,
            "source": names[action.src] if action.src >= 0 else None,
            "target": names[action.dst] if action.dst >= 0 else None,
            "count": max(action.n, 1),
            "stock": self._moves_stock(state, action),
        }

    def _moves_stock(self, state: State, action: Action) -> bool:
        """Whether an action without piles changes the stock (what a click on it plays)."""
        if action.src >= 0 or action.dst >= 0:
            return False
        stocks = [p for p in range(len(self.game.layout)) if self.game.layout.role[p] == "stock"]
        after = self.game.apply(state, action)
        return any(len(after.piles[p]) != len(state.piles[p]) for p in stocks)

    def _furniture(self) -> dict[str, Any]:
        game = self.game
        own = []
        for name, effect in game.effects.items():
            if effect.automatic or effect.takes_piles:
                continue
            keys = [k for k, v in game.notation.keys.items() if v == name and k != name]
            own.append({"name": name, "keys": keys, "help": effect.help or name})
        return {"name": game.name, "layout": page_layout(game), "buttons": own}

    def close(self) -> None:
        """Let the game go: saved when the player moved, as a terminal's quit keeps it."""
        with self.lock:
            try:
                self.player.keeper.claim(self.player.progress.id)
            except RecordError:
                return  # another program plays it now: its save is that program's
            self.player.leave(saving=True)


class Tables:
    """The tables open on one server, by a random id the page keeps."""

    def __init__(self, store: SaveStore | None = None) -> None:
        self.store = store or SaveStore()
        self.tables: OrderedDict[str, WebTable] = OrderedDict()
        self.lock = threading.Lock()

    def open(self, body: dict[str, Any]) -> tuple[str, WebTable]:
        game = game_by_name(body.get("game"))
        auto = body.get("auto", True)
        if auto not in (True, False, "on", "off"):
            raise Refused("auto: true or false ('on' or 'off')")
        auto = auto in (True, "on")
        resume = body.get("resume")
        if resume not in (None, ""):
            if body.get("seed") not in (None, "") or body.get("deck") not in (None, ""):
                raise Refused("resume continues a saved deal: it takes no seed or deck")
            path = self._save_path(game, resume)
            table = WebTable(game, Deal(None, []), self.store, path, auto)
        else:
            deal = parse_deal(game, body.get("seed"), body.get("deck"))
            asked = body.get("seed") not in (None, "") or body.get("deck") not in (None, "")
            table = WebTable(game, deal, self.store, auto=auto, offer=asked)
        uid = secrets.token_hex(12)
        with self.lock:
            self.tables[uid] = table
            while len(self.tables) > MAX_TABLES:
                _, oldest = self.tables.popitem(last=False)
                oldest.close()
        return uid, table

    def _save_path(self, game: Game, wanted: object) -> Path:
        if not isinstance(wanted, str) or not _SAVE_ID.fullmatch(wanted.lower()):
            raise Refused(
                "resume: a saved game's id (letters a-f and digits, see 'solitaire saves')"
            )
        try:
            found = self.store.find(wanted)
        except RecordError as exc:
            raise Refused(str(exc)) from None
        if found is None:
            raise Refused(f"no saved game '{wanted}' (see 'solitaire saves')", 404)
        if found.record.game != game.id:
            raise Refused(
                f"saved game {wanted} is a game of '{printable(found.record.game, 40)}'", 409
            )
        return found.path

    def get(self, uid: str) -> WebTable:
        with self.lock:
            table = self.tables.get(uid)
            if table is None:
                raise Refused(
                    "no such table (the server may have restarted): open the game again", 404
                )
            self.tables.move_to_end(uid)
            return table

    def close_all(self) -> None:
        with self.lock:
            tables = list(self.tables.values())
            self.tables.clear()
        for table in tables:
            table.close()


def command_answer(body: dict[str, Any]) -> Means | None:
    """The player's answer to a command's question, if the request gives one."""
    answer = body.get("answer")
    if answer is None:
        return None
    if answer not in ("keep", "abandon", "cancel"):
        raise Refused("answer: 'keep', 'abandon' or 'cancel'")
    means: Means = answer
    return means


def command_text(body: dict[str, Any]) -> str:
    text = body.get("command")
    if not isinstance(text, str) or not text.strip():
        raise Refused("command: an action in play's notation ('t3 f1', 'draw') or undo, redo, hint")
    if len(text) > MAX_COMMAND or not text.isprintable():
        raise Refused(f"command: at most {MAX_COMMAND} printable characters")
    return text.strip()
